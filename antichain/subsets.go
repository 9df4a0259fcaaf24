package antichain

import (
	"fmt"
	"math"
	"slices"

	"github.com/linbis/linbis/lts"
)

// NoSubset stands for the empty successor: the specification cannot do
// the action.
const NoSubset int32 = -1

// Spec is a specification LTS as the normalisation reads it: one state's
// transitions at a time, so that its states may be found as the search
// needs them (onthefly) or all be there already (an *lts.LTS, through
// NewExplicit). States are numbered from 0.
type Spec interface {
	// Tau returns the targets of the τ-transitions of state s, in a slice
	// the caller only reads, until its next call of Tau.
	Tau(s int32) ([]int32, error)
	// Visible returns the visible transitions of state s, in a slice the
	// caller only reads, until its next call of Visible.
	Visible(s int32) ([]Edge, error)
}

// Edge is a transition of a specification state.
type Edge struct {
	// Label is the action: 0 for τ (lts.Tau), which Visible never gives,
	// else the Spec's own name for a visible action (an LTS's label id).
	Label uint64
	// To is the target state.
	To int32
}

// Explicit is the Spec of an LTS whose states are all known.
type Explicit struct {
	l   *lts.LTS // canonical: the τ-transitions of a state come first
	out []Edge   // Visible's
}

// NewExplicit returns the Spec of l; its labels are l's label ids.
func NewExplicit(l *lts.LTS) *Explicit { return &Explicit{l: lts.Canonical(l)} }

// Tau implements Spec: the targets in the LTS's own array.
func (x *Explicit) Tau(s int32) ([]int32, error) {
	l := x.l
	t := l.Out[s]
	for t < l.Out[s+1] && l.Label[t] == lts.Tau {
		t++
	}
	return l.Dst[l.Out[s]:t], nil
}

// Visible implements Spec.
func (x *Explicit) Visible(s int32) ([]Edge, error) {
	l := x.l
	x.out = x.out[:0]
	for t := l.Out[s]; t < l.Out[s+1]; t++ {
		if l.Label[t] != lts.Tau {
			x.out = append(x.out, Edge{Label: uint64(l.Label[t]), To: l.Dst[t]})
		}
	}
	return x.out, nil
}

// Subsets is the normalised specification (Liu et al., Def. 4; Roscoe's
// FDR): sets of specification states reachable by the same visible trace,
// closed under τ, interned as subset ids in the order they are first met,
// with their successors by label, each computed once.
//
// Subset i holds elems[start[i]:start[i+1]], sorted; sig[i] has bit e%64
// for each state e of it, so that most non-inclusions show without a look
// at the states. after[i] lists the successors of subset i met so far (a
// few labels: a list is quicker than a map).
type Subsets struct {
	spec Spec
	// eager computes all the successors of a subset at its first
	// successor asked for (see NewSubsets).
	eager bool

	elems []int32
	start []int64
	hash  []uint64
	sig   []uint64
	table []int32 // open addressing over subset ids, -1 = empty
	after [][]afterEdge

	// Scratch, reused.
	stamp   []uint32 // stamp[s] == gen: s is in the set being built
	gen     uint32
	set     []int32
	pending []uint64 // label<<32 | target, while expanding eagerly
	edges   []afterEdge
	// block is the arena's last block of eager successor lists (expand).
	block   []afterEdge
	targets []int32
	labels  []uint64
}

// afterEdge is a successor of a subset: the subset reached by a label.
type afterEdge struct {
	label uint64
	to    int32
}

// NewSubsets returns the normalisation of spec. With eager, the first
// successor asked of a subset computes its successors by every label at
// once, in the order of the labels, and later ones are binary searches
// (the labels must then be below 2³², as an LTS's label ids are):
// for an LTS in memory, whose states' transitions are all there, one pass
// over the members' transitions serves every label. Without, each label's
// successor is computed when it is first asked for, as suits a
// specification explored as the search goes (each state's transitions
// computed by the semantics when first read).
func NewSubsets(spec Spec, eager bool) *Subsets {
	n := &Subsets{spec: spec, eager: eager, start: []int64{0}, table: make([]int32, 1024)}
	for i := range n.table {
		n.table[i] = -1
	}
	return n
}

// Count returns the number of interned subsets.
func (n *Subsets) Count() int { return len(n.hash) }

// Members returns the sorted states of subset id; the slice aliases the
// arena and is valid until the next subset is interned.
func (n *Subsets) Members(id int32) []int32 { return n.elems[n.start[id]:n.start[id+1]] }

// Closure returns the interned τ-closure of the given specification
// states, NoSubset if there are none.
func (n *Subsets) Closure(states []int32) (int32, error) {
	if len(states) == 0 {
		return NoSubset, nil
	}
	n.gen++
	if n.gen == 0 { // wrapped: clear the stamps once every 2³² sets
		clear(n.stamp)
		n.gen = 1
	}
	n.set = n.set[:0]
	for _, s := range states {
		n.add(s)
	}
	for i := 0; i < len(n.set); i++ {
		tau, err := n.spec.Tau(n.set[i])
		if err != nil {
			return NoSubset, err
		}
		for _, d := range tau {
			n.add(d)
		}
	}
	slices.Sort(n.set)
	return n.Intern(n.set), nil
}

// add puts state s into the set being built unless it is there.
func (n *Subsets) add(s int32) {
	if int(s) >= len(n.stamp) {
		n.stamp = append(n.stamp, make([]uint32, int(s)+1-len(n.stamp))...)
	}
	if n.stamp[s] != n.gen {
		n.stamp[s] = n.gen
		n.set = append(n.set, s)
	}
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

// Intern returns the id of the sorted, duplicate-free set s, adding it if
// new. The empty set is a subset like any other here (onthefly pairs the
// states past a violation with it); Closure and After never return it.
func (n *Subsets) Intern(s []int32) int32 {
	h := hashSubset(s)
	mask := uint64(len(n.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		id := n.table[i]
		if id < 0 {
			break
		}
		if n.hash[id] == h && slices.Equal(n.Members(id), s) {
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
	n.after = append(n.after, nil)
	if 2*len(n.hash) > len(n.table) {
		n.rehash()
	} else {
		n.place(id)
	}
	return id
}

func (n *Subsets) place(id int32) {
	mask := uint64(len(n.table) - 1)
	i := n.hash[id] & mask
	for n.table[i] >= 0 {
		i = (i + 1) & mask
	}
	n.table[i] = id
}

func (n *Subsets) rehash() {
	n.table = make([]int32, 2*len(n.table))
	for i := range n.table {
		n.table[i] = -1
	}
	for id := range n.hash {
		n.place(int32(id))
	}
}

// After returns the subset reached from subset id by the visible label a
// (τ-closed), or NoSubset when no state of the subset can do a.
func (n *Subsets) After(id int32, a uint64) (int32, error) {
	if to, ok := n.Known(id, a); ok {
		return to, nil
	}
	if n.eager {
		if err := n.expand(id); err != nil {
			return NoSubset, err
		}
		to, _ := n.Known(id, a)
		return to, nil
	}
	to, err := n.image(id, a)
	if err != nil {
		return NoSubset, err
	}
	n.after[id] = append(n.after[id], afterEdge{a, to})
	return to, nil
}

// Known returns After(id, a) when it has been computed already, and
// whether it has. It only reads, so that several goroutines may call it
// at once while no subset or successor is being added.
func (n *Subsets) Known(id int32, a uint64) (int32, bool) {
	edges := n.after[id]
	if n.eager {
		if edges == nil { // not expanded yet
			return NoSubset, false
		}
		lo, hi := 0, len(edges)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if edges[m].label < a {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(edges) && edges[lo].label == a {
			return edges[lo].to, true
		}
		return NoSubset, true
	}
	for _, e := range edges {
		if e.label == a {
			return e.to, true
		}
	}
	return NoSubset, false
}

// image computes the subset reached from subset id by label a.
func (n *Subsets) image(id int32, a uint64) (int32, error) {
	n.targets = n.targets[:0]
	for i := n.start[id]; i < n.start[id+1]; i++ {
		out, err := n.spec.Visible(n.elems[i])
		if err != nil {
			return NoSubset, err
		}
		for _, e := range out {
			if e.Label == a {
				n.targets = append(n.targets, e.To)
			}
		}
	}
	return n.Closure(n.targets)
}

// expand computes the successors of subset id by every visible label of
// its members, sorted by label (After's binary search): one pass over the
// members' transitions, grouped by label.
func (n *Subsets) expand(id int32) error {
	n.pending = n.pending[:0]
	for i := n.start[id]; i < n.start[id+1]; i++ {
		out, err := n.spec.Visible(n.elems[i])
		if err != nil {
			return err
		}
		for _, e := range out {
			if e.Label > math.MaxUint32 {
				return fmt.Errorf("antichain: label %d of an eager normalisation is above 2³²", e.Label)
			}
			n.pending = append(n.pending, e.Label<<32|uint64(uint32(e.To)))
		}
	}
	slices.Sort(n.pending)
	n.edges = n.edges[:0]
	for i := 0; i < len(n.pending); {
		a := n.pending[i] >> 32
		n.targets = n.targets[:0]
		for ; i < len(n.pending) && n.pending[i]>>32 == a; i++ {
			n.targets = append(n.targets, int32(uint32(n.pending[i])))
		}
		to, err := n.Closure(n.targets)
		if err != nil {
			return err
		}
		n.edges = append(n.edges, afterEdge{a, to})
	}
	// Into the arena's last block, or a new one: a list is never moved,
	// and one without visible successors is still not nil.
	k := len(n.edges)
	if cap(n.block)-len(n.block) < k {
		n.block = make([]afterEdge, 0, max(afterBlock, k))
	}
	at := len(n.block)
	n.block = append(n.block, n.edges...)
	n.after[id] = n.block[at : at+k : at+k]
	return nil
}

// afterBlock is the size of the arena's blocks that hold the eagerly
// computed successor lists.
const afterBlock = 4096

// Includes reports whether subset sub includes subset of.
func (n *Subsets) Includes(sub, of int32) bool {
	if sub == of {
		return true
	}
	if n.sig[of]&^n.sig[sub] != 0 {
		return false
	}
	qs, ps := n.Members(of), n.Members(sub)
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
