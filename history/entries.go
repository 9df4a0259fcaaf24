package history

import (
	"cmp"
	"slices"
)

// entryList is the list of call and return entries of the operations not
// yet linearized, in real-time order: Lowe's just-in-time linearization
// walks it from the head, and a linearized operation's two entries are
// lifted out of it and put back on backtracking (Knuth's dancing links:
// a removed node keeps its own links, so reinsertion is O(1)).
//
// Entry 2i is the call of operation i and 2i+1 its return; node 2n is the
// head sentinel; -1 ends the list.
type entryList struct {
	next, prev []int32
}

// entryHead is the sentinel's id in a list of n operations.
func entryHead(n int) int32 { return int32(2 * n) }

// newEntryList orders the entries of ops (numbered in call order) by
// time. At equal times calls come first, so an operation called at the
// very time another returns counts as concurrent with it.
func newEntryList(ops opView) *entryList {
	l := &entryList{}
	l.reset(ops)
	return l
}

// reset makes l the list of ops (numbered in call order), reusing its
// memory. The calls are in order already; the returns are sorted and
// merged with them.
func (l *entryList) reset(ops opView) {
	n := ops.len()
	l.next, l.prev = resize(l.next, 2*n+1), resize(l.prev, 2*n+1)
	// The returns are sorted in prev's first places, which are free until
	// prev is filled from next at the end: a separate array of entries to
	// sort had been the largest allocation kept through a search.
	rets := l.prev[:n]
	for i := range rets {
		rets[i] = int32(i)
	}
	slices.SortFunc(rets, func(a, b int32) int {
		if c := cmp.Compare(ops.at(int(a)).Return, ops.at(int(b)).Return); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	last := entryHead(n)
	for c, r := 0, 0; c < n || r < n; {
		var e int32
		if c < n && (r == n || ops.at(c).Call <= ops.at(int(rets[r])).Return) {
			e = int32(2 * c)
			c++
		} else {
			e = 2*rets[r] + 1
			r++
		}
		l.next[last] = e
		last = e
	}
	l.next[last] = -1
	for p, e := entryHead(n), l.next[entryHead(n)]; e >= 0; p, e = e, l.next[e] {
		l.prev[e] = p
	}
}

// resize returns s with length n, reusing its array when large enough;
// the elements are not cleared. An array that is reused but too small is
// replaced by one at least twice as large: checkAll gives a worker its
// partitions smallest first, so each is a little larger than the last.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

// first is the first entry after the head.
func (l *entryList) first() int32 { return l.next[len(l.next)-1] }

// lift removes call entry e and its return e+1.
func (l *entryList) lift(e int32) {
	for _, x := range [2]int32{e, e + 1} {
		l.next[l.prev[x]] = l.next[x]
		if l.next[x] >= 0 {
			l.prev[l.next[x]] = l.prev[x]
		}
	}
}

// unlift puts back what lift(e) removed, in reverse order.
func (l *entryList) unlift(e int32) {
	for _, x := range [2]int32{e + 1, e} {
		l.next[l.prev[x]] = x
		if l.next[x] >= 0 {
			l.prev[l.next[x]] = x
		}
	}
}
