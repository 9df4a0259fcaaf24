// Package mutexstack is a stack guarded by a sync.Mutex: linearizable,
// not lock-free.
package mutexstack

import "sync"

type node struct {
	value int
	next  *node
}

// Stack is a LIFO stack; its zero value is empty.
type Stack struct {
	mu  sync.Mutex
	top *node
}

// Push adds v on top.
func (s *Stack) Push(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.top = &node{value: v, next: s.top}
}

// Pop removes the top value; ok is false when the stack is empty.
func (s *Stack) Pop() (v int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.top == nil {
		return 0, false
	}
	v = s.top.value
	s.top = s.top.next
	return v, true
}
