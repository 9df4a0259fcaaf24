package bisim

import (
	"fmt"

	"github.com/linbis/linbis/lts"
)

// Holds reports whether the initial state of l satisfies f. It searches
// from the initial state only as far as f leads (localChecker).
func Holds(l *lts.LTS, f *Formula) bool {
	if l.NumStates == 0 {
		return false
	}
	return newLocalChecker(l).holds(f, l.Initial)
}

// formulaChecker computes, for formulas over the labels of one LTS, the set
// of states satisfying them: globally, one linear pass per node, bottom up.
// Shared subformulas are computed once (memo is keyed by node). Until is a
// backward reachability over τ-steps from the states with the wanted step;
// diverge is a greatest fixpoint that strips, with a counter per state,
// the states without a τ-successor left. Both cost O(n + m).
type formulaChecker struct {
	l *lts.LTS
	labelIDs
	// tauIndex/tauSrc list the sources of the τ-steps into each state.
	tauIndex, tauSrc []int32
	memo             map[*Formula][]bool
}

func newFormulaChecker(l *lts.LTS) *formulaChecker {
	return &formulaChecker{l: l, labelIDs: newLabelIDs(l), memo: map[*Formula][]bool{}}
}

// labelIDs maps the label names of an LTS to their ids: formulas name
// labels, and the two LTSs compared number them differently.
type labelIDs map[string]int32

func newLabelIDs(l *lts.LTS) labelIDs {
	ids := make(labelIDs, len(l.Labels))
	for i, name := range l.Labels {
		ids[name] = int32(i)
	}
	return ids
}

// label returns the id of name, or -1 when the LTS has no such label (then
// no step has it).
func (ids labelIDs) label(name string) int32 {
	if id, ok := ids[name]; ok {
		return id
	}
	return -1
}

// tauSources builds tauIndex/tauSrc on first use.
func (c *formulaChecker) tauSources() {
	if c.tauIndex != nil {
		return
	}
	l := c.l
	c.tauIndex = make([]int32, l.NumStates+1)
	for t, d := range l.Dst {
		if l.Label[t] == lts.Tau {
			c.tauIndex[d+1]++
		}
	}
	for s := int32(0); s < l.NumStates; s++ {
		c.tauIndex[s+1] += c.tauIndex[s]
	}
	c.tauSrc = make([]int32, c.tauIndex[l.NumStates])
	fill := append([]int32(nil), c.tauIndex[:l.NumStates]...)
	for t, d := range l.Dst {
		if l.Label[t] == lts.Tau {
			c.tauSrc[fill[d]] = l.Src[t]
			fill[d]++
		}
	}
}

// sat returns the states of l satisfying f (callers must not modify it).
func (c *formulaChecker) sat(f *Formula) []bool {
	if s, ok := c.memo[f]; ok {
		return s
	}
	l := c.l
	out := make([]bool, l.NumStates)
	switch f.Op {
	case OpTrue:
		for s := range out {
			out[s] = true
		}
	case OpNot:
		x := c.sat(f.Args[0])
		for s := range out {
			out[s] = !x[s]
		}
	case OpAnd, OpOr:
		copy(out, c.sat(f.Args[0]))
		for _, g := range f.Args[1:] {
			x := c.sat(g)
			for s := range out {
				if f.Op == OpAnd {
					out[s] = out[s] && x[s]
				} else {
					out[s] = out[s] || x[s]
				}
			}
		}
	case OpDiamond:
		a, x := c.label(f.Label), c.sat(f.Args[0])
		for t, lab := range l.Label {
			if lab == a && x[l.Dst[t]] {
				out[l.Src[t]] = true
			}
		}
	case OpUntil:
		c.until(f, out)
	case OpDiverge:
		c.diverge(c.sat(f.Args[0]), out)
	default:
		panic(fmt.Sprintf("bisim: formula operator %v", f.Op))
	}
	c.memo[f] = out
	return out
}

// until fills out with the states satisfying f = φ⟨a⟩ψ: the φ-states that
// have an a-step into ψ (or, for a = τ, satisfy ψ themselves), closed
// backwards under τ-steps between φ-states.
func (c *formulaChecker) until(f *Formula, out []bool) {
	l := c.l
	a, stay, goal := c.label(f.Label), c.sat(f.Args[0]), c.sat(f.Args[1])
	var queue []int32
	mark := func(s int32) {
		if stay[s] && !out[s] {
			out[s] = true
			queue = append(queue, s)
		}
	}
	for t, lab := range l.Label {
		if lab == a && goal[l.Dst[t]] {
			mark(l.Src[t])
		}
	}
	if a == lts.Tau {
		for s := range goal {
			if goal[s] {
				mark(int32(s))
			}
		}
	}
	c.tauSources()
	for i := 0; i < len(queue); i++ {
		d := queue[i]
		for _, s := range c.tauSrc[c.tauIndex[d]:c.tauIndex[d+1]] {
			mark(s)
		}
	}
}

// diverge fills out with the states that have an infinite τ-path through
// stay-states: starting from stay, it removes states with no τ-successor
// left until none is removed.
func (c *formulaChecker) diverge(stay, out []bool) {
	l := c.l
	left := make([]int32, l.NumStates) // τ-successors (with multiplicity) still in out
	for t, lab := range l.Label {
		if lab == lts.Tau && stay[l.Src[t]] && stay[l.Dst[t]] {
			left[l.Src[t]]++
		}
	}
	var queue []int32
	for s := range out {
		out[s] = stay[s]
		if out[s] && left[s] == 0 {
			out[s] = false
			queue = append(queue, int32(s))
		}
	}
	c.tauSources()
	for i := 0; i < len(queue); i++ {
		d := queue[i]
		for _, s := range c.tauSrc[c.tauIndex[d]:c.tauIndex[d+1]] {
			if out[s] {
				if left[s]--; left[s] == 0 {
					out[s] = false
					queue = append(queue, s)
				}
			}
		}
	}
}
