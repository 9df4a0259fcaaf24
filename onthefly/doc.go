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
// actions). The engine reads this package's implementation through
// semImpl (semimpl.go: this search's expanders, state store and cache of
// recent successors, with the symmetry and partial-order hooks, states
// stored as pairs take them, the τ-steps its pairs follow kept for the
// cycle search, and a level's states expanded in batches on several
// cores, with what each pair's steps lead to worked out ahead: the
// engine's Leveler and Foresight hooks), and keeps its pairs in this
// search's packed records (pairRecords, an antichain.PairStore: no
// parents, paths rebuilt from the levels). Check runs the whole check on
// the engine (run, engine.go); TestEngineKeepsTheOwnLoopsOutcomes holds
// it to the verdicts, counts, counterexamples' lengths and model errors
// that the search's own loop of the product, which it replaced, found.
// TestOneEngineForBothRoutes holds the engine over semImpl, layered by
// visible actions, to refine on the full LTSs. The search follows only the
// least of a state's pairs of a level, not a pair whose subset strictly
// includes another's (dominance.go; antichain.Search.Dominated).
//
// Every counterexample is replayed on the unreduced semantics before it
// is returned (replay.go), and one found under smaller bounds can be
// replayed under larger ones (ReplayOnBounds, rebound.go), for verify's
// ladder of clients.
package onthefly
