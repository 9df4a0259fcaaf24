// Package slicestack is the stack and the queue Go programmers write
// first: a slice under a mutex, append to add, a slice expression to
// take; and the same stack whose Len reads the slice without the lock (a
// data race).
package slicestack

import "sync"

// Stack is a slice under a mutex.
type Stack struct {
	mu    sync.Mutex
	items []int
}

// Push appends v.
func (s *Stack) Push(v int) {
	s.mu.Lock()
	s.items = append(s.items, v)
	s.mu.Unlock()
}

// Pop removes the last value; false when empty.
func (s *Stack) Pop() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.items)
	if n == 0 {
		return 0, false
	}
	v := s.items[n-1]
	s.items = s.items[:n-1]
	return v, true
}

// Queue is a slice under a mutex, taken from the front.
type Queue struct {
	mu    sync.Mutex
	items []int
}

// Enqueue appends v.
func (q *Queue) Enqueue(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, v)
}

// Dequeue removes the first value; false when empty.
func (q *Queue) Dequeue() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

// RacyStack is Stack with a Len that does not take the lock.
type RacyStack struct{ Stack }

// Push appends v.
func (s *RacyStack) Push(v int) { s.Stack.Push(v) }

// Len reads the length without the lock: a data race with Push.
func (s *RacyStack) Len() int { return len(s.items) }

// Slices appends to slices that share their array, as Go does while the
// capacity allows.
type Slices struct{ s, t []int }

// Grow appends v and v+1 to s, then 9 to the first element of s (in s's
// array while it has room), and reports lengths, capacities and values.
func (x *Slices) Grow(v int) int {
	x.s = append(x.s, v)
	x.s = append(x.s, v+1)
	x.t = append(x.s[:1], 9)
	return len(x.s)*1000 + cap(x.s)*100 + x.s[1]*10 + x.t[len(x.t)-1]
}

// Sum adds the elements of s, by range.
func (x *Slices) Sum() int {
	n := 0
	for i, e := range x.s {
		n += e * (i + 1)
	}
	return n
}

type entry struct {
	k, v int
}

// Log appends entries of two fields and reads them back.
type Log struct{ es []entry }

// Add appends an entry and returns the sum over the log.
func (l *Log) Add(v int) int {
	l.es = append(l.es, entry{k: v, v: v * 10})
	n := 0
	for _, e := range l.es {
		n += e.k + e.v
	}
	return n*10 + cap(l.es)
}

// Ring copies and appends slices to slices.
type Ring struct{ s []int }

// Add appends v and v+1.
func (r *Ring) Add(v int) { r.s = append(r.s, v, v+1) }

// Rotate rotates the slice left by one with copy, and returns how many
// elements copy moved.
func (r *Ring) Rotate() int {
	if len(r.s) == 0 {
		return -1
	}
	first := r.s[0]
	n := copy(r.s, r.s[1:])
	r.s[n] = first
	return n
}

// Double appends the slice's first half to it (append(s, t...)).
func (r *Ring) Double() int {
	r.s = append(r.s, r.s[:len(r.s)/2]...)
	return len(r.s)
}

// Digits returns the elements as digits.
func (r *Ring) Digits() int {
	d := 0
	for _, e := range r.s {
		d = d*10 + e
	}
	return d
}
