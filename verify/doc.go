// Package verify is the pipeline behind `linbis verify`: it compiles a
// model into implementation and specification LTSs, checks divergence-
// preserving branching bisimilarity (Yang et al., Thm 5.4), falls back to
// trace refinement (Thm 3.3) and direct progress checks when the two differ,
// and renders the verdict with its evidence: interleaving tables, histories
// and exports.
//
// Run decides its stages once (PlanFor: which stages run and why) and
// follows the plan under one context, which every stage's long loops poll:
// a limit that ends it, or that a stage hits, stops the run with a
// *LimitError and the report of what the stages before it decided.
package verify
