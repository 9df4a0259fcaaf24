package ints

import "sync"

type centry[K comparable, V any] struct {
	key   K
	val   V
	valid bool
}

// Cache is a direct-mapped cache under an embedded RWMutex, its slots
// reached through a helper that returns the address of one
// (slot: the address of an element chosen by a variable).
type Cache[K comparable, V any] struct {
	sync.RWMutex
	slots [2]centry[K, V]
	puts  int
}

func (c *Cache[K, V]) slot(h int) *centry[K, V] {
	return &c.slots[h%len(c.slots)]
}

// checked is slot with a check of its own: its one return follows a
// panic's branch.
func (c *Cache[K, V]) checked(h int) *centry[K, V] {
	if h < 0 {
		panic("negative hash")
	}
	return &c.slots[h%len(c.slots)]
}

// Put stores v under k in the slot of hash h.
func (c *Cache[K, V]) Put(k K, h int, v V) int {
	c.Lock()
	defer c.Unlock()
	c.puts++
	*c.slot(h) = centry[K, V]{key: k, val: v, valid: true}
	return c.puts
}

// Get reads k in the slot of hash h.
func (c *Cache[K, V]) Get(k K, h int) (V, bool) {
	c.RLock()
	defer c.RUnlock()
	e := c.checked(h)
	if e.valid && e.key == k {
		return e.val, true
	}
	var zero V
	return zero, false
}
