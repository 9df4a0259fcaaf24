package antichain_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// naivePair is a pair of the naive store: its subset as a set, and
// whether a smaller one killed it.
type naivePair struct {
	state int32
	set   []int32
	dead  bool
}

// subsetOf reports whether a ⊆ b, both sorted.
func subsetOf(a, b []int32) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

// TestPairsAgainstANaiveStore holds Pairs to its definition on random
// additions, with and without pruning and the index: an added pair is
// refused when it is stored already (with the index, dead or not;
// without, live) or, pruning, when a live pair of its state has a subset
// ⊊ its own (then counted in Subsumed); else it is stored, and kills the
// live pairs of its state with subsets ⊋ its own. Paths follow the
// parents given.
func TestPairsAgainstANaiveStore(t *testing.T) {
	b := lts.NewBuilder()
	b.SetNumStates(70) // states ≥ 64 share signature bits
	for seed := range testsize.Count(200, 2000) {
		r := rand.New(rand.NewPCG(uint64(seed), 36))
		prune, index := seed%2 == 0, seed/2%2 == 0
		norm := antichain.NewSubsets(antichain.NewExplicit(b.Build()), true)
		ps := antichain.NewPairs(norm, prune, index, int32(r.IntN(3)))
		var naive []naivePair
		var subsumed int64
		for range 200 {
			s := int32(r.IntN(6))
			var set []int32
			for e := range int32(6) {
				if r.IntN(3) == 0 {
					set = append(set, e+64*int32(r.IntN(2)))
				}
			}
			slices.Sort(set)
			set = slices.Compact(set)
			sub := norm.Intern(set)
			stored, covered := false, false
			for _, q := range naive {
				if q.state != s {
					continue
				}
				if slices.Equal(q.set, set) {
					stored = stored || index || !q.dead
				} else if prune && !q.dead && subsetOf(q.set, set) {
					covered = true
				}
			}
			want := !stored && !covered
			if !stored && covered {
				subsumed++
			}
			parent := int32(len(naive)) - 1
			got := ps.Add(s, sub, parent, int32(r.IntN(100)))
			require.Equal(t, want, got >= 0, "seed %d", seed)
			if !want {
				continue
			}
			require.Equal(t, int32(len(naive)), got, "seed %d", seed)
			for i := range naive {
				if prune && naive[i].state == s && !naive[i].dead && subsetOf(set, naive[i].set) {
					naive[i].dead = true
				}
			}
			naive = append(naive, naivePair{s, set, false})
		}
		require.Equal(t, len(naive), ps.Len(), "seed %d", seed)
		require.Equal(t, subsumed, ps.Subsumed, "seed %d", seed)
		for i, q := range naive {
			require.Equal(t, q.dead, ps.Dead(int32(i)), "seed %d pair %d", seed, i)
			require.Equal(t, q.state, ps.State[i])
			require.True(t, slices.Equal(q.set, norm.Members(ps.Subset[i])), "seed %d pair %d", seed, i)
		}
		if n := int32(len(naive)); n > 0 {
			path := ps.Path(n-1, -7)
			require.Len(t, path, int(n), "seed %d: the parents chain every pair to the first", seed)
			require.Equal(t, int32(-7), path[len(path)-1])
		}
	}
}
