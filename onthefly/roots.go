package onthefly

import (
	"encoding/binary"
	mbits "math/bits"
)

// roots holds the stored states' tuples of part ids (stateStore), k ids a
// state, each in width bits: the fewest that hold every part id given so
// far. Few distinct parts recur (a few thousand at HP 3/2), so an id takes
// 12 to 16 bits rather than an int32's 32, and a state at 3 threads 8 to
// 10 bytes rather than 20. When a part id no longer fits, every tuple is
// copied at the new width (widen); ids only grow, so that happens at most
// 32 times, and the copies' total is at most twice the last one.
//
// The tuples are in fixed blocks of 1<<rootBits states, each block bytes
// with 8 bytes to spare at its end, so that a field is read and written
// with one unaligned 64-bit load (width+7 ≤ 64 bits from any byte).
type roots struct {
	blocks [][]byte
	k      int // ids a state
	width  int // bits an id
	n      int // states held
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
func (r *roots) get(s int32, i int) uint32 { return r.getIn(r.blocks[s>>rootBits], s, i) }

// put sets id i of state s to p, which fits in width bits.
func (r *roots) put(s int32, i int, p uint32) {
	bit := (int(s&rootMask)*r.k + i) * r.width
	b := r.blocks[s>>rootBits][bit>>3:]
	w := binary.LittleEndian.Uint64(b)
	w = w&^(uint64(1<<r.width-1)<<(bit&7)) | uint64(p)<<(bit&7)
	binary.LittleEndian.PutUint64(b, w)
}

// add appends a state of part ids ids (k of them) and returns its id.
func (r *roots) add(ids []uint32) int32 {
	var top uint32
	for _, p := range ids {
		top |= p
	}
	if w := mbits.Len32(top); w > r.width {
		r.widen(w)
	}
	s := int32(r.n)
	if s&rootMask == 0 {
		r.blocks = append(r.blocks, make([]byte, r.blockBytes(r.width)))
	}
	r.n++
	for i, p := range ids {
		r.put(s, i, p)
	}
	return s
}

// widen copies every tuple to width bits an id, block by block (a block's
// old copy is garbage as soon as its new one is made).
func (r *roots) widen(width int) {
	old := roots{k: r.k, width: r.width}
	r.width = width
	for b, blk := range r.blocks {
		r.blocks[b] = make([]byte, r.blockBytes(width))
		for s := int32(b) << rootBits; int(s) < r.n && s>>rootBits == int32(b); s++ {
			for i := range r.k {
				r.put(s, i, old.getIn(blk, s, i))
			}
		}
	}
}

// getIn returns id i of state s from blk, s's block.
func (r *roots) getIn(blk []byte, s int32, i int) uint32 {
	bit := (int(s&rootMask)*r.k + i) * r.width
	w := binary.LittleEndian.Uint64(blk[bit>>3:])
	return uint32(w>>(bit&7)) & (1<<r.width - 1)
}

// bytes returns the bytes of the blocks.
func (r *roots) bytes() int { return len(r.blocks) * r.blockBytes(r.width) }

// packedInt32s is an append-only array of int32s, each v kept as v+1 in
// as many bits as the largest so far needs (roots, one id a state): the
// pairs' subsets, of which a search meets a few thousand, and their
// chains' next pairs (-1 at the end), as wide as the pairs' count.
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
