package bisim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linbis/linbis/lts"
	"github.com/stretchr/testify/require"
)

// TestHistoryFormulasDistinguish reads, from Fast's split history on the
// union of random LTSs (independent and mutated pairs), a formula for every
// pair of states in different blocks, and checks each with the naive
// evaluator: true in the first state, false in the second, built of
// diamonds, negations and conjunctions only. It then runs Compare with the
// history used whatever the quotient's size.
func TestHistoryFormulasDistinguish(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 23))
	var depths []int
	pairs := 0
	for seed := uint64(0); seed < 1500; seed++ {
		a := randomLTS(2*seed, 8)
		b := randomLTS(2*seed+1, 8)
		if seed%2 == 1 {
			b = mutate(a, rng)
		}
		u, _ := lts.Union(a, b)
		opts := Options{history: &splitHistory{}}
		_, kblock, _, err := partitionKernel(u, Strong, &opts)
		require.NoError(t, err)
		hb := &historyBuilder{h: opts.history, l: u, block: kblock, memo: map[[2]int32]*Formula{}}
		for s := range u.NumStates {
			for x := range u.NumStates {
				if kblock[s] == kblock[x] {
					continue
				}
				f, err := hb.distinguish(s, x)
				require.NoError(t, err, "seed %d, states %d and %d", seed, s, x)
				if !naiveHolds(u, f, s) || naiveHolds(u, f, x) {
					t.Fatalf("seed %d: %v does not tell state %d from %d", seed, f, s, x)
				}
				require.True(t, formulaOpsAllowed(f, Strong), "seed %d: %v", seed, f)
				depths = append(depths, f.Depth())
				pairs++
			}
		}
	}
	slices.Sort(depths)
	t.Logf("%d pairs of states; depth median %d max %d", pairs, depths[len(depths)/2], depths[len(depths)-1])

	defer func(old int32) { historyMinClasses = old }(historyMinClasses)
	historyMinClasses = 0
	for seed := uint64(0); seed < 1500; seed++ {
		a := randomLTS(2*seed, 8)
		b := mutate(a, rng)
		c, err := Compare(a, b, Strong, Options{})
		require.NoError(t, err, "seed %d", seed) // Compare checks the formula on both sides
		if !c.Equivalent {
			f, side := c.Evidence.Formula, c.Evidence.HoldsIn
			sides := [2]*lts.LTS{a, b}
			require.True(t, naiveHolds(sides[side], f, sides[side].Initial) && !naiveHolds(sides[1-side], f, sides[1-side].Initial),
				"seed %d: %v", seed, f)
		}
	}
}
