package bisim

import "github.com/linbis/linbis/lts"

// localChecker decides formulas in given states of an LTS by searching
// only where the formula leads: φ⟨a⟩ψ by a breadth-first search over the
// τ-steps through φ-states, Δφ by looking for a cycle among the φ-states
// τ-reachable through φ. Answers are memoised per (node, state); a failed
// search marks every state it visited as failing too (each reaches a
// subset of what the start reaches). On a model checker's LTS a formula's
// steps stay among a few states, so this visits a small part of the LTS
// where the global checker (formulaChecker) reads all of it for every
// node; the global one serves the builder, which asks about every state of
// the small quotient.
type localChecker struct {
	l *lts.LTS
	labelIDs
	memo map[localKey]bool
}

// localKey names a question: does state s satisfy f?
type localKey struct {
	f *Formula
	s int32
}

func newLocalChecker(l *lts.LTS) *localChecker {
	return &localChecker{l: l, labelIDs: newLabelIDs(l), memo: map[localKey]bool{}}
}

// holds reports whether state s satisfies f.
func (c *localChecker) holds(f *Formula, s int32) bool {
	switch f.Op {
	case OpTrue:
		return true
	case OpNot:
		return !c.holds(f.Args[0], s)
	case OpAnd:
		for _, g := range f.Args {
			if !c.holds(g, s) {
				return false
			}
		}
		return true
	case OpOr:
		for _, g := range f.Args {
			if c.holds(g, s) {
				return true
			}
		}
		return false
	}
	key := localKey{f, s}
	if v, ok := c.memo[key]; ok {
		return v
	}
	var v bool
	switch f.Op {
	case OpDiamond:
		v = c.step(s, c.label(f.Label), f.Args[0]) >= 0
	case OpUntil:
		_, end := c.untilSearch(f, s)
		v = end >= 0
	case OpDiverge:
		v = c.diverges(f, s)
	}
	c.memo[key] = v
	return v
}

// step returns a transition of s labelled a into a state satisfying goal,
// or -1.
func (c *localChecker) step(s, a int32, goal *Formula) int32 {
	l := c.l
	for t := l.Out[s]; t < l.Out[s+1]; t++ {
		if l.Label[t] == a && c.holds(goal, l.Dst[t]) {
			return t
		}
	}
	return -1
}

// untilSearch looks, breadth first, for a shortest witness of f = φ⟨a⟩ψ
// from s: it returns the τ-transitions and the final a-step (none when
// a = τ and the last state satisfies ψ) and the state reached, or end -1.
func (c *localChecker) untilSearch(f *Formula, s int32) (steps []int32, end int32) {
	l := c.l
	a, stay, goal := c.label(f.Label), f.Args[0], f.Args[1]
	if !c.holds(stay, s) {
		return nil, -1
	}
	parent := map[int32]int32{s: -1} // state -> τ-transition that reached it
	walk := func(v int32) []int32 {
		var p []int32
		for ; parent[v] >= 0; v = l.Src[parent[v]] {
			p = append(p, parent[v])
		}
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
		return p
	}
	queue := []int32{s}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		if a == lts.Tau && c.holds(goal, v) {
			return walk(v), v
		}
		if t := c.step(v, a, goal); t >= 0 {
			return append(walk(v), t), l.Dst[t]
		}
		for t := l.Out[v]; t < l.Out[v+1]; t++ {
			if d := l.Dst[t]; l.Label[t] == lts.Tau {
				if _, ok := parent[d]; !ok && c.holds(stay, d) {
					parent[d] = t
					queue = append(queue, d)
				}
			}
		}
	}
	for _, v := range queue { // all of them fail: they reach no more than s
		c.memo[localKey{f, v}] = false
	}
	return nil, -1
}

// diverges reports whether s satisfies f = Δφ: whether the φ-states that s
// reaches by τ-steps through φ-states contain a τ-cycle (found by removing,
// as Kahn's algorithm does, the states without a τ-successor left).
func (c *localChecker) diverges(f *Formula, s int32) bool {
	l := c.l
	stay := f.Args[0]
	if !c.holds(stay, s) {
		return false
	}
	index := map[int32]int{s: 0}
	reach := []int32{s}
	for i := 0; i < len(reach); i++ {
		v := reach[i]
		for t := l.Out[v]; t < l.Out[v+1]; t++ {
			if d := l.Dst[t]; l.Label[t] == lts.Tau {
				if _, ok := index[d]; !ok && c.holds(stay, d) {
					index[d] = len(reach)
					reach = append(reach, d)
				}
			}
		}
	}
	// out[i] counts the τ-steps of reach[i] into reach not yet removed.
	out := make([]int32, len(reach))
	pred := make([][]int, len(reach))
	for i, v := range reach {
		for t := l.Out[v]; t < l.Out[v+1]; t++ {
			if j, ok := index[l.Dst[t]]; ok && l.Label[t] == lts.Tau {
				out[i]++
				pred[j] = append(pred[j], i)
			}
		}
	}
	var removed []int
	for i := range reach {
		if out[i] == 0 {
			removed = append(removed, i)
		}
	}
	for k := 0; k < len(removed); k++ {
		for _, i := range pred[removed[k]] {
			if out[i]--; out[i] == 0 {
				removed = append(removed, i)
			}
		}
	}
	if len(removed) == len(reach) { // no cycle: none of them diverges
		for _, v := range reach {
			c.memo[localKey{f, v}] = false
		}
		return false
	}
	return true
}
