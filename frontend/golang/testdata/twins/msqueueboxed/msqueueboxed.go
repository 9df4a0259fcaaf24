// Package msqueueboxed is a Go twin of the bundled model ms-queue.lin (the
// Michael–Scott queue) as Go code before atomic.Pointer writes it: the
// links are unsafe.Pointer fields updated with atomic.LoadPointer and
// atomic.CompareAndSwapPointer, and each value is boxed, an *int held in
// an unsafe.Pointer too, so that unsafe.Pointer converts to two pointer
// types. Reading the box is a step of its own, which changes nothing (a
// box is never written once the node is published): the LTS is
// divergence-preserving branching bisimilar to the model's.
package msqueueboxed

import (
	"sync/atomic"
	"unsafe"
)

// Empty is the modeling language's EMPTY.
const Empty = -1 << 30

type node struct {
	value unsafe.Pointer // *int
	next  unsafe.Pointer // *node
}

// Queue is the Michael–Scott queue.
type Queue struct {
	head, tail unsafe.Pointer // *node
}

// New returns an empty queue: head and tail at one dummy node.
func New() *Queue {
	d := unsafe.Pointer(&node{})
	return &Queue{head: d, tail: d}
}

func (q *Queue) enq(v int) {
	x := v
	n := &node{value: unsafe.Pointer(&x)}
	for {
		t := atomic.LoadPointer(&q.tail)
		nx := atomic.LoadPointer(&(*node)(t).next)
		if t == atomic.LoadPointer(&q.tail) {
			if nx == nil {
				if atomic.CompareAndSwapPointer(&(*node)(t).next, nx, unsafe.Pointer(n)) {
					atomic.CompareAndSwapPointer(&q.tail, t, unsafe.Pointer(n))
					return
				}
			} else {
				atomic.CompareAndSwapPointer(&q.tail, t, nx)
			}
		}
	}
}

func (q *Queue) deq() int {
	for {
		h := atomic.LoadPointer(&q.head)
		t := atomic.LoadPointer(&q.tail)
		nx := (*node)(atomic.LoadPointer(&(*node)(h).next))
		if h == atomic.LoadPointer(&q.head) {
			if h == t {
				if nx == nil {
					return Empty
				}
				atomic.CompareAndSwapPointer(&q.tail, t, unsafe.Pointer(nx))
			} else {
				v := *(*int)(nx.value)
				if atomic.CompareAndSwapPointer(&q.head, h, unsafe.Pointer(nx)) {
					return v
				}
			}
		}
	}
}
