package refine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/lts"
)

// This file holds the test oracles: a brute-force bounded trace enumerator
// and a naive full determinisation, both deliberately simple (maps, strings)
// and independent of the package's code.

// tauClosure returns the states reachable from from by τ steps, sorted.
func tauClosure(l *lts.LTS, from []int32) []int32 {
	seen := map[int32]bool{}
	stack := append([]int32(nil), from...)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			if l.Label[t] == lts.Tau {
				stack = append(stack, l.Dst[t])
			}
		}
	}
	out := make([]int32, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// boundedTraces enumerates every trace of l with at most k visible actions,
// path by path, as strings of labels joined by spaces.
func boundedTraces(l *lts.LTS, k int) map[string]bool {
	type node struct {
		trace string
		state int32
	}
	traces := map[string]bool{"": true}
	var level []node
	for _, s := range tauClosure(l, []int32{l.Initial}) {
		level = append(level, node{"", s})
	}
	for depth := 0; depth < k; depth++ {
		seen := map[node]bool{}
		var next []node
		for _, n := range level {
			for t := l.Out[n.state]; t < l.Out[n.state+1]; t++ {
				if l.Label[t] == lts.Tau {
					continue
				}
				w := strings.TrimSpace(n.trace + " " + l.LabelName(t))
				traces[w] = true
				for _, s := range tauClosure(l, []int32{l.Dst[t]}) {
					if m := (node{w, s}); !seen[m] {
						seen[m] = true
						next = append(next, m)
					}
				}
			}
		}
		level = next
	}
	return traces
}

// bruteShortestViolation returns the number of visible actions of a
// shortest trace of impl that spec lacks, among traces of at most k
// visible actions, or -1 if there is none up to k.
func bruteShortestViolation(impl, spec *lts.LTS, k int) int {
	specTraces := boundedTraces(spec, k)
	best := -1
	for w := range boundedTraces(impl, k) {
		if !specTraces[w] {
			if n := len(strings.Fields(w)); best < 0 || n < best {
				best = n
			}
		}
	}
	return best
}

// dfa is the full subset construction of an LTS over its visible labels.
type dfa struct {
	next []map[string]int // per DFA state: label name → DFA state
}

func determinise(l *lts.LTS) dfa {
	key := func(s []int32) string { return fmt.Sprint(s) }
	init := tauClosure(l, []int32{l.Initial})
	ids := map[string]int{key(init): 0}
	sets := [][]int32{init}
	var d dfa
	for i := 0; i < len(sets); i++ {
		succ := map[string][]int32{}
		for _, s := range sets[i] {
			for t := l.Out[s]; t < l.Out[s+1]; t++ {
				if l.Label[t] != lts.Tau {
					succ[l.LabelName(t)] = append(succ[l.LabelName(t)], l.Dst[t])
				}
			}
		}
		row := map[string]int{}
		for a, targets := range succ {
			c := tauClosure(l, targets)
			id, ok := ids[key(c)]
			if !ok {
				id = len(sets)
				ids[key(c)] = id
				sets = append(sets, c)
			}
			row[a] = id
		}
		d.next = append(d.next, row)
	}
	return d
}

// naiveShortestViolation decides refinement exactly on the determinised
// LTSs: the number of visible actions of a shortest trace of impl that spec
// lacks, or -1 if traces(impl) ⊆ traces(spec).
func naiveShortestViolation(impl, spec *lts.LTS) int {
	di, ds := determinise(impl), determinise(spec)
	type pair struct{ i, s, depth int }
	seen := map[[2]int]bool{{0, 0}: true}
	queue := []pair{{0, 0, 0}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for a, i2 := range di.next[p.i] {
			s2, ok := ds.next[p.s][a]
			if !ok {
				return p.depth + 1
			}
			if !seen[[2]int{i2, s2}] {
				seen[[2]int{i2, s2}] = true
				queue = append(queue, pair{i2, s2, p.depth + 1})
			}
		}
	}
	return -1
}

// isTrace reports whether spec can do the visible trace w.
func isTrace(spec *lts.LTS, w []string) bool {
	d := determinise(spec)
	s := 0
	for _, a := range w {
		next, ok := d.next[s][a]
		if !ok {
			return false
		}
		s = next
	}
	return true
}

// randomLTS returns a seeded random LTS with n states, m transitions over
// the given visible labels, each transition τ with probability tau. τ-cycles
// and nondeterminism arise freely.
func randomLTS(r *rand.Rand, n, m int, labels []string, tau float64) *lts.LTS {
	b := lts.NewBuilder()
	randlts.Fill(r, b, randlts.Config{States: n, Transitions: m, Labels: labels, Tau: tau})
	return b.Build()
}

// perturb returns a copy of l with some transitions dropped and a few random
// ones added: an implementation that often, but not always, refines l.
func perturb(r *rand.Rand, l *lts.LTS, labels []string) *lts.LTS {
	b := lts.NewBuilder()
	b.SetNumStates(l.NumStates)
	b.SetInitial(l.Initial)
	for t := range l.Src {
		if r.IntN(4) > 0 {
			b.AddTransition(l.Src[t], b.Label(l.LabelName(int32(t))), l.Dst[t])
		}
	}
	for range r.IntN(3) {
		label := labels[r.IntN(len(labels))]
		if r.IntN(3) == 0 {
			label = lts.TauName
		}
		b.AddTransition(int32(r.IntN(int(l.NumStates))), b.Label(label), int32(r.IntN(int(l.NumStates))))
	}
	return b.Build()
}
