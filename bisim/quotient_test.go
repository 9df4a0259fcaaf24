package bisim

import (
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
