package onthefly

// chunked is an append-only array of fixed blocks, for the search's
// per-pair and per-state records. A slice regrown by append leaves its old
// array behind as garbage at each doubling, which the collector frees only
// when the heap has grown to twice what is live: the process's peak then
// holds up to three times the records. Blocks are never copied nor freed
// (the list of blocks is regrown, but it is small), so the search's
// resident memory stays close to the records it holds. T holds no
// pointers, so the collector does not scan the blocks either.
type chunked[T any] struct {
	blocks []*[chunkLen]T
	n      int
}

// chunkLen is the number of elements of a block.
const (
	chunkBits = 16
	chunkLen  = 1 << chunkBits
)

// Len returns the number of elements.
func (c *chunked[T]) Len() int { return c.n }

// at returns a pointer to element i.
func (c *chunked[T]) at(i int) *T { return &c.blocks[i>>chunkBits][i&(chunkLen-1)] }

// get returns element i.
func (c *chunked[T]) get(i int) T { return c.blocks[i>>chunkBits][i&(chunkLen-1)] }

// add appends v and returns its index.
func (c *chunked[T]) add(v T) int {
	i := c.n
	if i&(chunkLen-1) == 0 {
		c.blocks = append(c.blocks, new([chunkLen]T))
	}
	c.blocks[i>>chunkBits][i&(chunkLen-1)] = v
	c.n++
	return i
}

// bits is an append-only bitset of fixed blocks.
type bits struct{ words chunked[uint64] }

// set sets bit i to v.
func (b *bits) set(i int, v bool) {
	for b.words.Len() <= i>>6 {
		b.words.add(0)
	}
	w := b.words.at(i >> 6)
	if v {
		*w |= 1 << (i & 63)
	} else {
		*w &^= 1 << (i & 63)
	}
}

// has reports bit i (false beyond the bits set).
func (b *bits) has(i int) bool {
	return i>>6 < b.words.Len() && b.words.get(i>>6)&(1<<(i&63)) != 0
}
