package onthefly

// Pairs dominated in their level. The search stores a pair (s, X) unless a
// pair (s, Y) with Y ⊆ X was stored before it; a pair (s, Y)
// with Y ⊊ X stored after it, in the same breadth-first level, does not
// remove it, and it used to be followed with the others. On the HP stack
// nearly every pair subsumed so is subsumed by a pair of its own level
// (hp-stack-sym 3/2: 203 118 of the 203 151 pairs that a later pair of
// their state covers), and past those, one pair a state is left: the
// histories that reach an implementation state in as many steps differ in
// the order of their calls and returns, and one of them constrains the
// specification most. So when a level's pairs of a state are followed,
// all of them stored by then, the search follows only its least ones
// (dominated): the antichain of refine's engine (antichain.Pairs kills the
// pairs a smaller one covers), applied once the level is complete.
//
// Refinement: every trace that the specification cannot follow from X it
// cannot follow from Y ⊆ X either, and (s, Y) is as deep as (s, X): the
// search meets a violation from the pair it follows at the same depth, so
// it finds one iff there is one, and a shortest one still. Strict
// inclusion is a strict order on the state's pairs of the level (a pair is
// stored once), so its least pairs are followed; they reach the same implementation states (the subset does
// not change the implementation's steps, and a violation's successor is
// paired with the empty subset, which every subset includes), so the
// states stored and the search for τ-cycles, over their τ-steps, are
// unchanged — without the partial-order reduction; with it, the pairs
// that are followed decide where the cycle proviso holds, so the states
// of the reduced graph may differ a little (seqlock 3×2: 79 331 → 79 318),
// each search reduced soundly. A pair not followed is marked as having followed the ample
// thread's steps alone (antichain.Search.Ampled), which adds no step of its state to
// the cycle search (followedAllOf): its state's steps are those of the
// pairs followed.
//
// With the partial-order reduction, the cycle proviso asks that an ample
// step lead to a pair stored after the pair p followed, so that the ids
// grow along the edges of pairs not fully expanded. A pair q > p that is
// then not followed is replaced by its level's least pair below it, which
// must be stored after p too: the proviso refuses the ample set when a
// pair of q's state other than q, stored no later than p, has a subset ⊆
// q's (a pair that dominates q later and is stored after p has a larger
// id than p).
//
// The rule is the engine's (antichain.Search layered by steps: its
// runBySteps, dominated and coveredUpTo), and the paths it rebuilds skip
// the same pairs (antichain.Search.Rebuild).
