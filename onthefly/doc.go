// Package onthefly decides linearizability (trace refinement of a
// program's implementation by its specification) and lock-freedom without
// building either LTS: a breadth-first search of the product of
// implementation states and normalised specification subsets, then a
// search for τ-cycles, over the systems of package semantics, reduced by
// the thread symmetry and partial order of package reduce (Check, with
// Options and Reductions; fly.go explains the search). The states are
// expanded on several cores and the outcome is the same for any number
// of workers (workers.go).
//
// The product search is the one of package antichain (antichain.Search,
// layered by steps, which refine runs over an LTS), written here a second
// time for its speed: expansion on several cores, packed storage, a cache
// of recent successors. The engine has this search's hooks (symmetry,
// partial order, states numbered as pairs take them); semImpl
// (semimpl.go) is the implementation it reads, made of this search's
// expander, state store and cache of recent successors, and
// TestOneEngineForBothRoutes holds the two to the same verdicts, pairs,
// states and counters in every reduction mode; moving this search onto
// the engine is what is left (antichain/search.go says what it takes).
// Both follow only the least of a state's pairs of a level, not a pair
// whose subset strictly includes another's (dominance.go;
// antichain.Search.Dominated), and the test holds them to the same
// dominated pairs too.
//
// Every counterexample is replayed on the unreduced semantics before it
// is returned (replay.go), and one found under smaller bounds can be
// replayed under larger ones (ReplayOnBounds, rebound.go), for verify's
// ladder of clients.
package onthefly
