// Package confluence measures how far τ-confluence reduction could shrink a
// model's LTS while keeping its branching bisimilarity class. It answers an
// optional question (can τ-confluence, as in Groote and van de
// Pol, "State space reduction using partial τ-confluence", MFCS 2000, shrink
// the LTS for the bisimulation route without changing its verdict?) with
// figures; linbis's product does not use it.
//
// The reduction is computed on the full LTS, so it is an upper bound of what a
// reduction during generation could reach: a generator can only prove a
// τ-step confluent from the model's text (as the partial-order reduction of
// frontend/reduce does with footprints), whereas here the largest confluent
// set is found from the LTS itself.
//
// Definitions. A set T of τ-transitions (τ-self-loops excluded) is confluent
// when for every s -τ-> t in T and every other transition s -a-> u there is
// a state v with t -a-> v and u -τ-> v in T. Confluent sets are closed under
// union, so there is a largest one, computed by removing violating
// transitions until none is left (MaximalSet). A confluent τ-step is inert
// for branching bisimilarity (Groote and van de Pol, Thm 3.6): s and t are
// branching bisimilar. So every state may be replaced by a representative:
// the T-steps from any state lead to exactly one bottom strongly connected
// component of T (two T-paths can always be joined), and a fixed state of
// that component stands for all states that reach it (Blom and van de Pol,
// "State space reduction by proving confluence", CAV 2002). Reduce builds the
// LTS of the representatives reachable from the initial one, with every
// transition of a representative, its target replaced by the target's
// representative.
//
// Divergence: a representative whose bottom component is a cycle keeps a
// τ-self-loop, so that the cycle's divergence stays visible. That Reduce
// keeps divergence-preserving branching bisimilarity is checked (on random
// LTSs and on the bundled models, by bisim.Compare), not proved here.
package confluence

import (
	"sort"

	"github.com/linbis/linbis/lts"
)

// MaximalSet returns the largest confluent set of τ-transitions of l, as one
// flag per transition (indexed like l.Src).
func MaximalSet(l *lts.LTS) []bool {
	idx := newTransitionIndex(l)
	inT := make([]bool, l.NumTransitions())
	for t := range inT {
		inT[t] = l.Label[t] == lts.Tau && l.Src[t] != l.Dst[t]
	}
	// Remove violators until a pass removes none. A removal can only break
	// transitions that relied on it to close a diamond, so the fixpoint is
	// the largest confluent set (the condition is monotone in T).
	for changed := true; changed; {
		changed = false
		for t := range inT {
			if inT[t] && !closesEveryDiamond(l, idx, inT, int32(t)) {
				inT[t] = false
				changed = true
			}
		}
	}
	return inT
}

// closesEveryDiamond reports whether the τ-transition t = s -τ-> t' meets the
// confluence condition against every other transition of s under the current T.
func closesEveryDiamond(l *lts.LTS, idx transitionIndex, inT []bool, t int32) bool {
	s, target := l.Src[t], l.Dst[t]
	lo, hi := l.Outgoing(s)
	for x := lo; x < hi; x++ {
		a, u := l.Label[x], l.Dst[x]
		if a == lts.Tau && u == target {
			continue // t itself, or a copy of it
		}
		if !idx.closes(l, inT, target, a, u) {
			return false
		}
	}
	return true
}

// transitionIndex lists each state's transitions sorted by (label, target),
// so that "is u -τ-> v a transition, and which one" is a binary search.
type transitionIndex struct {
	// order holds transition numbers; those of state s are
	// order[l.Out[s]:l.Out[s+1]], sorted by (label, target).
	order []int32
}

func newTransitionIndex(l *lts.LTS) transitionIndex {
	order := make([]int32, l.NumTransitions())
	for t := range order {
		order[t] = int32(t)
	}
	for s := int32(0); s < l.NumStates; s++ {
		lo, hi := l.Outgoing(s)
		part := order[lo:hi]
		sort.Slice(part, func(i, j int) bool {
			x, y := part[i], part[j]
			if l.Label[x] != l.Label[y] {
				return l.Label[x] < l.Label[y]
			}
			return l.Dst[x] < l.Dst[y]
		})
	}
	return transitionIndex{order}
}

// labelled returns the transitions of s labelled a, sorted by target.
func (idx transitionIndex) labelled(l *lts.LTS, s, a int32) []int32 {
	lo, hi := l.Outgoing(s)
	part := idx.order[lo:hi]
	i := sort.Search(len(part), func(i int) bool { return l.Label[part[i]] >= a })
	j := i
	for j < len(part) && l.Label[part[j]] == a {
		j++
	}
	return part[i:j]
}

// closes reports whether some t -a-> v has u -τ-> v in T.
func (idx transitionIndex) closes(l *lts.LTS, inT []bool, t, a, u int32) bool {
	taus := idx.labelled(l, u, lts.Tau)
	for _, y := range idx.labelled(l, t, a) {
		v := l.Dst[y]
		k := sort.Search(len(taus), func(i int) bool { return l.Dst[taus[i]] >= v })
		for ; k < len(taus) && l.Dst[taus[k]] == v; k++ {
			if inT[taus[k]] {
				return true
			}
		}
	}
	return false
}

// Stats are the figures of one reduction.
type Stats struct {
	// States and Transitions are the input's sizes; TauTransitions how many
	// of its transitions are τ, and Confluent how many are in the largest
	// confluent set.
	States, Transitions, TauTransitions, Confluent int
	// ReducedStates and ReducedTransitions are the sizes of the LTS of
	// representatives.
	ReducedStates, ReducedTransitions int
}

// Reduce returns the LTS of the representatives of l reachable from its
// initial state's representative (see the package comment) and its figures.
func Reduce(l *lts.LTS) (*lts.LTS, Stats) {
	inT := MaximalSet(l)
	st := Stats{States: int(l.NumStates), Transitions: l.NumTransitions()}
	for t, conf := range inT {
		if l.Label[t] == lts.Tau {
			st.TauTransitions++
		}
		if conf {
			st.Confluent++
		}
	}
	rep, cycle := representatives(l, inT)

	b := lts.NewBuilder()
	label := make([]int32, l.NumLabels())
	for a, name := range l.Labels {
		label[a] = b.Label(name)
	}
	num := make([]int32, l.NumStates) // a representative's number in the result, plus one
	queue := []int32{rep[l.Initial]}
	num[queue[0]] = 1
	b.SetNumStates(1)
	for i := 0; i < len(queue); i++ {
		r := queue[i]
		if cycle[r] {
			b.AddTransition(int32(i), lts.Tau, int32(i))
		}
		lo, hi := l.Outgoing(r)
		for x := lo; x < hi; x++ {
			d := rep[l.Dst[x]]
			if inT[x] && d == r {
				continue // a step inside r's own bottom component
			}
			if num[d] == 0 {
				queue = append(queue, d)
				num[d] = int32(len(queue))
				b.SetNumStates(int32(len(queue)))
			}
			b.AddTransition(int32(i), label[l.Label[x]], num[d]-1)
		}
	}
	b.SetInitial(0)
	out := b.Build()
	st.ReducedStates, st.ReducedTransitions = int(out.NumStates), out.NumTransitions()
	return out, st
}

// representatives maps every state to the representative of the bottom
// component of T that its T-steps reach, and flags the representatives whose
// component is a cycle (more than one state).
func representatives(l *lts.LTS, inT []bool) (rep []int32, cycle []bool) {
	comp, count := lts.SCCs(l, func(t int32) bool { return inT[t] })
	// next[c] is a state of another component that a T-step leaves c for
	// (-1: c is bottom); members[c] a state of c; big[c] whether c has a
	// T-step inside it (so more than one state: τ-self-loops are not in T).
	next := make([]int32, count)
	member := make([]int32, count)
	big := make([]bool, count)
	for c := range next {
		next[c], member[c] = -1, -1
	}
	for s := int32(0); s < l.NumStates; s++ {
		if member[comp[s]] < 0 {
			member[comp[s]] = s
		}
	}
	for t, conf := range inT {
		if !conf {
			continue
		}
		a, b := comp[l.Src[t]], comp[l.Dst[t]]
		if a == b {
			big[a] = true
		} else if next[a] < 0 {
			next[a] = l.Dst[t]
		}
	}
	// Components are numbered in reverse topological order (lts.SCCs), so a
	// component's T-successors have smaller numbers and are resolved first.
	compRep := make([]int32, count)
	cycle = make([]bool, l.NumStates)
	for c := int32(0); c < count; c++ {
		if next[c] < 0 {
			compRep[c] = member[c]
			cycle[member[c]] = big[c]
		} else {
			compRep[c] = compRep[comp[next[c]]]
		}
	}
	rep = make([]int32, l.NumStates)
	for s := range rep {
		rep[s] = compRep[comp[s]]
	}
	return rep, cycle
}
