package ints

import (
	"sync"
	"sync/atomic"
)

type cowConfig struct{ a, b int }

// COW publishes an immutable configuration through an atomic.Value, copy
// on write: Set under a mutex, Bump lock-free with CompareAndSwap.
type COW struct {
	mu sync.Mutex
	v  atomic.Value
}

// NewCOW returns a COW holding a zero configuration.
func NewCOW() *COW {
	s := &COW{}
	s.v.Store(&cowConfig{})
	return s
}

// Set copies the config, changes it and publishes the copy.
func (s *COW) Set(x int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.v.Load().(*cowConfig)
	c := *old
	c.a, c.b = x, -x
	s.v.Store(&c)
}

// Sum is always 0.
func (s *COW) Sum() int {
	c := s.v.Load().(*cowConfig)
	return c.a + c.b
}

// Bump publishes a+1 lock-free with CompareAndSwap.
func (s *COW) Bump() int {
	for {
		old := s.v.Load()
		o := old.(*cowConfig)
		n := &cowConfig{a: o.a + 1, b: -o.a - 1}
		if s.v.CompareAndSwap(old, n) {
			return n.a
		}
	}
}

// Empty reports whether no configuration is published (never, after
// NewCOW).
func (s *COW) Empty() bool { return s.v.Load() == nil }
