package ir

import (
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// The per-thread forms: elements of arrays with [thread] dimensions, and
// the loops over threads.
//
// `for j in others { body }` runs body once for each thread id other than
// the caller's (`for j in threads`: for each), in any order: each
// iteration takes, nondeterministically, any thread not yet visited. That
// over-approximates every fixed order, and it is what keeps the loop
// symmetric: a fixed order 1, 2, … is not preserved by a permutation of
// the threads, while "any order" is. It is lowered to
//
//	visited = {}                              (a hidden local: a bit set)
//	head: if no thread is left: goto end
//	      j = any thread left                 (ePickThread: a choice)
//	      visited = visited ∪ {j}
//	      body
//	      goto head                           (a back edge: ends the step)
//	end:
//
// so that each iteration's first step picks its thread, and the visited
// set is a local like any other: dead (reset) after the loop, renamed by
// the symmetry (frontend/reduce/symmetry.go) as a set of thread ids.

// forThreads lowers a loop over threads (see above).
func (c *compiler) forThreads(s *syntax.ForStmt) {
	others := int32(0)
	if s.Others {
		others = 1
	}
	visited := &Expr{Kind: ELocal, V: c.nslots, Name: "visited(" + s.Var.Name + ")"}
	c.nslots++
	c.prog.ThreadSets = append(c.prog.ThreadSets, ThreadSet{Method: c.m.Index, Slot: visited.V})
	j := c.local(c.info.Uses[s.Var])
	c.simple(OpAssign, s, visited, &Expr{Kind: EConst})
	head := c.simple(OpBranch, s, nil, &Expr{Kind: EThreadsLeft, A: visited, V: others})
	pick := &Expr{Kind: EPickThread, A: visited, V: others}
	if c.orderFree(s) {
		pick.Lo = 1 // the lowest thread left: every order ends alike
	}
	c.simple(OpAssign, s, j, pick)
	c.simple(OpAssign, s, visited, &Expr{Kind: EAddThread, A: visited, B: j})
	c.block(s.Body)
	c.emit(Instr{Op: OpJump, Back: true, Target: head, Step: c.step(s)})
	c.prog.Code[head].Target = int32(len(c.prog.Code))
}

// ThreadSet is the hidden visited set of a loop over threads: a local
// slot of a method.
type ThreadSet struct {
	Method int32 // the index of the method whose locals hold it
	Slot   int32 // its local slot: bit t-1 set once thread t is visited
}

// element lowers an array element a[i], a[t][i] or a[t][u].
func (c *compiler) element(e *syntax.IndexExpr) *Expr {
	id, idx := check.Indices(e)
	v := c.info.Uses[id]
	off, lo, n := c.shared(v)
	x := &Expr{Kind: EElem, V: off, Name: v.Name, Shared: true, Ref: v.Type.Kind == check.Ref,
		Thr: v.Type.Kind == check.Thread, Tdims: int8(v.ThreadDims), Stride: 1, A: c.expr(idx[0])}
	threads := int32(c.prog.Threads)
	// The dimensions: [thread] ones first (indices 1..threads), then the
	// ordinary one.
	dims := make([][2]int32, 0, 2)
	for range v.ThreadDims {
		dims = append(dims, [2]int32{1, threads})
	}
	if v.Len != nil {
		dims = append(dims, [2]int32{lo, n})
	}
	x.Lo, x.N = dims[0][0], dims[0][1]
	if len(idx) == 2 {
		x.B = c.expr(idx[1])
		x.Lo2, x.N2 = dims[1][0], dims[1][1]
	}
	if v.Type.HasRange {
		x.Rng = &v.Type
	}
	return x
}

// InAnyOrder, when false, turns off the ascending order of order-free
// loops (orderFree), for the test that shows it changes no LTS.
var InAnyOrder = true

// orderFree reports whether the loop over threads s, inside an atomic
// block, ends in the same state (or fails alike) whatever the order of
// its iterations, so that the compiler may take them in ascending order:
// one run of the step instead of one per order ((n-1)! for others), with
// the same successors. It is a syntactic sufficient condition: every
// iteration reads only the state before the loop, its own thread id j
// and locals declared in the body — the body writes no location that it
// reads — and its writes are the same constant wherever they may meet:
//   - statements: blocks, skip, if, while, :=, var, and assignments; no call,
//     cas, new, any, choose, free, assert, await, lin, return, break,
//     continue, atomic or nested loop over threads;
//   - a local declared outside the body is assigned only constants, one
//     value per local, and not read in the body (a flag: found = true);
//   - a shared array is assigned only as a[...] = constant, one value per
//     array, and not read in the body;
//   - nothing else is assigned (no shared scalar, no field).
//
// Each iteration then behaves as a function of the state before the loop
// and j, and the final state is the same for every order: the locals
// declared in the body are dead after it, a flag holds its constant if
// some iteration set it, and each array element holds its constant if
// some iteration wrote it.
func (c *compiler) orderFree(s *syntax.ForStmt) bool {
	if !InAnyOrder || c.depth == 0 {
		return false
	}
	f := &orderCheck{info: c.info, inner: map[*check.Var]bool{c.info.Uses[s.Var]: true},
		consts: map[*check.Var]int64{}, arrays: map[*check.Var]int64{}, reads: map[*check.Var]bool{}}
	if !f.block(s.Body) {
		return false
	}
	for v := range f.consts {
		if f.reads[v] {
			return false
		}
	}
	for v := range f.arrays {
		if f.reads[v] {
			return false
		}
	}
	return true
}

// orderCheck walks the body of a loop over threads for orderFree.
type orderCheck struct {
	info *check.Info
	// inner: the loop's variable and the locals declared in the body.
	inner map[*check.Var]bool
	// consts, arrays: the outer locals and the shared arrays assigned,
	// with their one constant value; reads: the variables read.
	consts, arrays map[*check.Var]int64
	reads          map[*check.Var]bool
}

func (f *orderCheck) block(b *syntax.Block) bool {
	for _, s := range b.Stmts {
		if !f.stmt(s) {
			return false
		}
	}
	return true
}

func (f *orderCheck) stmt(s syntax.Stmt) bool {
	switch s := s.(type) {
	case *syntax.Block:
		return f.block(s)
	case *syntax.SkipStmt:
		return true
	case *syntax.IfStmt:
		return f.pure(s.Cond) && f.block(s.Then) && (s.Else == nil || f.stmt(s.Else))
	case *syntax.WhileStmt:
		return f.pure(s.Cond) && f.block(s.Body)
	case *syntax.DefineStmt:
		if len(s.Rest) > 0 || !f.pure(s.Value) {
			return false
		}
		f.inner[f.info.Defs[s]] = true
		return true
	case *syntax.VarStmt:
		if s.Value != nil && !f.pure(s.Value) {
			return false
		}
		f.inner[f.info.Vars[s]] = true
		return true
	case *syntax.AssignStmt:
		if len(s.Rest) > 0 {
			return false
		}
		return f.assign(s.LHS, s.Value)
	}
	return false
}

// assign checks lhs = value (see orderFree).
func (f *orderCheck) assign(lhs, value syntax.Expr) bool {
	switch l := lhs.(type) {
	case *syntax.Ident:
		v := f.info.Uses[l]
		if v == nil || v.Kind != check.LocalVar && v.Kind != check.ParamVar {
			return false
		}
		if f.inner[v] {
			return f.pure(value)
		}
		return f.constant(f.consts, v, value)
	case *syntax.IndexExpr:
		id, idx := check.Indices(l)
		if id == nil {
			return false
		}
		for _, i := range idx {
			if !f.pure(i) {
				return false
			}
		}
		return f.constant(f.arrays, f.info.Uses[id], value)
	case *syntax.ParenExpr:
		return f.assign(l.X, value)
	}
	return false
}

// constant records that v is assigned value, which must be a literal and
// the same as v's other assignments.
func (f *orderCheck) constant(assigned map[*check.Var]int64, v *check.Var, value syntax.Expr) bool {
	var k int64
	switch x := value.(type) {
	case *syntax.IntLit:
		k = x.Value
	case *syntax.BoolLit:
		if x.Value {
			k = 1
		}
	case *syntax.NullLit:
	default:
		return false
	}
	if prev, ok := assigned[v]; ok && prev != k {
		return false
	}
	assigned[v] = k
	return true
}

// pure reports whether e has no effect and no choice, recording the
// variables it reads.
func (f *orderCheck) pure(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Ident:
		if v := f.info.Uses[e]; v != nil {
			f.reads[v] = true
		}
		return true
	case *syntax.IntLit, *syntax.BoolLit, *syntax.NullLit:
		return true
	case *syntax.ParenExpr:
		return f.pure(e.X)
	case *syntax.UnaryExpr:
		return f.pure(e.X)
	case *syntax.BinaryExpr:
		return f.pure(e.X) && f.pure(e.Y)
	case *syntax.SelectorExpr:
		return f.pure(e.X)
	case *syntax.IndexExpr:
		return f.pure(e.X) && f.pure(e.Index)
	}
	return false
}
