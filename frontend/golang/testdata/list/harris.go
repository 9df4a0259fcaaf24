package list

import "sync/atomic"

type hnode struct {
	key  int
	succ atomic.Pointer[link]
}

type link struct {
	next   *hnode
	marked bool
}

// HarrisSet is the Harris–Michael lock-free sorted set (Harris, DISC
// 2001; Michael, SPAA 2002) as Go code writes it without tagged pointers:
// each node's successor and mark are an immutable pair, swapped whole
// through an atomic.Pointer. Linearizable and lock-free (Contains's
// linearization point depends on the future: not bisimilar to the
// specification).
type HarrisSet struct {
	head *hnode
}

// NewHarrisSet returns an empty set between two sentinels.
func NewHarrisSet() *HarrisSet {
	tail := &hnode{key: 1 << 30}
	tail.succ.Store(&link{})
	head := &hnode{key: -1 << 30}
	head.succ.Store(&link{next: tail})
	return &HarrisSet{head: head}
}

// find returns the unmarked nodes pred and curr with pred.key < key <=
// curr.key, and pred's link to curr, unlinking marked nodes on the way.
func (s *HarrisSet) find(key int) (*hnode, *link, *hnode) {
retry:
	for {
		pred := s.head
		pl := pred.succ.Load()
		curr := pl.next
		for {
			cl := curr.succ.Load()
			for cl.marked {
				nl := &link{next: cl.next}
				if !pred.succ.CompareAndSwap(pl, nl) {
					continue retry
				}
				pl = nl
				curr = cl.next
				cl = curr.succ.Load()
			}
			if curr.key >= key {
				return pred, pl, curr
			}
			pred, pl, curr = curr, cl, cl.next
		}
	}
}

// Add inserts key; false if present.
func (s *HarrisSet) Add(key int) bool {
	for {
		pred, pl, curr := s.find(key)
		if curr.key == key {
			return false
		}
		n := &hnode{key: key}
		n.succ.Store(&link{next: curr})
		if pred.succ.CompareAndSwap(pl, &link{next: n}) {
			return true
		}
	}
}

// Remove deletes key; false if absent.
func (s *HarrisSet) Remove(key int) bool {
	for {
		pred, pl, curr := s.find(key)
		if curr.key != key {
			return false
		}
		cl := curr.succ.Load()
		if cl.marked {
			continue
		}
		if !curr.succ.CompareAndSwap(cl, &link{next: cl.next, marked: true}) {
			continue
		}
		pred.succ.CompareAndSwap(pl, &link{next: cl.next})
		return true
	}
}

// Contains reports whether key is in the set (wait-free).
func (s *HarrisSet) Contains(key int) bool {
	curr := s.head
	for curr.key < key {
		curr = curr.succ.Load().next
	}
	return curr.key == key && !curr.succ.Load().marked
}
