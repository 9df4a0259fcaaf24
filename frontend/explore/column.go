package explore

import "github.com/linbis/linbis/internal/parallel"

// column is an append-only sequence of small integers stored in fixed-size
// chunks, so that growing it never copies: the transition table of a large
// state space is appended to for minutes and converted to []int32 once, at
// the end. Narrow element types (a thread fits in a byte, a label or a
// source step in 16 bits) keep the table small while exploring.
type column[T ~int8 | ~uint8 | ~int16 | ~uint16 | ~int32] struct {
	full [][]T // the chunks filled
	cur  []T   // the chunk being filled, of capacity columnChunk
	n    int
}

const columnChunk = 1 << 20

// append adds v. The fast path is a store into cur: it runs once per
// transition and column.
func (c *column[T]) append(v T) {
	if len(c.cur) == cap(c.cur) {
		c.next()
	}
	c.cur = append(c.cur, v)
	c.n++
}

// next starts a new chunk.
func (c *column[T]) next() {
	if c.cur != nil {
		c.full = append(c.full, c.cur)
	}
	c.cur = make([]T, 0, columnChunk)
}

// slice returns the values as one []int32 and releases the chunks; up to
// workers goroutines convert chunks at the same time.
func (c *column[T]) slice(workers int) []int32 {
	chunks := append(c.full, c.cur)
	out := make([]int32, c.n)
	parallel.ForEach(workers, len(chunks), func(i int) {
		dst := out[i*columnChunk:]
		for j, v := range chunks[i] {
			dst[j] = int32(v)
		}
		chunks[i] = nil
	})
	c.full, c.cur, c.n = nil, nil, 0
	return out
}
