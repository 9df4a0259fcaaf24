package onthefly

import (
	"errors"
	"fmt"
	"math"

	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lasso"
)

// The cycle search of the on-the-fly check (lock-freedom, see fly.go).

// maxTauRecorded bounds the τ-successors recordTau keeps: their lists'
// starts are uint32s (tauLists). A variable so that a test can reach it.
var maxTauRecorded = math.MaxUint32

// recordTau records the τ-successors of state s that the pairs of s just
// followed (f.succs, with the ids of those stored): all of them if some
// pair followed all its successors, else the ample thread's. The first
// expansion of s lays out its list, one entry per τ-successor in the
// stepper's order, which is the same at every expansion; a later one
// fills in the entries it follows that were not followed before.
func (f *flySearch) recordTau(s int32) error {
	for i := range f.succs {
		if sc := &f.succs[i]; sc.label == 0 && sc.to < 0 && f.follows(sc) {
			return errors.New("internal error: a τ-successor that the search followed is not stored")
		}
	}
	var at int
	switch laid := f.tau.laid(); {
	case int(s) < laid:
		at = f.tau.start(s)
	case int(s) == laid:
		n := 0
		for i := range f.succs {
			if f.succs[i].label == 0 {
				n++
			}
		}
		if f.tau.entries()+n > maxTauRecorded {
			return &limits.LimitError{Limit: limits.States, Value: int64(maxTauRecorded), Err: fmt.Errorf(
				"%w: more than %d τ-successors recorded for the cycle search; lower the bounds",
				semantics.ErrStateLimit, maxTauRecorded)}
		}
		at = f.tau.lay(n)
	default:
		return fmt.Errorf("internal error: state %d expanded for the first time before state %d", s, laid)
	}
	for i := range f.succs {
		sc := &f.succs[i]
		if sc.label != 0 {
			continue
		}
		if f.follows(sc) {
			*f.tau.tos.at(at) = sc.to
		}
		at++
	}
	return nil
}

// follows reports whether the pairs of the state expanded last followed
// its successor sc (recordTau).
func (f *flySearch) follows(sc *flySucc) bool {
	return f.followedAll || int(sc.thread) == f.ample
}

// findTauCycle searches the recorded τ-successors of the implementation
// states for a cycle (lasso.FirstCycle: depth-first from every state in
// turn); it returns the cycle's steps (from state cycle[0].from back to
// it) or nil.
func (f *flySearch) findTauCycle() ([]flyStep, error) {
	if f.tau.laid() != f.states.len() {
		return nil, errors.New("internal error: a stored state was never expanded")
	}
	c, err := lasso.FirstCycle(f.o.Context, (*tauGraph)(f))
	if err != nil {
		return nil, fmt.Errorf("the on-the-fly cycle search stopped after %s: %w", f.reached(), err)
	}
	if c == nil {
		return nil, nil
	}
	var cycle []flyStep
	from := c.From
	for _, e := range c.Edges {
		step, err := f.tauStep(from, e.To)
		if err != nil {
			return nil, err
		}
		cycle = append(cycle, step)
		from = e.To
	}
	return cycle, nil
}

// tauGraph is the graph of the τ-steps that the search followed
// (recordTau), each named by its position in its state's list.
type tauGraph flySearch

func (g *tauGraph) NumStates() int32 { return int32(g.states.len()) }

func (g *tauGraph) Out(s int32, buf []lasso.Edge) []lasso.Edge {
	at := g.tau.start(s)
	for k := range g.tau.length(s) {
		if to := g.tau.tos.get(at + k); to >= 0 {
			buf = append(buf, lasso.Edge{ID: int32(k), To: to})
		}
	}
	return buf
}

// tauStep finds a τ-step from state from to state to that the search
// followed, with its thread and permutation, for a cycle's replay.
func (f *flySearch) tauStep(from, to int32) (flyStep, error) {
	e := f.expanders[0]
	e.cur = f.stored(e.cur[:0], from)
	t, fail := e.st.Successors(e.cur)
	if fail != nil { // found by the pair search already
		return flyStep{}, fmt.Errorf("internal error: model error of thread %d: %s in the cycle search", t+1, fail.Msg)
	}
	blk := &e.st.Blk
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		if sc.Label != 0 {
			continue
		}
		rep, perm := e.representative(blk.Batch[sc.Start:sc.End])
		if f.states.find(rep, f.states.hash(rep)) == to {
			return flyStep{from: from, thread: sc.Thread, perm: perm, to: to}, nil
		}
	}
	return flyStep{}, errors.New("internal error: a τ-edge of the cycle search is not a step of the implementation")
}
