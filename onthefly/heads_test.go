package onthefly

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestChainHeadsAgreesWithASlice sets the heads of states as the search
// does (each state's first pair when it is stored, or later; more pairs
// of random states; a state left without a pair) and reads them back
// after each step, through the table and packed.
func TestChainHeadsAgreesWithASlice(t *testing.T) {
	for _, multi := range []float64{0, 0.01, 0.3} {
		rng := rand.New(rand.NewPCG(1, uint64(multi*100)))
		var h chainHeads
		var want []int32
		pair := int32(0)
		check := func(s int) {
			t.Helper()
			if got := h.get(s); got != want[s] {
				t.Fatalf("state %d (multi %v, packed %v): head %d, want %d", s, multi, h.packed, got, want[s])
			}
		}
		const steps = 150_000
		for i := range steps {
			switch {
			case len(want) > 0 && rng.Float64() < multi:
				s := rng.IntN(len(want))
				h.set(s, pair)
				want[s] = pair
				pair++
				check(s)
			case i == steps-1000:
				// A state stored without a pair (for a violation's
				// replay), paired later if ever.
				h.add(-1)
				want = append(want, -1)
			default:
				s := h.add(-1)
				want = append(want, -1)
				check(s)
				h.set(s, pair)
				want[s] = pair
				pair += int32(rng.IntN(3)) + 1 // pairs of other states between
				check(s)
				if s > 0 {
					check(rng.IntN(s))
				}
			}
		}
		require.Equal(t, len(want), h.Len())
		for s := range want {
			check(s)
		}
		t.Logf("multi %v: %d states, packed %v, %d bytes", multi, h.Len(), h.packed, h.bytes())
		require.Equal(t, multi == 0.3, h.packed)
	}
}

func TestSelect64(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	for range 10_000 {
		x := rng.Uint64() & rng.Uint64()
		r := 0
		for i := range 64 {
			if x&(1<<i) != 0 {
				if got := select64(x, r); got != i {
					t.Fatalf("select64(%#x, %d) = %d, want %d", x, r, got, i)
				}
				r++
			}
		}
	}
}
