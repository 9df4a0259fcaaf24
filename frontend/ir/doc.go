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
// Every analysis that looks into expressions walks them with WalkExpr
// (Operands gives a node's operands, the one place that knows where an
// expression keeps them), so that a new kind of expression is seen by
// all of them, and reads what a kind does from one table in instr.go: its
// name and its Class (a leaf, a location, an operator, a choice, an
// allocation, a read-modify-write of the locations Written lists).
//
// Adding an expression kind touches three files: its constant and its
// row (name, class) in instr.go, and Operands if it keeps operands in a
// new place; its lowering in compile.go; its evaluation in
// frontend/semantics (evalNode in machine.go, or an evaluator in
// evalfn.go). Liveness, compile's purity check, the partial-order
// footprints and the symmetry check of frontend/reduce (por.go,
// symcheck.go) and the data-race check (frontend/semantics/race.go) go by
// its class: an operator's operands are data, a read-modify-write writes
// what Written lists and must not touch thread ids. A fourth file when
// the kind needs more than its class says: symcheck.go to let thread ids
// through it (as cas and swap do). A new kind of location or allocation
// (the locs' EDeref, locs.go) also needs the analyses that name each such
// kind (localSlots in liveness.go, por.go, symcheck.go, race.go). A kind
// that the modeling language writes also needs its syntax and type check
// (frontend/syntax, frontend/check) and LANGUAGE.md.
//
// A step whose shared access is one cas has two more source steps, one
// per outcome of the cas (casoutcome.go, Program.CasSteps), which the
// machine reports as the step taken, so that counterexamples tell the
// thread that wins a cas from one that spins on it. Listing prints a
// compiled program, one line per instruction, for `linbis compile
// --steps`, an atomic block as one step.
package ir
