package lts

import (
	"github.com/linbis/linbis/internal/parallel"
)

// SCCs computes the strongly connected components of the subgraph of l made
// of the transitions t for which keep(t) holds. It is Tarjan's algorithm
// (Tarjan 1972) in Pearce's space-efficient form (D. J. Pearce, "A space-
// efficient algorithm for finding strongly connected components", IPL
// 116(1), 2016), run on an explicit stack, so that paths of millions of
// states cannot overflow the goroutine stack.
//
// It returns comp, the component of every state, and the number of
// components. Components are numbered in reverse topological order: if a
// kept path leads from component a to a different component b, then a > b.
// The numbering is the order in which the depth-first search completes
// the components, as in Tarjan's formulation.
//
// Why Pearce's form: Tarjan's keeps three arrays per state (DFS number,
// low-link, component), and on a large LTS each transition's target costs
// a cache miss in each array it reads. Here one array, rindex, holds all
// three, so a transition costs one.
func SCCs(l *LTS, keep func(t int32) bool) (comp []int32, count int32) {
	return sccs(l, keep, nil)
}

// sccs is SCCs, calling done, if not nil, with the states of each
// component as it is completed, that is in the order of the components'
// numbers (the slice is reused afterwards), and componentOf (see
// TauSCCsEach). A nil keep keeps the τ-transitions: tested inline, which
// saves a function call per transition, seconds on a model checker's LTS
// of 100 M transitions (benchmarks/RESULTS.md).
func sccs(l *LTS, keep func(t int32) bool, done func(members []int32, componentOf func(s int32) int32)) (comp []int32, count int32) {
	var each func(members []int32, componentOf func(s int32) int32) bool
	if done != nil {
		each = func(members []int32, componentOf func(s int32) int32) bool {
			done(members, componentOf)
			return true
		}
	}
	comp, count, _ = search(l, sccSearch{keep: keep, done: each})
	return comp, count
}

// sccSearch says which transitions a search for components follows and
// whom it tells.
type sccSearch struct {
	// keep selects the transitions followed; nil follows the τ-transitions,
	// unless all is set.
	keep func(t int32) bool
	// all follows every transition, without a call per transition.
	all bool
	// onCycle, if not nil, is called with every followed transition found
	// to close a cycle (its target is on the search's stack, so it reaches
	// the transition's source); returning true stops the search.
	onCycle func(t int32) bool
	// done, if not nil, is called with each component as it is completed
	// (see sccs); returning false stops the search.
	done func(members []int32, componentOf func(s int32) int32) bool
}

// search runs the search that sccs describes; completed is false when
// onCycle or done stopped it, and comp and count are then meaningless.
func search(l *LTS, how sccSearch) (comp []int32, count int32, completed bool) {
	keep, done := how.keep, how.done
	n := l.NumStates
	// rindex[s] is 0 while s is unvisited. While s is active (visited,
	// not yet in a component) it is s's DFS number, lowered to the
	// smallest number reachable (the low-link); the active states are
	// always numbered 1..#active in visiting order, because they leave in
	// reverse visiting order, so numbers are reused. Once s is in a
	// component it is last-k for the k-th component completed (last = n),
	// which every active state's number is below (#active ≤ n-(k+1)): an
	// edge into a completed component never lowers a low-link, and a
	// target is active exactly when its rindex is below next.
	rindex := make([]int32, n)
	type frame struct{ state, next, num int32 }
	var calls []frame   // the depth-first search's call stack
	var active []int32  // Tarjan's stack: active states not on calls
	var members []int32 // the component completed, for done
	next := int32(1)    // the DFS number of the next state visited
	last := n           // the rindex of the next component completed
	// A completed component's rindex is n-k for the k-th (from 0); its
	// number will be k.
	componentOf := func(s int32) int32 { return n - rindex[s] }
	visit := func(s int32) {
		rindex[s] = next
		calls = append(calls, frame{s, l.Out[s], next})
		next++
	}
	for root := int32(0); root < n; root++ {
		if rindex[root] != 0 {
			continue
		}
		visit(root)
		for len(calls) > 0 {
			top := &calls[len(calls)-1]
			s := top.state
			descended := false
			for top.next < l.Out[s+1] {
				t := top.next
				top.next++
				if !how.all {
					if keep == nil {
						if l.Label[t] != Tau {
							continue
						}
					} else if !keep(t) {
						continue
					}
				}
				d := l.Dst[t]
				r := rindex[d]
				if r == 0 {
					visit(d)
					descended = true
					break
				}
				if r < rindex[s] {
					rindex[s] = r
				}
				if how.onCycle != nil && r < next && how.onCycle(t) {
					return nil, 0, false
				}
			}
			if descended {
				continue
			}
			num := top.num
			calls = calls[:len(calls)-1]
			if rindex[s] == num {
				// s is the root of a component: s and the active states
				// visited after it.
				next--
				members = append(members[:0], s)
				for len(active) > 0 && num <= rindex[active[len(active)-1]] {
					rindex[active[len(active)-1]] = last
					members = append(members, active[len(active)-1])
					active = active[:len(active)-1]
					next--
				}
				rindex[s] = last
				last--
				if done != nil && !done(members, componentOf) {
					return nil, 0, false
				}
			} else {
				active = append(active, s)
			}
			if len(calls) > 0 {
				if p := calls[len(calls)-1].state; rindex[s] < rindex[p] {
					rindex[p] = rindex[s]
				}
			}
		}
	}
	// The k-th component completed (from 0) has rindex n-k.
	for s, r := range rindex {
		rindex[s] = n - r
	}
	return rindex, n - last, true
}

// TauSCCs computes the τ-strongly-connected components of l (see SCCs).
func TauSCCs(l *LTS) (comp []int32, count int32) {
	return TauSCCsEach(l, nil)
}

// TauSCCsEach is TauSCCs, calling done, if not nil, with the states of
// each component as the search completes it, in the order of their
// numbers; the slice is reused afterwards. A caller that reads the
// members' transitions there finds them still in cache: the search has
// just read them (bisim's kernel is built so). componentOf gives the
// number of a state whose component is complete: a member, or the target
// of a member's τ-step (components complete in reverse topological
// order), whose number the search has just read too.
func TauSCCsEach(l *LTS, done func(members []int32, componentOf func(s int32) int32)) (comp []int32, count int32) {
	return sccs(l, nil, done)
}

// TauComponents is TauSCCs with each component's states listed:
// members[first[c]:first[c+1]] are those of component c; first has
// count+1 entries. It is for a caller that then reads each component's
// transitions on several goroutines, each a range of components (bisim's
// kernel on a large LTS); one that reads them on one goroutine does it
// best in TauSCCsEach's callback, from cache.
//
// The depth-first search is sequential. Where τ-steps are at most half of
// l's transitions, it follows a copy of them, made on up to workers
// goroutines (each a range of states), instead of l's transitions: it
// then reads no label and no visible step (on a random LTS of 5 M
// transitions, 30 % τ, 1.5 M targets instead of 5 M labels and 1.5 M
// targets). The copy keeps every state's τ-steps in l's order, so the
// search visits the states in the same order, and the numbering is
// TauSCCs', for any number of workers.
func TauComponents(l *LTS, workers int) (comp []int32, count int32, members, first []int32) {
	members = make([]int32, 0, l.NumStates)
	first = make([]int32, 1, l.NumStates+1)
	how := sccSearch{done: func(ms []int32, _ func(int32) int32) bool {
		members = append(members, ms...)
		first = append(first, int32(len(members)))
		return true
	}}
	g := l // searched for its τ-steps (keep nil)
	if tau := tauGraph(l, workers); tau != nil {
		g, how.all = tau, true
	}
	comp, count, _ = search(g, how)
	return comp, count, members, first
}

// tauGraph returns an LTS whose transitions are l's τ-transitions, in l's
// order, with Out and Dst alone set (search with all set reads no more),
// or nil where they are more than half of l's. It is built on up to
// workers goroutines, each a range of states of about equal transition
// counts: each counts its states' τ-steps, and, once every range knows
// where its steps begin, writes them.
func tauGraph(l *LTS, workers int) *LTS {
	n := l.NumStates
	workers = max(1, min(workers, int(n)))
	cuts := parallel.Cuts(l.Out[:n+1], workers)
	m := int64(l.Out[n])
	out := make([]int32, n+1)
	steps := make([]int32, workers+1) // range p's τ-steps begin at steps[p]
	parallel.ForEach(workers, workers, func(p int) {
		c := int32(0)
		for s := cuts[p]; s < cuts[p+1]; s++ {
			for _, a := range l.Label[l.Out[s]:l.Out[s+1]] {
				if a == Tau {
					c++
				}
			}
			out[s+1] = c // within the range, for now
		}
		steps[p+1] = c
	})
	for p := range workers {
		steps[p+1] += steps[p]
	}
	if int64(steps[workers]) > m/2 {
		return nil
	}
	dst := make([]int32, steps[workers])
	parallel.ForEach(workers, workers, func(p int) {
		w := steps[p]
		for s := cuts[p]; s < cuts[p+1]; s++ {
			out[s+1] += steps[p]
			for t := l.Out[s]; t < l.Out[s+1]; t++ {
				if l.Label[t] == Tau {
					dst[w] = l.Dst[t]
					w++
				}
			}
		}
	})
	return &LTS{NumStates: n, Out: out, Dst: dst}
}

// SCCsEachWhile computes the strongly connected components of the whole
// transition graph of l, every transition followed, numbered as SCCs
// numbers them, and calls done with each as TauSCCsEach does. It is meant
// for callers that want a graph whose cycles are all of one kind (bisim's
// pass over LTSs whose only cycles are τ-cycles) and give up on any other:
// onCycle, if not nil, is called with every transition found to close a
// cycle (its target is on the search's stack), and the search stops, with
// completed false and comp nil, as soon as onCycle returns true or done
// returns false. onCycle sees some transitions of every cycle, not all of
// them (a cycle can close through a tree edge); done sees all of a
// component's.
func SCCsEachWhile(l *LTS, onCycle func(t int32) bool, done func(members []int32, componentOf func(s int32) int32) bool) (comp []int32, count int32, completed bool) {
	return search(l, sccSearch{all: true, onCycle: onCycle, done: done})
}

// DivergentComponents marks the components (as numbered by TauSCCs) that
// contain a τ-cycle: more than one state, or a τ self-loop.
func DivergentComponents(l *LTS, comp []int32, count int32) []bool {
	return divergentComponents(comp, componentSizes(comp, count), tauSelfLoops(l))
}

// componentSizes returns the number of states of each of the count
// components that comp numbers.
func componentSizes(comp []int32, count int32) []int32 {
	size := make([]int32, count)
	for _, c := range comp {
		size[c]++
	}
	return size
}

// tauSelfLoops marks the states with a τ self-loop.
func tauSelfLoops(l *LTS) []bool {
	loop := make([]bool, l.NumStates)
	// By source, through Out: Src need not be read.
	for s := range l.NumStates {
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			if l.Label[t] == Tau && l.Dst[t] == s {
				loop[s] = true
			}
		}
	}
	return loop
}

// divergentComponents marks the components with more than one state or a
// state on a τ self-loop.
func divergentComponents(comp, size []int32, selfLoop []bool) []bool {
	div := make([]bool, len(size))
	for c := range div {
		div[c] = size[c] > 1
	}
	for s, loop := range selfLoop {
		if loop {
			div[comp[s]] = true
		}
	}
	return div
}

// ContractTauSCCs returns the LTS whose states are the τ-SCCs of l, with
// comp mapping each state of l to its component. τ-transitions inside a
// component are dropped; when markDivergence is set, every component that
// contains a τ-cycle keeps one τ self-loop, so that divergence stays
// visible (Yang et al., Def. 5.1). Duplicate transitions are merged. Per-
// transition metadata is dropped.
func ContractTauSCCs(l *LTS, markDivergence bool) (c *LTS, comp []int32) {
	comp, count := TauSCCs(l)
	var div []bool
	if markDivergence {
		div = DivergentComponents(l, comp, count)
	}
	b := NewBuilder()
	b.labels = append([]string(nil), l.Labels...)
	for i, name := range b.labels {
		b.labelIndex[name] = int32(i)
	}
	b.SetNumStates(count)
	b.SetInitial(comp[l.Initial])
	b.Grow(len(l.Src))
	for t := range l.Src {
		cs, cd := comp[l.Src[t]], comp[l.Dst[t]]
		if l.Label[t] == Tau && cs == cd {
			continue
		}
		b.AddTransition(cs, l.Label[t], cd)
	}
	for cc, d := range div {
		if d {
			b.AddTransition(int32(cc), Tau, int32(cc))
		}
	}
	return Canonical(b.Build()), comp
}
