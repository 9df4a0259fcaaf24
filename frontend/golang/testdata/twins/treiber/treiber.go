// Package treiber is the Go twin of the bundled model treiber.lin
// (Treiber's stack): the same methods, steps and results (pop returns
// EMPTY on an empty stack), so that the two front ends' LTSs can be held
// to each other.
package treiber

import "sync/atomic"

// Empty is the modeling language's EMPTY.
const Empty = -1 << 30

type node struct {
	value int
	next  *node
}

// Stack is Treiber's stack.
type Stack struct {
	top atomic.Pointer[node]
}

func (s *Stack) push(v int) {
	x := &node{value: v}
	done := false
	for !done {
		old := s.top.Load()
		x.next = old
		done = s.top.CompareAndSwap(old, x)
	}
}

func (s *Stack) pop() int {
	for {
		old := s.top.Load()
		if old == nil {
			return Empty
		}
		nx := old.next
		if s.top.CompareAndSwap(old, nx) {
			return old.value
		}
	}
}
