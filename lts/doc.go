// Package lts is the labelled-transition-system core of linbis: a compact
// in-memory LTS (int32 state ids, interned labels with τ as label 0,
// transitions in flat slices indexed by source), a builder, readers and
// writers for the Aldebaran .aut format and GraphViz .dot, and the graph
// utilities the checkers share: reachability, τ-SCCs and their contraction,
// the SCCs of the whole graph with a stop at the first unwanted cycle
// (SCCsEachWhile, for bisim's one-pass classification), disjoint union,
// statistics, and counterexample traces; and the labels as mCRL2 actions
// with their declarations (MCRL2Actions), for mCRL2's tools.
//
// An LTS holds no per-state heap objects: a state is an index, and the
// transitions leaving state s are the indices Out[s] ≤ t < Out[s+1] of the
// parallel slices Src, Label and Dst. This keeps a 10 M-transition LTS at
// roughly 12 bytes per transition plus 4 per state.
package lts
