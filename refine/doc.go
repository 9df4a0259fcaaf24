// Package refine checks trace refinement impl ⊑_tr spec, traces(impl) ⊆
// traces(spec), which is exactly linearizability when spec is the atomic
// specification of the object (Yang et al., Thm 3.3; Liu et al., Thm 1).
// linbis falls back to it when the implementation is not branching
// bisimilar to its specification: bisimilarity implies linearizability but
// not the converse (Yang et al. §7), e.g. when linearization points depend on
// the future, as in the Herlihy–Wing queue or the K-valued register.
//
// # Algorithm
//
// Check runs the antichain search of package antichain (antichain.Search,
// the one engine for trace inclusion) over the implementation LTS
// (antichain.ExplicitImpl) and the normalised specification
// (antichain.Subsets over antichain.Explicit): a breadth-first search of
// the product of implementation states with normalised specification
// states (Liu et al., Fig. 2; Roscoe's FDR), a normalised state being a
// τ-closed set of specification states, all reachable by the same visible
// trace. From a pair (s, P), an implementation τ step leads to (s', P) and
// a visible step s -a-> s' to (s', P·a), where P·a is the τ-closure of the
// a-successors of P. The check fails at the first pair whose
// implementation state has a visible action a with P·a = ∅; the
// implementation trace leading there, followed by a, is a trace the
// specification cannot do.
//
// What Check promises of the search (antichain/search.go states its
// invariants):
//   - Pairs are explored layer by layer in the number of visible actions,
//     so the counterexample has the fewest visible actions of all (a
//     shortest counterexample trace), whatever the number of τ steps.
//   - With Options.Antichain, a pair (s, P) is not explored when a pair
//     (s, Q) with Q ⊆ P has been (De Wulf, Doyen, Henzinger, Raskin, CAV
//     2006; Abdulla, Chen, Holík, Mayr, Vojnar, TACAS 2010): per
//     implementation state only the ⊆-minimal subsets are explored, which
//     keeps the counterexample shortest.
//   - Subsets are interned once and each subset's successors are computed
//     once, for all its labels, when it is first expanded (eager
//     antichain.Subsets).
//
// # Quotienting
//
// With Options.Quotient, impl and spec are first minimised modulo
// divergence-preserving branching bisimilarity, which preserves traces
// (Yang, Katoen, Lin, Wu, "Proving linearizability via branching
// bisimulation", arXiv 1609.07546, check refinement on the quotient). A
// counterexample found on the quotient is mapped back to a path of the
// original implementation with the same visible labels (lts.Replay), so that
// its steps keep their threads and source lines.
//
// # Linearization-point mode
//
// Options.Alphabet selects the visible labels; all others are treated as τ
// in both LTSs. With the linearization events lin(T,M,RESULT) as the only
// visible labels, Check decides the refinement L'_im ⊑ L'_sp of Liu et al.,
// Thm 2, on much smaller normalised states. Its verdicts mean:
//   - Refines: the implementation is linearizable, provided each operation
//     performs exactly one lin event between its call and its return, with
//     the result it returns.
//   - Fails: conclusive only when the marked linearization points are
//     complete — no other action of the implementation can be a
//     linearization point. A failure with wrongly or incompletely placed
//     lin events does not show that the object is not linearizable; run the
//     full check (Alphabet nil, call/ret visible) to decide.
package refine
