// Package model holds the sequential specifications that a history is
// checked against: the Spec interface (an initial state, a step function
// and a partition of the operations into independent objects,
// P-compositionality after Herlihy and Wing) and the built-in models,
// register, cas-register, kv, queue, stack, set, counter and the models of
// Jepsen's workloads mutex, multi-register and unordered-queue. They are
// one table (Builtins) that Builtin, Names, GuessModel, the check's choice
// of a polynomial procedure (Model.Fast, FastProcedure) and the command
// line's help read.
//
// States are strings, so that the check can intern and hash them. Those
// of the built-in models: sequences and sets list their elements, each
// ended by SepElem; a multi-register state lists key SepKey value pairs,
// each ended by SepElem. Values are the canonical texts of history/format.
package model
