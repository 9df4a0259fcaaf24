// Package spinlockstack is the Go twin of the bundled model
// spinlock-stack.lin: a stack guarded by a test-and-set spin lock.
package spinlockstack

import "sync/atomic"

// Empty is the modeling language's EMPTY.
const Empty = -1 << 30

type node struct {
	value int
	next  *node
}

// Stack is the spin-locked stack.
type Stack struct {
	lock atomic.Bool
	top  *node
}

func (s *Stack) push(v int) {
	for !s.lock.CompareAndSwap(false, true) {
	}
	s.top = &node{value: v, next: s.top}
	s.lock.Store(false)
}

func (s *Stack) pop() int {
	for !s.lock.CompareAndSwap(false, true) {
	}
	t := s.top
	if t == nil {
		s.lock.Store(false)
		return Empty
	}
	s.top = t.next
	s.lock.Store(false)
	return t.value
}
