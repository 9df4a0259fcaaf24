// Package treiberunsafe is a Go twin of the bundled model treiber.lin
// (Treiber's stack) as Go code before atomic.Pointer writes it: the top is
// a package variable of type unsafe.Pointer (the model's shared Top),
// updated with atomic.LoadPointer and atomic.CompareAndSwapPointer, and
// each node holds its value boxed, a *cell in an unsafe.Pointer, so that
// unsafe.Pointer converts to two pointer types. Reading the box is a step
// of its own, which changes nothing: the LTS is divergence-preserving
// branching bisimilar to the model's.
package treiberunsafe

import (
	"sync/atomic"
	"unsafe"
)

// Empty is the modeling language's EMPTY.
const Empty = -1 << 30

type cell struct{ v int }

type node struct {
	value unsafe.Pointer // *cell
	next  unsafe.Pointer // *node
}

var top unsafe.Pointer // *node

// Stack is Treiber's stack; its top is the package variable top.
type Stack struct{}

func (s *Stack) push(v int) {
	x := &node{value: unsafe.Pointer(&cell{v: v})}
	done := false
	for !done {
		old := atomic.LoadPointer(&top)
		x.next = old
		done = atomic.CompareAndSwapPointer(&top, old, unsafe.Pointer(x))
	}
}

func (s *Stack) pop() int {
	for {
		old := atomic.LoadPointer(&top)
		if old == nil {
			return Empty
		}
		nx := (*node)(old).next
		if atomic.CompareAndSwapPointer(&top, old, nx) {
			return (*cell)((*node)(old).value).v
		}
	}
}
