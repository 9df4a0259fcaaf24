// Package reduce holds the state-space reductions of the on-the-fly
// checks: thread symmetry and partial-order reduction, both over the
// states of package semantics.
//
// Symmetry (symcheck.go, symmetry.go, symrows.go). NewSymmetry shows a
// program symmetric in its threads — thread ids are only stored, compared
// for equality and used as the index of [thread] arrays — or says why not;
// Symmetry.Canon then maps a state to the representative of its orbit
// under the permutations of the threads, with the permutation that takes
// it there, and Symmetry.Apply applies a permutation.
//
// Partial order (por.go). NewPOR computes, from the locations each step
// may touch (its footprint), when the steps of one thread are invisible
// and independent of everything the other threads may still do; Choose
// picks such a thread for a state (an ample set), and the on-the-fly
// search applies the cycle proviso.
//
// Both read the instructions' expressions through ir.WalkExpr and place
// a kind they do not name by its ir.Class; a kind of expression they
// cannot place makes them refuse (symmetry) or treat the step as touching
// everything (partial order), never a silent error.
package reduce
