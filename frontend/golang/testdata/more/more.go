// Package more has further concurrent objects written as Go programmers
// write them, for the translation's tests.
package more

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type qnode struct {
	value int
	next  *qnode
}

// TwoLockQueue is Michael and Scott's two-lock queue (PODC 1996, Fig. 2):
// a lock for each end and a dummy node. Linearizable, not lock-free.
type TwoLockQueue struct {
	headLock, tailLock sync.Mutex
	head, tail         *qnode
}

// NewTwoLockQueue returns an empty queue.
func NewTwoLockQueue() *TwoLockQueue {
	d := &qnode{}
	return &TwoLockQueue{head: d, tail: d}
}

// Enqueue adds v at the tail.
func (q *TwoLockQueue) Enqueue(v int) {
	n := &qnode{value: v}
	q.tailLock.Lock()
	q.tail.next = n
	q.tail = n
	q.tailLock.Unlock()
}

// Dequeue removes the value at the head.
func (q *TwoLockQueue) Dequeue() (int, bool) {
	q.headLock.Lock()
	defer q.headLock.Unlock()
	first := q.head.next
	if first == nil {
		return 0, false
	}
	q.head = first
	return first.value, true
}

// CASCounter counts with a CAS loop. Linearizable and lock-free.
type CASCounter struct{ v atomic.Int32 }

// Inc adds one and returns the new count.
func (c *CASCounter) Inc() int32 {
	for {
		old := c.v.Load()
		if c.v.CompareAndSwap(old, old+1) {
			return old + 1
		}
	}
}

// Get returns the count.
func (c *CASCounter) Get() int32 { return c.v.Load() }

// Ring is a bounded queue in an array under a mutex, its indices
// wrapping. Linearizable, not lock-free.
type Ring struct {
	mu         sync.Mutex
	buf        [3]int
	head, size int
}

// Put appends v; false when full.
func (r *Ring) Put(v int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.size == len(r.buf) {
		return false
	}
	r.buf[(r.head+r.size)%len(r.buf)] = v
	r.size++
	return true
}

// Take removes the oldest value.
func (r *Ring) Take() (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch r.size {
	case 0:
		return 0, false
	default:
		v := r.buf[r.head]
		r.head = (r.head + 1) % len(r.buf)
		r.size--
		return v, true
	}
}

// Flag is set once; readers see it set or not. A plain bool written and
// read without synchronisation: a data race.
type Flag struct{ set bool }

// Set sets the flag.
func (f *Flag) Set() { f.set = true }

// IsSet reads it.
func (f *Flag) IsSet() bool { return f.set }

// SeqCounter is CASCounter's sequential reference (--spec SeqCounter).
type SeqCounter struct{ n int32 }

// Inc adds one and returns the new count.
func (c *SeqCounter) Inc() int32 {
	c.n++
	return c.n
}

// Get returns the count.
func (c *SeqCounter) Get() int32 { return c.n }

// OffByOne is a wrong reference for CASCounter: it counts from 1.
type OffByOne struct{ n int32 }

// NewOffByOne starts at 1.
func NewOffByOne() *OffByOne { return &OffByOne{n: 1} }

// Inc adds one and returns the new count.
func (c *OffByOne) Inc() int32 {
	c.n++
	return c.n
}

// Get returns the count.
func (c *OffByOne) Get() int32 { return c.n }

// WrongSig has Inc with another result type.
type WrongSig struct{ n int64 }

// Inc adds one.
func (c *WrongSig) Inc() int64 { c.n++; return c.n }

// Get returns the count.
func (c *WrongSig) Get() int64 { return c.n }

// ReadTwice takes the read lock twice in one goroutine, which Go's
// RWMutex forbids: a writer that comes between the two waits for the
// first and blocks the second, so neither goes on (a deadlock).
type ReadTwice struct {
	mu sync.RWMutex
	n  int
}

// Get reads n under the read lock, through get, which takes it again.
func (r *ReadTwice) Get() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.get()
}

func (r *ReadTwice) get() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.n
}

// Set writes n under the write lock.
func (r *ReadTwice) Set(v int) {
	r.mu.Lock()
	r.n = v
	r.mu.Unlock()
}

type snode struct {
	value int
	next  *snode
}

// CastStack is Treiber's stack over a plain pointer field updated with
// atomic.LoadPointer and atomic.CompareAndSwapPointer, its address
// converted to *unsafe.Pointer as Go code written before atomic.Pointer
// does. Linearizable and lock-free.
type CastStack struct{ top *snode }

// Push pushes v.
func (s *CastStack) Push(v int) {
	n := &snode{value: v}
	for {
		old := atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&s.top)))
		n.next = (*snode)(old)
		if atomic.CompareAndSwapPointer((*unsafe.Pointer)(unsafe.Pointer(&s.top)), old, unsafe.Pointer(n)) {
			return
		}
	}
}

// Pop pops the top value, false if the stack is empty.
func (s *CastStack) Pop() (int, bool) {
	for {
		old := (*snode)(atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&s.top))))
		if old == nil {
			return 0, false
		}
		if atomic.CompareAndSwapPointer((*unsafe.Pointer)(unsafe.Pointer(&s.top)), unsafe.Pointer(old), unsafe.Pointer(old.next)) {
			return old.value, true
		}
	}
}
