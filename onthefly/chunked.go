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

// lists are int32 lists in fixed blocks, each list within one block, so
// that a list is a slice: a list that does not fit in what is left of the
// current block starts the next one.
type lists struct {
	blocks []*[chunkLen]int32
	n      int // the position of the next list
}

// alloc reserves room for a list of size elements (at most chunkLen) and
// returns it, with its position.
func (l *lists) alloc(size int) ([]int32, int) {
	if l.n&(chunkLen-1)+size > chunkLen {
		l.n = (l.n + chunkLen - 1) &^ (chunkLen - 1)
	}
	if l.n>>chunkBits == len(l.blocks) {
		l.blocks = append(l.blocks, new([chunkLen]int32))
	}
	at := l.n
	l.n += size
	return l.blocks[at>>chunkBits][at&(chunkLen-1):][:size], at
}

// list returns the size elements at position at.
func (l *lists) list(at, size int) []int32 {
	return l.blocks[at>>chunkBits][at&(chunkLen-1):][:size]
}

// len returns the positions used, the padding at the blocks' ends included.
func (l *lists) len() int { return l.n }
