package explore

import "github.com/linbis/linbis/internal/parallel"

// column is an append-only sequence of small integers stored in fixed-size
// chunks, so that growing it never copies: the transition table of a large
// state space is appended to for minutes and flattened into one slice at
// the end. Narrow element types (a thread fits in a byte, a label or a
// source step in 16 bits) keep the table small while exploring.
type column[T integer] struct {
	full [][]T // the chunks filled
	cur  []T   // the chunk being filled, of capacity columnChunk
}

const columnChunk = 1 << 20

// integer is the element types of columns.
type integer interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32
}

// append adds v. The fast path is a store into cur: it runs once per
// transition and column.
func (c *column[T]) append(v T) {
	if len(c.cur) == cap(c.cur) {
		c.next()
	}
	c.cur = append(c.cur, v)
}

// grow makes c k values longer and returns the values added, for the
// caller to write, if they fit in the chunk being filled; else it returns
// nil and leaves c as it was.
func (c *column[T]) grow(k int) []T {
	n := len(c.cur)
	if n+k > cap(c.cur) {
		return nil
	}
	c.cur = c.cur[:n+k]
	return c.cur[n:]
}

// len returns the number of values appended: every chunk but the last is
// full.
func (c *column[T]) len() int { return len(c.full)*columnChunk + len(c.cur) }

// at returns the value appended i-th, from 0.
func (c *column[T]) at(i int) T {
	if k := i / columnChunk; k < len(c.full) {
		return c.full[k][i%columnChunk]
	}
	return c.cur[i%columnChunk]
}

// next starts a new chunk.
func (c *column[T]) next() {
	if c.cur != nil {
		c.full = append(c.full, c.cur)
	}
	c.cur = make([]T, 0, columnChunk)
}

// flatten returns the values of c as one []U and releases its chunks; up
// to workers goroutines convert chunks at the same time.
func flatten[U, T integer](c *column[T], workers int) []U {
	chunks := append(c.full, c.cur)
	out := make([]U, c.len())
	parallel.ForEach(workers, len(chunks), func(i int) {
		dst := out[i*columnChunk:]
		for j, v := range chunks[i] {
			dst[j] = U(v)
		}
		chunks[i] = nil
	})
	c.full, c.cur = nil, nil
	return out
}
