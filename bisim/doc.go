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
// non-divergent states are split. Three refinement algorithms work on the
// kernel (Algorithm): Fast, the worklist refinement used by default
// (fast.go); GJ, the O(m log n) constellation refinement after Groote,
// Jansen, Keiren and Wijs and Groote and Jansen (gj.go); and GV, the
// Groote–Vaandrager reference (gv.go).
//
// On a kernel of 512 k transitions or more, Fast first refines its initial
// partition by signature rounds (Blom and Orzan) on every core
// (sigref.go): each round computes every state's signature in parallel
// and splits the blocks by them; where a round splits nothing the
// partition is stable, else the worklist finishes from the partition the
// rounds left. The partition is the same for any number of workers.
//
// Beside them, when Fast is asked for and the LTS's only cycles are
// τ-cycles (any cycle, under Strong), as in every LTS of a most general
// client with finitely many operations per thread, the classes are found
// without a kernel or a refinement: bottom up, in one depth-first search
// over every transition (acyclic.go). At the first cycle through a visible
// action the pass gives up and Fast refines; GJ and GV always refine.
//
// The pass and the three algorithms find the same partition; their design
// comments say what each costs, and README.md which to use when.
package bisim
