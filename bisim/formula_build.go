package bisim

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/linbis/linbis/lts"
)

// Distinguishing formulas
//
// When two states are not equivalent, a formula of the logic that
// characterises the equivalence, true in one and false in the other, is
// evidence that anyone can check by model checking it on both LTSs (the
// Hennessy–Milner theorem and its variants). The logics:
//
//   - strong bisimilarity: ⟨a⟩φ, ∧, ¬ (Hennessy and Milner 1985);
//   - branching bisimilarity: φ⟨a⟩ψ ("through τ-steps staying in φ, an
//     a-step to ψ"; for a = τ the last state may satisfy ψ itself), ∧, ¬
//     (De Nicola and Vaandrager 1995, van Glabbeek 1993);
//   - divergence-preserving branching bisimilarity: add Δφ, an infinite
//     τ-path through φ (van Glabbeek, Luttik and Trčka 2009, "Branching
//     bisimilarity with explicit divergence", §5).
//
// The construction follows Cleaveland ("On automatically explaining
// bisimulation inequivalence", CAV 1990) for strong and Korver ("Computing
// distinguishing formulas for branching bisimulation", CAV 1991) for
// branching bisimilarity: the formula for a pair is read off the split of
// the partition refinement that separated the pair, and its subformulas off
// the earlier splits that separated the states it must tell apart. As in
// Martens and Groote ("Minimal depth distinguishing formulas without until
// for branching bisimulation", 2024; the construction mCRL2's ltscompare
// uses for counterexample formulas) the refinement is done in rounds — every
// block is split by its signature against the previous round's partition —
// so a pair is separated in the first round at which any signature tells
// it apart, which keeps the nesting depth at the round number (we do not
// claim their minimality result, which needs their until-free logic).
//
// It runs on the quotient of the disjoint union of the two LTSs, which the
// comparison has computed anyway: every two quotient states are
// inequivalent, formulas of these logics are invariant under the
// equivalence, and the quotient is typically orders of magnitude smaller
// than the inputs, so the rounds cost little next to the minimisation.
// Every formula is then checked on both original LTSs (formula_check.go)
// before anyone sees it. Under strong bisimilarity the quotient is often
// nearly the union itself, and when Fast minimised, the formula is read
// off Fast's own splits instead (formula_history.go).
//
// One round at level j computes, for every state s in block B (of level j),
// its signature: the pairs (a, B') such that s reaches, by τ-steps inside B,
// a state with an a-step into B' that is not inert (a ≠ τ or B' ≠ B), and,
// under DivBranching, a mark when s can do infinitely many τ-steps inside
// B. On the quotient the τ-steps other than self-loops form a DAG (states
// on a τ-cycle are branching bisimilar), and a divergent class is a τ
// self-loop, so signatures are unions taken bottom-up in τ order. Blocks
// split by signature (grouped by a hash, checked for collisions); each split
// is recorded as a node of a tree (parent, round). Two states are separated
// at round r+1 when their blocks at level r agree and their signatures at
// level r differ. The rounds stop at the one that separates the pair
// asked for: the pairs its formula needs were all separated before.
//
// For such a pair (x, y) with (a, B') in the signature of x and not of y,
// x reaches through s0 = x, …, sn (in B) a step sn -a-> x' ∈ B'. The
// formula is φ⟨a⟩ψ with
//
//	φ = true on s0…sn, false on E, the τ-exits from B reachable from y
//	    by τ-steps inside B (so every φ-path from y stays in B);
//	ψ = true on x', false on every a-successor of the states y reaches
//	    by τ-steps through φ (and on those states themselves when a = τ);
//	    none of them is in B'.
//
// Both are built from pairs separated at rounds ≤ r (E lies outside B, the
// successors outside B'), so the recursion ends. A set S is told from a set
// T by a conjunction over T of disjunctions over S of pair formulas,
// greedily: each new conjunct is chosen for a T-state not yet excluded and
// removes every T-state it is false on (the checker on the quotient says
// which). Under Strong the formula is ⟨a⟩ψ; for divergence it is Δφ, with φ
// true on x's τ-path to its τ-loop in B. When only y has the distinguishing
// entry, the formula is built for (y, x) and negated.

// formulaBuilder builds distinguishing formulas for the states of q, an
// LTS in which no two states are equivalent under eq.
type formulaBuilder struct {
	q  *lts.LTS
	eq Equivalence
	// block is the block of every state in the final, discrete partition.
	block []int32
	// parent is the block each block split from (-1 for the first block);
	// born is the round that made it (0 for the first block).
	parent, born []int32
	// tauOrder lists the states so that the targets of τ-steps other than
	// self-loops come first (branching equivalences only).
	tauOrder []int32
	check    *formulaChecker
	memo     map[[2]int32]*Formula
}

// sigDiv is the signature entry that marks divergence inside the block.
const sigDiv = ^uint64(0)

// newFormulaBuilder refines q round by round from the trivial partition,
// recording the splits, until the round that separates x and y: every pair
// a formula for (x, y) needs was separated before (see the design
// comment), so later rounds would only cost. It fails (a bug) when x and y
// are never separated, which means q is not minimal.
func newFormulaBuilder(q *lts.LTS, eq Equivalence, x, y int32) (*formulaBuilder, error) {
	fb := &formulaBuilder{q: q, eq: eq, block: make([]int32, q.NumStates),
		parent: []int32{-1}, born: []int32{0}, check: newFormulaChecker(q), memo: map[[2]int32]*Formula{}}
	if eq != Strong {
		order, ok := tauOrderBottomUp(q)
		if !ok {
			return nil, fmt.Errorf("internal error: the quotient has a τ-cycle other than a self-loop")
		}
		fb.tauOrder = order
	}
	sig := make([][]uint64, q.NumStates)
	next := make([]int32, q.NumStates)
	index, in := q.Incoming()
	// Only the blocks of states with a step into a state whose block
	// changed in the last round can split (signatures are built from the
	// blocks of successors, and inherited along inert τ-steps, which stay
	// inside the block); the others are left alone.
	dirty := []bool{true}
	var states, changed []int32
	// Signatures are grouped by hashing, not by sorting: on a nearly
	// discrete quotient (strong bisimilarity) the dirty blocks are large
	// for many rounds, and sorting them each round cost more than the
	// minimisation itself.
	groups := signatureGroups{seed: maphash.MakeSeed(), index: map[groupKey]int32{}}
	for round := int32(1); fb.block[x] == fb.block[y]; round++ {
		states = states[:0]
		for s := range q.NumStates {
			if dirty[fb.block[s]] {
				states = append(states, s)
			}
		}
		fb.signatures(sig, dirty)
		clear(dirty)
		group := groups.assign(states, fb.block, sig, len(fb.parent))
		// A block splits when its states fall in more than one group; each
		// group becomes a fresh block, numbered in the order of its first
		// state so that the formulas do not depend on the hash seed.
		changed = changed[:0]
		groupBlock := make([]int32, len(groups.reps))
		for i, s := range states {
			b := fb.block[s]
			if groups.perBlock[b] < 2 {
				continue
			}
			g := group[i]
			if groupBlock[g] == 0 {
				groupBlock[g] = int32(len(fb.parent))
				fb.parent = append(fb.parent, b)
				fb.born = append(fb.born, round)
			}
			next[s] = groupBlock[g]
			changed = append(changed, s)
		}
		if len(changed) == 0 {
			return nil, fmt.Errorf("internal error: the quotient is not minimal (states %d and %d are never separated)", x, y)
		}
		for len(dirty) < len(fb.parent) {
			dirty = append(dirty, false)
		}
		for _, s := range changed {
			fb.block[s] = next[s]
		}
		for _, d := range changed {
			for _, t := range in[index[d]:index[d+1]] {
				dirty[fb.block[q.Src[t]]] = true
			}
		}
	}
	return fb, nil
}

// signatureGroups groups the states of one round by (block, signature).
type signatureGroups struct {
	seed maphash.Seed
	// index maps a block and a signature's hash (with a counter for the
	// rare collisions) to a group; reps holds each group's first state.
	index map[groupKey]int32
	reps  []int32
	// perBlock counts the groups of each block.
	perBlock []int32
	buf      []byte
}

// groupKey is a block, the hash of a signature, and the number of
// different signatures with that hash met before in the block.
type groupKey struct {
	block     int32
	collision int32
	hash      uint64
}

// assign returns the group of every state of states (in order).
// numBlocks is the number of blocks so far.
func (g *signatureGroups) assign(states, block []int32, sig [][]uint64, numBlocks int) []int32 {
	clear(g.index)
	g.reps = g.reps[:0]
	g.perBlock = slices.Grow(g.perBlock[:0], numBlocks)[:numBlocks]
	clear(g.perBlock)
	group := make([]int32, len(states))
	for i, s := range states {
		g.buf = g.buf[:0]
		for _, e := range sig[s] {
			g.buf = binary.LittleEndian.AppendUint64(g.buf, e)
		}
		key := groupKey{block: block[s], hash: maphash.Bytes(g.seed, g.buf)}
		for {
			id, ok := g.index[key]
			if !ok {
				id = int32(len(g.reps))
				g.index[key] = id
				g.reps = append(g.reps, s)
				g.perBlock[key.block]++
			} else if !slices.Equal(sig[g.reps[id]], sig[s]) {
				key.collision++
				continue
			}
			group[i] = id
			break
		}
	}
	return group
}

// signatures computes the signature of every state in a dirty block
// against the current partition fb.block, as sorted entries
// label<<32|block (sigDiv for divergence inside the block).
func (fb *formulaBuilder) signatures(sig [][]uint64, dirty []bool) {
	q := fb.q
	if fb.eq == Strong {
		for s := range sig {
			if !dirty[fb.block[s]] {
				continue
			}
			sig[s] = sig[s][:0]
			for t := q.Out[s]; t < q.Out[s+1]; t++ {
				sig[s] = append(sig[s], uint64(q.Label[t])<<32|uint64(fb.block[q.Dst[t]]))
			}
			slices.Sort(sig[s])
			sig[s] = slices.Compact(sig[s])
		}
		return
	}
	for _, s := range fb.tauOrder {
		if !dirty[fb.block[s]] {
			continue
		}
		own := sig[s][:0]
		for t := q.Out[s]; t < q.Out[s+1]; t++ {
			a, d := q.Label[t], q.Dst[t]
			switch {
			case a == lts.Tau && d == s:
				if fb.eq == DivBranching {
					own = append(own, sigDiv)
				}
			case a == lts.Tau && fb.block[d] == fb.block[s]:
				own = append(own, sig[d]...) // inert: d comes earlier in tauOrder
			default:
				own = append(own, uint64(a)<<32|uint64(fb.block[d]))
			}
		}
		slices.Sort(own)
		sig[s] = slices.Compact(own)
	}
}

// tauOrderBottomUp orders the states of q so that the target of every
// τ-step other than a self-loop comes before its source; ok is false when
// those steps have a cycle.
func tauOrderBottomUp(q *lts.LTS) (order []int32, ok bool) {
	pending := make([]int32, q.NumStates)
	for t, a := range q.Label {
		if a == lts.Tau && q.Src[t] != q.Dst[t] {
			pending[q.Src[t]]++
		}
	}
	for s := range pending {
		if pending[s] == 0 {
			order = append(order, int32(s))
		}
	}
	index, in := q.Incoming()
	for i := 0; i < len(order); i++ {
		d := order[i]
		for _, t := range in[index[d]:index[d+1]] {
			if s := q.Src[t]; q.Label[t] == lts.Tau && s != d {
				if pending[s]--; pending[s] == 0 {
					order = append(order, s)
				}
			}
		}
	}
	return order, len(order) == int(q.NumStates)
}

// blockAt returns the block of s at level j (after round j).
func (fb *formulaBuilder) blockAt(s int32, j int32) int32 {
	b := fb.block[s]
	for fb.born[b] > j {
		b = fb.parent[b]
	}
	return b
}

// separation returns the last level j at which x and y share a block, and
// that block.
func (fb *formulaBuilder) separation(x, y int32) (j, b int32) {
	ancestors := map[int32]bool{}
	for b := fb.block[x]; b >= 0; b = fb.parent[b] {
		ancestors[b] = true
	}
	child := fb.block[y]
	for b = fb.block[y]; !ancestors[b]; b = fb.parent[b] {
		child = b
	}
	// child (an ancestor of y) was born when b split.
	return fb.born[child] - 1, b
}

// sigEntryAt is one signature entry of a state at some level, with its
// witness: the τ-path inside the block to the state that takes step via.
type witnessEntry struct {
	key  uint64 // label<<32|block, or sigDiv
	path []int32
	via  int32 // transition; -1 for divergence (path ends on the τ-loop)
}

// witnessed computes the signature of s at level j (block b) with a
// witness for every entry, and the τ-exits: the τ-successors outside b of
// the states s reaches by τ-steps inside b.
func (fb *formulaBuilder) witnessed(s, j, b int32) (entries []witnessEntry, exits []int32) {
	q := fb.q
	parent := map[int32]int32{s: -1}
	queue := []int32{s}
	pathTo := func(v int32) []int32 {
		var p []int32
		for ; v >= 0; v = parent[v] {
			p = append(p, v)
		}
		slices.Reverse(p)
		return p
	}
	seenKey := map[uint64]bool{}
	seenExit := map[int32]bool{}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for t := q.Out[v]; t < q.Out[v+1]; t++ {
			a, d := q.Label[t], q.Dst[t]
			db := fb.blockAt(d, j)
			var key uint64
			via := t
			switch {
			case fb.eq == Strong:
				key = uint64(a)<<32 | uint64(db)
			case a == lts.Tau && d == v:
				if fb.eq != DivBranching {
					continue
				}
				key, via = sigDiv, -1
			case a == lts.Tau && db == b:
				if _, ok := parent[d]; !ok {
					parent[d] = v
					queue = append(queue, d)
				}
				continue
			default:
				key = uint64(a)<<32 | uint64(db)
				if a == lts.Tau && !seenExit[d] {
					seenExit[d] = true
					exits = append(exits, d)
				}
			}
			if !seenKey[key] {
				seenKey[key] = true
				entries = append(entries, witnessEntry{key: key, path: pathTo(v), via: via})
			}
		}
	}
	return entries, exits
}

// distinguish returns a formula true in x and false in y (x ≠ y).
func (fb *formulaBuilder) distinguish(x, y int32) (*Formula, error) {
	if x == y {
		return nil, fmt.Errorf("internal error: a state cannot be told from itself")
	}
	if fb.block[x] == fb.block[y] {
		return nil, fmt.Errorf("internal error: quotient states %d and %d are not separated by the rounds recorded", x, y)
	}
	if f, ok := fb.memo[[2]int32{x, y}]; ok {
		return f, nil
	}
	if f, ok := fb.memo[[2]int32{y, x}]; ok {
		return Not(f), nil
	}
	j, b := fb.separation(x, y)
	ex, exitsX := fb.witnessed(x, j, b)
	ey, exitsY := fb.witnessed(y, j, b)
	// Pick the entry to explain: visible steps read best, then τ-steps,
	// then divergence; x's side before y's (no negation).
	best, bestSide, bestRank := witnessEntry{}, -1, 3
	for side, es := range [2][]witnessEntry{ex, ey} {
		other := ey
		if side == 1 {
			other = ex
		}
		for _, e := range es {
			if slices.ContainsFunc(other, func(o witnessEntry) bool { return o.key == e.key }) {
				continue
			}
			rank := 0
			switch {
			case e.key == sigDiv:
				rank = 2
			case int32(e.key>>32) == lts.Tau:
				rank = 1
			}
			if rank < bestRank {
				best, bestSide, bestRank = e, side, rank
			}
		}
	}
	if bestSide < 0 {
		return nil, fmt.Errorf("internal error: states %d and %d separated at round %d have equal signatures", x, y, j+1)
	}
	self, other, exits := x, y, exitsY
	if bestSide == 1 {
		self, other, exits = y, x, exitsX
	}
	f, err := fb.explain(self, other, best, exits)
	if err != nil {
		return nil, err
	}
	if bestSide == 1 {
		f = Not(f)
	}
	sat := fb.check.sat(f)
	if !sat[x] || sat[y] {
		return nil, fmt.Errorf("internal error: the formula built for quotient states %d and %d does not tell them apart: %v", x, y, f)
	}
	fb.memo[[2]int32{x, y}] = f
	return f, nil
}

// explain builds the formula true in self and false in other for entry e
// of self's signature, which other lacks; exits are other's τ-exits from
// the shared block.
func (fb *formulaBuilder) explain(self, other int32, e witnessEntry, exits []int32) (*Formula, error) {
	q := fb.q
	if fb.eq == Strong {
		a, target := q.Label[e.via], q.Dst[e.via]
		var succ []int32
		for t := q.Out[other]; t < q.Out[other+1]; t++ {
			if q.Label[t] == a {
				succ = append(succ, q.Dst[t])
			}
		}
		goal, err := fb.distinguishSets([]int32{target}, succ)
		if err != nil {
			return nil, err
		}
		return Diamond(q.Labels[a], goal), nil
	}
	stay, err := fb.distinguishSets(e.path, exits)
	if err != nil {
		return nil, err
	}
	if e.via < 0 {
		return Diverge(stay), nil
	}
	// The states other reaches by τ-steps through stay, and their a-successors.
	a, target := q.Label[e.via], q.Dst[e.via]
	inStay := fb.check.sat(stay)
	var reach, succ []int32
	if inStay[other] {
		seen := map[int32]bool{other: true}
		reach = []int32{other}
		for i := 0; i < len(reach); i++ {
			v := reach[i]
			for t := q.Out[v]; t < q.Out[v+1]; t++ {
				if d := q.Dst[t]; q.Label[t] == lts.Tau && inStay[d] && !seen[d] {
					seen[d] = true
					reach = append(reach, d)
				}
			}
		}
	}
	for _, v := range reach {
		for t := q.Out[v]; t < q.Out[v+1]; t++ {
			if q.Label[t] == a {
				succ = append(succ, q.Dst[t])
			}
		}
	}
	if a == lts.Tau {
		succ = append(succ, reach...)
	}
	slices.Sort(succ)
	succ = slices.Compact(succ)
	if slices.Contains(succ, target) {
		return nil, fmt.Errorf("internal error: quotient state %d reaches the target %d of the distinguishing step of %d", other, target, self)
	}
	goal, err := fb.distinguishSets([]int32{target}, succ)
	if err != nil {
		return nil, err
	}
	return Until(stay, q.Labels[a], goal), nil
}

// distinguishSets returns a formula true in every state of S and false in
// every state of T (disjoint sets): a conjunction over T of disjunctions
// over S of pair formulas, chosen greedily (see the design comment).
func (fb *formulaBuilder) distinguishSets(S, T []int32) (*Formula, error) {
	var conj []*Formula
	for len(T) > 0 {
		t := T[0]
		var disj []*Formula
		for rest := S; len(rest) > 0; {
			f, err := fb.distinguish(rest[0], t)
			if err != nil {
				return nil, err
			}
			disj = append(disj, f)
			sat := fb.check.sat(f)
			rest = slices.DeleteFunc(slices.Clone(rest), func(s int32) bool { return sat[s] })
		}
		g := Or(disj...)
		conj = append(conj, g)
		sat := fb.check.sat(g)
		T = slices.DeleteFunc(slices.Clone(T), func(s int32) bool { return !sat[s] })
	}
	return And(conj...), nil
}
