package explore

import (
	"fmt"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// compiler lowers a checked object to a program: the method bodies to
// instructions, expressions to trees with their variables resolved to
// slots and offsets.
type compiler struct {
	prog   *program
	info   *check.Info
	m      *method
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
	depth    int // atomic blocks around the instruction being emitted
}

// frame is a procedure being inlined.
type frame struct {
	proc  *check.Method
	base  int32     // slot of its first local
	dests [][]*expr // where its results go, slot by slot (nil: discarded)
	exits []int32   // the jumps of its returns, to patch with its end
	depth int       // atomic blocks around the call
}

// loopTargets is a loop being lowered.
type loopTargets struct {
	loop   *syntax.WhileStmt
	head   int32   // where continue jumps
	breaks []int32 // the jumps of the loop's breaks, to patch with its end
}

// compile lowers obj for the given number of threads and argument values;
// explicit selects explicit memory (nodes carry a freed flag). The state
// layout is fixed first (layout.go), then every method is lowered to
// instructions (this file), then the liveness of locals is computed
// (liveness.go).
func compile(p *check.Program, obj *check.Object, threads int, values []int, fine, explicit bool) (*program, error) {
	c := &compiler{info: p.Info, atomic: obj.Auto, fine: fine}
	prog := &program{file: p.File, client: p.Client, obj: obj, threads: threads}
	for _, v := range values {
		prog.values = append(prog.values, int32(v))
	}
	c.prog = prog
	prog.code = []instr{{op: opNop, step: -1}} // pc 0: idle
	c.flow = []flow{{}}
	if err := c.layShared(obj.Shared); err != nil {
		return nil, err
	}
	prog.lay.layHeap(obj.Heaps, explicit)
	maxLocals, err := c.methods(obj)
	if err != nil {
		return nil, err
	}
	prog.lay.layThreads(threads, maxLocals)
	prog.deadSets(c.flow)
	prog.cleanSets()
	prog.numberExprs()
	if prog.init, err = c.initialState(obj.Shared); err != nil {
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
			c.prog.initMethod = c.prog.methods[len(c.prog.methods)-1]
		} else {
			c.method(cm)
			c.prog.methods[len(c.prog.methods)-1].callable = true
		}
		if m := c.prog.methods[len(c.prog.methods)-1]; m.nlocals > 64 {
			return 0, c.errAt(cm.Decl.Pos, fmt.Sprintf("method %s has %d local slots (one per local, per field of a word, per element of an array, with those of the procedures it calls); at most 64 are supported", cm.Name, m.nlocals))
		}
		maxLocals = max(maxLocals, c.prog.methods[len(c.prog.methods)-1].nlocals)
	}
	return maxLocals, c.errs.Err()
}

func (c *compiler) errAt(pos syntax.Pos, msg string) error {
	var l syntax.ErrorList
	l.Add(c.prog.file.Position(pos), msg)
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
			return int32(c.prog.threads), nil
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
		v, ok := binop(e.Op, x, y)
		if !ok {
			return 0, c.errAt(e.OpPos, "division by zero in a constant")
		}
		return v, nil
	}
	return 0, c.errAt(e.Start(), "not a constant")
}

func (c *compiler) emit(in instr) int32 {
	in.method = c.m.index
	// A return is never the start of a step of its own: the machine
	// handles it before the shared-access check (see machine.step).
	in.boundary = in.shared && in.op != opReturn && in.op != opRetPending
	c.prog.code = append(c.prog.code, in)
	c.flow = append(c.flow, flow{})
	return int32(len(c.prog.code) - 1)
}

func (c *compiler) step(n syntax.Node) int32 {
	pos := n.Start()
	f := c.prog.file
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
		if len(text) > 60 {
			text = text[:57] + "..."
		}
	case *syntax.SkipStmt: // end of a method
		text = "end of " + c.m.name
	default:
		text = f.Text(pos, syntax.NoPos)
	}
	name := c.m.name
	if len(c.frames) > 0 {
		name = c.frames[len(c.frames)-1].proc.Name
	}
	c.prog.steps = append(c.prog.steps, stepInfo{pos: pos, text: text, procedure: name})
	return int32(len(c.prog.steps) - 1)
}

func (c *compiler) method(cm *check.Method) {
	m := &method{name: cm.Name, index: int32(len(c.prog.methods)), result: cm.Result.Kind, nlocals: cm.Slots}
	c.prog.methods = append(c.prog.methods, m)
	c.m, c.cm = m, cm
	for _, p := range cm.Params {
		m.params = append(m.params, p.Type)
	}
	m.refMask = refSlots(cm.Locals, 0)
	if len(cm.Results) > 1 {
		m.result, m.tuple = check.Int, cm.Results
	}
	c.procBase, c.nslots, c.depth = map[*check.Method]int32{}, int32(cm.Slots), 0
	m.callStep = c.step(cm.Decl)
	m.entry = int32(len(c.prog.code))
	if c.atomic {
		c.emit(instr{op: opAtomicBegin, shared: true, step: c.step(cm.Decl)})
		c.depth++
	}
	c.block(cm.Decl.Body)
	m.nlocals = int(c.nslots)
	end := &syntax.SkipStmt{Pos: cm.Decl.End}
	if cm.Result.Kind == check.Void {
		c.emit(instr{op: opReturn, step: c.step(end)})
	} else {
		c.emit(instr{op: opFallOff, step: c.step(end)})
	}
	if c.atomic {
		c.emit(instr{op: opAtomicEnd, step: -1})
	}
	m.retPending = c.emit(instr{op: opRetPending, step: c.step(end)})
}

func (c *compiler) block(b *syntax.Block) {
	for _, s := range b.Stmts {
		c.stmt(s)
	}
}

func (c *compiler) simple(op opcode, n syntax.Node, lhs, x *expr) int32 {
	return c.emitStmt(instr{op: op, step: c.step(n), lhs: lhs, x: x})
}

// emitStmt emits in, the instruction of a statement, with whether it
// touches shared state, the locals through which it reaches nodes (priv)
// and its dataflow.
func (c *compiler) emitStmt(in instr) int32 {
	var f flow
	for _, l := range in.targets() {
		in.shared = in.shared || l.shared
		if l.k == eLocal {
			f.def |= 1 << uint(l.v)
		} else {
			f.use |= uses(l)
		}
	}
	for _, x := range in.values() {
		in.shared = in.shared || x.shared
		f.use |= uses(x)
	}
	if in.op == opFree {
		in.shared = true
	}
	if in.shared && in.op != opFree && !c.fine {
		bases, ok := []int32(nil), true
		for _, e := range append(in.targets(), in.values()...) {
			bases, ok = fieldBases(e, bases, ok)
		}
		if ok {
			for _, b := range bases {
				in.priv |= 1 << uint(b)
			}
		}
	}
	pc := c.emit(in)
	c.flow[pc] = f
	return pc
}

// fieldBases collects the locals used as x in field accesses x.f within e
// and reports whether those are e's only shared accesses.
func fieldBases(e *expr, out []int32, ok bool) ([]int32, bool) {
	if e == nil || !ok {
		return out, ok
	}
	switch e.k {
	case eShared, eElem, eCas, eCasWord:
		return out, false
	case eField:
		if e.a.k != eLocal {
			return out, false
		}
		return append(out, e.a.v), true
	}
	out, ok = fieldBases(e.a, out, ok)
	out, ok = fieldBases(e.b, out, ok)
	out, ok = fieldBases(e.c, out, ok)
	for _, fi := range e.inits {
		out, ok = fieldBases(fi.x, out, ok)
	}
	for _, x := range e.list {
		out, ok = fieldBases(x, out, ok)
	}
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
func (c *compiler) local(v *check.Var) *expr {
	slot := int32(v.Slot)
	if len(c.frames) > 0 {
		slot += c.frames[len(c.frames)-1].base
	}
	return &expr{k: eLocal, v: slot, name: v.Name, ref: v.Type.Kind == check.Ref, thr: v.Type.Kind == check.Thread}
}

// inline lowers the call of a procedure in statement s: the arguments
// are assigned to its parameters, then its body runs, its returns
// assigning the results to dests (nil: discarded) and jumping to its end.
// Every statement of the body is lowered as if written at the call, but
// keeps its own source line.
func (c *compiler) inline(s syntax.Stmt, call *syntax.CallExpr, dests [][]*expr) {
	p := c.info.Calls[call]
	base, ok := c.procBase[p]
	if !ok {
		base = c.nslots
		c.procBase[p] = base
		c.nslots += int32(p.Slots)
		c.m.refMask |= refSlots(p.Locals, base)
	}
	args := make([][]*expr, len(call.Args))
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
			c.prog.code[pc].step = -1
			c.prog.steps = c.prog.steps[:len(c.prog.steps)-1]
		}
	}
	if dests == nil {
		dests = make([][]*expr, len(p.Results))
	}
	c.frames = append(c.frames, frame{proc: p, base: base, dests: dests, depth: c.depth})
	c.block(p.Decl.Body)
	f := c.frames[len(c.frames)-1]
	c.frames = c.frames[:len(c.frames)-1]
	for _, j := range f.exits {
		c.prog.code[j].target = int32(len(c.prog.code))
	}
}

// procReturn lowers a return of the procedure being inlined: its values,
// left to right, to the call's destinations, the end of the atomic blocks
// it leaves, and a jump to the end of the body.
func (c *compiler) procReturn(s *syntax.ReturnStmt) {
	f := &c.frames[len(c.frames)-1]
	if s.Value != nil {
		for i, v := range append([]syntax.Expr{s.Value}, s.Rest...) {
			if f.dests[i] != nil {
				c.assign(s, f.dests[i], c.values(v))
			} else {
				for _, x := range c.values(v) {
					c.simple(opEval, s, nil, x)
				}
			}
		}
	}
	for d := c.depth; d > f.depth; d-- {
		c.emit(instr{op: opAtomicEnd, step: -1})
	}
	f.exits = append(f.exits, c.emit(instr{op: opJump, step: -1}))
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
			dests := [][]*expr{c.slots(v, -1)}
			for _, id := range s.Rest {
				dests = append(dests, c.slots(c.info.Uses[id], -1))
			}
			c.inline(s, call, dests)
			return
		}
		c.assign(s, c.slots(v, -1), c.values(s.Value))
	case *syntax.AssignStmt:
		if call := c.callOf(s.Value); call != nil {
			var dests [][]*expr
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
		c.simple(opEval, s, nil, c.expr(s.X))
	case *syntax.AssertStmt:
		c.simple(opAssert, s, nil, c.expr(s.Cond))
	case *syntax.AwaitStmt:
		c.simple(opAwait, s, nil, c.expr(s.Cond))
	case *syntax.FreeStmt:
		c.simple(opFree, s, nil, c.expr(s.X))
	case *syntax.LinStmt:
		var x *expr
		if s.Value != nil {
			x = c.expr(s.Value)
		}
		c.simple(opLin, s, nil, x)
	case *syntax.SkipStmt:
	case *syntax.ReturnStmt:
		if len(c.frames) > 0 {
			c.procReturn(s)
			return
		}
		var x *expr
		switch {
		case len(s.Rest) > 0:
			x = c.pack(s)
		case s.Value != nil:
			x = c.expr(s.Value)
		}
		c.simple(opReturn, s, nil, x)
	case *syntax.AtomicStmt:
		c.emit(instr{op: opAtomicBegin, shared: true, step: c.step(s)})
		c.depth++
		c.block(s.Body)
		c.depth--
		c.emit(instr{op: opAtomicEnd, step: -1})
	case *syntax.IfStmt:
		br := c.simple(opBranch, s, nil, c.expr(s.Cond))
		c.block(s.Then)
		if s.Else == nil {
			c.prog.code[br].target = int32(len(c.prog.code))
			return
		}
		j := c.emit(instr{op: opJump, step: -1})
		c.prog.code[br].target = int32(len(c.prog.code))
		c.stmt(s.Else)
		c.prog.code[j].target = int32(len(c.prog.code))
	case *syntax.WhileStmt:
		head := int32(len(c.prog.code))
		// while true has no test to run on every iteration; its step is
		// registered all the same, so that the source steps are numbered
		// as with the test.
		cond := c.expr(s.Cond)
		test := cond.k != eConst || cond.v == 0
		if test {
			c.simple(opBranch, s, nil, cond)
		} else {
			c.step(s)
		}
		c.loops = append(c.loops, loopTargets{loop: s, head: head})
		c.block(s.Body)
		c.emit(instr{op: opJump, back: true, target: head, step: c.step(s)})
		end := int32(len(c.prog.code))
		if test {
			c.prog.code[head].target = end
		}
		for _, j := range c.loops[len(c.loops)-1].breaks {
			c.prog.code[j].target = end
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
			// Like the loop's own back edge, a continue ends the step.
			c.emit(instr{op: opJump, back: true, target: c.loops[i].head, step: c.step(s)})
		} else {
			c.loops[i].breaks = append(c.loops[i].breaks, c.emit(instr{op: opJump, step: -1}))
		}
	case *syntax.VarStmt:
		v := c.info.Vars[s]
		if v.IsArray() {
			c.zeroArray(s, v)
			return
		}
		var xs []*expr
		if s.Value != nil {
			xs = c.values(s.Value)
		} else {
			for range v.Type.Slots() {
				xs = append(xs, &expr{k: eConst})
			}
		}
		c.assign(s, c.slots(v, -1), xs)
	case *syntax.ChooseStmt:
		// choose {A} or {B} or {C} is `if any 0..1 == 0 {A} else if
		// any 0..1 == 0 {B} else {C}`: the same outcomes, one per block.
		var ends []int32
		for i, b := range s.Alts {
			if i < len(s.Alts)-1 {
				pick := &expr{k: eBinary, op: syntax.EQL, a: &expr{k: eAny, n: 2}, b: &expr{k: eConst}}
				br := c.simple(opBranch, s, nil, pick)
				c.block(b)
				ends = append(ends, c.emit(instr{op: opJump, step: -1}))
				c.prog.code[br].target = int32(len(c.prog.code))
			} else {
				c.block(b)
			}
		}
		for _, j := range ends {
			c.prog.code[j].target = int32(len(c.prog.code))
		}
	}
}

// uses returns the locals read by e (for an assignment target, those read
// to find the location).
func uses(e *expr) uint64 {
	if e == nil {
		return 0
	}
	var u uint64
	switch e.k {
	case eLocal:
		u = 1 << uint(e.v)
	case eLocalElem:
		// Any element may be read: the whole array is used.
		u = (uint64(1)<<uint(e.n*max(e.stride, 1)) - 1) << uint(e.v)
	}
	u |= uses(e.a) | uses(e.b) | uses(e.c)
	for _, fi := range e.inits {
		u |= uses(fi.x)
	}
	for _, x := range e.list {
		u |= uses(x)
	}
	return u
}

func (c *compiler) expr(e syntax.Expr) *expr {
	if c.info.Types[e].Kind == check.Word {
		// Words are compiled slot by slot (values); one expression
		// cannot hold one.
		c.errs.Add(c.prog.file.Position(e.Start()), "internal error: a word where a scalar is expected")
		return &expr{k: eConst}
	}
	x := c.expr1(e)
	x.pos = e.Start()
	x.shared = x.shared || x.a != nil && x.a.shared || x.b != nil && x.b.shared || x.c != nil && x.c.shared
	for _, fi := range x.inits {
		x.shared = x.shared || fi.x.shared
	}
	for _, y := range x.list {
		x.shared = x.shared || y.shared
	}
	return x
}

func (c *compiler) expr1(e syntax.Expr) *expr {
	switch e := e.(type) {
	case *syntax.IntLit:
		return &expr{k: eConst, v: int32(e.Value)}
	case *syntax.BoolLit:
		if e.Value {
			return &expr{k: eConst, v: 1}
		}
		return &expr{k: eConst}
	case *syntax.NullLit:
		return &expr{k: eConst}
	case *syntax.ParenExpr:
		return c.expr(e.X)
	case *syntax.Ident:
		v := c.info.Uses[e]
		switch v.Kind {
		case check.SharedVar:
			off, _, _ := c.shared(v)
			x := &expr{k: eShared, v: off, name: v.Name, shared: true, ref: v.Type.Kind == check.Ref, thr: v.Type.Kind == check.Thread}
			if v.Type.HasRange {
				x.rng = &v.Type
			}
			return x
		case check.LocalVar, check.ParamVar:
			return c.local(v)
		case check.BuiltinTid:
			return &expr{k: eTid}
		case check.BuiltinNThreads:
			// Named, for the symmetry check (newSymmetry).
			return &expr{k: eConst, v: int32(c.prog.threads), name: "nthreads"}
		case check.BuiltinEmpty:
			return &expr{k: eConst, v: Empty}
		}
	case *syntax.UnaryExpr:
		return &expr{k: eUnary, op: e.Op, a: c.expr(e.X)}
	case *syntax.BinaryExpr:
		if c.info.Types[e.X].Kind == check.Word {
			return c.compareWords(e)
		}
		return &expr{k: eBinary, op: e.Op, a: c.expr(e.X), b: c.expr(e.Y)}
	case *syntax.IndexExpr:
		if id, _ := check.Indices(e); id != nil && c.info.Uses[id].Kind != check.SharedVar {
			// a local array (arrays.go)
			v := c.info.Uses[id]
			x := c.elem(v, c.expr(e.Index), 0)
			x.ref = v.Type.Kind == check.Ref
			if v.Type.HasRange {
				x.rng = &v.Type
			}
			return x
		}
		return c.element(e)
	case *syntax.SelectorExpr:
		f := c.info.Fields[e]
		if c.info.Types[e.X].Kind == check.Word {
			return c.values(e.X)[f.Index]
		}
		x := &expr{k: eField, v: int32(f.Index), a: c.expr(e.X), name: e.Sel.Name, shared: true, ref: f.Type.Kind == check.Ref}
		if f.Type.HasRange {
			x.rng = &f.Type
		}
		return x
	case *syntax.CallExpr: // cas
		if c.info.Types[e.Args[0]].Kind == check.Word {
			return c.casWord(e)
		}
		return &expr{k: eCas, a: c.expr(e.Args[0]), b: c.expr(e.Args[1]), c: c.expr(e.Args[2]), shared: true}
	case *syntax.TestExpr:
		h := c.info.Tests[e]
		x := &expr{k: eIs, v: int32(h.ID), a: c.expr(e.X), name: h.Name}
		if e.As {
			x.k, x.ref = eAs, true
		}
		return x
	case *syntax.AnyExpr:
		lo, err1 := c.constEval(e.Lo)
		hi, err2 := c.constEval(e.Hi)
		if err1 != nil || err2 != nil || hi < lo || hi-lo >= 1024 {
			c.errs.Add(c.prog.file.Position(e.Pos), fmt.Sprintf("any %d..%d: the range must hold between 1 and 1024 values", lo, hi))
			return &expr{k: eConst}
		}
		return &expr{k: eAny, lo: lo, n: hi - lo + 1}
	case *syntax.NewExpr:
		h := c.info.Heaps[e]
		x := &expr{k: eNew, v: int32(h.ID), name: h.Name}
		for _, fi := range e.Inits {
			for _, f := range h.Fields {
				if f.Name == fi.Name.Name {
					for j, v := range c.values(fi.Value) {
						x.inits = append(x.inits, fieldInit{field: int32(f.Index + j), x: v})
					}
				}
			}
		}
		return x
	}
	return &expr{k: eConst}
}
