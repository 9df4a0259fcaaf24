// Package semantics runs compiled programs (package ir): the machine that
// executes a thread's step, canonical states, and the storage of states.
//
// A System is a program under a most-general client (ir.Bounds): an
// implicit LTS whose states are flat []int32 vectors laid out by
// ir.Layout (shared variables, then per thread [pc, ops done, return
// value, locals], then the heap). It gives the canonical initial state
// (InitialState), the successors of a state (an Expander, or a Stepper one
// state at a time), and the names of the visible labels (InternLabel):
// call(T,M,ARGS), ret(T,M,VAL), and lin(T,M[,VAL]) in Liu et al.'s
// linearization-point mode. The searches run over it: explore's
// breadth-first search, which builds an lts.LTS, and the on-the-fly checks
// of package onthefly.
//
// States are made canonical before they are stored: locals that are dead
// at the thread's pc are zeroed (the liveness that ir computes), and heap
// nodes are renumbered in a canonical order of reachability from the
// shared variables and then the threads' locals (depth-first post-order
// with garbage collection, breadth-first in explicit mode; see
// Canonicaliser), which drops unreachable nodes and identifies states that
// differ only in addresses; the renumbering is skipped when a step can be
// seen to keep the numbering (CanonicalStep). Canonical vectors are stored
// as zigzag varints in a chunked arena and found through an open-addressing
// table (StateSet).
//
// The machine evaluates the instructions' expressions with evaluators
// chosen once per expression (evalfn.go), kept in a table by expression id:
// the IR stays data that any front end can produce.
//
// A program from the Go front end, whose plain (non-atomic) accesses are
// marked in its source, is checked for data races as its states are
// expanded (race.go): two threads whose next steps access the same
// location, one writing and one plain, make the expansion fail with a
// Failure whose Race says so.
//
// Sequential runs a specification one call at a time, for checking recorded
// histories against it (linbis history --spec).
package semantics
