package lts

// SCCs computes the strongly connected components of the subgraph of l made
// of the transitions t for which keep(t) holds, with Tarjan's algorithm
// (Tarjan 1972) run on an explicit stack, so that paths of millions of
// states cannot overflow the goroutine stack.
//
// It returns comp, the component of every state, and the number of
// components. Components are numbered in reverse topological order: if a
// kept path leads from component a to a different component b, then a > b.
func SCCs(l *LTS, keep func(t int32) bool) (comp []int32, count int32) {
	n := l.NumStates
	const unvisited = -1
	// index[s] is the DFS number of s, low[s] its low-link; comp[s] is
	// unvisited until s is assigned to a component.
	index := make([]int32, n)
	low := make([]int32, n)
	comp = make([]int32, n)
	for i := range index {
		index[i] = unvisited
		comp[i] = unvisited
	}
	var stack []int32 // Tarjan's stack of states not yet in a component
	type frame struct{ state, next int32 }
	var calls []frame // the explicit DFS call stack
	var counter int32
	for root := int32(0); root < n; root++ {
		if index[root] != unvisited {
			continue
		}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		calls = append(calls, frame{root, l.Out[root]})
		for len(calls) > 0 {
			top := &calls[len(calls)-1]
			s := top.state
			descended := false
			for top.next < l.Out[s+1] {
				t := top.next
				top.next++
				if !keep(t) {
					continue
				}
				d := l.Dst[t]
				if index[d] == unvisited {
					index[d], low[d] = counter, counter
					counter++
					stack = append(stack, d)
					calls = append(calls, frame{d, l.Out[d]})
					descended = true
					break
				}
				if comp[d] == unvisited && index[d] < low[s] {
					low[s] = index[d] // d is on the stack
				}
			}
			if descended {
				continue
			}
			calls = calls[:len(calls)-1]
			if low[s] == index[s] {
				for {
					v := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[v] = count
					if v == s {
						break
					}
				}
				count++
			}
			if len(calls) > 0 {
				parent := calls[len(calls)-1].state
				if low[s] < low[parent] {
					low[parent] = low[s]
				}
			}
		}
	}
	return comp, count
}

// TauSCCs computes the τ-strongly-connected components of l (see SCCs).
func TauSCCs(l *LTS) (comp []int32, count int32) {
	return SCCs(l, func(t int32) bool { return l.Label[t] == Tau })
}

// DivergentComponents marks the components (as numbered by TauSCCs) that
// contain a τ-cycle: more than one state, or a τ self-loop.
func DivergentComponents(l *LTS, comp []int32, count int32) []bool {
	size := make([]int32, count)
	for _, c := range comp {
		size[c]++
	}
	div := make([]bool, count)
	for c := range div {
		div[c] = size[c] > 1
	}
	for t := range l.Src {
		if l.Label[t] == Tau && l.Src[t] == l.Dst[t] {
			div[comp[l.Src[t]]] = true
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
