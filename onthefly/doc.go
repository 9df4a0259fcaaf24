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
// Every counterexample is replayed on the unreduced semantics before it
// is returned (replay.go), and one found under smaller bounds can be
// replayed under larger ones (ReplayOnBounds, rebound.go), for verify's
// ladder of clients.
package onthefly
