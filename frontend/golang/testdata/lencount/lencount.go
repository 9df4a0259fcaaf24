// Package lencount is a known bug: Treiber's stack with a length counter
// kept beside the list and updated after the CAS. Pop may take a node
// whose push has not counted it yet, so Length can return
// 18446744073709551615 (the counter at -1): not linearizable.
package lencount

import "sync/atomic"

type node struct {
	value int
	next  *node
}

// Stack is a lock-free stack with a length; its zero value is empty.
type Stack struct {
	top    atomic.Pointer[node]
	length atomic.Uint64
}

// Push adds v on top.
func (s *Stack) Push(v int) {
	n := &node{value: v}
	for {
		n.next = s.top.Load()
		if s.top.CompareAndSwap(n.next, n) {
			break
		}
	}
	s.length.Add(1)
}

// Pop removes the top value; ok is false when the stack is empty.
func (s *Stack) Pop() (int, bool) {
	for {
		old := s.top.Load()
		if old == nil {
			return 0, false
		}
		if s.top.CompareAndSwap(old, old.next) {
			s.length.Add(^uint64(0))
			return old.value, true
		}
	}
}

// Length returns the number of values on the stack.
func (s *Stack) Length() uint64 {
	return s.length.Load()
}
