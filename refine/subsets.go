package refine

import (
	"slices"

	"github.com/linbis/linbis/lts"
)

// noSubset is returned for the empty successor: the specification cannot do
// the action.
const noSubset int32 = -1

// normaliser is the on-the-fly subset construction of the specification
// (Liu et al., Def. 4): it interns τ-closed sets of specification states and
// computes their successors per visible label, each once.
//
// Subset i holds elems[start[i]:start[i+1]], sorted. Its successors, once
// expanded, are the pairs (succLabel[j], succDst[j]) for succOff[i] ≤ j <
// succOff[i]+succLen[i], sorted by label; succOff[i] is -1 until then.
type normaliser struct {
	spec *lts.LTS // canonical: the τ transitions of a state come first

	elems []int32
	start []int64
	hash  []uint64
	sig   []uint64 // bit e%64 set for every element e: a cheap ⊆ pre-test
	table []int32  // open addressing over subset ids, -1 = empty

	succOff   []int64
	succLen   []int32
	succLabel []int32
	succDst   []int32

	// Scratch buffers, reused.
	stamp   []uint32 // stamp[s] == gen: s is in the set being built
	gen     uint32
	stack   []int32
	set     []int32
	pending []uint64 // (label<<32 | dst) pairs while expanding
	targets []int32
	edges   []int32 // label, subset, label, subset, …
}

func newNormaliser(spec *lts.LTS) *normaliser {
	n := &normaliser{
		spec:  lts.Canonical(spec),
		start: []int64{0},
		table: make([]int32, 1024),
		stamp: make([]uint32, spec.NumStates),
	}
	for i := range n.table {
		n.table[i] = -1
	}
	return n
}

// count returns the number of interned subsets.
func (n *normaliser) count() int { return len(n.hash) }

// members returns the sorted states of subset id; the slice aliases the arena.
func (n *normaliser) members(id int32) []int32 { return n.elems[n.start[id]:n.start[id+1]] }

// closure returns the interned τ-closure of the given specification states.
func (n *normaliser) closure(states []int32) int32 {
	n.gen++
	if n.gen == 0 { // wrapped: clear the stamps once every 2³² sets
		clear(n.stamp)
		n.gen = 1
	}
	spec := n.spec
	n.set = n.set[:0]
	n.stack = n.stack[:0]
	for _, s := range states {
		if n.stamp[s] != n.gen {
			n.stamp[s] = n.gen
			n.stack = append(n.stack, s)
		}
	}
	for len(n.stack) > 0 {
		s := n.stack[len(n.stack)-1]
		n.stack = n.stack[:len(n.stack)-1]
		n.set = append(n.set, s)
		for t := spec.Out[s]; t < spec.Out[s+1] && spec.Label[t] == lts.Tau; t++ {
			if d := spec.Dst[t]; n.stamp[d] != n.gen {
				n.stamp[d] = n.gen
				n.stack = append(n.stack, d)
			}
		}
	}
	slices.Sort(n.set)
	return n.intern(n.set)
}

// hashSubset hashes a sorted subset (FNV-1a over the words, then a final mix).
func hashSubset(s []int32) uint64 {
	h := uint64(14695981039346656037)
	for _, e := range s {
		h ^= uint64(uint32(e))
		h *= 1099511628211
	}
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

// intern returns the id of the sorted subset s, adding it if new.
func (n *normaliser) intern(s []int32) int32 {
	h := hashSubset(s)
	mask := uint64(len(n.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		id := n.table[i]
		if id < 0 {
			break
		}
		if n.hash[id] == h && slices.Equal(n.members(id), s) {
			return id
		}
	}
	id := int32(len(n.hash))
	n.elems = append(n.elems, s...)
	n.start = append(n.start, int64(len(n.elems)))
	n.hash = append(n.hash, h)
	var sig uint64
	for _, e := range s {
		sig |= 1 << (uint32(e) & 63)
	}
	n.sig = append(n.sig, sig)
	n.succOff = append(n.succOff, -1)
	n.succLen = append(n.succLen, 0)
	if 2*len(n.hash) > len(n.table) {
		n.rehash()
	} else {
		n.place(id)
	}
	return id
}

func (n *normaliser) place(id int32) {
	mask := uint64(len(n.table) - 1)
	i := n.hash[id] & mask
	for n.table[i] >= 0 {
		i = (i + 1) & mask
	}
	n.table[i] = id
}

func (n *normaliser) rehash() {
	n.table = make([]int32, 2*len(n.table))
	for i := range n.table {
		n.table[i] = -1
	}
	for id := range n.hash {
		n.place(int32(id))
	}
}

// succ returns the subset reached from subset id by the specification label
// a (τ-closed), or noSubset when no state of the subset can do a.
func (n *normaliser) succ(id, a int32) int32 {
	if n.succOff[id] < 0 {
		n.expand(id)
	}
	off := n.succOff[id]
	labels := n.succLabel[off : off+int64(n.succLen[id])]
	if j, ok := slices.BinarySearch(labels, a); ok {
		return n.succDst[off+int64(j)]
	}
	return noSubset
}

// expand computes all visible successors of subset id at once: one pass over
// the transitions of its members, grouped by label.
func (n *normaliser) expand(id int32) {
	spec := n.spec
	n.pending = n.pending[:0]
	for _, s := range n.members(id) {
		for t := spec.Out[s]; t < spec.Out[s+1]; t++ {
			if a := spec.Label[t]; a != lts.Tau {
				n.pending = append(n.pending, uint64(a)<<32|uint64(spec.Dst[t]))
			}
		}
	}
	slices.Sort(n.pending)
	pending := slices.Compact(n.pending)
	n.edges = n.edges[:0]
	for i := 0; i < len(pending); {
		a := int32(pending[i] >> 32)
		n.targets = n.targets[:0]
		for ; i < len(pending) && int32(pending[i]>>32) == a; i++ {
			n.targets = append(n.targets, int32(uint32(pending[i])))
		}
		n.edges = append(n.edges, a, n.closure(n.targets))
	}
	// closure grows the per-subset slices, so record the successors only now.
	n.succOff[id] = int64(len(n.succLabel))
	n.succLen[id] = int32(len(n.edges) / 2)
	for i := 0; i < len(n.edges); i += 2 {
		n.succLabel = append(n.succLabel, n.edges[i])
		n.succDst = append(n.succDst, n.edges[i+1])
	}
}

// subsetOf reports whether subset q ⊆ subset p.
func (n *normaliser) subsetOf(q, p int32) bool {
	if q == p {
		return true
	}
	if n.sig[q]&^n.sig[p] != 0 {
		return false
	}
	qs, ps := n.members(q), n.members(p)
	if len(qs) > len(ps) {
		return false
	}
	j := 0
	for _, e := range qs {
		for j < len(ps) && ps[j] < e {
			j++
		}
		if j == len(ps) || ps[j] != e {
			return false
		}
		j++
	}
	return true
}
