// Package antichain holds what the two searches for trace inclusion
// impl ⊑_tr spec share — refine's over explicit LTSs and onthefly's over
// the semantics — starting with the normalised specification (Subsets):
// the τ-closed sets of specification states that one visible trace can
// reach, interned as int32 ids, with their successors by label and the
// inclusion test that prunes a pair (s, P) when a pair (s, Q) with Q ⊆ P
// has been explored (the antichain of De Wulf, Doyen, Henzinger and
// Raskin, CAV 2006; Abdulla et al., TACAS 2010; Liu et al. §4).
//
// A specification is read through Spec, one state's transitions at a
// time: Explicit gives an *lts.LTS's, onthefly computes its states' from
// the semantics as the search reaches them. The subsets are interned in
// the order they are met, in a flat arena (no pointer per subset), so that
// both searches number them as before and their work counters
// (refine.Stats.SpecSubsets, onthefly.Stats.Subsets) count the same sets.
package antichain
