package explore

// column is an append-only sequence of small integers stored in fixed-size
// chunks, so that growing it never copies: the transition table of a large
// state space is appended to for minutes and converted to []int32 once, at
// the end. Narrow element types (a thread fits in a byte, a label or a
// source step in 16 bits) keep the table small while exploring.
type column[T ~int8 | ~uint8 | ~int16 | ~uint16 | ~int32] struct {
	chunks [][]T
	n      int
}

const columnChunk = 1 << 20

func (c *column[T]) append(v T) {
	k := len(c.chunks)
	if k == 0 || len(c.chunks[k-1]) == columnChunk {
		c.chunks = append(c.chunks, make([]T, 0, columnChunk))
		k++
	}
	c.chunks[k-1] = append(c.chunks[k-1], v)
	c.n++
}

// slice returns the values as one []int32 and releases the chunks.
func (c *column[T]) slice() []int32 {
	out := make([]int32, 0, c.n)
	for i, ch := range c.chunks {
		for _, v := range ch {
			out = append(out, int32(v))
		}
		c.chunks[i] = nil
	}
	c.chunks, c.n = nil, 0
	return out
}
