package bisim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
	"github.com/stretchr/testify/require"
)

// layeredLTS makes a random LTS whose only cycles are τ-cycles, as a most-
// general client's: every state has a level, visible steps go to a higher
// level, τ-steps anywhere within a level (so τ-SCCs, self-loops included)
// or to a higher one. A few labels, so that classes merge.
func layeredLTS(seed uint64, maxStates int) *lts.LTS {
	rng := rand.New(rand.NewPCG(seed, 0xda9))
	n := int32(1 + rng.IntN(maxStates))
	levels := 1 + rng.IntN(int(n))
	level := make([]int, n)
	for s := range level {
		level[s] = rng.IntN(levels)
	}
	labels := []string{"a", "b", "c"}[:1+rng.IntN(3)]
	tauShare := 1 + rng.IntN(4) // out of 5
	b := lts.NewBuilder()
	b.SetNumStates(n)
	b.SetInitial(rng.Int32N(n))
	for range rng.IntN(int(3*n) + 1) {
		s, d := rng.Int32N(n), rng.Int32N(n)
		switch {
		case rng.IntN(5) < tauShare && level[d] >= level[s]:
			b.AddTransition(s, lts.Tau, d)
		case level[d] > level[s]:
			b.AddTransition(s, b.Label(labels[rng.IntN(len(labels))]), d)
		}
	}
	return b.Build()
}

// hasOtherCycle reports, independently of the pass, whether l has a cycle
// through a visible step (any cycle, under Strong): some SCC of the whole
// graph has such a step inside.
func hasOtherCycle(l *lts.LTS, eq Equivalence) bool {
	comp, _ := lts.SCCs(l, func(int32) bool { return true })
	for t := range l.Dst {
		if comp[l.Src[t]] == comp[l.Dst[t]] && (eq == Strong || l.Label[t] != lts.Tau) {
			return true
		}
	}
	return false
}

// TestAcyclicAgainstRefinement holds the one-pass classification to the
// naive oracle on thousands of small layered LTSs, and to Fast's
// refinement and GJ on larger ones: the same partition, the same quotient
// byte for byte, the same state map, the same comparison of two initial
// states, for every equivalence.
func TestAcyclicAgainstRefinement(t *testing.T) {
	seeds := testsize.Count(400, 4000)
	for seed := range seeds {
		small := seed%2 == 0
		maxStates := 8
		if !small {
			maxStates = 400
		}
		l := layeredLTS(uint64(seed), maxStates)
		require.NoError(t, l.Validate())
		for _, eq := range allEquivalences {
			what := fmt.Sprintf("seed %d, %v", seed, eq)
			if eq == Strong && hasOtherCycle(l, eq) {
				_, ok := classifyAcyclic(l, eq, &Options{})
				require.False(t, ok, what)
				continue
			}
			_, ok := classifyAcyclic(l, eq, &Options{})
			require.True(t, ok, what)
			block, nb, err := Partition(l, eq, Options{})
			require.NoError(t, err)
			if small {
				require.NoError(t, samePartition(block, oracle(l, eq)), what)
			}
			for _, opts := range []Options{{alwaysRefine: true}, {Algorithm: GJ}} {
				other, no, err := Partition(l, eq, opts)
				require.NoError(t, err)
				require.Equal(t, no, nb, what)
				require.Equal(t, other, block, what)
			}
			q, stateMap, err := Minimize(l, eq, Options{})
			require.NoError(t, err)
			rq, rMap, err := Minimize(l, eq, Options{alwaysRefine: true})
			require.NoError(t, err)
			require.Equal(t, rq, q, what)
			require.Equal(t, rMap, stateMap, what)
			require.Equal(t, block, stateMap, what)
			other := from(l, int32(seed)%l.NumStates)
			cmp, err := Compare(l, other, eq, Options{})
			require.NoError(t, err)
			rcmp, err := Compare(l, other, eq, Options{alwaysRefine: true})
			require.NoError(t, err)
			require.Equal(t, rcmp.Equivalent, cmp.Equivalent, what)
			require.Equal(t, rcmp.Classes, cmp.Classes, what)
			require.Equal(t, block[l.Initial] == block[other.Initial], cmp.Equivalent, what)
			qr, nr, err := MinimizeReachable(l, eq, Options{})
			require.NoError(t, err)
			rqr, rnr, err := MinimizeReachable(l, eq, Options{alwaysRefine: true})
			require.NoError(t, err)
			require.Equal(t, rnr, nr, what)
			require.Equal(t, rqr, qr, what)
		}
	}
}

// TestAcyclicGivesUpOnVisibleCycles checks that the pass declines exactly
// the LTSs with a cycle through a visible step (any cycle under Strong),
// on random LTSs with and without them, and that Partition still answers
// there (by the refinement).
func TestAcyclicGivesUpOnVisibleCycles(t *testing.T) {
	seeds := testsize.Count(300, 3000)
	declined := 0
	for seed := range seeds {
		l := randomLTS(uint64(seed), 9)
		for _, eq := range allEquivalences {
			_, ok := classifyAcyclic(l, eq, &Options{})
			require.Equal(t, !hasOtherCycle(l, eq), ok, "seed %d, %v", seed, eq)
			if !ok {
				declined++
				got, _, err := Partition(l, eq, Options{})
				require.NoError(t, err)
				want, _, err := Partition(l, eq, Options{Algorithm: GV})
				require.NoError(t, err)
				require.Equal(t, want, got, "seed %d, %v", seed, eq)
			}
		}
	}
	require.Greater(t, declined, seeds/2, "the random LTSs should mostly have visible cycles")
}
