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
// diamonds, negations and conjunctions only. (Compare uses the history for
// every strong comparison: TestFormulasDistinguishRandomPairs covers it.)
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
}
