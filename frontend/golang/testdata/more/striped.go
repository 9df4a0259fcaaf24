package more

import "sync/atomic"

type stripe struct {
	n atomic.Int64
	_ [56]byte
}

// Striped is a counter striped over padded atomics, added to stripe by
// stripe and summed by a loop over the stripes (for i := range, which
// does not read the array). Lock-free, and not linearizable: a sum may
// read one stripe before an add and another after a later add, a total
// the counter never held.
type Striped struct {
	stripes [2]stripe
}

// Add adds d to stripe i (modulo their number).
func (c *Striped) Add(i, d int) {
	c.stripes[i%len(c.stripes)].n.Add(int64(d))
}

// Sum returns the sum of the stripes, read one after the other.
func (c *Striped) Sum() int64 {
	var s int64
	for i := range c.stripes {
		s += c.stripes[i].n.Load()
	}
	return s
}
