package bisim

import (
	"math/bits"
	"slices"

	"github.com/linbis/linbis/lts"
)

// quotient builds the quotient LTS: the kernel's transitions mapped to
// classes, inert ones dropped, sorted by source, label and target without
// duplicates, so the result is canonical (as lts.Canonical makes it), and
// no transition array larger than the quotient is allocated — on a model
// checker's LTS the quotient is often a hundred times smaller than the
// input. Such a small quotient is collected in a hash set
// (hashedQuotientKeys); a big one class by class (quotientByClass).
//
// Only the bottom states of each class are read (those with no inert
// τ-step, see hasInertStep): they have every transition of the quotient.
// Let s -a-> t be a transition of a state of class C that is not inert,
// and b a bottom state of C. As b and s are branching bisimilar, b
// answers with b =τ=> b' -a-> t', t' in t's class and the τ-steps inside
// C; b has none, so b' = b and b -a-> t' gives the same quotient
// transition. (A divergence mark is a transition like any other: it is
// never inert.) Every class has a bottom state, since the kernel's τ
// graph is acyclic: follow inert steps until there are none. On the LTSs
// of model checkers a few percent of the states are bottom ones (Treiber
// 5/1: 6.6 %; the MGC file: 0.1 %), so the quotient reads a few percent
// of the transitions' target blocks, the random reads that cost.
func quotient(l *lts.LTS, k *kernel, kblock, rename []int32, numClasses int32) *lts.LTS {
	q := &lts.LTS{NumStates: numClasses, Labels: slices.Clone(l.Labels), Out: make([]int32, numClasses+1)}
	if l.NumStates > 0 {
		q.Initial = rename[kblock[k.kernelState(l.Initial)]]
	}
	if k.n >= 4*numClasses {
		if keys, shape, ok := hashedQuotientKeys(k, kblock, rename, numClasses); ok {
			shape.fill(q, keys)
			return q
		}
	}
	quotientByClass(q, k, kblock, rename)
	return q
}

// quotientByClass sets the transitions of q, the quotient of k whose
// states and initial state are set, class by class: the transitions of
// the kernel states of a class are collected, sorted and deduplicated.
func quotientByClass(q *lts.LTS, k *kernel, kblock, rename []int32) {
	numClasses := q.NumStates
	// The kernel states grouped by class, by counting sort.
	start := make([]int32, numClasses+1)
	for s := range k.n {
		start[rename[kblock[s]]+1]++
	}
	for c := range numClasses {
		start[c+1] += start[c]
	}
	members := make([]int32, k.n)
	fill := slices.Clone(start[:numClasses])
	for s := range k.n {
		c := rename[kblock[s]]
		members[fill[c]] = s
		fill[c]++
	}
	// The transitions of class c, sorted by (label, target), without
	// duplicates.
	keys := func(buf []uint64, c int32) []uint64 {
		buf = buf[:0]
		for _, s := range members[start[c]:start[c+1]] {
			if k.hasInertStep(s, kblock) {
				continue
			}
			for t := k.out[s]; t < k.out[s+1]; t++ {
				if a, d, ok := k.quotientStep(t, c, kblock, rename); ok {
					buf = append(buf, uint64(a)<<32|uint64(d))
				}
			}
		}
		slices.Sort(buf)
		return slices.Compact(buf)
	}
	// Each worker owns a range of classes (the classes' transitions do not
	// depend on each other): it collects their keys, then, after the
	// counts are summed, copies them in. Collected once: reading the
	// members' transitions out of order is the cost, and a second pass to
	// count them would read them twice (on a near-discrete quotient the
	// keys are nearly as many as the kernel's transitions: 8 bytes each
	// beside the quotient's 12, each worker's let go once copied).
	bounds := ranges(len(k.dst), numClasses)
	kept := make([][]uint64, len(bounds)-1)
	forEachRange(bounds, func(p int, lo, hi int32) {
		var buf []uint64
		for c := lo; c < hi; c++ {
			buf = keys(buf, c)
			q.Out[c+1] = int32(len(buf))
			kept[p] = append(kept[p], buf...)
		}
	})
	for c := range numClasses {
		q.Out[c+1] += q.Out[c]
	}
	m := q.Out[numClasses]
	q.Src, q.Label, q.Dst = make([]int32, m), make([]int32, m), make([]int32, m)
	forEachRange(bounds, func(p int, lo, hi int32) {
		for i, key := range kept[p] {
			t := q.Out[lo] + int32(i)
			q.Label[t], q.Dst[t] = int32(key>>32), int32(uint32(key))
		}
		kept[p] = nil
		for c := lo; c < hi; c++ {
			for t := q.Out[c]; t < q.Out[c+1]; t++ {
				q.Src[t] = c
			}
		}
	})
}

// quotientStep maps transition t of a kernel state of class c to the
// quotient's transition c --a--> d; ok is false for an inert τ-step, which
// the quotient drops. The divergence mark becomes a τ self-loop.
func (k *kernel) quotientStep(t, c int32, kblock, rename []int32) (a, d int32, ok bool) {
	a, d = k.lab[t], rename[kblock[k.dst[t]]]
	switch {
	case a == k.divLabel:
		return lts.Tau, c, true
	case k.inert && a == lts.Tau && d == c:
		return 0, 0, false
	}
	return a, d, true
}

// hasInertStep reports whether kernel state s has an inert τ-step, one
// into its own block: then it is not a bottom state, and the quotient
// need not read its transitions (see quotient). τ-steps come first in a
// state's range, so only they are read, and only up to the first inert one.
func (k *kernel) hasInertStep(s int32, kblock []int32) bool {
	if !k.inert {
		return false
	}
	for t := k.out[s]; t < k.out[s+1] && k.lab[t] == lts.Tau; t++ {
		if kblock[k.dst[t]] == kblock[s] {
			return true
		}
	}
	return false
}

// quotientShape packs a quotient transition (class, label, class) into
// one uint64 whose order is the canonical order of the quotient's
// transitions: by source, then label, then target.
type quotientShape struct {
	classBits, labelBits uint
}

// key packs c --a--> d.
func (sh quotientShape) key(c, a, d int32) uint64 {
	return (uint64(c)<<sh.labelBits|uint64(a))<<sh.classBits | uint64(d)
}

// fill sets q's transitions to keys, sorted and without duplicates; q's
// states, labels and initial state are set.
func (sh quotientShape) fill(q *lts.LTS, keys []uint64) {
	m := len(keys)
	q.Src, q.Label, q.Dst = make([]int32, m), make([]int32, m), make([]int32, m)
	classMask, labelMask := uint64(1)<<sh.classBits-1, uint64(1)<<sh.labelBits-1
	for t, key := range keys {
		c := int32(key >> (sh.classBits + sh.labelBits))
		q.Src[t], q.Label[t], q.Dst[t] = c, int32(key>>sh.classBits&labelMask), int32(key&classMask)
		q.Out[c+1]++
	}
	for c := range q.NumStates {
		q.Out[c+1] += q.Out[c]
	}
}

// hashedQuotientKeys returns the transitions of the quotient, packed by
// shape and sorted, from one pass over the kernel's transitions in
// order, each inserted into a hash set: on a model checker's LTS, whose
// quotient is hundreds of times smaller, the set stays in cache and the
// only random read per transition is the block of its target, where
// collecting the transitions class by class read every member's
// transitions out of order (on Treiber 6/1 a large share of verify's
// bisimulation stage). It gives up (ok false) when a
// transition does not fit in 63 bits or the set outgrows a quarter of the
// kernel's transitions; then the caller goes class by class.
func hashedQuotientKeys(k *kernel, kblock, rename []int32, numClasses int32) (keys []uint64, shape quotientShape, ok bool) {
	shape = quotientShape{classBits: uint(bits.Len32(uint32(numClasses - 1))),
		labelBits: uint(bits.Len32(uint32(k.numLabels - 1)))}
	if 2*shape.classBits+shape.labelBits > 63 {
		return nil, shape, false
	}
	limit := max(1<<16, len(k.dst)/4)
	// On a large kernel each worker collects the keys of a range of
	// states in a set of its own; the sets are joined, and the sorted keys
	// do not depend on how the states were cut.
	bounds := ranges(len(k.dst), k.n)
	sets := make([]*keySet, len(bounds)-1)
	forEachRange(bounds, func(p int, lo, hi int32) {
		sets[p] = quotientKeys(k, kblock, rename, shape, lo, hi, limit)
	})
	set := sets[0]
	for _, other := range sets {
		if other == nil {
			return nil, shape, false
		}
		if other != set {
			for _, key := range other.slots {
				if key != emptySlot {
					set.add(key)
				}
			}
		}
	}
	if len(set.slots) > limit {
		return nil, shape, false
	}
	keys = set.keys()
	slices.Sort(keys)
	return keys, shape, true
}

// quotientKeys returns the set of the quotient transitions, packed by
// shape, of the kernel states lo … hi-1, or nil once the set outgrows
// limit slots.
func quotientKeys(k *kernel, kblock, rename []int32, shape quotientShape, lo, hi int32, limit int) *keySet {
	set := newKeySet()
	for s := lo; s < hi; s++ {
		if k.hasInertStep(s, kblock) {
			continue
		}
		c := rename[kblock[s]]
		last := ^uint64(0)
		for t := k.out[s]; t < k.out[s+1]; t++ {
			a, d, ok := k.quotientStep(t, c, kblock, rename)
			if !ok {
				continue
			}
			// A contracted state often has runs of transitions into one
			// class under one label.
			if key := shape.key(c, a, d); key != last {
				last = key
				set.add(key)
			}
		}
		if len(set.slots) > limit {
			return nil
		}
	}
	return set
}

// keySet is a set of uint64 keys below 2^63, by open addressing with
// linear probing and Fibonacci hashing (the top bits of key·⌊2^64/φ⌋);
// emptySlot marks a free slot.
type keySet struct {
	slots []uint64
	shift uint // 64 - log2(len(slots))
	size  int
}

const emptySlot = ^uint64(0)

func newKeySet() *keySet {
	s := &keySet{}
	s.resize(1 << 10)
	return s
}

// resize empties the set into a table of n slots, a power of two.
func (s *keySet) resize(n int) {
	s.slots, s.shift, s.size = make([]uint64, n), uint(64-bits.Len(uint(n-1))), 0
	for i := range s.slots {
		s.slots[i] = emptySlot
	}
}

// add inserts key, doubling the table when it is half full.
func (s *keySet) add(key uint64) {
	mask := uint64(len(s.slots) - 1)
	for i := (key * 0x9E3779B97F4A7C15) >> s.shift; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case key:
			return
		case emptySlot:
			s.slots[i] = key
			if s.size++; 2*s.size > len(s.slots) {
				s.grow()
			}
			return
		}
	}
}

func (s *keySet) grow() {
	old := s.slots
	s.resize(2 * len(old))
	for _, key := range old {
		if key != emptySlot {
			s.add(key)
		}
	}
}

// keys returns the keys in the set, in no particular order.
func (s *keySet) keys() []uint64 {
	keys := make([]uint64, 0, s.size)
	for _, key := range s.slots {
		if key != emptySlot {
			keys = append(keys, key)
		}
	}
	return keys
}
