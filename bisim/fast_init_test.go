package bisim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/linbis/linbis/lts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// foldingLTS makes a small random LTS whose labels include pairs that
// splitByEnabledLabels folds onto the same mask bit (ids 64 apart), so
// that the folding is exercised, not only the plain label sets.
func foldingLTS(seed uint64, maxStates int) *lts.LTS {
	rng := rand.New(rand.NewPCG(seed, 0xf01d))
	b := lts.NewBuilder()
	for i := 1; i < 140; i++ {
		b.Label(fmt.Sprintf("l%d", i)) // ids 1..139
	}
	ids := []int32{lts.Tau, lts.Tau, 1, 65, 129, 2, 66}
	n := int32(1 + rng.IntN(maxStates))
	b.SetNumStates(n)
	b.SetInitial(rng.Int32N(n))
	for range rng.IntN(int(3*n) + 1) {
		b.AddTransition(rng.Int32N(n), ids[rng.IntN(len(ids))], rng.Int32N(n))
	}
	return b.Build()
}

// TestInitialSplitIsCoarser checks that the refiner's initial partition
// (splitByEnabledLabels) never separates two states the naive oracle
// finds equivalent, and that its bookkeeping (ranges, inert counts,
// bottom states, degrees) is exact, on random LTSs with and without
// folded labels; the full partitions are checked against the oracle too.
func TestInitialSplitIsCoarser(t *testing.T) {
	split := 0
	for _, eq := range allEquivalences {
		for seed := range 1500 {
			l := randomLTS(uint64(seed), 7)
			if seed%2 == 1 {
				l = foldingLTS(uint64(seed), 7)
			}
			R := oracle(l, eq)
			k := newKernel(l, eq)
			r := newRefiner(k)
			if r.numBlocks > 1 {
				split++
			}
			for s := range l.NumStates {
				for u := range l.NumStates {
					if R[s][u] {
						require.Equal(t, r.block[k.kernelState(s)], r.block[k.kernelState(u)],
							"seed %d %v: states %d and %d are equivalent but split", seed, eq, s, u)
					}
				}
			}
			requireExactBookkeeping(t, r, fmt.Sprintf("seed %d %v", seed, eq))
			block, _, err := Partition(l, eq, Options{})
			require.NoError(t, err)
			require.NoError(t, samePartition(block, R), "seed %d %v", seed, eq)
		}
	}
	assert.Greater(t, split, 1000, "the initial split should split often on these inputs")
}

// requireExactBookkeeping checks the fields of a Fast refiner that its
// invariants keep exact between rounds.
func requireExactBookkeeping(t *testing.T, r *refiner, what string) {
	t.Helper()
	k := r.k
	for b := range r.numBlocks {
		bottom, out, in := int32(0), int32(0), int32(0)
		for i := r.begin[b]; i < r.end[b]; i++ {
			s := r.perm[i]
			require.Equal(t, b, r.block[s], what)
			require.Equal(t, i, r.where[s], what)
			inert := int32(0)
			for tr := k.out[s]; tr < k.out[s+1]; tr++ {
				if r.inert(s, tr) {
					inert++
				}
			}
			require.Equal(t, inert, r.st[s].inertOut, "%s: inert τ-steps of %d", what, s)
			if inert == 0 {
				bottom++
			}
			out += k.out[s+1] - k.out[s]
			in += r.into[s].live - r.into[s].from
		}
		require.Equal(t, bottom, r.bottom[b], "%s: bottom states of block %d", what, b)
		require.Equal(t, out, r.blockOut[b], what)
		require.Equal(t, in, r.blockIn[b], what)
		if rep := r.rep[b]; rep >= 0 {
			require.Equal(t, b, r.block[rep], what)
			require.Zero(t, r.st[rep].inertOut, what)
		}
	}
}
