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
// layered by steps; refine runs it over an LTS, layered by visible
// actions), run by Check (run, engine.go). The engine reads this
// package's implementation through semImpl (semimpl.go: the expanders,
// state store and cache of recent successors, with the symmetry and
// partial-order hooks, states stored as pairs take them, the τ-steps its
// pairs follow kept for the cycle search, and a level's states expanded
// in batches on several cores, with what each pair's steps lead to
// worked out ahead), and keeps its pairs in this package's packed records
// (pairRecords, an antichain.PairStore, with no parents): a
// counterexample's path is the one the engine rebuilds from its levels
// (antichain.Search.Rebuild), each step read off its state's expansion
// (path.go). The search follows only the least of a state's pairs of a
// level, not a pair whose subset strictly includes another's
// (dominance.go). TestEngineKeepsTheOwnLoopsOutcomes holds the check to
// the verdicts, counts, counterexamples' lengths and model errors that
// the package's own loop of the product found before the engine replaced
// it; TestOneEngineForBothRoutes holds the engine over semImpl, layered by
// visible actions, to refine on the full LTSs.
//
// Every counterexample is replayed on the unreduced semantics before it
// is returned (replay.go), and one found under smaller bounds can be
// replayed under larger ones (ReplayOnBounds, rebound.go), for verify's
// ladder of clients.
package onthefly
