// Package genqueue is the Michael–Scott queue written with generics, as
// Go programmers write it today: atomic.Pointer[node[T]] and a generic
// constructor that makes the dummy node (linbis instantiates it with the
// type's type arguments: --type 'Queue[int]').
package genqueue

import "sync/atomic"

type node[T any] struct {
	value T
	next  atomic.Pointer[node[T]]
}

// Queue is a lock-free FIFO queue.
type Queue[T any] struct {
	head, tail atomic.Pointer[node[T]]
}

// NewQueue returns an empty queue: head and tail at a dummy node.
func NewQueue[T any]() *Queue[T] {
	q := &Queue[T]{}
	dummy := &node[T]{}
	q.head.Store(dummy)
	q.tail.Store(dummy)
	return q
}

// Enqueue appends v.
func (q *Queue[T]) Enqueue(v T) {
	n := &node[T]{value: v}
	for {
		tail := q.tail.Load()
		next := tail.next.Load()
		if tail != q.tail.Load() {
			continue
		}
		if next != nil {
			q.tail.CompareAndSwap(tail, next)
			continue
		}
		if tail.next.CompareAndSwap(nil, n) {
			q.tail.CompareAndSwap(tail, n)
			return
		}
	}
}

// Dequeue removes the first value; ok is false when the queue is empty.
func (q *Queue[T]) Dequeue() (v T, ok bool) {
	for {
		head := q.head.Load()
		tail := q.tail.Load()
		next := head.next.Load()
		if head != q.head.Load() {
			continue
		}
		if next == nil {
			return v, false
		}
		if head == tail {
			q.tail.CompareAndSwap(tail, next)
			continue
		}
		if q.head.CompareAndSwap(head, next) {
			return next.value, true
		}
	}
}
