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
	// Only the count: Reachable would build a copy of the whole LTS
	// (2.9 GiB for the 101 M transitions of Treiber 6/1).
	order, _ := reachOrder(l)
	st.Reachable = int32(len(order))
	comp, count := TauSCCs(l)
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
