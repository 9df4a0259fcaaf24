// Package spincounter is a counter guarded by a spin lock over
// atomic.Bool: linearizable, not lock-free (a thread that stops while
// holding the lock stops the others).
package spincounter

import "sync/atomic"

// Counter counts increments; its zero value is 0.
type Counter struct {
	locked atomic.Bool
	n      int
}

func (c *Counter) lock() {
	for !c.locked.CompareAndSwap(false, true) {
	}
}

func (c *Counter) unlock() { c.locked.Store(false) }

// Inc adds one and returns the new count.
func (c *Counter) Inc() int {
	c.lock()
	c.n++
	v := c.n
	c.unlock()
	return v
}

// Get returns the count.
func (c *Counter) Get() int {
	c.lock()
	defer c.unlock()
	return c.n
}
