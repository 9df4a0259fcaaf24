package bisim

import (
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/linbis/linbis/lts"
)

// distinguishingTrace looks, on q, for a shortest sequence of visible
// labels that one of the states x and y can do (with τ-steps anywhere) and
// the other cannot: breadth first over pairs of sets of states reached by
// the same visible labels (a subset construction, which can blow up, hence
// the bound maxPairs; on the quotients of model checkers' LTSs it stays
// small). It returns the labels and the side (0: x, 1: y) that can do them,
// with ok set; otherwise complete says whether the weak traces were found
// equal (false: the search gave up at maxPairs). Traces are invariant
// under all three equivalences, so a trace of the quotient's class is a
// trace of the states in it.
//
// Under strong bisimilarity the quotient is often nearly as large as the
// inputs and every τ-closure is large, so the search is the formula's main
// cost there: closures use a stamp array rather than a map, successors are
// grouped by sorting (label, state) pairs, and pairs of sets are found
// again by a hash of their contents rather than a printed key.
func distinguishingTrace(q *lts.LTS, x, y int32, maxPairs int) (labels []int32, side int, ok, complete bool) {
	ts := traceSearch{q: q, stamp: make([]uint32, q.NumStates), seed: maphash.MakeSeed(), seen: map[uint64][]int32{}}
	ts.add([2][]int32{ts.closure([]int32{x}), ts.closure([]int32{y})}, -1, 0)
	var steps [2][]uint64 // label<<32 | successor, sorted
	i := 0
	for ; i < len(ts.nodes) && len(ts.nodes) < maxPairs; i++ {
		n := ts.nodes[i]
		for k := range 2 {
			steps[k] = steps[k][:0]
			for _, s := range n.sets[k] {
				for t := q.Out[s]; t < q.Out[s+1]; t++ {
					if a := q.Label[t]; a != lts.Tau {
						steps[k] = append(steps[k], uint64(a)<<32|uint64(q.Dst[t]))
					}
				}
			}
			slices.Sort(steps[k])
			steps[k] = slices.Compact(steps[k])
		}
		// Walk both sorted lists label by label, in label order.
		for p := [2]int{}; p[0] < len(steps[0]) || p[1] < len(steps[1]); {
			a := int32(-1)
			for k := range 2 {
				if p[k] < len(steps[k]) {
					if b := int32(steps[k][p[k]] >> 32); a < 0 || b < a {
						a = b
					}
				}
			}
			var after [2][]int32
			for k := range 2 {
				for ; p[k] < len(steps[k]) && int32(steps[k][p[k]]>>32) == a; p[k]++ {
					after[k] = append(after[k], int32(steps[k][p[k]]))
				}
			}
			if len(after[0]) == 0 || len(after[1]) == 0 {
				side = 0
				if len(after[0]) == 0 {
					side = 1
				}
				labels = []int32{a}
				for j := i; ts.nodes[j].parent >= 0; j = ts.nodes[j].parent {
					labels = append(labels, ts.nodes[j].label)
				}
				slices.Reverse(labels)
				return labels, side, true, true
			}
			ts.add([2][]int32{ts.closure(after[0]), ts.closure(after[1])}, i, a)
		}
	}
	return nil, 0, false, i == len(ts.nodes)
}

// traceSearch is the state of distinguishingTrace's subset construction.
type traceSearch struct {
	q *lts.LTS
	// stamp[s] == gen marks s as already in the closure being built.
	stamp []uint32
	gen   uint32
	nodes []traceNode
	// seen maps the hash of a pair of sets to the nodes with that hash.
	seed maphash.Seed
	seen map[uint64][]int32
	buf  []byte
}

// traceNode is a pair of sets of states reached by the same visible
// labels, with the node and label it was reached from.
type traceNode struct {
	sets   [2][]int32
	parent int
	label  int32
}

// closure returns the sorted τ-closure of set (which it may reorder).
func (ts *traceSearch) closure(set []int32) []int32 {
	q := ts.q
	ts.gen++
	out := make([]int32, 0, len(set))
	for _, s := range set {
		if ts.stamp[s] != ts.gen {
			ts.stamp[s] = ts.gen
			out = append(out, s)
		}
	}
	for i := 0; i < len(out); i++ {
		for t := q.Out[out[i]]; t < q.Out[out[i]+1]; t++ {
			if d := q.Dst[t]; q.Label[t] == lts.Tau && ts.stamp[d] != ts.gen {
				ts.stamp[d] = ts.gen
				out = append(out, d)
			}
		}
	}
	slices.Sort(out)
	return out
}

// add appends the node (sets, parent, label) unless an equal pair of sets
// is already a node.
func (ts *traceSearch) add(sets [2][]int32, parent int, label int32) {
	ts.buf = ts.buf[:0]
	for _, set := range sets {
		ts.buf = binary.LittleEndian.AppendUint32(ts.buf, uint32(len(set)))
		for _, s := range set {
			ts.buf = binary.LittleEndian.AppendUint32(ts.buf, uint32(s))
		}
	}
	h := maphash.Bytes(ts.seed, ts.buf)
	for _, j := range ts.seen[h] {
		if slices.Equal(ts.nodes[j].sets[0], sets[0]) && slices.Equal(ts.nodes[j].sets[1], sets[1]) {
			return
		}
	}
	ts.seen[h] = append(ts.seen[h], int32(len(ts.nodes)))
	ts.nodes = append(ts.nodes, traceNode{sets: sets, parent: parent, label: label})
}

// traceFormula returns the formula that says "can do this path" along the
// path of l given as transitions: ⟨a1⟩⟨a2⟩…true with every step (τ too)
// under Strong, τ-steps left to until's τ-paths (true⟨a⟩…) otherwise.
func traceFormula(l *lts.LTS, path []int32, eq Equivalence) *Formula {
	f := True()
	for i := len(path) - 1; i >= 0; i-- {
		name := l.LabelName(path[i])
		switch {
		case eq == Strong:
			f = Diamond(name, f)
		case l.Label[path[i]] != lts.Tau:
			f = Until(True(), name, f)
		}
	}
	return f
}
