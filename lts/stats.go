package lts

// Stats summarises an LTS, as printed by `linbis info`.
type Stats struct {
	States         int32 `json:"states"`
	Transitions    int   `json:"transitions"`
	Labels         int   `json:"labels"` // visible labels, τ excluded
	TauTransitions int   `json:"tau_transitions"`
	DeadlockStates int32 `json:"deadlock_states"` // states with no outgoing transition
	Reachable      int32 `json:"reachable_states"`
	TauSCCs        int32 `json:"tau_sccs"`
	LargestTauSCC  int32 `json:"largest_tau_scc"`
	// DivergentStates counts the states that lie on a τ-cycle (a τ self-loop included).
	DivergentStates int32 `json:"divergent_states"`
}

// ComputeStats computes the statistics of l in O(states + transitions).
func ComputeStats(l *LTS) Stats {
	st := Stats{States: l.NumStates, Transitions: len(l.Src), Labels: len(l.Labels) - 1}
	// The τ-SCCs are a depth-first search bound by cache misses; the
	// reachable states (another search) and the counts are done beside
	// them, on another core when there is one.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, lab := range l.Label {
			if lab == Tau {
				st.TauTransitions++
			}
		}
		for s := int32(0); s < l.NumStates; s++ {
			if l.Out[s] == l.Out[s+1] {
				st.DeadlockStates++
			}
		}
		st.Reachable = reachableCount(l)
	}()
	comp, count := TauSCCs(l)
	<-done
	st.TauSCCs = count
	size := make([]int32, count)
	for _, c := range comp {
		size[c]++
		if size[c] > st.LargestTauSCC {
			st.LargestTauSCC = size[c]
		}
	}
	div := DivergentComponents(l, comp, count)
	for _, c := range comp {
		if div[c] {
			st.DivergentStates++
		}
	}
	return st
}

// reachableCount is the number of states reachable from the initial state.
// Only the count: Reachable would build a copy of the whole LTS (2.9 GiB
// for the 101 M transitions of Treiber 6/1), and reachOrder's int32 per
// state for the visited mark costs a cache miss per transition on a large
// LTS, where a bit set (2.5 MB for 20 M states) mostly stays in the cache.
func reachableCount(l *LTS) int32 {
	seen := make([]uint64, (l.NumStates+63)/64)
	mark := func(s int32) bool {
		w, b := &seen[s/64], uint64(1)<<(s%64)
		if *w&b != 0 {
			return false
		}
		*w |= b
		return true
	}
	stack := []int32{l.Initial}
	mark(l.Initial)
	count := int32(1)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range l.Dst[l.Out[s]:l.Out[s+1]] {
			if mark(d) {
				count++
				stack = append(stack, d)
			}
		}
	}
	return count
}
