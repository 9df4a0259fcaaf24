package explore

// column is an append-only int32 sequence stored in fixed-size chunks, so
// that growing it never copies: the transition table of a large state
// space is appended to for minutes and copied once, at the end.
type column struct {
	chunks [][]int32
	n      int
}

const columnChunk = 1 << 20

func (c *column) append(v int32) {
	k := len(c.chunks)
	if k == 0 || len(c.chunks[k-1]) == columnChunk {
		c.chunks = append(c.chunks, make([]int32, 0, columnChunk))
		k++
	}
	c.chunks[k-1] = append(c.chunks[k-1], v)
	c.n++
}

// slice returns the values as one slice and releases the chunks.
func (c *column) slice() []int32 {
	out := make([]int32, 0, c.n)
	for i, ch := range c.chunks {
		out = append(out, ch...)
		c.chunks[i] = nil
	}
	c.chunks, c.n = nil, 0
	return out
}
