package antichain

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/limits/limitstest"
)

// TestSortPolledSorts: sortPolled orders keys as slices.Sort does, for
// levels' pairs (few states or many, one state holding most pairs),
// keys that spread over all 64 bits, and repeated keys.
func TestSortPolledSorts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3*sortPiece + 17
	level := func(states int) []uint64 { // as levelOrder writes them
		keys := make([]uint64, n)
		for k := range keys {
			keys[k] = uint64(1000+r.IntN(states))<<32 | uint64(k)
		}
		return keys
	}
	cases := map[string][]uint64{
		"few states":  level(5),
		"many states": level(n),
		"one state":   level(1),
		"spread":      make([]uint64, n),
		"repeated":    make([]uint64, n),
		"small":       make([]uint64, 100),
	}
	for k := range cases["spread"] {
		cases["spread"][k] = r.Uint64()
		cases["repeated"][k] = uint64(r.IntN(300)) << 40
	}
	for k := range cases["small"] {
		cases["small"][k] = r.Uint64()
	}
	for name, keys := range cases {
		want := slices.Sorted(slices.Values(keys))
		if name != "one state" { // a state's pairs come in order
			require.False(t, slices.IsSorted(keys), "%s: not sorted before", name)
		}
		require.NoError(t, sortPolled(nil, keys), name)
		assert.True(t, slices.Equal(want, keys), name)
	}
}

// TestSortPolledPolls: a sort of many keys polls its context as it goes
// and stops at the limit, with the limit as its error; a sort of a few
// keys does not poll.
func TestSortPolledPolls(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := make([]uint64, 8*sortPiece)
	for k := range keys {
		keys[k] = r.Uint64()
	}
	polls := 0
	for ; polls < 100; polls++ { // 8 pieces: a handful of polls at most
		err := sortPolled(limitstest.StopAt(polls), slices.Clone(keys))
		if err == nil {
			break
		}
		assert.ErrorAs(t, err, new(*limits.LimitError))
	}
	assert.GreaterOrEqual(t, polls, 4, "polled every piece or so")
	assert.LessOrEqual(t, polls, 8, "not more often than every piece")
	assert.NoError(t, sortPolled(limitstest.StopAt(0), keys[:sortPiece-1]), "a piece: no poll")
}

// BenchmarkLevelSort sorts a level of 10 M pairs over 2 M states, as the
// search's levels of a large run are, by slices.Sort and by sortPolled
// (benchmarks/RESULTS.md has the figures).
func BenchmarkLevelSort(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	keys := make([]uint64, 10_000_000)
	for k := range keys {
		keys[k] = uint64(5_000_000+r.IntN(2_000_000))<<32 | uint64(k)
	}
	b.Run("slices.Sort", func(b *testing.B) {
		for b.Loop() {
			slices.Sort(slices.Clone(keys))
		}
	})
	b.Run("sortPolled", func(b *testing.B) {
		for b.Loop() {
			if err := sortPolled(nil, slices.Clone(keys)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
