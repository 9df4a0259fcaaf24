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
// Adding an expression kind: its constant and operands in instr.go (and
// WalkExpr if it has operands of a new shape), its lowering in compile.go,
// and its evaluation in frontend/semantics (evalNode in machine.go, or an
// evaluator in evalfn.go); the analyses that classify expressions
// (frontend/reduce's symmetry check and footprints) name what they do with
// kinds they do not know.
//
// Listing prints a compiled program, one line per instruction, for
// `linbis compile --steps`.
package ir
