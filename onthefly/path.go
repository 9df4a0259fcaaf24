package onthefly

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/linbis/linbis/antichain"
)

// Counterexample paths. The search keeps no parent for its pairs, nor
// their states (fly.go's flySearch): a counterexample's path from the
// first pair is rebuilt backwards, a level at a time. The parent of a pair
// of level k is the first pair of level k-1, in the order in which the
// search took them (antichain.LevelOrder), that has a step to it: the search stores a
// pair when it first meets it, and a pair met again is found stored, or
// covered by one stored before (pairs are never removed, so what covered
// it then covers it still). Each pair of level k-1 is followed again as
// the search followed it — its state expanded, every successor or the
// ample thread's alone (pairAmple), the subsets taken and renamed — until
// a step leads to the pair: so the path is the one parent pointers would
// have kept, and the counterexample the same shortest one. It costs one
// more expansion of the states of the levels on the way back, at most the
// search's own work, paid only for a counterexample.

// path returns the steps of the reduced search from the first pair to
// pair p.
func (f *flySearch) path(p int32) ([]flyStep, error) {
	saved := f.res.Stats // the expansions here are not the search's
	defer func() { f.res.Stats = saved }()
	states := f.pairStates()
	var steps []flyStep
	for p != 0 {
		k := f.level(p)
		target, sub := states[p], f.subset.get(int(p))
		var found *flyStep
		err := f.producers(states, f.levels[k-1], f.levels[k], func(step flyStep, to int32) bool {
			if step.to == target && to == sub {
				found = &step
			}
			return found != nil
		})
		if err != nil {
			return nil, err
		}
		if found == nil {
			return nil, fmt.Errorf("internal error: no pair of level %d leads to pair %d", k-1, p)
		}
		steps = append(steps, *found)
		p = found.from
	}
	slices.Reverse(steps)
	return steps, nil
}

// level returns the breadth-first level of pair p.
func (f *flySearch) level(p int32) int {
	return sort.Search(len(f.levels), func(k int) bool { return f.levels[k] > p }) - 1
}

// pairStates returns the state of every pair, read off the states' chains.
func (f *flySearch) pairStates() []int32 {
	states := make([]int32, f.subset.Len())
	for s := range f.headPair.Len() {
		for q := f.headPair.get(s); q >= 0; q = f.nextPair.get(int(q)) {
			states[q] = int32(s)
		}
	}
	return states
}

// producers follows the pairs [lo, hi) of a level again, as the search
// did, and calls visit with each step taken and the subset it leads to,
// in the search's order, until visit returns true.
func (f *flySearch) producers(states []int32, lo, hi int32, visit func(step flyStep, sub int32) bool) error {
	// No context: the search is over, and its counterexample is rebuilt
	// whatever the limits.
	order, _ := antichain.LevelOrder(nil, nil, states[lo:hi])
	for i := 0; i < len(order); {
		s := int32(order[i] >> 32)
		j := i + 1
		for j < len(order) && int32(order[j]>>32) == s {
			j++
		}
		if _, fail := f.expand(s); fail != nil {
			return nil // the search stopped at this state's model error
		}
		for g, k := range order[i:j] {
			q := lo + int32(uint32(k))
			if f.dominated(order[i:j], lo, g) {
				continue
			}
			ample := f.ample >= 0 && f.pairAmple.has(int(q))
			for c := range f.succs {
				sc := &f.succs[c]
				if !f.takes(ample, sc) || sc.to < 0 {
					continue
				}
				sub, perm, violates, _, err := f.next(f.subset.get(int(q)), sc, f.alts, false)
				if err != nil {
					return err
				}
				if violates && f.o.FirstViolation {
					continue // the search stopped there
				}
				if visit(flyStep{from: q, thread: sc.thread, perm: perm, to: sc.to}, sub) {
					return nil
				}
			}
		}
		i = j
	}
	return nil
}

// checkPaths checks the rebuilt parent of every pair against the step
// that found it (Options.checkPaths), a level at a time: each pair's
// parent is the first step of the level before that leads to it. It
// checks too that no pair is stored twice: the search looks up a successor's
// state again when another step of the same expansion stored it.
func (f *flySearch) checkPaths() error {
	saved := f.res.Stats
	defer func() { f.res.Stats = saved }()
	states := f.pairStates()
	if len(f.parents) != len(states) || len(states) > 0 && f.parents[0].from != -1 {
		return errors.New("internal error: the recorded parents do not match the pairs")
	}
	for k := 1; k < len(f.levels); k++ {
		hi := int32(len(states))
		if k+1 < len(f.levels) {
			hi = f.levels[k+1]
		}
		first := map[int32]flyStep{}
		err := f.producers(states, f.levels[k-1], f.levels[k], func(step flyStep, sub int32) bool {
			if q := f.firstPair(step.to, sub); q >= f.levels[k] && q < hi {
				if _, ok := first[q]; !ok {
					first[q] = step
				}
			}
			return false
		})
		if err != nil {
			return err
		}
		for q := f.levels[k]; q < hi; q++ {
			if first := f.firstPair(states[q], f.subset.get(int(q))); first != q {
				return fmt.Errorf("internal error: pair %d of level %d is stored again as pair %d", first, k, q)
			}
			if got, want := first[q], f.parents[q]; got != want {
				return fmt.Errorf("internal error: pair %d of level %d rebuilt as found by %+v, found by %+v", q, k, got, want)
			}
		}
	}
	return nil
}

// firstPair returns the first pair (state, sub), -1 if there is none.
func (f *flySearch) firstPair(state, sub int32) int32 {
	first := int32(-1)
	for q := f.headPair.get(int(state)); q >= 0; q = f.nextPair.get(int(q)) {
		if f.subset.get(int(q)) == sub {
			first = q // the chain runs from the last pair to the first
		}
	}
	return first
}
