package history

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGapSet checks prev and next against a plain scan, across word and
// summary boundaries.
func TestGapSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int32{1, 63, 64, 65, 4095, 4096, 4097, 9000} {
		s := newGapSet(n)
		member := make([]bool, n)
		for range 3 {
			for range 1 + rng.IntN(8) {
				g := rng.Int32N(n)
				s.add(g)
				member[g] = true
			}
			for x := int32(-1); x <= n; x++ {
				wantPrev, wantNext := int32(-1), n
				for g := min(x, n-1); g >= 0; g-- {
					if member[g] {
						wantPrev = g
						break
					}
				}
				for g := max(x, 0); g < n; g++ {
					if member[g] {
						wantNext = g
						break
					}
				}
				if x < n {
					require.Equal(t, wantPrev, s.prev(x), "n=%d prev(%d)", n, x)
				}
				require.Equal(t, wantNext, s.next(x), "n=%d next(%d)", n, x)
			}
		}
	}
}

// TestMinAddTree checks that zero reports exactly the gaps whose count
// reaches 0 under range decrements, each once.
func TestMinAddTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for range 50 {
		n := 1 + rng.IntN(300)
		counts := make([]int32, n)
		for i := range counts {
			counts[i] = rng.Int32N(4)
		}
		tr := newMinAddTree(counts)
		reported := make([]bool, n)
		drain := func() {
			for g := tr.zero(); g >= 0; g = tr.zero() {
				require.False(t, reported[g])
				require.Zero(t, counts[g])
				reported[g] = true
			}
			for g := range counts {
				require.Equal(t, counts[g] == 0, reported[g], "gap %d", g)
			}
		}
		drain()
		for range 20 {
			l := rng.IntN(n)
			r := l + 1 + rng.IntN(n-l)
			ok := true
			for g := l; g < r; g++ {
				ok = ok && counts[g] > 0
			}
			if !ok {
				continue // counts never go below 0 in the peeling
			}
			for g := l; g < r; g++ {
				counts[g]--
			}
			tr.add(int32(l), int32(r), -1)
			drain()
		}
	}
}
