package bisim

import (
	"fmt"
	"slices"

	"github.com/linbis/linbis/lts"
)

// distinguishingTrace looks, on q, for a shortest sequence of visible
// labels that one of the states x and y can do (with τ-steps anywhere) and
// the other cannot: breadth first over pairs of sets of states reached by
// the same visible labels (a subset construction, which can blow up, hence
// the bound maxPairs; on the quotients of model checkers' LTSs it stays
// small). It returns the labels
// and the side (0: x, 1: y) that can do them, with ok set; otherwise
// complete says whether the weak traces were found equal (false: the
// search gave up at maxPairs). Traces are
// invariant under all three equivalences, so a trace of the quotient's
// class is a trace of the states in it.
func distinguishingTrace(q *lts.LTS, x, y int32, maxPairs int) (labels []int32, side int, ok, complete bool) {
	closure := func(set []int32) []int32 {
		seen := map[int32]bool{}
		for _, s := range set {
			seen[s] = true
		}
		for i := 0; i < len(set); i++ {
			for t := q.Out[set[i]]; t < q.Out[set[i]+1]; t++ {
				if d := q.Dst[t]; q.Label[t] == lts.Tau && !seen[d] {
					seen[d] = true
					set = append(set, d)
				}
			}
		}
		slices.Sort(set)
		return set
	}
	type node struct {
		sets   [2][]int32
		parent int
		label  int32
	}
	nodes := []node{{sets: [2][]int32{closure([]int32{x}), closure([]int32{y})}, parent: -1}}
	seen := map[string]bool{fmt.Sprint(nodes[0].sets): true}
	i := 0
	for ; i < len(nodes) && len(nodes) < maxPairs; i++ {
		n := nodes[i]
		var after [2]map[int32][]int32 // label -> successors
		for k := range 2 {
			after[k] = map[int32][]int32{}
			for _, s := range n.sets[k] {
				for t := q.Out[s]; t < q.Out[s+1]; t++ {
					if a := q.Label[t]; a != lts.Tau {
						after[k][a] = append(after[k][a], q.Dst[t])
					}
				}
			}
		}
		var alphabet []int32
		for k := range 2 {
			for a := range after[k] {
				alphabet = append(alphabet, a)
			}
		}
		slices.Sort(alphabet)
		for _, a := range slices.Compact(alphabet) {
			if len(after[0][a]) == 0 || len(after[1][a]) == 0 {
				side = 0
				if len(after[0][a]) == 0 {
					side = 1
				}
				labels = []int32{a}
				for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
					labels = append(labels, nodes[j].label)
				}
				slices.Reverse(labels)
				return labels, side, true, true
			}
			next := [2][]int32{closure(slices.Clone(after[0][a])), closure(slices.Clone(after[1][a]))}
			next[0], next[1] = slices.Compact(next[0]), slices.Compact(next[1])
			if key := fmt.Sprint(next); !seen[key] {
				seen[key] = true
				nodes = append(nodes, node{sets: next, parent: i, label: a})
			}
		}
	}
	return nil, 0, false, i == len(nodes)
}

// traceFormula returns the formula that says "can do this path" along the
// path of l given as transitions: ⟨a1⟩⟨a2⟩…true with every step (τ too)
// under Strong, τ-steps left to until's τ-paths (true⟨a⟩…) otherwise.
func traceFormula(l *lts.LTS, path []int32, eq Equivalence) *Formula {
	f := True()
	for i := len(path) - 1; i >= 0; i-- {
		name := l.LabelName(path[i])
		switch {
		case eq == Strong:
			f = Diamond(name, f)
		case l.Label[path[i]] != lts.Tau:
			f = Until(True(), name, f)
		}
	}
	return f
}
