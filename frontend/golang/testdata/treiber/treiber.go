// Package treiber is Treiber's lock-free stack over atomic.Pointer:
// linearizable and lock-free.
package treiber

import "sync/atomic"

type node[T any] struct {
	value T
	next  *node[T]
}

// Stack is a lock-free LIFO stack; its zero value is empty.
type Stack[T any] struct {
	top atomic.Pointer[node[T]]
}

// Push adds v on top.
func (s *Stack[T]) Push(v T) {
	n := &node[T]{value: v}
	for {
		old := s.top.Load()
		n.next = old
		if s.top.CompareAndSwap(old, n) {
			return
		}
	}
}

// Pop removes the top value; ok is false when the stack is empty.
func (s *Stack[T]) Pop() (v T, ok bool) {
	for {
		old := s.top.Load()
		if old == nil {
			return v, false
		}
		if s.top.CompareAndSwap(old, old.next) {
			return old.value, true
		}
	}
}
