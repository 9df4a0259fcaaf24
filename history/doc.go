// Package history decides whether one recorded concurrent history is
// linearizable with respect to a sequential specification (Herlihy and
// Wing), and explains why not when it is not.
//
// It sits beside the LTS algorithms rather than inside them: the input is a
// single recorded execution (from Jepsen, a stress test or a model's
// counterexample), not a state space. Its sub-packages hold the parts the
// check reads: history/record the operations of a history, history/format
// the readers of its file formats and the canonical text of its values,
// history/model the sequential specifications it is checked against,
// history/timeline the HTML drawing of a history and its evidence.
//
// # Algorithms
//
// Check runs, per partition (model.Spec's Partition) and in parallel, the
// Wing–Gong search with Lowe's just-in-time linearization and memoisation
// of (linearized set, state) pairs (see search.go), or for queues with
// unique values the polynomial bad-pattern check of Bouajjani, Emmi, Enea
// and Hamza (see queue.go), or for stacks with unique values a polynomial
// peeling of values that can lie at the bottom of the stack (stack.go),
// as the models' table says (model.Model.Fast). A limit (the end of
// Options.Context, whose deadline is the time limit, or the memory
// budget) yields an honest Unknown verdict, with what was decided, and a
// *limits.LimitError.
package history
