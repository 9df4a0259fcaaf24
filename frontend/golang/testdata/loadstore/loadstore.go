// Package loadstore is a known bug: an increment made of an atomic load
// and an atomic store. Race-free, but not linearizable: two increments
// that overlap both return 1.
package loadstore

import "sync/atomic"

// Counter counts increments.
type Counter struct {
	n atomic.Int64
}

// Inc adds one and returns the new count.
func (c *Counter) Inc() int64 {
	v := c.n.Load() + 1
	c.n.Store(v)
	return v
}
