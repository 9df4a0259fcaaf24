package antichain_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// specLabels maps spec's label names to its label ids.
func specLabels(spec *lts.LTS) map[string]int32 {
	ids := map[string]int32{}
	for i, name := range spec.Labels {
		ids[name] = int32(i)
	}
	return ids
}

// labelsIn returns the label map of antichain.NewExplicitImpl from impl's
// labels to spec's by name: -1 for a label spec lacks.
func labelsIn(impl, spec *lts.LTS) func(int32) int32 {
	ids := specLabels(spec)
	return func(a int32) int32 {
		if id, ok := ids[impl.Labels[a]]; ok {
			return id
		}
		return -1
	}
}

// randomPair draws a random implementation of 1–8 states and a random
// specification of 1–5 over the labels a, b, c, with τ-steps.
func randomPair(rng *rand.Rand) (impl, spec *lts.LTS) {
	draw := func(n int) *lts.LTS {
		b := lts.NewBuilder()
		randlts.Fill(rng, b, randlts.Config{States: n, Transitions: rng.IntN(3 * n), Labels: []string{"a", "b", "c"}, Tau: 0.4})
		return b.Build()
	}
	impl = draw(1 + rng.IntN(8))
	return impl, draw(1 + rng.IntN(5))
}

// naiveShortest is the oracle of a shortest violation: a 0-1 breadth-first
// search over (implementation state, specification set) nodes, the sets
// as text, the cost of a step 1 (bySteps) or 1 if visible; it returns the
// cost of a shortest path of impl whose last step spec cannot follow
// after the same visible trace, that step included, or -1.
func naiveShortest(impl, spec *lts.LTS, bySteps bool) int {
	specLabel := specLabels(spec)
	type node struct {
		s   int32
		set string
	}
	sets := map[string][]int32{}
	key := func(w []int32) string {
		k := fmt.Sprint(w)
		sets[k] = w
		return k
	}
	start := node{impl.Initial, key(reachable(spec, nil))}
	dist := map[node]int{start: 0}
	deque := []node{start}
	// The specification's sets are reached by traces, so a set is named
	// by the labels of one: after holds a set's trace.
	after := map[string][]int32{start.set: nil}
	for len(deque) > 0 {
		n := deque[0]
		deque = deque[1:]
		d := dist[n]
		for t := impl.Out[n.s]; t < impl.Out[n.s+1]; t++ {
			next, cost := n, 0
			next.s = impl.Dst[t]
			if impl.Label[t] != lts.Tau || bySteps {
				cost = 1
			}
			if impl.Label[t] != lts.Tau {
				a, ok := specLabel[impl.LabelName(t)]
				w := append(append([]int32(nil), after[n.set]...), a)
				if !ok || len(reachable(spec, w)) == 0 {
					return d + 1
				}
				next.set = key(reachable(spec, w))
				after[next.set] = w
			}
			if old, seen := dist[next]; seen && old <= d+cost {
				continue
			}
			dist[next] = d + cost
			if cost == 0 {
				deque = append([]node{next}, deque...)
			} else {
				deque = append(deque, next)
			}
		}
	}
	return -1
}

// reachableStates counts the states of l reachable from its initial one.
func reachableStates(l *lts.LTS) int {
	seen := map[int32]bool{l.Initial: true}
	stack := []int32{l.Initial}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			if d := l.Dst[t]; !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	return len(seen)
}

// TestLayerings holds Search, layered by visible actions and by steps,
// with and without the antichain and the index, to naiveShortest on
// random LTS pairs: the same verdict, and a violation's path a path of
// the implementation from its initial state whose last step, and no
// other, the specification cannot follow, as short as the oracle's in
// what the layers count (Depth+1); going on past the violation (Past),
// the same violation, every reachable state paired, and every pair's
// rebuilt path the one its parents kept (SearchOptions.Parents); from the
// empty subset, no violation and one pair for every reachable state.
func TestLayerings(t *testing.T) {
	violations := 0
	for seed := range uint64(testsize.Count(300, 5000)) {
		rng := rand.New(rand.NewPCG(seed, 36))
		impl, spec := randomPair(rng)
		specLabel, labelOf := specLabels(spec), labelsIn(impl, spec)
		for _, bySteps := range []bool{false, true} {
			want := naiveShortest(impl, spec, bySteps)
			if want > 0 && bySteps {
				violations++
			}
			all := []antichain.SearchOptions{{}, {Prune: true}, {Prune: true, Index: true}}
			if bySteps {
				all = append(all, antichain.SearchOptions{Prune: true, Past: true, Parents: true})
			}
			for _, opts := range all {
				opts.BySteps, opts.MaxPairs = bySteps, 1<<20
				what := fmt.Sprintf("seed %d %+v", seed, opts)
				norm := antichain.NewSubsets(antichain.NewExplicit(spec), !bySteps)
				s := antichain.NewSearch(antichain.NewExplicitImpl(impl, labelOf), norm, 0, opts)
				init, err := norm.Closure([]int32{spec.Initial})
				require.NoError(t, err)
				pair, step, err := s.Run(init)
				require.NoError(t, err, what)
				depth := s.Depth
				if opts.Past {
					// Past the violation, the search reaches every state.
					seen := map[int32]bool{}
					for _, st := range s.Pairs.State {
						seen[st] = true
					}
					require.Len(t, seen, reachableStates(impl), what)
					depth = s.ViolationDepth
					// Every pair's path rebuilt from the levels is the
					// one its parents kept.
					for q := int32(1); int(q) < s.Pairs.Len(); q++ {
						var kept []int32
						for p := q; p != 0; {
							from, via := s.Parent(p)
							kept, p = append(kept, via), from
						}
						slices.Reverse(kept)
						rebuilt, err := s.Path(q, -1)
						require.NoError(t, err, what)
						require.Equal(t, append(kept, -1), rebuilt, "%s: pair %d", what, q)
					}
					// From the empty subset, the search covers the
					// implementation alone: no violation, every state.
					e := antichain.NewSearch(antichain.NewExplicitImpl(impl, labelOf), norm, 0, opts)
					pair, _, err := e.Run(norm.Intern(nil))
					require.NoError(t, err, what)
					require.Equal(t, int32(-1), pair, "%s: no violation from the empty subset", what)
					seen = map[int32]bool{}
					for q := range int32(e.Pairs.Len()) {
						seen[e.Pairs.State[q]] = true
					}
					require.Len(t, seen, reachableStates(impl), what)
					require.Equal(t, len(seen), e.Pairs.Len(), "%s: one pair a state", what)
				}
				if want < 0 {
					require.Equal(t, int32(-1), pair, what)
					continue
				}
				require.GreaterOrEqual(t, pair, int32(0), what)
				require.Equal(t, want, depth+1, what)
				path, err := s.Path(pair, step)
				require.NoError(t, err, what)
				var w []int32
				at := impl.Initial
				for i, tr := range path {
					require.Equal(t, at, impl.Src[tr], "%s: a path from the initial state", what)
					at = impl.Dst[tr]
					if impl.Label[tr] == lts.Tau {
						continue
					}
					a, ok := specLabel[impl.LabelName(tr)]
					w = append(w, a)
					follows := ok && len(reachable(spec, w)) > 0
					require.Equal(t, i < len(path)-1, follows, "%s: only the last step is not the specification's", what)
				}
				if bySteps {
					require.Len(t, path, want, what)
				}
			}
		}
	}
	t.Logf("%d violations", violations)
	require.Positive(t, violations)
}
