package bisim

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/lts"
)

// oracle computes eq on the states of l naively, straight from the
// definitions, as the greatest fixpoint over state pairs, with no τ-SCC
// contraction. It starts from all pairs and, round after round, keeps a
// pair (s,t) when s and t have the same signature with respect to the
// previous relation R: the set of (a, class of s') such that s reaches, by
// τ-steps through states R-related to s, a state with a transition -a-> s'
// that is not an R-inert τ-step (τ with s' related to s). Strong uses the
// direct transitions only. Every round's relation is an equivalence, so
// divergence is judged as Yang et al. Def. 5.1 does: u is R-divergent if it
// has an infinite τ-path all of whose states are R-related to u;
// DivBranching (Def. 5.2) keeps only pairs that agree on it.
//
// An equivalence whose related states have equal signatures is exactly a
// branching bisimulation in the sense of van Glabbeek and Weijland, which
// Yang et al. cite for Def. 4.1. (Def. 4.1 as printed matches a visible
// action by a single step of the other side, which would make τ.a and a
// inequivalent, against the intent of their §4.) It is for tiny LTSs only.
func oracle(l *lts.LTS, eq Equivalence) [][]bool {
	n := int(l.NumStates)
	R := make([][]bool, n)
	for i := range R {
		R[i] = make([]bool, n)
		for j := range R[i] {
			R[i][j] = true
		}
	}
	for changed := true; changed; {
		changed = false
		sig := make([]map[[2]int32]bool, n)
		div := make([]bool, n)
		for s := range sig {
			sig[s] = oracleSignature(l, eq, R, int32(s))
			div[s] = eq == DivBranching && oracleDivergent(l, R, int32(s))
		}
		next := make([][]bool, n)
		for s := 0; s < n; s++ {
			next[s] = make([]bool, n)
			for t := 0; t < n; t++ {
				next[s][t] = R[s][t] && maps.Equal(sig[s], sig[t]) && div[s] == div[t]
				changed = changed || next[s][t] != R[s][t]
			}
		}
		R = next
	}
	return R
}

// oracleSignature returns the signature of s with respect to R; a class is
// named by its smallest state.
func oracleSignature(l *lts.LTS, eq Equivalence, R [][]bool, s int32) map[[2]int32]bool {
	class := func(u int32) int32 { return int32(slices.Index(R[u], true)) }
	sig := map[[2]int32]bool{}
	seen := map[int32]bool{s: true}
	for stutter := []int32{s}; len(stutter) > 0; {
		u := stutter[len(stutter)-1]
		stutter = stutter[:len(stutter)-1]
		for x := l.Out[u]; x < l.Out[u+1]; x++ {
			a, v := l.Label[x], l.Dst[x]
			if eq != Strong && a == lts.Tau && R[s][v] {
				if !seen[v] {
					seen[v] = true
					stutter = append(stutter, v)
				}
				continue
			}
			sig[[2]int32{a, class(v)}] = true
		}
	}
	return sig
}

// oracleDivergent reports whether u has an infinite τ-path through states
// R-related to u (Yang et al. Def. 5.1).
func oracleDivergent(l *lts.LTS, R [][]bool, u int32) bool {
	n := l.NumStates
	// Keep the states of u's class with a τ-successor kept, until stable.
	alive := make([]bool, n)
	for v := range alive {
		alive[v] = R[u][v]
	}
	for changed := true; changed; {
		changed = false
		for v := int32(0); v < n; v++ {
			if !alive[v] {
				continue
			}
			ok := false
			for x := l.Out[v]; x < l.Out[v+1]; x++ {
				ok = ok || (l.Label[x] == lts.Tau && alive[l.Dst[x]])
			}
			if !ok {
				alive[v], changed = false, true
			}
		}
	}
	return alive[u]
}

// randomLTS makes a small LTS with τ-cycles, self-loops, deadlocks and a few
// labels, from a seed: up to maxStates states, up to three per state
// transitions, none to three visible labels, and τ as likely as two of them.
func randomLTS(seed uint64, maxStates int) *lts.LTS {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	n := 1 + rng.IntN(maxStates)
	labels := []string{"a", "b", "c"}[:rng.IntN(4)]
	b := lts.NewBuilder()
	randlts.Fill(rng, b, randlts.Config{
		States:        n,
		Transitions:   rng.IntN(3*n + 1),
		Labels:        labels,
		Tau:           2 / float64(2+len(labels)),
		RandomInitial: true,
	})
	return b.Build()
}
