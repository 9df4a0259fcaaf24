// Package racecounter is a known bug: a counter incremented with a plain
// c.n++, a data race between two Inc calls (and Inc and Get).
package racecounter

// Counter counts increments.
type Counter struct {
	n int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.n++
}

// Get returns the count.
func (c *Counter) Get() int {
	return c.n
}
