package antichain_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// TestIncludes covers the element-wise inclusion test beyond what the
// 64-bit signature decides alone (states ≥ 64 share signature bits), and
// the empty subset, which every subset includes.
func TestIncludes(t *testing.T) {
	b := lts.NewBuilder()
	b.SetNumStates(200)
	n := antichain.NewSubsets(antichain.NewExplicit(b.Build()), true)
	ids := map[string]int32{}
	for name, set := range map[string][]int32{
		"a": {1, 65}, "b": {1, 129}, "ab": {1, 65, 129}, "c": {1}, "d": {2, 66, 130}, "empty": nil,
	} {
		ids[name] = n.Intern(set)
	}
	tests := []struct {
		q, p string
		want bool
	}{
		{"a", "ab", true}, {"b", "ab", true}, {"c", "a", true}, {"a", "a", true},
		{"a", "b", false}, {"b", "a", false}, {"ab", "a", false}, {"d", "ab", false}, {"c", "d", false},
		{"empty", "c", true}, {"c", "empty", false}, {"empty", "empty", true},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, n.Includes(ids[tc.p], ids[tc.q]), "%s ⊆ %s", tc.q, tc.p)
	}
	assert.Equal(t, ids["ab"], n.Intern([]int32{1, 65, 129}), "interning twice gives the same id")
	assert.Equal(t, 6, n.Count())
}

// reachable is the naive oracle: the states of l reached from the initial
// state by the visible trace w, τ-steps anywhere.
func reachable(l *lts.LTS, w []int32) []int32 {
	closure := func(set map[int32]bool) map[int32]bool {
		stack := make([]int32, 0, len(set))
		for s := range set {
			stack = append(stack, s)
		}
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for t := l.Out[s]; t < l.Out[s+1]; t++ {
				if d := l.Dst[t]; l.Label[t] == lts.Tau && !set[d] {
					set[d] = true
					stack = append(stack, d)
				}
			}
		}
		return set
	}
	set := closure(map[int32]bool{l.Initial: true})
	for _, a := range w {
		next := map[int32]bool{}
		for s := range set {
			for t := l.Out[s]; t < l.Out[s+1]; t++ {
				if l.Label[t] == a {
					next[l.Dst[t]] = true
				}
			}
		}
		set = closure(next)
	}
	var out []int32
	for s := range set {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// TestAgainstNaiveSubsets holds Closure and After, eager and lazy, to the
// naive subset construction along random traces of random LTSs, and
// Includes to the inclusion of the naive sets.
func TestAgainstNaiveSubsets(t *testing.T) {
	labels := []string{"a", "b", "c"}
	for seed := range uint64(testsize.Count(300, 10_000)) {
		rng := rand.New(rand.NewPCG(seed, 38))
		n := 1 + rng.IntN(10)
		b := lts.NewBuilder()
		randlts.Fill(rng, b, randlts.Config{States: n, Transitions: rng.IntN(4 * n), Labels: labels, Tau: 0.3})
		l := b.Build()
		var ids []int32
		eager, lazy := antichain.NewSubsets(antichain.NewExplicit(l), true), antichain.NewSubsets(antichain.NewExplicit(l), false)
		for range 5 {
			var w []int32
			sub := [2]int32{}
			for i, n := range []*antichain.Subsets{eager, lazy} {
				var err error
				sub[i], err = n.Closure([]int32{l.Initial})
				require.NoError(t, err)
			}
			for len(w) < 6 {
				a := int32(1 + rng.IntN(len(labels)))
				if int(a) >= len(l.Labels) {
					break
				}
				w = append(w, a)
				want := reachable(l, w)
				for i, n := range []*antichain.Subsets{eager, lazy} {
					next, err := n.After(sub[i], uint64(a))
					require.NoError(t, err)
					if len(want) == 0 {
						require.Equal(t, antichain.NoSubset, next, "seed %d: %v", seed, w)
						continue
					}
					require.NotEqual(t, antichain.NoSubset, next, "seed %d: %v", seed, w)
					require.Equal(t, want, n.Members(next), "seed %d: %v", seed, w)
					sub[i] = next
				}
				if len(want) == 0 {
					break
				}
				ids = append(ids, sub[1])
			}
		}
		for _, p := range ids {
			for _, q := range ids {
				mp, mq := lazy.Members(p), lazy.Members(q)
				want := !slices.ContainsFunc(mq, func(s int32) bool { return !slices.Contains(mp, s) })
				require.Equal(t, want, lazy.Includes(p, q), "seed %d: %v ⊇ %v", seed, mp, mq)
			}
		}
	}
}
