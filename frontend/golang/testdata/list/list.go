// Package list is a sorted linked list that walks with a pointer to the
// link it may change (p := &l.head; p = &(*p).next), as Go programmers
// (and Linus Torvalds's "good taste") write it: under a mutex, and
// lock-free over atomic.Pointer links.
package list

import (
	"sync"
	"sync/atomic"
)

type node struct {
	key  int
	next *node
}

// Set is a sorted list under a mutex.
type Set struct {
	mu   sync.Mutex
	head *node
}

// Insert adds k; false if it was there.
func (s *Set) Insert(k int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := &s.head
	for *p != nil && (*p).key < k {
		p = &(*p).next
	}
	if *p != nil && (*p).key == k {
		return false
	}
	*p = &node{key: k, next: *p}
	return true
}

// Remove deletes k; false if it was not there.
func (s *Set) Remove(k int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p := &s.head; *p != nil; p = &(*p).next {
		if (*p).key == k {
			*p = (*p).next
			return true
		}
	}
	return false
}

type anode struct {
	key  int
	next atomic.Pointer[anode]
}

// PushSet inserts keys lock-free and never removes: a CAS on the link a
// pointer to it found (correct without removal).
type PushSet struct{ head atomic.Pointer[anode] }

// Insert adds k; false if it was there.
func (s *PushSet) Insert(k int) bool {
	n := &anode{key: k}
	for {
		p := &s.head
		cur := p.Load()
		for cur != nil && cur.key < k {
			p = &cur.next
			cur = p.Load()
		}
		if cur != nil && cur.key == k {
			return false
		}
		n.next.Store(cur)
		if p.CompareAndSwap(cur, n) {
			return true
		}
	}
}

// Contains reports whether k is in the set.
func (s *PushSet) Contains(k int) bool {
	for cur := s.head.Load(); cur != nil; cur = cur.next.Load() {
		if cur.key == k {
			return true
		}
	}
	return false
}
