// Package antichain is the search for trace inclusion impl ⊑_tr spec
// with antichains, and what it reads: the normalised specification
// (Subsets) — the τ-closed sets of specification states that one visible
// trace can reach, interned as int32 ids, with their successors by label
// and the inclusion test that prunes a pair (s, P) when a pair (s, Q) with
// Q ⊆ P has been explored (the antichain of De Wulf, Doyen, Henzinger and
// Raskin, CAV 2006; Abdulla et al., TACAS 2010; Liu et al. §4) — the store
// of product pairs (Pairs) and the breadth-first search over them
// (Search, layered by visible actions, refine's promise, or by steps, the
// on-the-fly route's, which follows only the least of a state's pairs of
// a level; search.go states its invariants).
//
// Both sides are read through interfaces, one state at a time, so that
// their states may be found as the search reaches them or all be there
// already: a specification through Spec (Explicit gives an *lts.LTS's,
// onthefly computes its states' from the semantics), an implementation
// through Impl (ExplicitImpl gives an *lts.LTS's, onthefly's semImpl the
// semantics'), with optional hooks for what an implicit one adds:
// symmetry (Renamer), the partial-order reduction (Ampler), states
// numbered as pairs take them (Sparse), the steps its pairs follow
// (Follower), and expansion ahead on several cores (Leveler, Foresight).
// A search layered by steps keeps its pairs in a PairStore (onthefly's
// packed records) and rebuilds paths from its levels (Search.Rebuild).
// refine runs Search layered by visible actions, onthefly layered by
// steps, for its whole product search and its counterexamples.
//
// The subsets are interned in the order they are met, in a flat arena (no
// pointer per subset), so that a search over an LTS and one over the
// semantics number them alike, and the two routes' work counters
// (refine.Stats.SpecSubsets, onthefly.Stats.Subsets) count the same sets.
package antichain
