// Package msqueue is the Michael–Scott lock-free queue (PODC 1996),
// written as in the Go of before atomic.Pointer: unsafe.Pointer fields and
// atomic.LoadPointer / atomic.CompareAndSwapPointer. Linearizable and
// lock-free.
package msqueue

import (
	"sync/atomic"
	"unsafe"
)

type node struct {
	value int
	next  unsafe.Pointer // *node
}

// Queue is a FIFO queue; make one with NewQueue.
type Queue struct {
	head unsafe.Pointer // *node, the dummy
	tail unsafe.Pointer // *node
}

// NewQueue returns an empty queue (head and tail at one dummy node).
func NewQueue() *Queue {
	dummy := unsafe.Pointer(&node{})
	return &Queue{head: dummy, tail: dummy}
}

func load(p *unsafe.Pointer) *node { return (*node)(atomic.LoadPointer(p)) }

func cas(p *unsafe.Pointer, old, new *node) bool {
	return atomic.CompareAndSwapPointer(p, unsafe.Pointer(old), unsafe.Pointer(new))
}

// Enqueue adds v at the tail.
func (q *Queue) Enqueue(v int) {
	n := &node{value: v}
	for {
		tail := load(&q.tail)
		next := load(&tail.next)
		if tail == load(&q.tail) {
			if next == nil {
				if cas(&tail.next, next, n) {
					cas(&q.tail, tail, n)
					return
				}
			} else {
				cas(&q.tail, tail, next)
			}
		}
	}
}

// Dequeue removes the value at the head; ok is false when the queue is
// empty.
func (q *Queue) Dequeue() (v int, ok bool) {
	for {
		head := load(&q.head)
		tail := load(&q.tail)
		next := load(&head.next)
		if head == load(&q.head) {
			if head == tail {
				if next == nil {
					return 0, false
				}
				cas(&q.tail, tail, next)
			} else {
				v := next.value
				if cas(&q.head, head, next) {
					return v, true
				}
			}
		}
	}
}
