package bisim

import (
	"fmt"

	"github.com/linbis/linbis/lts"
)

// Formulas from Fast's split history (strong bisimilarity)
//
// Under strong bisimilarity the quotient of the union is often nearly as
// large as the union itself, and rebuilding it and refining it again in
// rounds (formula_build.go) costs as much as the minimisation. So Compare
// asks Fast to record its splits (the hook is refiner.history) and reads
// the formula off that record, as Cleaveland ("On automatically explaining
// bisimulation inequivalence", CAV 1990) does with the splits of
// Kanellakis and Smolka's algorithm:
//
// Every split of Fast under strong bisimilarity divides a block B, by a
// splitter (a, C) where C is the set of states of a block when its incoming
// transitions were read, into the states with an a-step into C and those
// without. The record is a tree: its root is the set of all states, the
// first children are the classes of the enabled labels Fast starts from
// (splitByEnabledLabels), and every split gives the node of B two children,
// with a, the node of C and which child has the a-steps. Node numbers grow
// from parents to children, so the lowest common ancestor of two nodes is
// found by moving the larger up.
//
// For states s and t in different final blocks, let N be the lowest common
// ancestor of their leaves. If N is the split by enabled labels, some label
// a is enabled in one and not the other: ⟨a⟩true. Otherwise s (say) has an
// a-step to some s' in C and t has none into C: the formula is
// ⟨a⟩ ∧_{t'} φ(s', t') over the a-successors t' of t, where φ(s', t')
// distinguishes s' from t'. As t' is not in C and s' is, their common
// ancestor is a proper ancestor of C's node, which split before C's node
// existed, hence before N split: the recursion ends. Formulas are memoised
// by pairs of final blocks (bisimilar states satisfy the same formulas).
//
// This costs a few words per split during the minimisation and, after it,
// only what the formula visits: neither the quotient nor a refinement in
// rounds (formula_build.go, which remains for the branching equivalences,
// whose quotients are small, and for the other algorithms). A formula
// follows Fast's order of splits, not the round-by-round order that gives
// the minimal depth for strong bisimilarity; on the inputs measured the
// depths were the same or close (TestFormulasDistinguishRandomPairs,
// BenchmarkCompareFormula).

// splitHistory is the tree of Fast's splits (see above).
type splitHistory struct {
	// parent is each node's parent, -1 for the root.
	parent []int32
	// For each node that split: splitLabel is the label a of its splitter
	// (-1 for the split by enabled labels), splitter the node of C, and
	// reach the child whose states have an a-step into C.
	splitLabel, splitter, reach []int32
	// node is the current node of each block.
	node []int32
	// target is the node of the block whose incoming transitions are being
	// read, label the label being split under.
	target, label int32
}

func (h *splitHistory) newNode(parent int32) int32 {
	h.parent = append(h.parent, parent)
	h.splitLabel = append(h.splitLabel, -1)
	h.splitter = append(h.splitter, -1)
	h.reach = append(h.reach, -1)
	return int32(len(h.parent) - 1)
}

// start records the initial partition, blocks 0..numBlocks-1: children of
// the root split by enabled labels, or the root itself.
func (h *splitHistory) start(numBlocks int32) {
	*h = splitHistory{}
	root := h.newNode(-1)
	h.node = make([]int32, numBlocks)
	if numBlocks > 1 {
		for b := range h.node {
			h.node[b] = h.newNode(root)
		}
	}
}

// readTarget records that the incoming transitions of block c are being read.
func (h *splitHistory) readTarget(c int32) { h.target = h.node[c] }

// split records that block b split under (label, target) into b and the
// new block nb; reachIsNew says whether nb holds the states with the step.
func (h *splitHistory) split(b, nb int32, reachIsNew bool) {
	p := h.node[b]
	kept, moved := h.newNode(p), h.newNode(p)
	h.node[b] = kept
	for int(nb) >= len(h.node) {
		h.node = append(h.node, -1)
	}
	h.node[nb] = moved
	h.splitLabel[p], h.splitter[p], h.reach[p] = h.label, h.target, kept
	if reachIsNew {
		h.reach[p] = moved
	}
}

// historyBuilder reads formulas off a splitHistory for the states of l,
// the LTS Fast refined into the blocks block.
type historyBuilder struct {
	h     *splitHistory
	l     *lts.LTS
	block []int32
	memo  map[[2]int32]*Formula
}

func (hb *historyBuilder) leaf(s int32) int32 { return hb.h.node[hb.block[s]] }

// commonAncestor returns the lowest common ancestor of nodes x and y.
func (hb *historyBuilder) commonAncestor(x, y int32) int32 {
	for x != y {
		if x > y {
			x = hb.h.parent[x]
		} else {
			y = hb.h.parent[y]
		}
	}
	return x
}

// under reports whether node x lies in the subtree of node c.
func (hb *historyBuilder) under(x, c int32) bool {
	for x > c {
		x = hb.h.parent[x]
	}
	return x == c
}

// distinguish returns a formula true in s and false in t.
func (hb *historyBuilder) distinguish(s, t int32) (*Formula, error) {
	key := [2]int32{hb.block[s], hb.block[t]}
	if key[0] == key[1] {
		return nil, fmt.Errorf("internal error: states %d and %d are in one block", s, t)
	}
	if f, ok := hb.memo[key]; ok {
		return f, nil
	}
	if f, ok := hb.memo[[2]int32{key[1], key[0]}]; ok {
		return Not(f), nil
	}
	l, h := hb.l, hb.h
	n := hb.commonAncestor(hb.leaf(s), hb.leaf(t))
	var f *Formula
	if h.splitLabel[n] < 0 {
		var err error
		if f, err = hb.enabledDifference(s, t); err != nil {
			return nil, err
		}
	} else {
		a, c := h.splitLabel[n], h.splitter[n]
		holder, other := s, t
		if !hb.under(hb.leaf(s), h.reach[n]) {
			holder, other = t, s
		}
		target := int32(-1)
		for tr := l.Out[holder]; tr < l.Out[holder+1] && target < 0; tr++ {
			if l.Label[tr] == a && hb.under(hb.leaf(l.Dst[tr]), c) {
				target = l.Dst[tr]
			}
		}
		if target < 0 {
			return nil, fmt.Errorf("internal error: state %d of the split's reaching side has no %s-step into its splitter", holder, l.Labels[a])
		}
		var conj []*Formula
		seen := map[int32]bool{}
		has := map[string]bool{} // one conjunct for equal formulas
		for tr := l.Out[other]; tr < l.Out[other+1]; tr++ {
			d := l.Dst[tr]
			if l.Label[tr] != a || seen[hb.block[d]] {
				continue
			}
			seen[hb.block[d]] = true
			g, err := hb.distinguish(target, d)
			if err != nil {
				return nil, err
			}
			if text := g.String(); !has[text] {
				has[text] = true
				conj = append(conj, g)
			}
		}
		f = Diamond(l.Labels[a], And(conj...))
		if holder != s {
			f = Not(f)
		}
	}
	hb.memo[key] = f
	return f, nil
}

// enabledDifference returns ⟨a⟩true for a label a that s has a step with
// and t has not, or ¬⟨a⟩true for one that t has and s has not.
func (hb *historyBuilder) enabledDifference(s, t int32) (*Formula, error) {
	l := hb.l
	enabled := func(x int32) map[int32]bool {
		m := map[int32]bool{}
		for tr := l.Out[x]; tr < l.Out[x+1]; tr++ {
			m[l.Label[tr]] = true
		}
		return m
	}
	es, et := enabled(s), enabled(t)
	for a := range l.Labels {
		switch {
		case es[int32(a)] && !et[int32(a)]:
			return Diamond(l.Labels[a], True()), nil
		case et[int32(a)] && !es[int32(a)]:
			return Not(Diamond(l.Labels[a], True())), nil
		}
	}
	return nil, fmt.Errorf("internal error: states %d and %d, split by their enabled labels, enable the same labels", s, t)
}
