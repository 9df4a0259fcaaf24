// Package ir is the instruction set that a model is compiled to, and the
// compiler from the modeling language's checked syntax.
//
// A Program is data: an object's methods lowered for given bounds (a
// most-general client of Bounds.Threads threads) to one flat array of
// instructions (Instr) over compiled expressions (Expr), with the layout of
// a state vector (Layout: shared variables, then each thread's pc, ops
// done, return value and locals, then the heap), the liveness of locals at
// every pc, and where each step starts in the source (StepInfo). Front ends
// produce it (Compile, from the .lin front end's check.Object); the machine
// in frontend/semantics runs it, and the reductions and explorers read it.
//
// Steps follow Yang et al. (divergence-sensitive bisimulation for
// concurrent stacks, §2): one τ step per statement that touches shared
// state (Instr.Boundary marks where a step that touched shared state
// stops), an atomic block as one step, local work folded into the step
// before it, a loop that does local work only too (Instr.Fold: its back
// edge does not end the step).
//
// Every analysis that looks into expressions walks them with WalkExpr,
// which visits every operand of every kind, so that a new kind of
// expression is seen by all of them.
//
// Adding an expression kind (swap and faa took this path, and the locs'
// EAddr and EDeref, locs.go): its constant in instr.go (and WalkExpr if it
// has operands of a new shape); its lowering in compile.go; liveness.go
// if it writes a location that may be a local; its evaluation in frontend/semantics (evalNode in machine.go,
// or an evaluator in evalfn.go); and what frontend/reduce's symmetry check
// (symcheck.go) and partial-order footprints (por.go) make of it — both
// refuse or treat as touching everything a kind they do not know. A kind
// that the modeling language writes also needs its syntax and type check
// (frontend/syntax, frontend/check) and LANGUAGE.md.
//
// Listing prints a compiled program, one line per instruction, for
// `linbis compile --steps`.
package ir
