package ir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/linbis/linbis/frontend/intop"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// compiler lowers a checked object to a program: the method bodies to
// instructions, expressions to trees with their variables resolved to
// slots and offsets.
type compiler struct {
	prog   *Program
	file   *syntax.File // the source, for the text of steps
	info   *check.Info
	m      *Method
	cm     *check.Method
	errs   syntax.ErrorList
	atomic bool   // compiling the spec auto: every body is one atomic block
	fine   bool   // no private-node folding
	flow   []flow // per instruction of prog.code
	// sharedOff, sharedLo, plainLen: per shared variable, its offset in
	// the state vector, the lowest index and the length of its ordinary
	// dimension (0 and 1 if none); sharedLen: its number of elements.
	sharedOff, sharedLo, sharedLen, plainLen []int32
	// loops are the loops being lowered, innermost last: where a
	// continue jumps, and the breaks to patch once the loop's end is known.
	loops []loopTargets
	// frames are the procedures being inlined, innermost last.
	frames []frame
	// procBase: per procedure inlined into the current method, the slot
	// of its first local; nslots: the method's slots in use. A procedure
	// has one frame per method whichever the call site: it cannot be
	// active twice at once (calls form no cycle).
	procBase map[*check.Method]int32
	nslots   int32
	// temps: per call of a procedure inside an expression (and per && or
	// || whose right side holds one), the first slot of the temporaries
	// that hold its value. One per source expression: an expression in
	// an inlined procedure cannot be evaluated twice at once.
	temps map[syntax.Expr]int32
	depth int // atomic blocks around the instruction being emitted
}

// frame is a procedure being inlined.
type frame struct {
	proc  *check.Method
	base  int32     // slot of its first local
	dests [][]*Expr // where its results go, slot by slot (nil: discarded)
	exits []int32   // the jumps of its returns, to patch with its end
	depth int       // atomic blocks around the call
}

// loopTargets is a loop being lowered.
type loopTargets struct {
	loop   *syntax.WhileStmt
	head   int32   // where continue jumps
	breaks []int32 // the jumps of the loop's breaks, to patch with its end
	// continues are the back edges of the loop's continues, folded with
	// its own if the loop does local work only (foldLocalLoop).
	continues []int32
}

// Compile lowers obj for the given number of threads and argument values;
// explicit selects explicit memory (nodes carry a freed flag). The state
// layout is fixed first (layout.go), then every method is lowered to
// instructions (this file), then the liveness of locals is computed
// (liveness.go).
func Compile(p *check.Program, obj *check.Object, threads int, values []int, fine, explicit bool) (*Program, error) {
	c := &compiler{info: p.Info, atomic: obj.Auto, fine: fine}
	c.file = p.File
	prog := &Program{Source: p.File, Client: p.Client, Obj: obj, Threads: threads}
	for _, v := range values {
		prog.Values = append(prog.Values, int32(v))
	}
	c.prog = prog
	prog.Code = []Instr{{Op: OpNop, Step: -1}} // pc 0: idle
	c.flow = []flow{{}}
	if err := c.layShared(obj.Shared); err != nil {
		return nil, err
	}
	prog.Layout.layHeap(obj.Heaps, explicit)
	maxLocals, err := c.methods(obj)
	if err != nil {
		return nil, err
	}
	prog.Layout.layThreads(threads, maxLocals)
	prog.deadSets(c.flow)
	prog.cleanSets()
	if prog.Init, err = c.initialState(obj.Shared); err != nil {
		return nil, err
	}
	return prog, nil
}

// methods lowers every method of obj and its init block, and returns the
// largest number of locals of one method.
func (c *compiler) methods(obj *check.Object) (int, error) {
	maxLocals := 0
	all := obj.Methods
	if obj.Init != nil {
		all = append(append([]*check.Method(nil), all...), obj.Init)
	}
	for _, cm := range all {
		if cm == obj.Init {
			c.atomic = true
			c.method(cm)
			c.prog.InitMethod = c.prog.Methods[len(c.prog.Methods)-1]
		} else {
			c.method(cm)
			c.prog.Methods[len(c.prog.Methods)-1].Callable = true
		}
		if m := c.prog.Methods[len(c.prog.Methods)-1]; m.Nlocals > 64 {
			return 0, c.errAt(cm.Decl.Pos, fmt.Sprintf("method %s has %d local slots (one per local, per field of a word, per element of an array, with those of the procedures it calls); at most 64 are supported", cm.Name, m.Nlocals))
		}
		maxLocals = max(maxLocals, c.prog.Methods[len(c.prog.Methods)-1].Nlocals)
	}
	return maxLocals, c.errs.Err()
}

func (c *compiler) errAt(pos syntax.Pos, msg string) error {
	var l syntax.ErrorList
	l.Add(c.file.Position(pos), msg)
	return l
}

// constEval evaluates a constant expression (literals, nthreads, EMPTY).
func (c *compiler) constEval(e syntax.Expr) (int32, error) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return int32(e.Value), nil
	case *syntax.BoolLit:
		if e.Value {
			return 1, nil
		}
		return 0, nil
	case *syntax.NullLit:
		return 0, nil
	case *syntax.ParenExpr:
		return c.constEval(e.X)
	case *syntax.Ident:
		switch c.info.Uses[e].Kind {
		case check.BuiltinNThreads:
			return int32(c.prog.Threads), nil
		case check.BuiltinEmpty:
			return Empty, nil
		}
	case *syntax.UnaryExpr:
		x, err := c.constEval(e.X)
		if e.Op == syntax.SUB {
			return -x, err
		}
		return 1 - x, err
	case *syntax.BinaryExpr:
		x, err := c.constEval(e.X)
		if err != nil {
			return 0, err
		}
		y, err := c.constEval(e.Y)
		if err != nil {
			return 0, err
		}
		v, ok := Binop(e.Op, x, y)
		if !ok {
			return 0, c.errAt(e.OpPos, "division by zero in a constant")
		}
		return v, nil
	}
	return 0, c.errAt(e.Start(), "not a constant")
}

func (c *compiler) emit(in Instr) int32 {
	in.Method = c.m.Index
	// A return is never the start of a step of its own: the machine
	// handles it before the shared-access check (see machine.step).
	in.Boundary = in.Shared && in.Op != OpReturn && in.Op != OpRetPending
	if in.Boundary && c.depth == 0 && in.Step >= 0 {
		c.casOutcomes(&in)
	}
	c.prog.Code = append(c.prog.Code, in)
	c.flow = append(c.flow, flow{})
	return int32(len(c.prog.Code) - 1)
}

func (c *compiler) step(n syntax.Node) int32 {
	pos := n.Start()
	f := c.file
	var text string
	switch n := n.(type) {
	case *syntax.IfStmt:
		text = f.Text(pos, n.Then.Pos)
	case *syntax.WhileStmt:
		text = f.Text(pos, n.Body.Pos)
	case *syntax.Method:
		text = f.Text(pos, n.Body.Pos)
	case *syntax.AtomicStmt:
		text = f.Text(pos, syntax.NoPos)
	case *syntax.SkipStmt: // end of a method
		text = "end of " + c.m.Name
	default:
		text = f.Text(pos, syntax.NoPos)
	}
	name := c.m.Name
	if len(c.frames) > 0 {
		name = c.frames[len(c.frames)-1].proc.Name
	}
	c.prog.Steps = append(c.prog.Steps, StepInfo{Pos: pos, Text: text, Procedure: name})
	return int32(len(c.prog.Steps) - 1)
}

func (c *compiler) method(cm *check.Method) {
	m := &Method{Name: cm.Name, Index: int32(len(c.prog.Methods)), Result: cm.Result.Kind, Nlocals: cm.Slots}
	c.prog.Methods = append(c.prog.Methods, m)
	c.m, c.cm = m, cm
	m.Formats = c.file.ResultFormats(cm.Decl.Pos)
	for _, p := range cm.Params {
		m.Params = append(m.Params, p.Type)
	}
	m.RefMask = refSlots(cm.Locals, 0)
	if len(cm.Results) > 1 {
		m.Result, m.Tuple = check.Int, cm.Results
	}
	c.procBase, c.nslots, c.depth = map[*check.Method]int32{}, int32(cm.Slots), 0
	c.temps = map[syntax.Expr]int32{}
	m.CallStep = c.step(cm.Decl)
	m.Entry = int32(len(c.prog.Code))
	if c.atomic {
		c.emit(Instr{Op: OpAtomicBegin, Shared: true, Step: c.step(cm.Decl)})
		c.depth++
	}
	c.block(cm.Decl.Body)
	m.Nlocals = int(c.nslots)
	end := &syntax.SkipStmt{Pos: cm.Decl.End}
	if cm.Result.Kind == check.Void {
		c.emit(Instr{Op: OpReturn, Step: c.step(end)})
	} else {
		c.emit(Instr{Op: OpFallOff, Step: c.step(end)})
	}
	if c.atomic {
		c.emit(Instr{Op: OpAtomicEnd, Step: -1})
	}
	m.RetPending = c.emit(Instr{Op: OpRetPending, Step: c.step(end)})
}

func (c *compiler) block(b *syntax.Block) {
	for _, s := range b.Stmts {
		c.stmt(s)
	}
}

func (c *compiler) simple(op Opcode, n syntax.Node, lhs, x *Expr) int32 {
	return c.emitStmt(Instr{Op: op, Step: c.step(n), Lhs: lhs, X: x})
}

// emitStmt emits in, the instruction of a statement, with whether it
// touches shared state, the locals through which it reaches nodes (priv)
// and its dataflow.
func (c *compiler) emitStmt(in Instr) int32 {
	var f flow
	for _, l := range in.Targets() {
		in.Shared = in.Shared || l.Shared
		if l.Kind == ELocal {
			f.def |= 1 << uint(l.V)
		} else {
			f.use |= uses(l)
		}
	}
	for _, x := range in.Values() {
		in.Shared = in.Shared || x.Shared
		f.use |= uses(x)
	}
	if in.Op == OpFree {
		in.Shared = true
	}
	if in.Shared && in.Op != OpFree && !c.fine {
		bases, ok := []int32(nil), true
		for _, e := range append(in.Targets(), in.Values()...) {
			bases, ok = fieldBases(e, bases, ok)
		}
		if ok {
			for _, b := range bases {
				in.Priv |= 1 << uint(b)
			}
		}
	}
	pc := c.emit(in)
	c.flow[pc] = f
	return pc
}

// fieldBases collects the locals used as x in field accesses x.f within e
// and reports whether those are e's only shared accesses.
func fieldBases(e *Expr, out []int32, ok bool) ([]int32, bool) {
	if e == nil || !ok {
		return out, ok
	}
	switch {
	case e.Kind == EShared, e.Kind == EElem, e.Kind == EDeref, e.Kind.Class() == ReadModifyWrite, e.Kind.Class() == 0:
		return out, false
	case e.Kind == EFieldElem: // a field, at an index that may read shared state
		if e.A.Kind != ELocal {
			return out, false
		}
		return fieldBases(e.B, append(out, e.A.V), ok)
	case e.Kind == EField:
		if e.A.Kind != ELocal {
			return out, false
		}
		return append(out, e.A.V), true
	}
	// The operands (for &A, A's address operands: A is not read).
	Operands(e, func(x *Expr) { out, ok = fieldBases(x, out, ok) })
	return out, ok
}

// refSlots returns the slots, from base, of the locals that hold
// references (the reference fields of words included), as a bit set.
func refSlots(locals []*check.Var, base int32) uint64 {
	var mask uint64
	for _, l := range locals {
		comps := l.Type.Components()
		for e := range max(l.Elems, 1) {
			for j, ct := range comps {
				if s := base + int32(l.Slot+e*len(comps)+j); ct.Kind == check.Ref && s < 64 {
					mask |= 1 << uint(s)
				}
			}
		}
	}
	return mask
}

// local is the location of a local variable or parameter: of the method,
// or of the procedure being inlined.
func (c *compiler) local(v *check.Var) *Expr {
	slot := int32(v.Slot)
	if len(c.frames) > 0 {
		slot += c.frames[len(c.frames)-1].base
	}
	return &Expr{Kind: ELocal, V: slot, Name: v.Name, Ref: v.Type.Kind == check.Ref, Thr: v.Type.Kind == check.Thread}
}

// inline lowers the call of a procedure in statement s: the arguments
// are assigned to its parameters, then its body runs, its returns
// assigning the results to dests (nil: discarded) and jumping to its end.
// Every statement of the body is lowered as if written at the call, but
// keeps its own source line.
func (c *compiler) inline(s syntax.Node, call *syntax.CallExpr, dests [][]*Expr) {
	p := c.info.Calls[call]
	base, ok := c.procBase[p]
	if !ok {
		base = c.nslots
		c.procBase[p] = base
		c.nslots += int32(p.Slots)
		c.m.RefMask |= refSlots(p.Locals, base)
	}
	args := make([][]*Expr, len(call.Args))
	for i, a := range call.Args {
		args[i] = c.values(a)
	}
	for i, a := range args {
		v := p.Params[i]
		pc := c.assign(s, c.slots(v, base), a)
		if localOrConst(a) {
			// Passing a local or a constant cannot fail and is never a
			// step's shared access: it needs no source step of its own,
			// so that a call numbers the source steps as the inlined
			// text would.
			c.prog.Code[pc].Step = -1
			c.prog.Steps = c.prog.Steps[:len(c.prog.Steps)-1]
		}
	}
	if dests == nil {
		dests = make([][]*Expr, len(p.Results))
	}
	c.frames = append(c.frames, frame{proc: p, base: base, dests: dests, depth: c.depth})
	c.block(p.Decl.Body)
	f := c.frames[len(c.frames)-1]
	c.frames = c.frames[:len(c.frames)-1]
	for _, j := range f.exits {
		c.prog.Code[j].Target = int32(len(c.prog.Code))
	}
}

// procReturn lowers a return of the procedure being inlined: its values,
// left to right, to the call's destinations, the end of the atomic blocks
// it leaves, and a jump to the end of the body.
func (c *compiler) procReturn(s *syntax.ReturnStmt) {
	// The frame by index: a call inside a returned value pushes frames.
	fi := len(c.frames) - 1
	if s.Value != nil {
		for i, v := range append([]syntax.Expr{s.Value}, s.Rest...) {
			if d := c.frames[fi].dests[i]; d != nil {
				c.assign(s, d, c.values(v))
			} else {
				for _, x := range c.values(v) {
					c.simple(OpEval, s, nil, x)
				}
			}
		}
	}
	f := &c.frames[fi]
	for d := c.depth; d > f.depth; d-- {
		c.emit(Instr{Op: OpAtomicEnd, Step: -1})
	}
	f.exits = append(f.exits, c.emit(Instr{Op: OpJump, Step: -1}))
}

// callValue lowers a call of a procedure inside an expression: the call
// is inlined where the expression is compiled, before the instruction
// that evaluates it, with its result going to temporaries (one per slot),
// which it returns to be read in its place. The call's steps are those of
// `t := p(…)` written before the statement.
func (c *compiler) callValue(call *syntax.CallExpr) []*Expr {
	t := c.info.Calls[call].Results[0]
	dest := c.temp(call, t, call.Fun.Name+"()")
	c.inline(call, call, [][]*Expr{dest})
	return copyExprs(dest)
}

// temp returns the temporaries of the expression e, of type t: fresh
// local slots, the first time, of the method being compiled.
func (c *compiler) temp(e syntax.Expr, t check.Type, name string) []*Expr {
	base, ok := c.temps[e]
	if !ok {
		base = c.nslots
		c.temps[e] = base
		c.nslots += int32(t.Slots())
		c.m.RefMask |= refSlots([]*check.Var{{Type: t}}, base)
	}
	out := c.slots(&check.Var{Name: name, Type: t, Pos: e.Start()}, base)
	return out
}

// copyExprs returns fresh copies of the leaves xs: an expression belongs
// to one instruction (it is numbered once).
func copyExprs(xs []*Expr) []*Expr {
	out := make([]*Expr, len(xs))
	for i, x := range xs {
		y := *x
		out[i] = &y
	}
	return out
}

// hasCall reports whether e holds a call of a procedure.
func (c *compiler) hasCall(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.CallExpr:
		if c.info.Calls[e] != nil {
			return true
		}
		return slices.ContainsFunc(e.Args, c.hasCall)
	case *syntax.ParenExpr:
		return c.hasCall(e.X)
	case *syntax.UnaryExpr:
		return c.hasCall(e.X)
	case *syntax.BinaryExpr:
		return c.hasCall(e.X) || c.hasCall(e.Y)
	case *syntax.SelectorExpr:
		return c.hasCall(e.X)
	case *syntax.IndexExpr:
		return c.hasCall(e.X) || c.hasCall(e.Index)
	case *syntax.TestExpr:
		return c.hasCall(e.X)
	case *syntax.NewExpr:
		return slices.ContainsFunc(e.Inits, func(fi *syntax.FieldInit) bool { return c.hasCall(fi.Value) })
	}
	return false
}

// shortCircuit lowers x && y or x || y whose right side calls a
// procedure: y, and so the call, is evaluated only when x lets it be,
//
//	t = x; if !t goto end (for ||: if t goto end); t = y; end:
//
// and t holds the value.
func (c *compiler) shortCircuit(e *syntax.BinaryExpr) *Expr {
	t := c.temp(e, check.Type{Kind: check.Bool}, "("+opText(e.Op)+")")
	c.assign(e, copyExprs(t), []*Expr{c.expr(e.X)})
	cond := copyExprs(t)[0]
	if e.Op == syntax.LOR {
		cond = &Expr{Kind: EUnary, Op: syntax.NOT, A: cond}
	}
	br := c.simple(OpBranch, e, nil, cond)
	c.assign(e, copyExprs(t), []*Expr{c.expr(e.Y)})
	c.prog.Code[br].Target = int32(len(c.prog.Code))
	return copyExprs(t)[0]
}

// localTarget reports whether the assignment target e is a local (the
// checker's rule for the results of a call).
func (c *compiler) localTarget(e syntax.Expr) bool {
	id, ok := syntax.Unparen(e).(*syntax.Ident)
	if !ok {
		return false
	}
	v := c.info.Uses[id]
	return v != nil && (v.Kind == check.LocalVar || v.Kind == check.ParamVar) && !v.IsArray()
}

// callOf returns e as a procedure call, or nil.
func (c *compiler) callOf(e syntax.Expr) *syntax.CallExpr {
	if call, ok := e.(*syntax.CallExpr); ok && c.info.Calls[call] != nil {
		return call
	}
	return nil
}

func (c *compiler) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.Block:
		c.block(s)
	case *syntax.DefineStmt:
		v := c.info.Defs[s]
		if call := c.callOf(s.Value); call != nil {
			dests := [][]*Expr{c.slots(v, -1)}
			for _, id := range s.Rest {
				dests = append(dests, c.slots(c.info.Uses[id], -1))
			}
			c.inline(s, call, dests)
			return
		}
		c.assign(s, c.slots(v, -1), c.values(s.Value))
	case *syntax.AssignStmt:
		if call := c.callOf(s.Value); call != nil && (len(s.Rest) > 0 || c.localTarget(s.LHS)) {
			var dests [][]*Expr
			for _, l := range append([]syntax.Expr{s.LHS}, s.Rest...) {
				dests = append(dests, c.values(l))
			}
			c.inline(s, call, dests)
			return
		}
		c.assign(s, c.values(s.LHS), c.values(s.Value))
	case *syntax.ExprStmt:
		if call := c.callOf(s.X); call != nil {
			c.inline(s, call, nil)
			return
		}
		c.simple(OpEval, s, nil, c.expr(s.X))
	case *syntax.AssertStmt:
		c.simple(OpAssert, s, nil, c.expr(s.Cond))
	case *syntax.AwaitStmt:
		c.simple(OpAwait, s, nil, c.expr(s.Cond))
	case *syntax.FreeStmt:
		c.simple(OpFree, s, nil, c.expr(s.X))
	case *syntax.LinStmt:
		var x *Expr
		if s.Value != nil {
			x = c.expr(s.Value)
		}
		c.simple(OpLin, s, nil, x)
	case *syntax.SkipStmt:
	case *syntax.ReturnStmt:
		if len(c.frames) > 0 {
			c.procReturn(s)
			return
		}
		var x *Expr
		switch {
		case len(s.Rest) > 0:
			x = c.pack(s)
		case s.Value != nil:
			x = c.expr(s.Value)
		}
		c.simple(OpReturn, s, nil, x)
	case *syntax.AtomicStmt:
		c.emit(Instr{Op: OpAtomicBegin, Shared: true, Step: c.step(s)})
		c.depth++
		c.block(s.Body)
		c.depth--
		c.emit(Instr{Op: OpAtomicEnd, Step: -1})
	case *syntax.IfStmt:
		br := c.simple(OpBranch, s, nil, c.expr(s.Cond))
		c.block(s.Then)
		if s.Else == nil {
			c.prog.Code[br].Target = int32(len(c.prog.Code))
			return
		}
		j := c.emit(Instr{Op: OpJump, Step: -1})
		c.prog.Code[br].Target = int32(len(c.prog.Code))
		c.stmt(s.Else)
		c.prog.Code[j].Target = int32(len(c.prog.Code))
	case *syntax.WhileStmt:
		// head: where every iteration starts, with the calls of the
		// condition (if any) before its test.
		head := int32(len(c.prog.Code))
		// while true has no test to run on every iteration; its step is
		// registered all the same, so that the source steps are numbered
		// as with the test.
		cond := c.expr(s.Cond)
		test := cond.Kind != EConst || cond.V == 0
		br := int32(-1)
		if test {
			br = c.simple(OpBranch, s, nil, cond)
		} else {
			c.step(s)
		}
		c.loops = append(c.loops, loopTargets{loop: s, head: head})
		c.block(s.Body)
		back := c.emit(Instr{Op: OpJump, Back: true, Target: head, Step: c.step(s)})
		c.foldLocalLoop(head, back, c.loops[len(c.loops)-1].continues)
		end := int32(len(c.prog.Code))
		if test {
			c.prog.Code[br].Target = end
		}
		for _, j := range c.loops[len(c.loops)-1].breaks {
			c.prog.Code[j].Target = end
		}
		c.loops = c.loops[:len(c.loops)-1]
	case *syntax.ForStmt:
		c.forThreads(s)
	case *syntax.BranchStmt:
		target := c.info.Loops[s]
		i := len(c.loops) - 1
		for c.loops[i].loop != target {
			i--
		}
		if s.Tok == syntax.CONTINUE {
			// Like the loop's own back edge, a continue ends the step
			// (unless the loop is folded).
			j := c.emit(Instr{Op: OpJump, Back: true, Target: c.loops[i].head, Step: c.step(s)})
			c.loops[i].continues = append(c.loops[i].continues, j)
		} else {
			c.loops[i].breaks = append(c.loops[i].breaks, c.emit(Instr{Op: OpJump, Step: -1}))
		}
	case *syntax.VarStmt:
		v := c.info.Vars[s]
		if v.IsArray() {
			c.zeroArray(s, v)
			return
		}
		var xs []*Expr
		if s.Value != nil {
			xs = c.values(s.Value)
		} else {
			for range v.Type.Slots() {
				xs = append(xs, &Expr{Kind: EConst})
			}
		}
		c.assign(s, c.slots(v, -1), xs)
	case *syntax.ChooseStmt:
		// choose {A} or {B} or {C} is `if any 0..1 == 0 {A} else if
		// any 0..1 == 0 {B} else {C}`: the same outcomes, one per block.
		var ends []int32
		for i, b := range s.Alts {
			if i < len(s.Alts)-1 {
				pick := &Expr{Kind: EBinary, Op: syntax.EQL, A: &Expr{Kind: EAny, N: 2}, B: &Expr{Kind: EConst}}
				br := c.simple(OpBranch, s, nil, pick)
				c.block(b)
				ends = append(ends, c.emit(Instr{Op: OpJump, Step: -1}))
				c.prog.Code[br].Target = int32(len(c.prog.Code))
			} else {
				c.block(b)
			}
		}
		for _, j := range ends {
			c.prog.Code[j].Target = int32(len(c.prog.Code))
		}
	}
}

// foldLocalLoop folds a loop that does local work only into the step
// that enters it: if none of its instructions, from its head to its back
// edge, touches shared state (or awaits, or marks a linearization point),
// its back edge and continues are jumps that do not end the step (Fold,
// not Back), so that a purely local loop, a compare loop over a collected
// array, costs no τ-step and no state per iteration. Inside an atomic
// block every back edge is already one.
func (c *compiler) foldLocalLoop(head, back int32, continues []int32) {
	if c.depth > 0 {
		return
	}
	for pc := head; pc < back; pc++ {
		switch in := &c.prog.Code[pc]; {
		case in.Shared, in.Op == OpAwait, in.Op == OpLin, in.Op == OpAtomicBegin:
			return
		}
	}
	for _, j := range append(continues, back) {
		c.prog.Code[j].Back, c.prog.Code[j].Fold = false, true
	}
}

// uses returns the locals read by e (for an assignment target, those read
// to find the location).
func uses(e *Expr) uint64 {
	var u uint64
	WalkExpr(e, func(x *Expr) {
		switch x.Kind {
		case ELocal:
			u |= 1 << uint(x.V)
		case ELocalElem:
			// Any element may be read: the whole array is used.
			u |= (uint64(1)<<uint(x.N*max(x.Stride, 1)) - 1) << uint(x.V)
		}
	})
	return u
}

func (c *compiler) expr(e syntax.Expr) *Expr {
	if c.info.Types[e].Kind == check.Word {
		// Words are compiled slot by slot (values); one expression
		// cannot hold one.
		c.errs.Add(c.file.Position(e.Start()), "internal error: a word where a scalar is expected")
		return &Expr{Kind: EConst}
	}
	x := c.expr1(e)
	x.Pos = e.Start()
	x.Shared = x.Shared || x.A != nil && x.A.Shared || x.B != nil && x.B.Shared || x.C != nil && x.C.Shared
	for _, fi := range x.Inits {
		x.Shared = x.Shared || fi.X.Shared
	}
	for _, y := range x.List {
		x.Shared = x.Shared || y.Shared
	}
	return x
}

func (c *compiler) expr1(e syntax.Expr) *Expr {
	switch e := e.(type) {
	case *syntax.IntLit:
		return &Expr{Kind: EConst, V: int32(e.Value)}
	case *syntax.BoolLit:
		if e.Value {
			return &Expr{Kind: EConst, V: 1}
		}
		return &Expr{Kind: EConst}
	case *syntax.NullLit:
		return &Expr{Kind: EConst}
	case *syntax.ParenExpr:
		return c.expr(e.X)
	case *syntax.Ident:
		v := c.info.Uses[e]
		switch v.Kind {
		case check.SharedVar:
			off, _, _ := c.shared(v)
			x := &Expr{Kind: EShared, V: off, Name: v.Name, Shared: true, Ref: v.Type.Kind == check.Ref, Thr: v.Type.Kind == check.Thread}
			if v.Type.HasRange {
				x.Rng = &v.Type
			}
			return x
		case check.LocalVar, check.ParamVar:
			return c.local(v)
		case check.BuiltinTid:
			return &Expr{Kind: ETid}
		case check.BuiltinNThreads:
			// Named, for the symmetry check (newSymmetry).
			return &Expr{Kind: EConst, V: int32(c.prog.Threads), Name: "nthreads"}
		case check.BuiltinEmpty:
			return &Expr{Kind: EConst, V: Empty}
		}
	case *syntax.UnaryExpr:
		if e.Op == syntax.MUL { // *l of a scalar
			return c.deref(e)[0]
		}
		return &Expr{Kind: EUnary, Op: e.Op, A: c.expr(e.X)}
	case *syntax.BinaryExpr:
		if c.info.Types[e.X].Kind == check.Word {
			return c.compareWords(e)
		}
		if (e.Op == syntax.LAND || e.Op == syntax.LOR) && c.hasCall(e.Y) {
			return c.shortCircuit(e)
		}
		return &Expr{Kind: EBinary, Op: e.Op, A: c.expr(e.X), B: c.expr(e.Y)}
	case *syntax.IndexExpr:
		if _, ok := syntax.Unparen(e.X).(*syntax.SelectorExpr); ok { // an element of an array field
			return c.fieldElem(e)[0]
		}
		if id, _ := check.Indices(e); id != nil && c.info.Uses[id].Kind != check.SharedVar {
			// a local array (arrays.go)
			v := c.info.Uses[id]
			x := c.elem(v, c.expr(e.Index), 0)
			x.Ref = v.Type.Kind == check.Ref
			if v.Type.HasRange {
				x.Rng = &v.Type
			}
			return x
		}
		return c.element(e)
	case *syntax.SelectorExpr:
		f := c.info.Fields[e]
		if c.info.Types[e.X].Kind == check.Word {
			return c.values(e.X)[f.Index]
		}
		x := &Expr{Kind: EField, V: int32(f.Index), A: c.expr(e.X), Name: e.Sel.Name, Shared: true, Ref: f.Type.Kind == check.Ref}
		if f.Type.HasRange {
			x.Rng = &f.Type
		}
		return x
	case *syntax.CallExpr: // a procedure, or a builtin function
		if c.info.Calls[e] != nil {
			return c.callValue(e)[0]
		}
		if code, ok := intop.Parse(e.Fun.Name); ok {
			x := &Expr{Kind: EBinary, V: int32(code), A: c.expr(e.Args[0])}
			if len(e.Args) > 1 {
				x.B = c.expr(e.Args[1])
			}
			return x
		}
		switch e.Fun.Name {
		case "swap", "faa":
			// Ref and Thr describe the location, as for a local: the
			// value is what it held.
			x := &Expr{Kind: ESwap, A: c.expr(e.Args[0]), B: c.expr(e.Args[1]), Name: e.Fun.Name, Shared: true}
			if e.Fun.Name == "faa" {
				x.Kind = EFaa
			}
			x.Ref, x.Thr = x.A.Ref, x.A.Thr
			return x
		}
		if c.info.Types[e.Args[0]].Kind == check.Word {
			return c.casWord(e)
		}
		return &Expr{Kind: ECas, A: c.expr(e.Args[0]), B: c.expr(e.Args[1]), C: c.expr(e.Args[2]), Shared: true}
	case *syntax.TestExpr:
		h := c.info.Tests[e]
		x := &Expr{Kind: EIs, V: int32(h.ID), A: c.expr(e.X), Name: h.Name}
		if e.As {
			x.Kind, x.Ref = EAs, true
		}
		return x
	case *syntax.AnyExpr:
		lo, err1 := c.constEval(e.Lo)
		hi, err2 := c.constEval(e.Hi)
		if err1 != nil || err2 != nil || hi < lo || hi-lo >= 1024 {
			c.errs.Add(c.file.Position(e.Pos), fmt.Sprintf("any %d..%d: the range must hold between 1 and 1024 values", lo, hi))
			return &Expr{Kind: EConst}
		}
		return &Expr{Kind: EAny, Lo: lo, N: hi - lo + 1}
	case *syntax.NewExpr:
		h := c.info.Heaps[e]
		x := &Expr{Kind: ENew, V: int32(h.ID), Name: h.Name}
		for _, fi := range e.Inits {
			for _, f := range h.Fields {
				if f.Name == fi.Name.Name {
					for j, v := range c.values(fi.Value) {
						x.Inits = append(x.Inits, FieldInit{Field: int32(f.Index + j), X: v})
					}
				}
			}
		}
		return x
	}
	return &Expr{Kind: EConst}
}

// opText is an operator as written in source.
func opText(t syntax.Token) string { return strings.Trim(t.String(), "'") }
