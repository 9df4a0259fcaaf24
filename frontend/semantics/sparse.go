package semantics

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// The sparse encoding of the states that the on-the-fly search stores.
// Those states are mostly zeros — idle threads' locals, empty slots of
// per-thread arrays, the hazard pointers and snapshots of threads not
// scanning: four values in five on the HP stack at 3×2 and 4×1 — and the
// states are the bulk of that search's memory, so it stores a state as
// its number of values (a uvarint), a mask of its non-zero values (bit i
// of byte i/8 for value i) and the non-zero values in order, as zigzag
// varints: about a third of the bytes of the dense encoding (encode) on
// those models. The explorer keeps the dense one, which it packs and
// unpacks many values at a time (the successors of a block, looked up in
// bulk); the on-the-fly search encodes one state at a time.

// EncodeSparse appends the sparse encoding of st to dst.
func EncodeSparse(dst []byte, st []int32) []byte {
	n := len(st)
	dst = binary.AppendUvarint(dst, uint64(n))
	start, nmask := len(dst), (n+7)/8
	// Written through an index into room made once: an append per value
	// costs a capacity check each.
	dst = slices.Grow(dst, nmask+maxEncoding(n))
	b := dst[start : start+nmask+maxEncoding(n)]
	clear(b[:nmask])
	w := nmask
	for i, v := range st {
		if v == 0 {
			continue
		}
		b[i>>3] |= 1 << (i & 7)
		// The zigzag varint of v (an int32's is its int64's).
		u := uint32(v<<1) ^ uint32(v>>31)
		for u >= 0x80 {
			b[w] = byte(u) | 0x80
			u >>= 7
			w++
		}
		b[w] = byte(u)
		w++
	}
	return dst[:start+w]
}

// DecodeSparse appends the values of a sparse encoding to dst.
func DecodeSparse(dst []int32, b []byte) []int32 {
	n64, k := binary.Uvarint(b) // the encodings are ours: never malformed
	n := int(n64)
	b = b[k:]
	mask, vals := b[:(n+7)/8], b[(n+7)/8:]
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	out := dst[start:]
	clear(out)
	for i, m := range mask {
		for ; m != 0; m &= m - 1 {
			j := i<<3 | bits.TrailingZeros8(m)
			if u := vals[0]; u < 0x80 { // one byte
				out[j] = int32(u>>1) ^ -int32(u&1)
				vals = vals[1:]
				continue
			}
			v, k := binary.Varint(vals)
			out[j] = int32(v)
			vals = vals[k:]
		}
	}
	return dst
}
