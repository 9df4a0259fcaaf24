package explore

import (
	"fmt"
	"slices"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// The instruction set. Method bodies are lowered to a flat array of
// instructions; a thread's program counter indexes it (0 = idle).
type opcode uint8

const (
	opNop         opcode = iota
	opAssign             // lhs = x
	opEval               // evaluate x for its effect (a cas statement)
	opBranch             // if !x goto target
	opJump               // goto target; back marks a loop's back edge
	opAtomicBegin        // start of an atomic block
	opAtomicEnd          // end of an atomic block
	opAssert             // assert x
	opFree               // free(x)
	opLin                // linearization-point marker, optional value x
	opReturn             // return [x]
	opFallOff            // end of a method with a result: a model error
	opRetPending         // the return value is in the retval slot: emit ret
	opAwait              // the step is enabled only if x holds
)

type instr struct {
	op     opcode
	back   bool // opJump: a loop's back edge
	shared bool // reads or writes shared state (shared variables, heap fields, cas)
	// boundary: shared, and not a return: a step that has touched shared
	// state already ends before it, unless the nodes of priv are private.
	boundary bool
	target   int32 // opBranch, opJump
	method   int32
	step     int32 // index into program.steps
	// priv is the set of local slots through which this instruction
	// reaches heap fields, when that is its only shared access: if every
	// node they hold is private to the thread, the instruction is local
	// work.
	priv uint64
	lhs  *expr
	x    *expr
}

// flow is the dataflow of an instruction, for the liveness analysis; it
// is kept beside the code rather than in it, so that the instructions that
// the machine reads are small.
type flow struct {
	use  uint64 // locals read
	def  uint64 // locals written
	live uint64 // locals live before this instruction
}

type ekind uint8

const (
	eConst ekind = iota
	eLocal
	eShared
	eElem
	eField
	eTid
	eNThreads
	eUnary
	eBinary
	eCas
	eNew
)

// expr is a compiled expression with its variables resolved to slots.
type expr struct {
	k      ekind
	op     syntax.Token
	v      int32 // constant, local slot, shared offset, field index or heap id
	lo, n  int32 // eElem: lowest index and length
	a, b   *expr // operands; eElem: a is the index; eField: a is the node
	c      *expr // eCas: new value
	inits  []fieldInit
	rng    *check.Type // for locations with a declared range
	name   string      // for messages
	pos    syntax.Pos
	shared bool
	ref    bool // a location that holds a reference
}

type fieldInit struct {
	field int32
	x     *expr
}

// method is a compiled method.
type method struct {
	name       string
	index      int32
	entry      int32 // first instruction
	retPending int32
	params     []check.Type
	result     check.Kind
	nlocals    int
	refMask    uint64 // local slots holding references, as a bit set
	callStep   int32
	argTuples  [][]int32
	callable   bool // false for the init block
}

// layout fixes where everything lives in a state vector:
// [shared | thread 1 | … | thread n | node count | node 1 | node 2 | …],
// each thread being [pc, ops done, retval, locals…] and each node
// [heap type, freed, fields…] (fields padded to the widest heap type).
// A node's header holds only what can vary: the heap type only when the
// object has several heap types, the freed flag only in explicit memory
// mode (garbage-collected nodes are never freed). Shorter vectors are
// cheaper to copy, renumber, encode, hash and store.
type layout struct {
	nshared    int32
	threads    int32
	threadSize int32
	heapBase   int32 // index of the node count
	nodeSize   int32
	// typed: a node's first slot is its heap type; else every node has
	// heap type 1, the only one.
	typed bool
	// explicit: explicit memory (no garbage collection; see Options).
	explicit bool
	// freedOff: the offset in a node of its freed flag, -1 if none.
	freedOff int32
	// hdr: the offset in a node of its first field.
	hdr       int32
	refShared []int32   // shared offsets holding references
	refFields [][]int32 // per heap id: field indices holding references
	// refOffs[h]: the offsets in a node of heap type h of its reference
	// fields; uniform: the offsets shared by every heap type, or nil if
	// they differ (then refOffs by type).
	refOffs    [][]int32
	uniform    []int32
	nfields    []int32 // per heap id
	fieldTypes [][]check.Type
}

const (
	tPC     = 0
	tOps    = 1
	tRet    = 2
	tLocals = 3
)

func (l *layout) threadBase(t int) int32 { return l.nshared + int32(t)*l.threadSize }
func (l *layout) nodeAddr(id int32) int32 {
	return l.heapBase + 1 + (id-1)*l.nodeSize
}

// refOffsets fills refOffs and uniform from refFields and hdr.
func (l *layout) refOffsets() {
	for _, fs := range l.refFields {
		offs := make([]int32, len(fs))
		for i, f := range fs {
			offs[i] = l.hdr + f
		}
		l.refOffs = append(l.refOffs, offs)
	}
	if len(l.refOffs) > 1 {
		l.uniform = l.refOffs[1]
		for _, offs := range l.refOffs[2:] {
			if !slices.Equal(offs, l.uniform) {
				l.uniform = nil
				break
			}
		}
	}
}

// nodeRefOffsets returns the offsets of the reference fields of the node
// at address a of st.
func (l *layout) nodeRefOffsets(st []int32, a int32) []int32 {
	if l.uniform != nil {
		return l.uniform
	}
	return l.refOffs[st[a]]
}

// nodeType returns the heap type of the node at address a of st.
func (l *layout) nodeType(st []int32, a int32) int32 {
	if l.typed {
		return st[a]
	}
	return 1
}

// program is an object compiled for given bounds.
type program struct {
	file    *syntax.File
	obj     *check.Object
	code    []instr
	methods []*method
	// refMask[pc]: the reference locals of the method of pc as a bit set
	// (0 at pc 0, idle): a thread's references are found by one load and a
	// loop over the set bits. dead[pc]: the method's locals dead at pc,
	// likewise.
	refMask, dead []uint64
	lay           layout
	init          []int32 // initial state, before the init block runs
	// initMethod is the compiled init block, run atomically by thread 1
	// to build the initial state; nil if absent.
	initMethod *method
	steps      []stepInfo
	threads    int
	values     []int32
}

type stepInfo struct {
	pos       syntax.Pos
	text      string
	procedure string
}

type compiler struct {
	prog   *program
	info   *check.Info
	m      *method
	cm     *check.Method
	errs   syntax.ErrorList
	atomic bool   // compiling the spec auto: every body is one atomic block
	fine   bool   // no private-node folding
	flow   []flow // per instruction of prog.code
	// shared returns a shared variable's offset, lowest index and length.
	shared func(v *check.Var) (off, lo, length int32)
}

// compile lowers obj for the given number of threads and argument values;
// explicit selects explicit memory (nodes carry a freed flag).
func compile(p *check.Program, obj *check.Object, threads int, values []int, fine, explicit bool) (*program, error) {
	c := &compiler{info: p.Info, atomic: obj.Auto, fine: fine}
	prog := &program{file: p.File, obj: obj, threads: threads}
	for _, v := range values {
		prog.values = append(prog.values, int32(v))
	}
	c.prog = prog
	prog.code = []instr{{op: opNop, step: -1}} // pc 0: idle
	c.flow = []flow{{}}
	// Shared layout.
	offsets := make([]int32, len(obj.Shared))
	lows := make([]int32, len(obj.Shared))
	lens := make([]int32, len(obj.Shared))
	var n int32
	for i, v := range obj.Shared {
		offsets[i] = n
		lens[i] = 1
		if v.IsArray() {
			hi, err := c.constEval(v.Len)
			if err != nil {
				return nil, err
			}
			lo := int32(0)
			if v.LenLo != nil {
				if lo, err = c.constEval(v.LenLo); err != nil {
					return nil, err
				}
				hi = hi - lo + 1
			}
			if hi < 1 || hi > 1024 {
				return nil, c.errAt(v.Len.Start(), fmt.Sprintf("array %s has %d elements; it needs between 1 and 1024", v.Name, hi))
			}
			lows[i], lens[i] = lo, hi
		}
		if v.Type.Kind == check.Ref {
			for k := int32(0); k < lens[i]; k++ {
				prog.lay.refShared = append(prog.lay.refShared, n+k)
			}
		}
		n += lens[i]
	}
	prog.lay.nshared = n
	c.shared = func(v *check.Var) (off, lo, length int32) { return offsets[v.Index], lows[v.Index], lens[v.Index] }
	// Heap layout.
	maxFields := int32(0)
	prog.lay.refFields = make([][]int32, len(obj.Heaps)+1)
	prog.lay.nfields = make([]int32, len(obj.Heaps)+1)
	prog.lay.fieldTypes = make([][]check.Type, len(obj.Heaps)+1)
	for _, h := range obj.Heaps {
		maxFields = max(maxFields, int32(len(h.Fields)))
		prog.lay.nfields[h.ID] = int32(len(h.Fields))
		for _, f := range h.Fields {
			prog.lay.fieldTypes[h.ID] = append(prog.lay.fieldTypes[h.ID], f.Type)
			if f.Type.Kind == check.Ref {
				prog.lay.refFields[h.ID] = append(prog.lay.refFields[h.ID], int32(f.Index))
			}
		}
	}
	prog.lay.typed = len(obj.Heaps) > 1
	prog.lay.freedOff = -1
	if prog.lay.typed {
		prog.lay.hdr++
	}
	prog.lay.explicit = explicit
	if explicit {
		prog.lay.freedOff = prog.lay.hdr
		prog.lay.hdr++
	}
	prog.lay.nodeSize = prog.lay.hdr + maxFields
	prog.lay.refOffsets()
	// Methods.
	maxLocals := 0
	all := obj.Methods
	if obj.Init != nil {
		all = append(append([]*check.Method(nil), all...), obj.Init)
	}
	for _, cm := range all {
		if len(cm.Locals) > 64 {
			return nil, c.errAt(cm.Decl.Pos, fmt.Sprintf("method %s has %d local variables; at most 64 are supported", cm.Name, len(cm.Locals)))
		}
		maxLocals = max(maxLocals, len(cm.Locals))
		if cm == obj.Init {
			c.atomic = true
			c.method(cm)
			prog.initMethod = prog.methods[len(prog.methods)-1]
		} else {
			c.method(cm)
			prog.methods[len(prog.methods)-1].callable = true
		}
	}
	if err := c.errs.Err(); err != nil {
		return nil, err
	}
	prog.lay.threads = int32(threads)
	prog.lay.threadSize = tLocals + int32(maxLocals)
	prog.lay.heapBase = prog.lay.nshared + int32(threads)*prog.lay.threadSize
	liveness(prog.code, c.flow)
	prog.refMask = make([]uint64, len(prog.code))
	prog.dead = make([]uint64, len(prog.code))
	for pc, in := range prog.code {
		// An idle thread's slots are clear already (resetThread): none
		// to zero at pc 0.
		slots := uint64(0)
		if pc > 0 {
			m := prog.methods[in.method]
			prog.refMask[pc] = m.refMask
			// The slots beyond the method's locals stay zero while it
			// runs (it starts from an idle thread, whose slots are
			// clear): they need no zeroing.
			slots = uint64(1)<<uint(m.nlocals) - 1
		}
		prog.dead[pc] = ^c.flow[pc].live & slots
	}
	// Initial state.
	st := make([]int32, prog.lay.heapBase+1)
	for i, v := range obj.Shared {
		if v.Init == nil {
			continue
		}
		val, err := c.constEval(v.Init)
		if err != nil {
			return nil, err
		}
		for k := int32(0); k < lens[i]; k++ {
			st[offsets[i]+k] = val
		}
		if v.Type.HasRange && (int64(val) < v.Type.Lo || int64(val) > v.Type.Hi) {
			return nil, c.errAt(v.Init.Start(), fmt.Sprintf("initial value %d of %s is outside %s", val, v.Name, v.Type))
		}
	}
	prog.init = st
	return prog, nil
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
	c.prog.steps = append(c.prog.steps, stepInfo{pos: pos, text: text, procedure: c.m.name})
	return int32(len(c.prog.steps) - 1)
}

func (c *compiler) method(cm *check.Method) {
	m := &method{name: cm.Name, index: int32(len(c.prog.methods)), result: cm.Result.Kind, nlocals: len(cm.Locals)}
	c.prog.methods = append(c.prog.methods, m)
	c.m, c.cm = m, cm
	for _, p := range cm.Params {
		m.params = append(m.params, p.Type)
	}
	for _, l := range cm.Locals {
		if l.Type.Kind == check.Ref {
			m.refMask |= 1 << uint(l.Index)
		}
	}
	m.callStep = c.step(cm.Decl)
	m.entry = int32(len(c.prog.code))
	if c.atomic {
		c.emit(instr{op: opAtomicBegin, shared: true, step: c.step(cm.Decl)})
	}
	c.block(cm.Decl.Body)
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
	in := instr{op: op, step: c.step(n), lhs: lhs, x: x}
	var f flow
	if lhs != nil {
		in.shared = lhs.shared
		if lhs.k == eLocal {
			f.def = 1 << uint(lhs.v)
		} else {
			f.use |= uses(lhs)
		}
	}
	if x != nil {
		in.shared = in.shared || x.shared
		f.use |= uses(x)
	}
	if op == opFree {
		in.shared = true
	}
	if in.shared && op != opFree && !c.fine {
		bases, ok := fieldBases(lhs, nil, true)
		if ok {
			bases, ok = fieldBases(x, bases, true)
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
	case eShared, eElem, eCas:
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
	return out, ok
}

// localExpr is the location of a local variable or parameter.
func localExpr(v *check.Var) *expr {
	return &expr{k: eLocal, v: int32(v.Index), name: v.Name, ref: v.Type.Kind == check.Ref}
}

func (c *compiler) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.Block:
		c.block(s)
	case *syntax.DefineStmt:
		v := c.info.Defs[s]
		c.simple(opAssign, s, localExpr(v), c.expr(s.Value))
	case *syntax.AssignStmt:
		c.simple(opAssign, s, c.expr(s.LHS), c.expr(s.Value))
	case *syntax.ExprStmt:
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
		var x *expr
		if s.Value != nil {
			x = c.expr(s.Value)
		}
		c.simple(opReturn, s, nil, x)
	case *syntax.AtomicStmt:
		c.emit(instr{op: opAtomicBegin, shared: true, step: c.step(s)})
		c.block(s.Body)
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
		c.block(s.Body)
		c.emit(instr{op: opJump, back: true, target: head, step: c.step(s)})
		if test {
			c.prog.code[head].target = int32(len(c.prog.code))
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
	if e.k == eLocal {
		u = 1 << uint(e.v)
	}
	u |= uses(e.a) | uses(e.b) | uses(e.c)
	for _, fi := range e.inits {
		u |= uses(fi.x)
	}
	return u
}

func (c *compiler) expr(e syntax.Expr) *expr {
	x := c.expr1(e)
	x.pos = e.Start()
	x.shared = x.shared || x.a != nil && x.a.shared || x.b != nil && x.b.shared || x.c != nil && x.c.shared
	for _, fi := range x.inits {
		x.shared = x.shared || fi.x.shared
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
			x := &expr{k: eShared, v: off, name: v.Name, shared: true, ref: v.Type.Kind == check.Ref}
			if v.Type.HasRange {
				x.rng = &v.Type
			}
			return x
		case check.LocalVar, check.ParamVar:
			return localExpr(v)
		case check.BuiltinTid:
			return &expr{k: eTid}
		case check.BuiltinNThreads:
			return &expr{k: eConst, v: int32(c.prog.threads)}
		case check.BuiltinEmpty:
			return &expr{k: eConst, v: Empty}
		}
	case *syntax.UnaryExpr:
		return &expr{k: eUnary, op: e.Op, a: c.expr(e.X)}
	case *syntax.BinaryExpr:
		return &expr{k: eBinary, op: e.Op, a: c.expr(e.X), b: c.expr(e.Y)}
	case *syntax.IndexExpr:
		v := c.info.Uses[e.X.(*syntax.Ident)]
		off, lo, n := c.shared(v)
		x := &expr{k: eElem, v: off, lo: lo, n: n, a: c.expr(e.Index), name: v.Name, shared: true, ref: v.Type.Kind == check.Ref}
		if v.Type.HasRange {
			x.rng = &v.Type
		}
		return x
	case *syntax.SelectorExpr:
		f := c.info.Fields[e]
		x := &expr{k: eField, v: int32(f.Index), a: c.expr(e.X), name: e.Sel.Name, shared: true, ref: f.Type.Kind == check.Ref}
		if f.Type.HasRange {
			x.rng = &f.Type
		}
		return x
	case *syntax.CallExpr: // cas
		return &expr{k: eCas, a: c.expr(e.Args[0]), b: c.expr(e.Args[1]), c: c.expr(e.Args[2]), shared: true}
	case *syntax.NewExpr:
		h := c.info.Heaps[e]
		x := &expr{k: eNew, v: int32(h.ID), name: h.Name}
		for _, fi := range e.Inits {
			for _, f := range h.Fields {
				if f.Name == fi.Name.Name {
					x.inits = append(x.inits, fieldInit{field: int32(f.Index), x: c.expr(fi.Value)})
				}
			}
		}
		return x
	}
	return &expr{k: eConst}
}

// liveness computes, for every instruction, the locals live before it
// (backward may-analysis to a fixpoint). Dead locals are zeroed in stored
// states so that a thread spinning in a loop returns to the very same state.
func liveness(code []instr, flows []flow) {
	succ := func(i int) (a, b int32) {
		in := &code[i]
		switch in.op {
		case opJump:
			return in.target, -1
		case opBranch:
			return int32(i + 1), in.target
		case opReturn, opFallOff, opRetPending, opNop:
			return -1, -1
		}
		return int32(i + 1), -1
	}
	for changed := true; changed; {
		changed = false
		for i := len(code) - 1; i >= 1; i-- {
			var out uint64
			a, b := succ(i)
			if a >= 0 {
				out |= flows[a].live
			}
			if b >= 0 {
				out |= flows[b].live
			}
			live := flows[i].use | out&^flows[i].def
			if live != flows[i].live {
				flows[i].live = live
				changed = true
			}
		}
	}
}
