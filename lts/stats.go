package lts

// Stats summarises an LTS, as printed by `linbis info`.
type Stats struct {
	States         int32 `json:"states"`           // all states, reachable or not
	Transitions    int   `json:"transitions"`      // all transitions, τ included
	Labels         int   `json:"labels"`           // visible labels, τ excluded
	TauTransitions int   `json:"tau_transitions"`  // the transitions labelled τ
	DeadlockStates int32 `json:"deadlock_states"`  // states with no outgoing transition
	Reachable      int32 `json:"reachable_states"` // states reachable from the initial one
	TauSCCs        int32 `json:"tau_sccs"`         // strongly connected components of the τ-steps, single states included
	LargestTauSCC  int32 `json:"largest_tau_scc"`  // the states of the largest of them
	// DivergentStates counts the states that lie on a τ-cycle (a τ self-loop included).
	DivergentStates int32 `json:"divergent_states"`
}

// ComputeStats computes the statistics of l in O(states + transitions).
func ComputeStats(l *LTS) Stats {
	st := Stats{States: l.NumStates, Transitions: len(l.Src), Labels: len(l.Labels) - 1}
	// The τ-SCCs are a depth-first search whose every access is a cache
	// miss on a large LTS; the rest is done beside it, on another core
	// when there is one.
	var selfLoop []bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, lab := range l.Label {
			if lab == Tau {
				st.TauTransitions++
			}
		}
		for s := range l.NumStates {
			if l.Out[s] == l.Out[s+1] {
				st.DeadlockStates++
			}
		}
		selfLoop = tauSelfLoops(l)
		st.Reachable = reachableCount(l)
	}()
	comp, count := TauSCCs(l)
	st.TauSCCs = count
	size := componentSizes(comp, count)
	for _, n := range size {
		st.LargestTauSCC = max(st.LargestTauSCC, n)
	}
	<-done
	div := divergentComponents(comp, size, selfLoop)
	for _, c := range comp {
		if div[c] {
			st.DivergentStates++
		}
	}
	return st
}

// reachableCount is the number of states reachable from the initial state.
//
// Only the count: Reachable would build a copy of the whole LTS (2.9 GiB
// for the 101 M transitions of Treiber 6/1). The states are marked in a
// bit set (2.5 MB for 20 M states), which mostly stays in the cache, and
// visited by a sweep in number order, which reads the transition arrays
// in order: a state marked ahead of the sweep is visited when the sweep
// reaches it, one marked behind it from a stack at once. On a breadth-
// first numbering nearly all are ahead, and the sweep is several times
// faster than a depth-first search (benchmarks/RESULTS.md).
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
	mark(l.Initial)
	count := int32(1)
	var behind []int32 // marked behind the sweep, not yet visited
	for pos := range l.NumStates {
		if seen[pos/64]&(1<<(pos%64)) == 0 {
			continue
		}
		for s := pos; ; {
			for _, d := range l.Dst[l.Out[s]:l.Out[s+1]] {
				if mark(d) {
					count++
					if d < pos {
						behind = append(behind, d)
					}
				}
			}
			if len(behind) == 0 {
				break
			}
			s = behind[len(behind)-1]
			behind = behind[:len(behind)-1]
		}
	}
	return count
}
