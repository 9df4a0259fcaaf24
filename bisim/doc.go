// Package bisim decides strong, branching and divergence-preserving
// branching bisimilarity of labelled transition systems, computes the
// quotient (minimal) LTS and, for two inequivalent LTSs, a distinguishing
// formula (model-checked on both before it is returned; formula_build.go)
// and a distinguishing path.
//
// Branching bisimilarity is Yang, Katoen, Lin and Wu, Def. 4.1; its
// divergence-preserving variant is their Def. 5.1–5.2. An implementation that
// is divergence-preserving branching bisimilar to its atomic specification is
// linearizable and lock-free (their Thm. 5.4).
//
// All three equivalences are computed on a "kernel" graph (kernel.go): for
// the branching equivalences the τ-strongly-connected components are
// contracted first (states on a τ-cycle are branching bisimilar), so the τ
// graph is acyclic; under DivBranching a component that contains a τ-cycle
// keeps a self-loop with a fresh, never-inert label, so that divergent and
// non-divergent states are split. Two refinement algorithms work on the
// kernel: the Groote–Vaandrager reference (gv.go) and the worklist algorithm
// used by default (fast.go); see their design comments for what each costs.
package bisim
