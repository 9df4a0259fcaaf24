package onthefly

import (
	"errors"
	"fmt"
	"slices"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lasso"
)

// The cycle search of the on-the-fly check (lock-freedom, see fly.go).
//
// It follows the τ-steps that the pair search followed: those it kept
// (tauLists), or, where the memory limit had it give them up, those
// found again by expanding each state (tauEdges). The pairs of
// a state follow all its successors, or, with the partial-order
// reduction, the ample thread's alone (antichain.Search.Ampled); the ample thread is a
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
	g := &tauGraph{f: f, window: tauWindow, chunk: tauChunk, maxAhead: tauMaxAhead}
	if f.o.batchStates > 0 { // tests: windows of a few states, many reached beyond what is expanded ahead
		g.window, g.chunk, g.maxAhead = int32(f.o.batchStates), 2, 4*int32(f.o.batchStates)
	}
	if f.tauKept && f.tau.laid() != f.states.len() {
		if f.o.checkTau {
			return nil, fmt.Errorf("internal error: %d states stored, %d expanded", f.states.len(), f.tau.laid())
		}
		f.giveUpTau()
	}
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
// named by its position among its state's τ-successors: the τ-lists kept,
// else those found again (tauEdges). err is the first error met: the
// edges are wrong from there on.
//
// Found again, the expansions are on every core. The depth-first search
// visits the states from a root r (a state whose Out is asked while
// every state before it has been visited) on: r, the states of the
// window [r, r+window) not yet visited, and what they reach that is not
// visited; each of them once. When it starts from a root r that is not
// prefetched, the expanders find the τ-steps of those states ahead of it
// (fill): the window's, in parallel, then, round after round, those of
// the states they reach beyond it, as far as maxAhead states; Out hands
// them out as the search visits them. None is wasted, since the search
// visits every state once (it only stops at a cycle); a state past
// maxAhead is expanded when the search reaches it, on the calling
// goroutine.
type tauGraph struct {
	f       *flySearch
	err     error
	visited bits  // the states whose Out was asked
	low     int32 // every state before low has been visited
	// The states expanded ahead, in ahead: the i-th's edges are
	// edges[at[i]:at[i+1]]; index holds each one's state<<32 | i, sorted,
	// and queued marks them.
	window, chunk, maxAhead int32
	ahead                   []int32
	edges                   []lasso.Edge
	at                      []int32
	index                   []uint64
	queued                  bits
	// A round's chunks of chunk states: chunk c's states' edges
	// cEdges[c][cAt[c][i]:cAt[c][i+1]], its error cErrs[c].
	cEdges [][]lasso.Edge
	cAt    [][]int32
	cErrs  []error
}

// The window of the cycle search's expansions, their chunks and how many
// states it expands ahead at most: their edges, about 20 bytes a state,
// their index, 8, and a bit a stored state are what the search holds
// beside the states and pairs when it finds the τ-steps again. A small
// window keeps what its states reach small too, so that most of it fits
// under maxAhead; chunks of a few hundred states keep both cores busy in
// the rounds far from the window, which are small (benchmarks/RESULTS.md,
// "Both cores", has the counts on HP stack 3/2).
const (
	tauWindow   = 1 << 14
	tauChunk    = 1 << 8
	tauMaxAhead = 1 << 17
)

func (g *tauGraph) NumStates() int32 { return int32(g.f.states.len()) }

func (g *tauGraph) Out(s int32, buf []lasso.Edge) []lasso.Edge {
	if g.f.tauKept {
		return g.f.tau.edges(s, buf)
	}
	for g.visited.has(int(g.low)) {
		g.low++
	}
	root := s == g.low
	g.visited.set(int(s), true)
	if g.err != nil {
		return buf
	}
	if root && !g.queued.has(int(s)) {
		if g.fill(s); g.err != nil {
			return buf
		}
	}
	if g.queued.has(int(s)) {
		k, _ := slices.BinarySearch(g.index, uint64(s)<<32)
		i := uint32(g.index[k])
		return append(buf, g.edges[g.at[i]:g.at[i+1]]...)
	}
	buf, g.err = g.f.expanders[0].tauEdges(s, buf)
	return buf
}

// fill finds the τ-steps of the states the search visits from root r on
// (r itself is visited), as far as maxAhead states: the window's not
// visited, then those they reach, round after round, each round's on the
// expanders.
func (g *tauGraph) fill(r int32) {
	for _, s := range g.ahead {
		g.queued.set(int(s), false)
	}
	g.ahead, g.edges, g.at, g.index = g.ahead[:0], g.edges[:0], append(g.at[:0], 0), g.index[:0]
	queue := func(s int32) {
		g.queued.set(int(s), true)
		g.ahead = append(g.ahead, s)
	}
	queue(r)
	for s := r + 1; s < min(r+g.window, g.NumStates()); s++ {
		if !g.visited.has(int(s)) {
			queue(s)
		}
	}
	for done := 0; done < len(g.ahead); {
		round := g.ahead[done:]
		g.expand(round)
		for k := range round {
			c, i := k/int(g.chunk), k%int(g.chunk)
			if g.cErrs[c] != nil {
				g.err = g.cErrs[c]
				return
			}
			from := len(g.edges)
			g.edges = append(g.edges, g.cEdges[c][g.cAt[c][i]:g.cAt[c][i+1]]...)
			g.at = append(g.at, int32(len(g.edges)))
			for _, e := range g.edges[from:] {
				if !g.queued.has(int(e.To)) && !g.visited.has(int(e.To)) && len(g.ahead) < int(g.maxAhead) {
					queue(e.To)
				}
			}
		}
		done += len(round)
	}
	for i, s := range g.ahead {
		g.index = append(g.index, uint64(s)<<32|uint64(i))
	}
	slices.Sort(g.index)
}

// expand finds the τ-steps of states on the expanders, in chunks.
func (g *tauGraph) expand(states []int32) {
	n := (len(states) + int(g.chunk) - 1) / int(g.chunk)
	for len(g.cEdges) < n {
		g.cEdges, g.cAt, g.cErrs = append(g.cEdges, nil), append(g.cAt, nil), append(g.cErrs, nil)
	}
	g.f.onExpanders(n, func(e *expander, c int) {
		edges, at := g.cEdges[c][:0], g.cAt[c][:0]
		// A fill expands up to maxAhead states, a second or so of CPU
		// time: each chunk polls the context.
		err := limits.Err(g.f.o.Context)
		for _, s := range states[c*int(g.chunk) : min((c+1)*int(g.chunk), len(states))] {
			if err != nil {
				break
			}
			at = append(at, int32(len(edges)))
			edges, err = e.tauEdges(s, edges)
		}
		g.cEdges[c], g.cAt[c], g.cErrs[c] = edges, append(at, int32(len(edges))), err
	}, nil)
}

// tauEdges appends to buf the τ-steps of state s that the pairs of s
// followed (see above), in the stepper's order, each named by its
// position among s's τ-successors.
func (e *expander) tauEdges(s int32, buf []lasso.Edge) ([]lasso.Edge, error) {
	f := e.f
	all, err := f.followedAllOf(s)
	if err != nil {
		return buf, err
	}
	e.tauVec = f.stored(e.tauVec[:0], s)
	t, fail := e.st.Successors(e.tauVec)
	if fail != nil { // found by the pair search already
		return buf, fmt.Errorf("internal error: model error of thread %d: %s in the cycle search", t+1, fail.Msg)
	}
	blk := &e.st.Blk
	ample := -1
	if !all {
		if ample = e.por.Choose(e.tauVec, blk.Succs); ample < 0 {
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
			to := e.cachedOrFound(blk.Batch[sc.Start:sc.End], sc.Hash)
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
		if !f.search.Ampled(q) {
			return true, nil
		}
	}
	return false, nil
}

// cachedOrFound returns the id of the stored state that represents the
// successor whose encoding (as the stepper computed it) is raw, with hash
// h, -1 if it is not stored: from the cache of recent successors or the
// expander's table of the τ-successors it found last (tauRecent), else
// canonicalised and looked up. It adds nothing to the cache of recent
// successors, which keeps only successors without alternative
// permutations (flycache.go), and the path search uses after it.
func (e *expander) cachedOrFound(raw []byte, h uint32) int32 {
	f := e.f
	if f.cache != nil {
		if to, _, ok := f.cache.find(raw, h); ok {
			return to
		}
	}
	r := &e.tauRecent
	slot, to := r.find(raw, h)
	if to >= 0 {
		return to
	}
	rep, _ := e.representative(raw)
	to = f.states.find(rep, f.states.hash(rep))
	if to >= 0 {
		r.add(slot, raw, h, to)
	}
	return to
}

// tauRecent remembers the τ-successors an expander found last in the
// cycle search, by their encodings: the two orders of two threads'
// independent τ-steps lead to the same successor, which the states
// expanded one after another (a window's chunk, a state's descendants)
// meet again. Open addressing by hash, index+1 into ents (0: empty); it is
// emptied when half full.
type tauRecent struct {
	slots []int32
	ents  []tauEnt
	keys  []byte
}

// tauEnt is a remembered successor: its encoding keys[start:end], its
// hash and its representative's id.
type tauEnt struct {
	start, end int32
	hash       uint32
	to         int32
}

// tauRecentSlots is the size of an expander's tauRecent.
const tauRecentSlots = 1 << 14

// find returns the id remembered for encoding raw, whose hash is h, or
// -1 and the slot where it goes.
func (r *tauRecent) find(raw []byte, h uint32) (int, int32) {
	if r.slots == nil {
		r.slots = make([]int32, tauRecentSlots)
	}
	mask := uint32(len(r.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		k := r.slots[i] - 1
		if k < 0 {
			return int(i), -1
		}
		if en := &r.ents[k]; en.hash == h && string(r.keys[en.start:en.end]) == string(raw) {
			return int(i), en.to
		}
	}
}

// add remembers that raw, whose hash is h, goes to state to, in slot (from
// find), unless it is full: then it is emptied.
func (r *tauRecent) add(slot int, raw []byte, h uint32, to int32) {
	if 2*len(r.ents) >= len(r.slots) {
		clear(r.slots)
		r.ents, r.keys = r.ents[:0], r.keys[:0]
		return
	}
	r.slots[slot] = int32(len(r.ents)) + 1
	r.ents = append(r.ents, tauEnt{start: int32(len(r.keys)), end: int32(len(r.keys) + len(raw)), hash: h, to: to})
	r.keys = append(r.keys, raw...)
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

// checkTauEdges holds the τ-steps that tauEdges finds again, and those
// the τ-lists kept, state by state, to those recordTau recorded
// (Options.checkTau).
func (f *flySearch) checkTauEdges() error {
	var got, kept, want []lasso.Edge
	for s := range int32(f.states.len()) {
		var err error
		if got, err = f.expanders[0].tauEdges(s, got[:0]); err != nil {
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
		if f.tauKept {
			if kept = f.tau.edges(s, kept[:0]); !slices.Equal(kept, want) {
				return fmt.Errorf("internal error: state %d's τ-steps kept %v, followed %v", s, kept, want)
			}
		}
	}
	return nil
}
