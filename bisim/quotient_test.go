package bisim

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// TestQuotientPathsAgree holds the hash-set quotient (hashedQuotientKeys)
// to the class-by-class one on random LTSs, for every equivalence, with
// and without unreachable states: the same LTS, transition for
// transition.
func TestQuotientPathsAgree(t *testing.T) {
	hashed := 0
	for seed := range uint64(1500) {
		l := randomLTS(seed, 14)
		for _, eq := range allEquivalences {
			k, kblock, numBlocks, err := partitionKernel(l, eq, &Options{})
			require.NoError(t, err)
			_, rename, numClasses := classesOf(l, k, kblock, numBlocks)
			byClass := &lts.LTS{NumStates: numClasses, Labels: l.Labels, Out: make([]int32, numClasses+1)}
			quotientByClass(byClass, k, kblock, rename)
			require.NoError(t, byClass.Validate())
			keys, shape, ok := hashedQuotientKeys(k, kblock, rename, numClasses)
			require.True(t, ok, "small inputs always fit")
			byHash := &lts.LTS{NumStates: numClasses, Labels: l.Labels, Out: make([]int32, numClasses+1)}
			shape.fill(byHash, keys)
			require.Equal(t, byClass, byHash, "seed %d %v", seed, eq)
			if len(byHash.Src) > 0 {
				hashed++
			}
		}
	}
	require.Greater(t, hashed, 3000)
}

// TestQuotientFromBottomStates holds the quotient, which reads only the
// bottom states of each class, to the quotient collected from every
// kernel state's transitions, on random LTSs with τ-cycles and
// divergence, for every equivalence and algorithm; and checks that the
// shortcut is taken (non-bottom states exist and are skipped).
func TestQuotientFromBottomStates(t *testing.T) {
	skipped := 0
	for seed := range uint64(1500) {
		l := randomLTS(seed, 14)
		for _, eq := range allEquivalences {
			for _, alg := range []Algorithm{Fast, GJ, GV} {
				k, kblock, numBlocks, err := partitionKernel(l, eq, &Options{Algorithm: alg})
				require.NoError(t, err)
				_, rename, numClasses := classesOf(l, k, kblock, numBlocks)
				got := quotient(l, k, kblock, rename, numClasses)

				// Every kernel state's transitions, inert ones dropped.
				var keys [][3]int32
				for s := range k.n {
					c := rename[kblock[s]]
					if k.hasInertStep(s, kblock) {
						skipped++
					}
					for tr := k.out[s]; tr < k.out[s+1]; tr++ {
						if a, d, ok := k.quotientStep(tr, c, kblock, rename); ok {
							keys = append(keys, [3]int32{c, a, d})
						}
					}
				}
				slices.SortFunc(keys, func(x, y [3]int32) int { return slices.Compare(x[:], y[:]) })
				keys = slices.Compact(keys)
				var want [][3]int32
				for tr := range got.Src {
					want = append(want, [3]int32{got.Src[tr], got.Label[tr], got.Dst[tr]})
				}
				require.Equal(t, keys, want, "seed %d %v %v", seed, eq, alg)
			}
		}
	}
	require.Greater(t, skipped, 1000, "the inputs have non-bottom states")
}

// TestKeySet checks the hash set against a map, through many resizes.
func TestKeySet(t *testing.T) {
	s := newKeySet()
	want := map[uint64]bool{}
	for i := range uint64(60_000) {
		key := (i * 7919) % 40_009 << 20 // repeats, and keys alike in their low bits
		s.add(key)
		want[key] = true
	}
	got := map[uint64]bool{}
	for _, key := range s.keys() {
		require.False(t, got[key], "key %d twice", key)
		got[key] = true
	}
	require.Equal(t, want, got)
}
