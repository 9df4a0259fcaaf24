// Package msqueue is the Go twin of the bundled model ms-queue.lin (the
// Michael–Scott queue), statement for statement.
package msqueue

import "sync/atomic"

// Empty is the modeling language's EMPTY.
const Empty = -1 << 30

type node struct {
	value int
	next  atomic.Pointer[node]
}

// Queue is the Michael–Scott queue.
type Queue struct {
	head, tail atomic.Pointer[node]
}

// New returns an empty queue: head and tail at one dummy node.
func New() *Queue {
	q := &Queue{}
	d := &node{}
	q.head.Store(d)
	q.tail.Store(d)
	return q
}

func (q *Queue) enq(v int) {
	n := &node{value: v}
	for {
		t := q.tail.Load()
		nx := t.next.Load()
		if t == q.tail.Load() {
			if nx == nil {
				if t.next.CompareAndSwap(nx, n) {
					q.tail.CompareAndSwap(t, n)
					return
				}
			} else {
				q.tail.CompareAndSwap(t, nx)
			}
		}
	}
}

func (q *Queue) deq() int {
	for {
		h := q.head.Load()
		t := q.tail.Load()
		nx := h.next.Load()
		if h == q.head.Load() {
			if h == t {
				if nx == nil {
					return Empty
				}
				q.tail.CompareAndSwap(t, nx)
			} else {
				v := nx.value
				if q.head.CompareAndSwap(h, nx) {
					return v
				}
			}
		}
	}
}
