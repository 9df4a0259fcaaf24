// Package history decides whether one recorded concurrent history is
// linearizable with respect to a sequential specification (Herlihy and
// Wing), and explains why not when it is not.
//
// It sits beside the LTS algorithms rather than inside them: the input is a
// single recorded execution (from Jepsen, a stress test or a model's
// counterexample), not a state space. Its sub-packages hold the parts the
// check reads: history/record the operations of a history, history/format
// the readers of its file formats and the canonical text of its values,
// history/timeline the HTML drawing of a history and its evidence.
//
// # Specifications
//
// A Spec gives an initial state, a step function and a partition of the
// operations into independent objects (P-compositionality, Herlihy and
// Wing): built in are register, cas-register, kv, queue, stack, set,
// counter, and the models of Jepsen's workloads mutex, multi-register and
// unordered-queue, one table (Builtins) that Builtin, Models, GuessModel,
// Check's choice of procedure and the command line's help read. States
// are strings, so that they can be interned and hashed.
//
// # Algorithms
//
// Check runs, per partition and in parallel, the Wing–Gong search with
// Lowe's just-in-time linearization and memoisation of (linearized set,
// state) pairs (see search.go), or for queues with unique values the
// polynomial bad-pattern check of Bouajjani, Emmi, Enea and Hamza (see
// queue.go), or for stacks with unique values a polynomial peeling of
// values that can lie at the bottom of the stack (stack.go). A limit
// (the end of Options.Context, whose deadline is the time limit, or the
// memory budget) yields an honest Unknown verdict, with what was decided,
// and a *limits.LimitError.
package history
