package onthefly

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRootsAgreeWithASlice: tuples added to roots read back as added,
// over more than a block of states, while the ids' widths grow from 1 bit,
// each position's to its own largest (32 for the first, 3 bits fewer for
// each next: the block being filled copied at each widening, the blocks
// before kept at their widths), with ids at each width's extremes, for
// tuples of 1, 5 and 8 ids; read one by one and a block at a time.
func TestRootsAgreeWithASlice(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 2))
	for _, k := range []int{1, 5, 8} {
		rs := newRoots(k)
		var want [][]uint32
		n := 2*(rootMask+1) + 17
		for s := range n {
			ids := make([]uint32, k)
			for i := range ids {
				// The largest id allowed grows with s up to 32-3i bits.
				width := 1 + s*(32-3*i)/n
				switch r.IntN(4) {
				case 0:
					ids[i] = 0
				case 1:
					ids[i] = uint32(1<<width - 1)
				default:
					ids[i] = uint32(r.Uint64() & (1<<width - 1))
				}
			}
			if got := rs.add(ids); got != int32(s) {
				t.Fatalf("k %d: state %d added as %d", k, s, got)
			}
			want = append(want, ids)
		}
		for i, w := range rs.width {
			require.Equal(t, 32-3*i, int(w), "position %d", i)
		}
		require.Less(t, int(rs.offs[k]), int(rs.offs[len(rs.offs)-1]), "the first block keeps its widths")
		for s, ids := range want {
			for i, p := range ids {
				if got := rs.get(int32(s), i); got != p {
					t.Fatalf("k %d state %d id %d: %d, want %d", k, s, i, got, p)
				}
			}
		}
		// The blocks decoded whole (the table's growth) read the same.
		var got []uint32
		for b := range rs.blocks {
			got = append(got, rs.block(nil, b)...)
		}
		require.Len(t, got, n*k)
		for s, ids := range want {
			require.Equal(t, ids, got[s*k:][:k], "k %d state %d, its block decoded", k, s)
		}
	}
}

// TestPackedInt32sRoundTrip: int32s appended to a packedInt32s, and set
// again in any block (as the states' chains' heads are), read back as last
// written, -1 and the extremes of int32 included, while the width grows
// with them and blocks are widened one by one; runs of -1 appended at once
// (addNone, as the τ-lists are laid out), across blocks, set later.
func TestPackedInt32sRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 4))
	var p packedInt32s
	var want []int32
	for len(want) < 3*(rootMask+1) {
		i := len(want)
		if r.IntN(500) == 0 {
			n := r.IntN(rootMask / 2)
			p.addNone(n)
			for range n {
				want = append(want, -1)
			}
			require.Equal(t, len(want), p.Len())
			continue
		}
		v := int32(r.IntN(i+2)) - 1
		switch r.IntN(1000) {
		case 0:
			v = math.MaxInt32
		case 1:
			v = math.MinInt32
		}
		require.Equal(t, i, p.add(v))
		want = append(want, v)
		if r.IntN(4) == 0 { // a head rewritten, up to twice as wide
			j, v := r.IntN(i+1), int32(r.IntN(2*i+2))-1
			p.set(j, v)
			want[j] = v
		}
	}
	require.Equal(t, len(want), p.Len())
	for i, v := range want {
		if got := p.get(i); got != v {
			t.Fatalf("element %d: %d, want %d", i, got, v)
		}
	}
}

// TestSparseInt32sAgreesWithASlice: int32s appended to a sparseInt32s,
// mostly -1 and otherwise up to the extremes of int32, read back as
// appended, past a block of words and over blocks of the values kept.
func TestSparseInt32sAgreesWithASlice(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 6))
	for _, ones := range []int{0, 1, 5, 64} { // elements not -1, in 64
		var s sparseInt32s
		var want []int32
		for i := range 64*chunkLen + 100 {
			v := int32(-1)
			if r.IntN(64) < ones {
				switch v = int32(r.IntN(i + 1)); r.IntN(1000) {
				case 0:
					v = math.MaxInt32
				case 1:
					v = math.MinInt32
				}
			}
			if got := s.add(v); got != i {
				t.Fatalf("%d in 64: element %d added as %d", ones, i, got)
			}
			want = append(want, v)
		}
		require.Equal(t, len(want), s.Len())
		for i, v := range want {
			if got := s.get(i); got != v {
				t.Fatalf("%d in 64: element %d: %d, want %d", ones, i, got, v)
			}
		}
	}
}
