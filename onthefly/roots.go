package onthefly

import (
	"encoding/binary"
	mbits "math/bits"
	"slices"
)

// roots holds the stored states' tuples of part ids (stateStore), k ids a
// state, in fixed blocks of 1<<rootBits states. Each position of the tuple
// has a width of its own: a block's id at position i takes the bits of the
// largest id given at i when it was started, widened (the block copied)
// when a larger one comes while it fills. Few distinct parts recur, and
// fewer still of some kinds (stateStore numbers the parts of each kind
// apart): at HP 3/2, 4 178 shared parts but 157 threads' and 97 heaps', so
// that a state at 3 threads takes 13+3×8+7 bits rather than 5×13, and
// rather than an int32 each. Only the block being filled is widened by
// add, so the copies cost at most a block's tuples per bit of the largest
// ids; set widens the block it writes to (packedInt32s).
//
// A block is bytes with 8 to spare at its end, so that a field is read
// and written with one unaligned 64-bit load (width+7 ≤ 64 bits from any
// byte).
type roots struct {
	blocks [][]byte
	// offs[b*(k+1)+i] is where id i of a tuple of block b starts, in bits
	// from the tuple's start, and offs[b*(k+1)+k] the tuple's bits: id i
	// is offs[…+i+1]-offs[…+i] bits wide.
	offs  []uint16
	k     int     // ids a state
	width []uint8 // bits of the largest id given at each position
	n     int     // states held
}

// Tuples are kept in fixed blocks of 1<<rootBits states (see chunked).
const (
	rootBits = 16
	rootMask = 1<<rootBits - 1
)

func newRoots(k int) *roots {
	r := &roots{k: k, width: make([]uint8, k)}
	for i := range r.width {
		r.width[i] = 1
	}
	return r
}

// blockBytes returns the bytes of a block of tuples of bits bits.
func blockBytes(bits int) int { return ((rootMask+1)*bits+7)/8 + 8 }

// get returns id i of state s.
func (r *roots) get(s int32, i int) uint32 {
	b := int(s >> rootBits)
	return r.getIn(r.blocks[b], r.offs[b*(r.k+1):][:r.k+1], s, i)
}

// getIn returns id i of state s from blk, s's block, whose offsets are
// offs.
func (r *roots) getIn(blk []byte, offs []uint16, s int32, i int) uint32 {
	return tupleRef{blk, offs, int(s&rootMask) * int(offs[r.k])}.id(i)
}

// tupleRef is where a state's tuple is: its block, the block's offsets
// and the tuple's first bit. A reader of several ids of one tuple (a
// comparison, a vector) finds the block once.
type tupleRef struct {
	blk  []byte
	offs []uint16
	base int
}

// tuple returns where state s's tuple is.
func (r *roots) tuple(s int32) tupleRef {
	b := int(s >> rootBits)
	offs := r.offs[b*(r.k+1):][:r.k+1]
	return tupleRef{r.blocks[b], offs, int(s&rootMask) * int(offs[r.k])}
}

// block sets dst to the tuples of block b, k ids a state, and returns
// it: a reader of every tuple in order (the table's growth) decodes them
// a block at a time, with no state's block and offsets to find.
func (r *roots) block(dst []uint32, b int) []uint32 {
	offs := r.offs[b*(r.k+1):][:r.k+1]
	blk := r.blocks[b]
	n := min(r.n-b<<rootBits, rootMask+1)
	dst = slices.Grow(dst[:0], n*r.k)[:n*r.k]
	for i := range r.k {
		// Position i of every tuple, one after another.
		lo, width, step := int(offs[i]), offs[i+1]-offs[i], int(offs[r.k])
		mask := uint32(1)<<width - 1
		for j, bit := i, lo; j < len(dst); j, bit = j+r.k, bit+step {
			w := binary.LittleEndian.Uint64(blk[bit>>3:])
			dst[j] = uint32(w>>(bit&7)) & mask
		}
	}
	return dst
}

// id returns the tuple's id i.
func (t tupleRef) id(i int) uint32 {
	bit := t.base + int(t.offs[i])
	w := binary.LittleEndian.Uint64(t.blk[bit>>3:])
	return uint32(w>>(bit&7)) & (1<<(t.offs[i+1]-t.offs[i]) - 1)
}

// put sets id i of state s to p, which fits in its block's width.
func (r *roots) put(s int32, i int, p uint32) { r.tuple(s).put(i, p) }

// put sets the tuple's id i to p, which fits in its block's width.
func (t tupleRef) put(i int, p uint32) {
	bit := t.base + int(t.offs[i])
	blk := t.blk[bit>>3:]
	w := binary.LittleEndian.Uint64(blk)
	w = w&^(uint64(1<<(t.offs[i+1]-t.offs[i])-1)<<(bit&7)) | uint64(p)<<(bit&7)
	binary.LittleEndian.PutUint64(blk, w)
}

// fits reports whether block b's ids are as wide as the largest given.
func (r *roots) fits(b int) bool {
	offs := r.offs[b*(r.k+1):]
	for i, w := range r.width {
		if int(offs[i+1]-offs[i]) < int(w) {
			return false
		}
	}
	return true
}

// shape appends the offsets of a block at the largest widths given to
// offs, and returns them with the tuple's bits.
func (r *roots) shape(offs []uint16) ([]uint16, int) {
	at := 0
	for _, w := range r.width {
		offs = append(offs, uint16(at))
		at += int(w)
	}
	return append(offs, uint16(at)), at
}

// add appends a state of part ids ids (k of them) and returns its id.
func (r *roots) add(ids []uint32) int32 {
	for i, p := range ids {
		r.width[i] = max(r.width[i], uint8(mbits.Len32(p)))
	}
	s := int32(r.n)
	if s&rootMask == 0 {
		var bits int
		r.offs, bits = r.shape(r.offs)
		r.blocks = append(r.blocks, make([]byte, blockBytes(bits)))
	} else if b := len(r.blocks) - 1; !r.fits(b) {
		r.widen(b)
	}
	r.n++
	t := r.tuple(s)
	for i, p := range ids {
		t.put(i, p)
	}
	return s
}

// widen copies block b at the largest widths given.
func (r *roots) widen(b int) {
	old, oldOffs := r.blocks[b], append([]uint16(nil), r.offs[b*(r.k+1):][:r.k+1]...)
	shape, bits := r.shape(nil)
	copy(r.offs[b*(r.k+1):], shape)
	r.blocks[b] = make([]byte, blockBytes(bits))
	for s := int32(b) << rootBits; int(s) < min(r.n, (b+1)<<rootBits); s++ {
		for i := range r.k {
			r.put(s, i, r.getIn(old, oldOffs, s, i))
		}
	}
}

// bytes returns the bytes of the blocks.
func (r *roots) bytes() int {
	n := 0
	for b := range r.blocks {
		n += blockBytes(int(r.offs[b*(r.k+1)+r.k]))
	}
	return n
}

// packedInt32s is an array of int32s, each v kept as v+1 in as many bits
// as the largest so far needs (roots, one id a state): the pairs' subsets,
// of which a search meets a few thousand, the τ-lists' edges, as wide as
// the states' count, and the states' chains' heads where many states have
// several pairs (chainHeads), as wide as the pairs' count. A block is
// widened when a larger element is set in it (set): a state's head is
// rewritten with each pair of it, so that the blocks of the states paired
// last are as wide as the pairs' count, and the others keep the width of
// the largest head they hold.
type packedInt32s struct{ r roots }

// Len returns the number of elements.
func (p *packedInt32s) Len() int { return p.r.n }

// get returns element i.
func (p *packedInt32s) get(i int) int32 { return int32(p.r.get(int32(i), 0)) - 1 }

// add appends v and returns its index.
func (p *packedInt32s) add(v int32) int {
	if p.r.k == 0 {
		p.r = *newRoots(1)
	}
	return int(p.r.add([]uint32{uint32(v + 1)}))
}

// addNone appends n elements -1 (kept as 0, which fits any width: the
// blocks are zeroed, and no element past the last is ever written).
func (p *packedInt32s) addNone(n int) {
	if p.r.k == 0 {
		p.r = *newRoots(1)
	}
	for n > 0 {
		if p.r.n&rootMask == 0 {
			var bits int
			p.r.offs, bits = p.r.shape(p.r.offs)
			p.r.blocks = append(p.r.blocks, make([]byte, blockBytes(bits)))
		}
		k := min(n, rootMask+1-p.r.n&rootMask)
		p.r.n += k
		n -= k
	}
}

// set sets element i to v, widening its block if v needs more bits.
func (p *packedInt32s) set(i int, v int32) {
	u := uint32(v + 1)
	if b := i >> rootBits; mbits.Len32(u) > int(p.r.offs[2*b+1]) {
		p.r.width[0] = max(p.r.width[0], uint8(mbits.Len32(u)))
		p.r.widen(b)
	}
	p.r.put(int32(i), 0, u)
}

// sparseInt32s is an append-only array of int32s most of which are -1:
// the pairs' next pairs, -1 for the first pair of each state, which at HP
// 3/3 are 21.8 M of the 27.0 M pairs. A bit an element says whether it is
// -1, and the others are kept in order, found by the bit's rank: the
// ones before it in its word, counted with a popcount, and before its
// word, kept beside it. That is 2 bits an element and 4 bytes for each of
// the others, where a packedInt32s takes about as many for every
// element. A word and its count are read together, so that an element
// that is -1 costs one load; the others are int32s, not packed, since
// the chains of several pairs are walked at every lookup of their state
// (Treiber 6/1 has 3 pairs a state).
type sparseInt32s struct {
	words chunked[sparseWord]
	vals  chunked[int32] // the elements that are not -1, in order
	n     int
}

// sparseWord is the bits of 64 elements (set: not -1) and the count of
// the elements before them that are not -1.
type sparseWord struct {
	set  uint64
	rank uint64
}

// Len returns the number of elements.
func (s *sparseInt32s) Len() int { return s.n }

// get returns element i.
func (s *sparseInt32s) get(i int) int32 {
	w, bit := s.words.at(i>>6), uint64(1)<<(i&63)
	if w.set&bit == 0 {
		return -1
	}
	return s.vals.get(int(w.rank) + mbits.OnesCount64(w.set&(bit-1)))
}

// add appends v and returns its index.
func (s *sparseInt32s) add(v int32) int {
	i := s.n
	if i&63 == 0 {
		s.words.add(sparseWord{rank: uint64(s.vals.Len())})
	}
	if v != -1 {
		s.words.at(i >> 6).set |= 1 << (i & 63)
		s.vals.add(v)
	}
	s.n++
	return i
}
