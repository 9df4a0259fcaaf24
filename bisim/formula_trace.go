package bisim

import (
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/linbis/linbis/lts"
)

// distinguishingTrace looks, on g (the quotient), for a shortest sequence
// of visible labels that one of the states x and y can do (with τ-steps
// anywhere) and the other cannot: breadth first over pairs of sets of
// states reached by the same visible labels (a subset construction, which
// can blow up, hence the bounds maxPairs on the pairs of sets and maxWork
// on the states and steps read; on the branching quotients of model
// checkers' LTSs it stays small). It returns the labels and the side (0: x,
// 1: y) that can do them, with ok set; otherwise complete says whether the
// weak traces were found equal (false: the search gave up at a bound).
// Traces are invariant under all three equivalences, so a trace of the
// quotient's class is a trace of the states in it.
//
// When the weak traces are equal and diverges is not nil (under
// DivBranching: the classes with a τ-cycle), it looks among the pairs it
// explored, shortest trace first, for one where only one side's set has a
// state that diverges, and returns its trace with divergence set: after
// those labels, one side can take τ-steps forever and the other cannot,
// often the whole difference (a model that is not lock-free).
//
// Under strong bisimilarity the quotient is often nearly as large as the
// inputs and every τ-closure is large, so the search is the formula's main
// cost there: closures use a stamp array rather than a map, successors are
// grouped by sorting (label, state) pairs, pairs of sets are found again by
// a hash of their contents rather than a printed key, and maxWork keeps
// the search a small fraction of the minimisation (distinguishingFormula).
func distinguishingTrace(g traceGraph, x, y int32, maxPairs int, maxWork int64, diverges func(int32) bool) (labels []int32, side int, ok, complete, divergence bool) {
	ts := traceSearch{g: g, stamp: make([]uint32, g.numStates()), seed: maphash.MakeSeed(), seen: map[uint64][]int32{}}
	ts.add([2][]int32{ts.closure([]int32{x}), ts.closure([]int32{y})}, -1, 0)
	var steps [2][]uint64 // label<<32 | successor, sorted
	i := 0
	for ; i < len(ts.nodes) && len(ts.nodes) < maxPairs && ts.work <= maxWork; i++ {
		n := ts.nodes[i]
		for k := range 2 {
			steps[k] = steps[k][:0]
			for _, s := range n.sets[k] {
				steps[k] = g.steps(s, steps[k])
			}
			ts.work += int64(len(steps[k]))
			steps[k] = slices.DeleteFunc(steps[k], func(st uint64) bool { return int32(st>>32) == lts.Tau })
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
				return append(ts.labels(i), a), side, true, true, false
			}
			ts.add([2][]int32{ts.closure(after[0]), ts.closure(after[1])}, i, a)
		}
	}
	complete = i == len(ts.nodes)
	if complete && diverges != nil {
		for j, n := range ts.nodes {
			d0, d1 := slices.ContainsFunc(n.sets[0], diverges), slices.ContainsFunc(n.sets[1], diverges)
			if d0 != d1 {
				side = 0
				if d1 {
					side = 1
				}
				return ts.labels(j), side, false, true, true
			}
		}
	}
	return nil, 0, false, complete, false
}

// labels returns the labels that lead from the first node to node i.
func (ts *traceSearch) labels(i int) []int32 {
	var labels []int32
	for j := i; ts.nodes[j].parent >= 0; j = ts.nodes[j].parent {
		labels = append(labels, ts.nodes[j].label)
	}
	slices.Reverse(labels)
	return labels
}

// traceGraph is what distinguishingTrace explores: the quotient, or the
// classes of the union read through one representative each.
type traceGraph interface {
	numStates() int32
	// steps appends the steps of s to buf, each as label<<32 | target.
	steps(s int32, buf []uint64) []uint64
}

// quotientGraph is a quotient LTS as a traceGraph.
type quotientGraph struct{ q *lts.LTS }

func (g quotientGraph) numStates() int32 { return g.q.NumStates }

func (g quotientGraph) steps(s int32, buf []uint64) []uint64 {
	q := g.q
	for t := q.Out[s]; t < q.Out[s+1]; t++ {
		buf = append(buf, uint64(q.Label[t])<<32|uint64(q.Dst[t]))
	}
	return buf
}

// classGraph is the strong quotient of u without building it: the steps
// of a class are those of its representative, targets mapped to classes
// (under strong bisimilarity every member has the same).
type classGraph struct {
	u          *lts.LTS
	class, rep []int32
}

func newClassGraph(u *lts.LTS, class []int32, numClasses int32) classGraph {
	rep := make([]int32, numClasses)
	for i := range rep {
		rep[i] = -1
	}
	for s, c := range class {
		if rep[c] < 0 {
			rep[c] = int32(s)
		}
	}
	return classGraph{u: u, class: class, rep: rep}
}

func (g classGraph) numStates() int32 { return int32(len(g.rep)) }

func (g classGraph) steps(c int32, buf []uint64) []uint64 {
	u, s := g.u, g.rep[c]
	for t := u.Out[s]; t < u.Out[s+1]; t++ {
		buf = append(buf, uint64(u.Label[t])<<32|uint64(g.class[u.Dst[t]]))
	}
	return buf
}

// traceSearch is the state of distinguishingTrace's subset construction.
type traceSearch struct {
	g traceGraph
	// work counts the steps and states read, for the bound maxWork.
	work  int64
	steps []uint64
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
	ts.gen++
	out := make([]int32, 0, len(set))
	for _, s := range set {
		if ts.stamp[s] != ts.gen {
			ts.stamp[s] = ts.gen
			out = append(out, s)
		}
	}
	for i := 0; i < len(out); i++ {
		ts.steps = ts.g.steps(out[i], ts.steps[:0])
		ts.work += 1 + int64(len(ts.steps))
		for _, st := range ts.steps {
			if d := int32(uint32(st)); int32(st>>32) == lts.Tau && ts.stamp[d] != ts.gen {
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
