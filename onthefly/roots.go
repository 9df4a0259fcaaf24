package onthefly

import (
	"encoding/binary"
	mbits "math/bits"
)

// roots holds the stored states' tuples of part ids (stateStore), k ids a
// state, in fixed blocks of 1<<rootBits states. A block's ids take the
// bits of the largest id given when it was started, widened (the block
// copied) when a larger one comes while it fills: few distinct parts recur
// (a few thousand at HP 3/2, 22 050 at HP 2/6), so an id takes 12 to 16
// bits rather than an int32's 32, and a state at 3 threads 8 to 10 bytes
// rather than 20. Only the block being filled is ever widened, so the
// copies cost at most a block's tuples per bit of the largest id.
//
// A block is bytes with 8 to spare at its end, so that a field is read
// and written with one unaligned 64-bit load (width+7 ≤ 64 bits from any
// byte).
type roots struct {
	blocks [][]byte
	widths []uint8 // bits an id, block by block
	k      int     // ids a state
	width  int     // bits of the largest id given
	n      int     // states held
}

// Tuples are kept in fixed blocks of 1<<rootBits states (see chunked).
const (
	rootBits = 16
	rootMask = 1<<rootBits - 1
)

func newRoots(k int) *roots { return &roots{k: k, width: 1} }

// blockBytes returns the bytes of a block at width bits an id.
func (r *roots) blockBytes(width int) int { return ((rootMask+1)*r.k*width+7)/8 + 8 }

// get returns id i of state s.
func (r *roots) get(s int32, i int) uint32 {
	b := s >> rootBits
	return r.getIn(r.blocks[b], int(r.widths[b]), s, i)
}

// getIn returns id i of state s from blk, s's block, at width bits an id.
func (r *roots) getIn(blk []byte, width int, s int32, i int) uint32 {
	bit := (int(s&rootMask)*r.k + i) * width
	w := binary.LittleEndian.Uint64(blk[bit>>3:])
	return uint32(w>>(bit&7)) & (1<<width - 1)
}

// put sets id i of state s to p, which fits in its block's width.
func (r *roots) put(s int32, i int, p uint32) {
	b := s >> rootBits
	width := int(r.widths[b])
	bit := (int(s&rootMask)*r.k + i) * width
	blk := r.blocks[b][bit>>3:]
	w := binary.LittleEndian.Uint64(blk)
	w = w&^(uint64(1<<width-1)<<(bit&7)) | uint64(p)<<(bit&7)
	binary.LittleEndian.PutUint64(blk, w)
}

// add appends a state of part ids ids (k of them) and returns its id.
func (r *roots) add(ids []uint32) int32 {
	var top uint32
	for _, p := range ids {
		top |= p
	}
	r.width = max(r.width, mbits.Len32(top))
	s := int32(r.n)
	if s&rootMask == 0 {
		r.blocks = append(r.blocks, make([]byte, r.blockBytes(r.width)))
		r.widths = append(r.widths, uint8(r.width))
	} else if b := len(r.blocks) - 1; int(r.widths[b]) < r.width {
		r.widen(b, r.width)
	}
	r.n++
	for i, p := range ids {
		r.put(s, i, p)
	}
	return s
}

// widen copies block b at width bits an id.
func (r *roots) widen(b, width int) {
	old, oldWidth := r.blocks[b], int(r.widths[b])
	r.blocks[b], r.widths[b] = make([]byte, r.blockBytes(width)), uint8(width)
	for s := int32(b) << rootBits; int(s) < min(r.n, (b+1)<<rootBits); s++ {
		for i := range r.k {
			r.put(s, i, r.getIn(old, oldWidth, s, i))
		}
	}
}

// bytes returns the bytes of the blocks.
func (r *roots) bytes() int {
	n := 0
	for _, w := range r.widths {
		n += r.blockBytes(int(w))
	}
	return n
}

// packedInt32s is an array of int32s, each v kept as v+1 in as many bits
// as the largest so far needs (roots, one id a state): the pairs' subsets,
// of which a search meets a few thousand, their chains' next pairs (-1 at
// the end) and the states' chains' heads, as wide as the pairs' count. A
// block is widened when a larger element is set in it (set): a state's
// head is rewritten with each pair of it, so that the blocks of the states
// paired last are as wide as the pairs' count, and the others keep the
// width of the largest head they hold.
type packedInt32s struct{ r roots }

// Len returns the number of elements.
func (p *packedInt32s) Len() int { return p.r.n }

// get returns element i.
func (p *packedInt32s) get(i int) int32 { return int32(p.r.get(int32(i), 0)) - 1 }

// add appends v and returns its index.
func (p *packedInt32s) add(v int32) int {
	if p.r.k == 0 {
		p.r = roots{k: 1, width: 1}
	}
	return int(p.r.add([]uint32{uint32(v + 1)}))
}

// set sets element i to v, widening its block if v needs more bits.
func (p *packedInt32s) set(i int, v int32) {
	u := uint32(v + 1)
	if b := i >> rootBits; mbits.Len32(u) > int(p.r.widths[b]) {
		p.r.width = max(p.r.width, mbits.Len32(u))
		p.r.widen(b, p.r.width)
	}
	p.r.put(int32(i), 0, u)
}
