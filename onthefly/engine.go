package onthefly

import (
	"errors"
	"fmt"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/limits"
)

// run runs the check, for Check, with the refinement search
// of the engine that refine runs, antichain.Search layered by steps: over
// semImpl (the search's expanders, which expand a level's batches on
// several cores and work out ahead what each pair's steps lead to; its
// state store and cache of recent successors), its pairs in the search's
// records (pairRecords), the τ-steps its pairs follow kept through
// semImpl's antichain.Follower hook; then the counterexample replayed,
// the search for τ-cycles and its lasso, from the same records (finish).
// The search of lock-freedom alone (Options.LockFreeOnly) starts from the
// empty subset, which the engine lets follow every step; the tests'
// switches are the engine's options: every pair followed (noDominance:
// SearchOptions.FollowDominated), the engine's rebuilt paths checked
// against the parents it kept (checkPaths: SearchOptions.Parents,
// Search.CheckParents).
func (f *flySearch) run() (*Result, error) {
	m, init, err := newSemImpl(f)
	if err != nil {
		return nil, err
	}
	s := antichain.NewSearch(m, f.spec.subsets, 0, antichain.SearchOptions{
		Prune: true, BySteps: true, Past: !f.o.FirstViolation, MaxPairs: f.o.MaxStates,
		Store: &f.pairRecords, Context: f.o.Context, FollowDominated: f.o.noDominance, Parents: f.o.checkPaths,
	})
	pair, step, err := s.Run(init)
	m.done()
	f.search = s
	if f.o.checkPaths && err == nil {
		saved := f.res.Stats // the expansions here are not the search's
		err := s.CheckParents()
		f.res.Stats = saved
		if err != nil {
			return nil, err
		}
	}
	st := &f.res.Stats
	st.Dominated = s.Dominated
	if f.por != nil { // semImpl is an Ampler: the search counts its pairs
		st.Ample, st.Full, st.ProvisoFull = s.Ample, s.Full, s.ProvisoFull
	}
	for _, e := range f.expanders {
		st.Recognised += e.recognised
		e.recognised = 0
	}
	var fail *stepFailure
	if pair >= 0 && (err == nil || errors.As(err, &fail)) {
		// Past the violation, a model error leaves it standing; a stop
		// (a limit, the context's end) leaves it undecided, and may have
		// left the state store half grown, not to be read again.
		v, verr := f.violationOf(pair, step)
		if verr != nil {
			return nil, verr
		}
		f.violation = v
	}
	switch {
	case errors.As(err, &fail):
		err = f.modelErrorAt(fail)
		if f.violation != nil {
			// Past the violation: it stands, and the model error ends
			// the search for lock-freedom.
			f.res.ModelError, err = err, nil
		}
	case errors.Is(err, antichain.ErrFull):
		err = &limits.LimitError{Limit: limits.States, Value: int64(f.o.MaxStates), Err: fmt.Errorf(
			"%w: more than %d product pairs (%d implementation states); raise the limit or lower the bounds",
			semantics.ErrStateLimit, f.o.MaxStates, f.states.len())}
	case err != nil && limits.Err(f.o.Context) != nil:
		err = fmt.Errorf("the on-the-fly search stopped after %s: %w", f.reached(), err)
	}
	return f.finish(f.violation, err)
}

// violationOf returns the step of the first violation, step id of pair
// p, for the replay: its successor stored. The state's expansion does not
// change the counts.
func (f *flySearch) violationOf(p, id int32) (*flyStep, error) {
	saved := f.res.Stats
	defer func() { f.res.Stats = saved }()
	if _, fail := f.expand(f.search.StateOf(p)); fail != nil {
		return nil, fmt.Errorf("internal error: the violation's state fails: %s", fail.Msg)
	}
	sc := &f.succs[id]
	if sc.to < 0 {
		f.insertSucc(sc)
		saved.Represented, saved.RepresentedExact = f.res.Stats.Represented, f.res.Stats.RepresentedExact
	}
	return &flyStep{from: p, thread: sc.thread, perm: sc.perm, to: sc.to}, nil
}

// modelErrorAt reports the model error of a state's expansion, with the
// replayed trace to its first pair of the level being searched.
func (f *flySearch) modelErrorAt(e *stepFailure) error {
	levels := f.search.Levels()
	lo := levels[len(levels)-2] // the level being followed
	p := int32(-1)
	for q := f.Last(e.state); q >= lo; q = f.Before(q) {
		p = q
	}
	if p < 0 {
		return fmt.Errorf("internal error: state %d has no pair in the level", e.state)
	}
	return f.modelError(p, e.thread, e.fail)
}
