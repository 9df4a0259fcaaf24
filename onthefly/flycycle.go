package onthefly

import (
	"errors"
	"fmt"
	"slices"

	"github.com/linbis/linbis/lasso"
)

// The cycle search of the on-the-fly check (lock-freedom, see fly.go).
//
// It follows the τ-steps that the pair search followed, which it does not
// keep: a state's are found again by expanding it (tauEdges). The pairs of
// a state follow all its successors, or, with the partial-order
// reduction, the ample thread's alone (pairAmple); the ample thread is a
// function of the state's vector and successors (reduce.POR.Choose), the
// same at every expansion. So the τ-steps the pairs of state s followed
// are all of s's if one of its pairs followed all its successors, else the
// ample thread's, whose targets the search stored (it followed them): both
// are read off s's vector and its chain of pairs. Every successor found
// again is canonicalised and looked up as in the search (the cache of
// recent successors first), so it names the state the search named.
// Options.checkTau holds this to the τ-steps recorded as the search
// follows them (recordTau), in tests.

// findTauCycle searches the τ-steps that the pair search followed for a
// cycle (lasso.FirstCycle: depth-first from every state in turn); it
// returns the cycle's steps (from state cycle[0].from back to it) or nil.
func (f *flySearch) findTauCycle() ([]flyStep, error) {
	g := &tauGraph{f: f}
	if f.o.checkTau {
		if err := f.checkTauEdges(); err != nil {
			return nil, err
		}
	}
	c, err := lasso.FirstCycle(f.o.Context, g)
	if err == nil {
		err = g.err
	}
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

// tauGraph is the graph of the τ-steps that the search followed, each
// named by its position among its state's τ-successors (tauEdges). err is
// the first error met: the edges are wrong from there on.
type tauGraph struct {
	f   *flySearch
	err error
}

func (g *tauGraph) NumStates() int32 { return int32(g.f.states.len()) }

func (g *tauGraph) Out(s int32, buf []lasso.Edge) []lasso.Edge {
	if g.err == nil {
		buf, g.err = g.f.tauEdges(s, buf)
	}
	return buf
}

// tauEdges appends to buf the τ-steps of state s that the pairs of s
// followed (see above), in the stepper's order, each named by its
// position among s's τ-successors.
func (f *flySearch) tauEdges(s int32, buf []lasso.Edge) ([]lasso.Edge, error) {
	all, err := f.followedAllOf(s)
	if err != nil {
		return buf, err
	}
	e := f.expanders[0]
	f.tauVec = f.stored(f.tauVec[:0], s)
	t, fail := e.st.Successors(f.tauVec)
	if fail != nil { // found by the pair search already
		return buf, fmt.Errorf("internal error: model error of thread %d: %s in the cycle search", t+1, fail.Msg)
	}
	blk := &e.st.Blk
	ample := -1
	if !all {
		if ample = e.por.Choose(f.tauVec, blk.Succs); ample < 0 {
			return buf, fmt.Errorf("internal error: state %d, whose pairs followed one thread, has no ample thread", s)
		}
	}
	k := int32(0)
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		if sc.Label != 0 {
			continue
		}
		if all || int(sc.Thread) == ample {
			to := f.cachedOrFound(e, blk.Batch[sc.Start:sc.End], sc.Hash)
			if to < 0 {
				return buf, errors.New("internal error: a τ-successor that the search followed is not stored")
			}
			buf = append(buf, lasso.Edge{ID: k, To: to})
		}
		k++
	}
	return buf, nil
}

// followedAllOf reports whether some pair of state s followed all its
// successors (all of them do without the partial-order reduction).
func (f *flySearch) followedAllOf(s int32) (bool, error) {
	head := f.headPair.get(int(s))
	if head < 0 {
		return false, fmt.Errorf("internal error: state %d has no pair", s)
	}
	if f.por == nil {
		return true, nil
	}
	for q := head; q >= 0; q = f.nextPair.get(int(q)) {
		if !f.pairAmple.has(int(q)) {
			return true, nil
		}
	}
	return false, nil
}

// cachedOrFound returns the id of the stored state that represents the
// successor whose encoding (as the stepper computed it) is raw, with hash
// h, -1 if it is not stored: from the cache of recent successors, else
// canonicalised and looked up. It adds nothing to the cache, which keeps
// only successors without alternative permutations (flycache.go).
func (f *flySearch) cachedOrFound(e *expander, raw []byte, h uint32) int32 {
	if f.cache != nil {
		if to, _, ok := f.cache.find(raw, h); ok {
			return to
		}
	}
	rep, _ := e.representative(raw)
	return f.states.find(rep, f.states.hash(rep))
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

// recordTau records, with Options.checkTau, the τ-successors of state s
// that the pairs of s just followed (f.succs, with the ids of those
// stored): all of them if some pair followed all its successors, else the
// ample thread's. State s's list has an entry per τ-successor in the
// stepper's order, -1 for one not followed; a later expansion of s fills
// in the entries it follows that were not followed before.
func (f *flySearch) recordTau(s int32) {
	for len(f.tauRecorded) <= int(s) {
		f.tauRecorded = append(f.tauRecorded, nil)
	}
	list := f.tauRecorded[s]
	k := 0
	for i := range f.succs {
		sc := &f.succs[i]
		if sc.label != 0 {
			continue
		}
		if k == len(list) {
			list = append(list, -1)
		}
		if f.follows(sc) {
			list[k] = sc.to
		}
		k++
	}
	f.tauRecorded[s] = list
}

// follows reports whether the pairs of the state expanded last followed
// its successor sc (recordTau).
func (f *flySearch) follows(sc *flySucc) bool {
	return f.followedAll || int(sc.thread) == f.ample
}

// checkTauEdges holds the τ-steps that tauEdges finds again, state by
// state, to those recordTau recorded (Options.checkTau).
func (f *flySearch) checkTauEdges() error {
	var got, want []lasso.Edge
	for s := range int32(f.states.len()) {
		var err error
		if got, err = f.tauEdges(s, got[:0]); err != nil {
			return err
		}
		want = want[:0]
		if int(s) < len(f.tauRecorded) {
			for k, to := range f.tauRecorded[s] {
				if to >= 0 {
					want = append(want, lasso.Edge{ID: int32(k), To: to})
				}
			}
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("internal error: state %d's τ-steps found again %v, followed %v", s, got, want)
		}
	}
	return nil
}
