package onthefly

import "slices"

// path returns the steps of the reduced search from the first pair to
// pair p: the path the engine rebuilds from the levels (its store keeps
// no parents: antichain.Search.Rebuild), each step read off the
// expansion of the state it leaves, with the permutation that renamed
// the subset it leads to.
func (f *flySearch) path(p int32) ([]flyStep, error) {
	saved := f.res.Stats // the expansions here are not the search's
	defer func() { f.res.Stats = saved }()
	var steps []flyStep
	err := f.search.Rebuild(p, func(from, via int32) error {
		sc := &f.succs[via]
		_, perm, _, _, err := f.next(f.subset.get(int(from)), sc, f.alts, false)
		steps = append(steps, flyStep{from: from, thread: sc.thread, perm: perm, to: sc.to})
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.Reverse(steps)
	return steps, nil
}
