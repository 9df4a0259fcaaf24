// Package poolstack is Treiber's stack recycling its nodes through a
// sync.Pool "to reduce GC pressure": a popped node is put back and a push
// may take it while another goroutine still holds it. With plain fields
// that is a data race (Stack: a pop reads the next field of a node that a
// push, having taken it from the pool, writes); with atomic fields it is
// the ABA problem (AtomicStack: a pop's CAS succeeds on a node that was
// popped, recycled and pushed again, and sets the top to a node already
// popped: not linearizable). The GC alone, without the pool, makes
// Treiber's stack correct (testdata/treiber).
package poolstack

import (
	"sync"
	"sync/atomic"
)

type node struct {
	val  int
	next *node
}

var nodes = sync.Pool{New: func() any { return new(node) }}

// Stack is Treiber's stack whose nodes come from the pool.
type Stack struct{ top atomic.Pointer[node] }

// Push pushes v on a node from the pool.
func (s *Stack) Push(v int) {
	n := nodes.Get().(*node)
	n.val = v
	for {
		old := s.top.Load()
		n.next = old
		if s.top.CompareAndSwap(old, n) {
			return
		}
	}
}

// Pop pops the top value and puts its node back into the pool.
func (s *Stack) Pop() (int, bool) {
	for {
		old := s.top.Load()
		if old == nil {
			return 0, false
		}
		next := old.next
		if s.top.CompareAndSwap(old, next) {
			v := old.val
			nodes.Put(old)
			return v, true
		}
	}
}

type anode struct {
	val  atomic.Int64
	next atomic.Pointer[anode]
}

var anodes sync.Pool

// AtomicStack is Treiber's stack whose nodes come from a pool without
// New (Get returns nil when it has none) and whose fields are atomic.
type AtomicStack struct{ top atomic.Pointer[anode] }

// Push pushes v on a node from the pool, or a new one.
func (s *AtomicStack) Push(v int) {
	n, _ := anodes.Get().(*anode)
	if n == nil {
		n = new(anode)
	}
	n.val.Store(int64(v))
	for {
		old := s.top.Load()
		n.next.Store(old)
		if s.top.CompareAndSwap(old, n) {
			return
		}
	}
}

// Pop pops the top value and puts its node back into the pool.
func (s *AtomicStack) Pop() (int, bool) {
	for {
		old := s.top.Load()
		if old == nil {
			return 0, false
		}
		next := old.next.Load()
		if s.top.CompareAndSwap(old, next) {
			v := old.val.Load()
			anodes.Put(old)
			return int(v), true
		}
	}
}

type item struct{ n int }

var items sync.Pool

// Recycler puts an item into a pool without New and takes one back.
type Recycler struct{ unused int }

// Cycle puts a new item holding v and gets one: 0 if none (a pool may
// drop or miss any object), 1 if the same, else 2 plus the value of an
// item put earlier and not yet taken.
func (r *Recycler) Cycle(v int) int {
	p := &item{n: v}
	items.Put(p)
	q, ok := items.Get().(*item)
	switch {
	case !ok:
		return 0
	case q == p:
		return 1
	}
	return 2 + q.n
}

// FieldStack is AtomicStack with a pool of its own, whose New its
// constructor sets.
type FieldStack struct {
	top  atomic.Pointer[anode]
	pool sync.Pool
}

// NewFieldStack returns an empty stack whose pool makes new nodes.
func NewFieldStack() *FieldStack {
	s := &FieldStack{}
	s.pool.New = func() any { return new(anode) }
	return s
}

// Push pushes v on a node from the pool.
func (s *FieldStack) Push(v int) {
	n := s.pool.Get().(*anode)
	n.val.Store(int64(v))
	for {
		old := s.top.Load()
		n.next.Store(old)
		if s.top.CompareAndSwap(old, n) {
			return
		}
	}
}

// Pop pops the top value and puts its node back into the pool.
func (s *FieldStack) Pop() (int, bool) {
	for {
		old := s.top.Load()
		if old == nil {
			return 0, false
		}
		next := old.next.Load()
		if s.top.CompareAndSwap(old, next) {
			v := old.val.Load()
			s.pool.Put(old)
			return int(v), true
		}
	}
}

type gnode[T any] struct {
	val  T
	next *gnode[T]
}

// GenStack is the stack as generic Go code ships it: a pool of its own,
// whose New its generic constructor sets, plain fields, and each popped
// node cleared before it goes back into the pool (for the collector).
// A data race: a pop clears the next field of a node that another pop
// has read from the top and reads next from.
type GenStack[T any] struct {
	top  atomic.Pointer[gnode[T]]
	pool sync.Pool
}

// NewGenStack returns an empty stack whose pool makes new nodes.
func NewGenStack[T any]() *GenStack[T] {
	s := &GenStack[T]{}
	s.pool.New = func() any { return new(gnode[T]) }
	return s
}

// Push pushes v on a node from the pool.
func (s *GenStack[T]) Push(v T) {
	n := s.pool.Get().(*gnode[T])
	n.val = v
	for {
		old := s.top.Load()
		n.next = old
		if s.top.CompareAndSwap(old, n) {
			return
		}
	}
}

// Pop pops the top value, clears its node and puts it back.
func (s *GenStack[T]) Pop() (T, bool) {
	for {
		old := s.top.Load()
		if old == nil {
			var zero T
			return zero, false
		}
		next := old.next
		if s.top.CompareAndSwap(old, next) {
			v := old.val
			var zero T
			old.next, old.val = nil, zero
			s.pool.Put(old)
			return v, true
		}
	}
}
