package history

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigSetAgainstMap inserts random configurations of random lengths
// (some longer than a chunk) and checks the answers against a Go map, and
// that stored entries never move; then again after reset, twice (the kept
// chunks are filled again, one too small for a long entry is replaced).
func TestConfigSetAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	acct := &account{}
	s := newConfigSet(acct)
	type config struct {
		tag uint64
		key string
	}
	for round, inserts := range []int{100_000, 20_000, 100_000} {
		if round > 0 {
			acct.close()
			acct = &account{}
			s.reset(acct)
			assert.Positive(t, acct.held, "round %d: the kept memory is charged", round)
		}
		want := map[config]bool{}
		var firstChunk *uint64
		for i := range inserts {
			n := rng.IntN(4)
			if i%5000 == 0 {
				n = chunkWords + rng.IntN(10) // an entry larger than a chunk
			}
			key := make([]uint64, n)
			for j := range key {
				key[j] = uint64(rng.IntN(3))
			}
			tag := uint64(rng.IntN(50))
			h := tag * 0x9E3779B97F4A7C15
			for _, w := range key {
				h = mix(h ^ w)
			}
			c := config{tag, string(wordsBytes(key))}
			got := s.insert(h, tag, key)
			require.NotEqual(t, full, got)
			assert.Equal(t, !want[c], got == added, "round %d, insertion %d", round, i)
			want[c] = true
			if firstChunk == nil {
				firstChunk = &s.chunks[0][0]
			}
		}
		assert.Equal(t, len(want), s.count, "round %d", round)
		assert.Same(t, firstChunk, &s.chunks[0][0], "round %d: chunks never move", round)
		assert.Positive(t, acct.held)
	}
}

// TestConfigSetBudget checks that an insertion the budget cannot hold is
// refused as full, never dropped silently.
func TestConfigSetBudget(t *testing.T) {
	b := &budget{limit: 1 << 20}
	acct := &account{b: b}
	s := newConfigSet(acct)
	var got insertion
	for i := uint64(0); got != full; i++ {
		got = s.insert(mix(i+1), i, []uint64{i, i})
		require.LessOrEqual(t, b.used.Load(), b.limit)
	}
	acct.close()
	assert.Zero(t, b.used.Load())
}

func wordsBytes(ws []uint64) []byte {
	b := make([]byte, 0, 8*len(ws))
	for _, w := range ws {
		for k := range 8 {
			b = append(b, byte(w>>(8*k)))
		}
	}
	return b
}
