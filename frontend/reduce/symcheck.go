package reduce

import (
	"fmt"
	"slices"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/syntax"
)

// The symmetry check. Thread ids are treated as a scalarset (Ip and Dill):
// values that may be stored, compared for equality and used as array
// indices, and nothing else. newSymmetry infers which locations hold
// thread ids — the thread-id locations: locals and shared variables (or
// whole arrays) into which tid, or a value read from such a location, is
// stored — and accepts the program only if
//   - a thread id is only stored into a thread-id location, compared with
//     == or != to another thread id or to 0 (no thread), or used as the
//     index of a shared array with indices exactly 1..nthreads (HP[tid],
//     HP[owner]); such an array is indexed by thread ids only;
//   - a thread-id location only ever receives thread ids or 0: a local
//     that is no parameter (the client's arguments are data), a shared
//     variable declared 0 and not set by the init block; never a heap
//     field, a return or a linearization value (they would need renaming
//     elsewhere: in nodes, in labels);
//   - a [1..nthreads] array is indexed by thread ids only (a loop over
//     its slots would visit the threads in an order that a permutation
//     does not keep: per-thread data is written [thread] and visited with
//     for j in others, threads.go), and the client has no only clause.
//   - arrays declared with [thread] dimensions (RL[t][i], PL[t][u]) are
//     per-thread from their declaration: the checker has made their
//     [thread] indices thread ids (tid, thread locals, thread variables),
//     and their ordinary indices are data like any other. The loops over
//     threads pick their thread ids from a visited set, a local that the
//     permutations rename as a set.
// Then a permutation π maps a step of thread t to a step of thread π(t)
// with the thread ids in thread-id locations renamed by π: the step reads
// the same values up to the renaming, equality of thread ids is kept by a
// bijection, an index i of a [1..nthreads] array reads element π(i) after
// the elements are moved, and 0 stays 0. The init block is exempt (see the
// design comment in symmetry.go) except that it may not store into
// thread-id locations.

// NewSymmetry returns the thread symmetry of p under bounds b, or nil and
// a one-line reason, naming the source position of the offending use, if
// it cannot show that permuting threads maps the LTS onto itself (see
// above). It is meant for both the implementation and the specification.
func NewSymmetry(p *ir.Program, b ir.Bounds) (*Symmetry, string) {
	if len(b.Only) > 0 {
		where := ""
		if p.Client != nil && len(p.Client.Only) > 0 {
			where = p.Source.Position(p.Client.Only[0].Pos).String() + ": "
		}
		return nil, where + "the client's only clause gives threads different methods; thread symmetry needs them interchangeable"
	}
	c := &symChecker{p: p, tidLocals: make([]uint64, len(p.Methods)), tidVars: map[int32]bool{},
		indexed: map[int32]bool{}, otherIndex: map[int32]syntax.Pos{}, names: map[int32]string{}}
	c.inferThreadIDs()
	c.checkCode()
	if c.reason != "" {
		return nil, c.reason
	}
	for off := range c.indexed {
		if pos, ok := c.otherIndex[off]; ok {
			return nil, fmt.Sprintf("%s: %s is indexed by a thread id elsewhere and by another value here; thread symmetry needs it indexed by thread ids only",
				p.Source.Position(pos), c.names[off])
		}
	}
	if reason := c.perThreadByData(); reason != "" {
		return nil, reason
	}
	s := &Symmetry{P: p, Threads: p.Threads, MaxOrders: maxTiedOrders, TidLocals: c.tidLocals}
	for off := range c.indexed {
		s.TidArrays = append(s.TidArrays, ir.ThreadArray{Off: off, RowLen: 1})
	}
	s.TidArrays = append(s.TidArrays, p.ThreadArrays...)
	slices.SortFunc(s.TidArrays, func(a, b ir.ThreadArray) int { return int(a.Off - b.Off) })
	s.SetLocals = make([]uint64, len(p.Methods))
	for _, ts := range p.ThreadSets {
		s.SetLocals[ts.Method] |= 1 << uint(ts.Slot)
	}
	for off := range c.tidVars {
		n := int32(1)
		if c.indexed[off] {
			n = int32(p.Threads)
		} else if l, ok := c.lengths[off]; ok {
			n = l
		}
		for k := off; k < off+n; k++ {
			if p.Init[k] != 0 {
				return nil, fmt.Sprintf("%s holds thread ids and is declared %d; thread symmetry needs 0 (no thread)", c.names[off], p.Init[k])
			}
			s.TidShared = append(s.TidShared, k)
		}
	}
	slices.Sort(s.TidShared)
	for _, a := range s.TidShared {
		if !s.inTidArray(a) {
			s.TidScalars = append(s.TidScalars, a)
		}
	}
	for _, a := range p.Layout.RefShared {
		if !s.inTidArray(a) {
			s.FixedRoots = append(s.FixedRoots, a)
		}
	}
	s.Kinds = s.sharedKinds()
	s.rowKinds = s.rowKindsOf()
	s.KeyLen = int(p.Layout.ThreadSize) + len(s.TidScalars)
	for _, ta := range s.TidArrays {
		s.KeyLen += s.keyWidth(ta)
	}
	if len(s.TidShared) > 0 || len(p.ThreadSets) > 0 || slices.ContainsFunc(s.TidLocals, func(m uint64) bool { return m != 0 }) {
		s.KeyLen++ // the number of references to the thread from the others
		s.ThreadIDs = true
	}
	for _, ta := range s.TidArrays {
		for a := ta.Off; a < ta.Off+int32(p.Threads)*ta.RowLen; a++ {
			s.namesInRows = s.namesInRows || s.ThreadIDs && s.Kinds[a] == kindThreadID
		}
	}
	return s, ""
}

// inTidArray reports whether the shared slot a is an element of a
// tid-indexed array.
func (s *Symmetry) inTidArray(a int32) bool {
	for _, ta := range s.TidArrays {
		if a >= ta.Off && a < ta.Off+int32(s.Threads)*ta.RowLen {
			return true
		}
	}
	return false
}

// symChecker infers the thread-id locations and checks every use of a
// thread id, for newSymmetry.
type symChecker struct {
	p *ir.Program
	// tidLocals[m]: the local slots of method m that hold thread ids;
	// tidVars: the shared variables (by offset) that do.
	tidLocals []uint64
	tidVars   map[int32]bool
	// indexed: the arrays (by offset) indexed by thread ids; otherIndex:
	// those indexed otherwise, with the first such index; names, lengths:
	// the arrays' and variables' names and the arrays' lengths.
	indexed    map[int32]bool
	otherIndex map[int32]syntax.Pos
	names      map[int32]string
	lengths    map[int32]int32
	method     int32  // the method of the instruction being checked
	reason     string // the first use that breaks symmetry, "" if none yet
}

// isThreadID reports whether e's value is a thread id: tid, or a read of
// a thread-id location, in method m.
func (c *symChecker) isThreadID(e *ir.Expr, m int32) bool {
	switch e.Kind {
	case ir.ETid, ir.EPickThread:
		return true
	case ir.ELocal:
		return e.Thr || c.tidLocals[m]&(1<<uint(e.V)) != 0
	case ir.ELocalElem:
		return c.tidLocals[m]&(1<<uint(e.V)) != 0 // marked whole
	case ir.EShared, ir.EElem:
		return e.Thr || c.tidVars[e.V]
	case ir.ESwap:
		return c.isThreadID(e.A, m) // the value the location held
	}
	return false
}

// mark makes the location e of method m a thread-id location, and
// reports whether it was not one already. Fields are not marked: storing
// a thread id into one is refused by checkCode.
func (c *symChecker) mark(e *ir.Expr, m int32) bool {
	switch e.Kind {
	case ir.ELocal:
		bit := uint64(1) << uint(e.V)
		if c.tidLocals[m]&bit != 0 {
			return false
		}
		c.tidLocals[m] |= bit
		return true
	case ir.ELocalElem:
		// Any element may receive the thread id: they all hold thread
		// ids (a local array of words holding one is refused).
		if e.Stride > 1 {
			c.refuse(e.Pos, fmt.Sprintf("a thread id is stored in %s, a local array of words; thread symmetry supports thread ids in scalar arrays and variables only", e.Name))
			return false
		}
		bits := (uint64(1)<<uint(e.N) - 1) << uint(e.V)
		if c.tidLocals[m]&bits == bits {
			return false
		}
		c.tidLocals[m] |= bits
		return true
	case ir.EShared, ir.EElem:
		if e.Stride > 1 {
			// Permuting an array of words would move k slots per
			// element; the symmetry does not do that.
			c.refuse(e.Pos, fmt.Sprintf("a thread id is stored in %s, an array of words; thread symmetry supports thread ids in scalar arrays and variables only", e.Name))
			return false
		}
		if c.tidVars[e.V] {
			return false
		}
		c.tidVars[e.V] = true
		c.names[e.V] = e.Name
		if e.Kind == ir.EElem {
			if c.lengths == nil {
				c.lengths = map[int32]int32{}
			}
			c.lengths[e.V] = e.N * max(1, e.N2)
		}
		return true
	}
	return false
}

// inferThreadIDs finds the thread-id locations: those into which a thread
// id is stored, by assignment or cas, to a fixpoint (the init block's
// stores included: checkCode refuses them).
func (c *symChecker) inferThreadIDs() {
	// The locations declared thread are thread-id locations from the start.
	for pc := 1; pc < len(c.p.Code); pc++ {
		in := &c.p.Code[pc]
		for _, e := range []*ir.Expr{in.Lhs, in.X} {
			ir.WalkExpr(e, func(x *ir.Expr) {
				if x.Thr {
					c.mark(x, in.Method)
				}
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for pc := 1; pc < len(c.p.Code); pc++ {
			in := &c.p.Code[pc]
			if in.Op == ir.OpAssign || in.Op == ir.OpAssignWord {
				xs := in.Values()
				for j, l := range in.Targets() {
					if c.isThreadID(xs[j], in.Method) {
						changed = c.mark(l, in.Method) || changed
					}
				}
			}
			for _, e := range append(in.Targets(), in.Values()...) {
				ir.WalkExpr(e, func(x *ir.Expr) {
					for _, s := range casSlots(x) {
						if c.isThreadID(s.nw, in.Method) || c.isThreadID(s.old, in.Method) {
							changed = c.mark(s.loc, in.Method) || changed
						}
					}
					if x.Kind == ir.ESwap && c.isThreadID(x.B, in.Method) {
						changed = c.mark(x.A, in.Method) || changed
					}
				})
			}
		}
	}
}

// casSlot is one slot of a cas: its location, expected and new values.
type casSlot struct{ loc, old, nw *ir.Expr }

// casSlots returns the slots of the cas e (one for a scalar cas, one per
// field for a cas on a word), or nil if e is no cas.
func casSlots(e *ir.Expr) []casSlot {
	switch e.Kind {
	case ir.ECas:
		return []casSlot{{e.A, e.B, e.C}}
	case ir.ECasWord:
		k := len(e.List) / 3
		out := make([]casSlot, k)
		for j := range k {
			out[j] = casSlot{e.List[j], e.List[k+j], e.List[2*k+j]}
		}
		return out
	}
	return nil
}

// checkCode checks every instruction's use of thread ids.
func (c *symChecker) checkCode() {
	p := c.p
	initMethod := int32(-1)
	if p.InitMethod != nil {
		initMethod = p.InitMethod.Index
	}
	for m, mask := range c.tidLocals {
		if params := uint64(1)<<uint(len(p.Methods[m].Params)) - 1; mask&params != 0 {
			c.refuse(p.Steps[p.Methods[m].CallStep].Pos, fmt.Sprintf("a parameter of %s is given a thread id; thread symmetry needs parameters to hold data only", p.Methods[m].Name))
			return
		}
	}
	for pc := 1; pc < len(p.Code) && c.reason == ""; pc++ {
		in := &p.Code[pc]
		c.method = in.Method
		if in.Method == initMethod {
			c.initStores(in)
			continue
		}
		ctx := "stored"
		switch in.Op {
		case ir.OpBranch, ir.OpAssert, ir.OpAwait:
			ctx = "as a condition"
		case ir.OpReturn:
			ctx = "returned"
		case ir.OpLin:
			ctx = "as a linearization value"
		case ir.OpFree:
			ctx = "freed"
		}
		if in.Op == ir.OpAssign || in.Op == ir.OpAssignWord {
			xs := in.Values()
			for j, l := range in.Targets() {
				c.location(l)
				c.store(l, xs[j])
			}
			continue
		}
		// An evaluated statement's value is dropped: a swap's old
		// thread id may be.
		c.expr(in.X, ctx, in.Op == ir.OpEval)
	}
}

// initStores refuses a store of the init block other than 0 into a
// shared thread-id location: the thread ids there must start at 0.
func (c *symChecker) initStores(in *ir.Instr) {
	tidVar := func(e *ir.Expr) bool { return (e.Kind == ir.EShared || e.Kind == ir.EElem) && c.tidVars[e.V] }
	if in.Op == ir.OpAssign || in.Op == ir.OpAssignWord {
		xs := in.Values()
		for j, l := range in.Targets() {
			if tidVar(l) && !isZero(xs[j]) {
				c.refuse(l.Pos, fmt.Sprintf("the init block sets %s, which holds thread ids; thread symmetry needs it to start at 0", l.Name))
			}
		}
	}
	for _, e := range append(in.Targets(), in.Values()...) {
		ir.WalkExpr(e, func(x *ir.Expr) {
			for _, s := range casSlots(x) {
				if tidVar(s.loc) {
					c.refuse(x.Pos, fmt.Sprintf("the init block sets %s, which holds thread ids; thread symmetry needs it to start at 0", s.loc.Name))
				}
			}
			if (x.Kind == ir.ESwap || x.Kind == ir.EFaa) && tidVar(x.A) {
				c.refuse(x.Pos, fmt.Sprintf("the init block sets %s, which holds thread ids; thread symmetry needs it to start at 0", x.A.Name))
			}
		})
	}
}

// store checks the value x stored into the location lhs.
func (c *symChecker) store(lhs, x *ir.Expr) {
	switch {
	case (lhs.Kind == ir.EField || lhs.Kind == ir.EFieldElem) && c.isThreadID(x, c.method):
		c.refuse(x.Pos, "a thread id is stored in a heap field; thread symmetry supports thread ids in locals and shared variables only")
	case lhs.Kind == ir.EDeref && c.isThreadID(x, c.method):
		c.refuse(x.Pos, "a thread id is stored through a loc; thread symmetry supports thread ids in locals and shared variables only")
	case c.isThreadID(lhs, c.method):
		if !c.isThreadID(x, c.method) && !isZero(x) {
			c.refuse(x.Pos, fmt.Sprintf("%s holds thread ids and is given another value; thread symmetry needs thread ids or 0 (no thread) there", lhs.Name))
			return
		}
		c.expr(x, "stored", true)
	default:
		c.expr(x, "stored", false)
	}
}

// location checks the expressions that select the location e (an index,
// a node).
func (c *symChecker) location(e *ir.Expr) {
	switch e.Kind {
	case ir.EElem:
		c.index(e)
	case ir.ELocalElem:
		c.expr(e.A, "in the index of a local array", false)
	case ir.EField:
		c.expr(e.A, "as a node", false)
	case ir.EDeref:
		c.expr(e.A, "as a loc", false)
		c.expr(e.B, "as a loc", false)
	case ir.EFieldElem:
		c.expr(e.A, "as a node", false)
		c.expr(e.B, "in the index of an array field", false)
	}
}

// addr checks &e.A: a loc may refer only to locations that hold no
// thread ids and that a permutation of the threads does not move (a
// thread-id location, an element of an array indexed by thread ids), so
// that the loc, and what is read through it, need no renaming. An access
// through a loc (ir.EDeref) then never reads a thread id, and storing
// one through it is refused (store).
func (c *symChecker) addr(e *ir.Expr) {
	l := e.A
	if (l.Kind == ir.EShared || l.Kind == ir.EElem) && (l.Thr || c.tidVars[l.V]) {
		c.refuse(e.Pos, fmt.Sprintf("the address of %s, which holds thread ids, is taken; thread symmetry needs locs to refer to data only", l.Name))
		return
	}
	if l.Kind == ir.EElem && c.isThreadID(l.A, c.method) {
		c.refuse(e.Pos, fmt.Sprintf("the address of %s[tid] is taken; thread symmetry needs locs to refer to locations that the permutations do not move", l.Name))
		return
	}
	c.location(l)
}

// isZero reports whether e is the constant 0 (null, false, no thread).
func isZero(e *ir.Expr) bool { return e.Kind == ir.EConst && e.V == 0 && e.Name == "" }

// index checks the index of the array element e.
func (c *symChecker) index(e *ir.Expr) {
	c.names[e.V] = e.Name
	if e.Tdims > 0 {
		c.threadIndex(e)
		return
	}
	if c.isThreadID(e.A, c.method) {
		if e.Stride > 1 {
			c.refuse(e.A.Pos, fmt.Sprintf("a thread id indexes %s, an array of words; thread symmetry needs thread ids only as the index of a scalar shared [1..nthreads] array", e.Name))
			return
		}
		if e.Lo != 1 || e.N != int32(c.p.Threads) {
			c.refuse(e.A.Pos, fmt.Sprintf("a thread id indexes %s, whose indices are %d..%d, not 1..nthreads; thread symmetry needs thread ids only as the index of a shared [1..nthreads] array",
				e.Name, e.Lo, e.Lo+e.N-1))
			return
		}
		c.indexed[e.V] = true
		c.expr(e.A, "as an index", true)
		return
	}
	if _, ok := c.otherIndex[e.V]; !ok {
		c.otherIndex[e.V] = e.A.Pos
	}
	c.expr(e.A, "in an index other than a thread id alone", false)
}

// expr checks e, found in the context ctx (how its value is used, for the
// message); threadOK tells whether the context accepts a thread id.
func (c *symChecker) expr(e *ir.Expr, ctx string, threadOK bool) {
	if e == nil || c.reason != "" {
		return
	}
	if !threadOK && c.isThreadID(e, c.method) {
		what := "tid"
		if e.Kind != ir.ETid {
			what = "the thread id in " + e.Name
		}
		c.refuse(e.Pos, what+" is used "+ctx+"; thread symmetry needs thread ids only stored, compared with == or != and used as indices of per-thread arrays (HP[tid], RL[tid][i]: see LANGUAGE.md, Per-thread data)")
		return
	}
	switch e.Kind {
	case ir.EAddThread:
		c.expr(e.B, "added to a set of threads", true)
	case ir.EElem:
		c.index(e)
	case ir.ELocalElem:
		c.expr(e.A, "in the index of a local array", false)
	case ir.EPack:
		for _, x := range e.List {
			c.expr(x, ctx, false)
		}
	case ir.EBinary:
		ctx, ok := "in arithmetic", false
		switch e.Op {
		case syntax.EQL, syntax.NEQ:
			ctx = "compared with a value that is not a thread id"
			a, b := c.isThreadID(e.A, c.method), c.isThreadID(e.B, c.method)
			ok = a && (b || isZero(e.B)) || b && isZero(e.A)
		case syntax.LSS, syntax.LEQ, syntax.GTR, syntax.GEQ:
			ctx = "in an order comparison"
		case syntax.LAND, syntax.LOR:
			ctx = "as a condition"
		}
		c.expr(e.A, ctx, ok)
		c.expr(e.B, ctx, ok)
	case ir.ECas, ir.ECasWord:
		for _, s := range casSlots(e) {
			c.location(s.loc)
			ok := c.isThreadID(s.loc, c.method)
			if ok && (!c.isThreadID(s.old, c.method) && !isZero(s.old) || !c.isThreadID(s.nw, c.method) && !isZero(s.nw)) {
				c.refuse(e.Pos, fmt.Sprintf("cas on %s, which holds thread ids, with a value that is neither a thread id nor 0", s.loc.Name))
				return
			}
			c.expr(s.old, "in a cas", ok)
			c.expr(s.nw, "stored", ok)
		}
	case ir.ESwap:
		// A store, as an assignment's: a thread-id location takes thread
		// ids or 0; the old value it gives is checked where it is used
		// (isThreadID).
		c.location(e.A)
		if (e.A.Kind == ir.EField || e.A.Kind == ir.EFieldElem) && c.isThreadID(e.B, c.method) {
			c.refuse(e.B.Pos, "a thread id is stored in a heap field; thread symmetry supports thread ids in locals and shared variables only")
			return
		}
		if c.isThreadID(e.A, c.method) && !c.isThreadID(e.B, c.method) && !isZero(e.B) {
			c.refuse(e.B.Pos, fmt.Sprintf("swap into %s, which holds thread ids, of a value that is neither a thread id nor 0", e.A.Name))
			return
		}
		c.expr(e.B, "stored", c.isThreadID(e.A, c.method))
	case ir.EField, ir.EIs, ir.EAs:
		c.expr(e.A, "as a node", false)
	case ir.EAddr:
		c.addr(e)
	case ir.EDeref, ir.EFieldElem:
		c.location(e)
	case ir.ENew:
		for _, fi := range e.Inits {
			if c.isThreadID(fi.X, c.method) {
				c.refuse(fi.X.Pos, "a thread id is stored in a heap field; thread symmetry supports thread ids in locals and shared variables only")
				return
			}
			c.expr(fi.X, "stored", false)
		}
	case ir.EConst, ir.ELocal, ir.EShared, ir.ETid, ir.ENThreads, ir.EAny, ir.EThreadsLeft, ir.EPickThread:
		// Leaves: values, locations read whole, and the loops over
		// threads, whose visited set (a local) the permutations rename.
	default:
		c.byClass(e)
	}
}

// byClass checks an expression of a kind that expr does not name, by its
// class (ir.Class): a leaf or a choice is a value that is no thread id
// (isThreadID names those that are); an operator's operands are data; a
// read-modify-write must not touch a location that holds thread ids, and
// its other operands are data. A kind without a class, or a location or
// allocation this check does not know, is refused, never let through.
func (c *symChecker) byClass(e *ir.Expr) {
	switch e.Kind.Class() {
	case ir.Leaf, ir.Choice:
	case ir.Operator:
		ir.Operands(e, func(x *ir.Expr) { c.expr(x, "in arithmetic", false) })
	case ir.ReadModifyWrite:
		locs := map[*ir.Expr]bool{}
		ir.Written(e, func(l *ir.Expr) {
			locs[l] = true
			c.location(l)
			if c.reason == "" && c.isThreadID(l, c.method) {
				c.refuse(e.Pos, fmt.Sprintf("%s on %s, which holds thread ids: thread symmetry needs thread ids only stored and compared", e.Kind, l.Name))
			}
		})
		ir.Operands(e, func(x *ir.Expr) {
			if !locs[x] {
				c.expr(x, "in arithmetic", false)
			}
		})
	default:
		c.refuse(e.Pos, fmt.Sprintf("internal error: the symmetry check does not classify expressions of %s", e.Kind))
	}
}

func (c *symChecker) refuse(pos syntax.Pos, msg string) {
	if c.reason == "" {
		c.reason = c.p.Source.Position(pos).String() + ": " + msg
	}
}

// threadIndex checks the indices of an element of an array declared with
// [thread] dimensions: thread ids in those, data in the ordinary one.
func (c *symChecker) threadIndex(e *ir.Expr) {
	for k, ix := range []*ir.Expr{e.A, e.B} {
		if ix == nil {
			continue
		}
		if k < int(e.Tdims) {
			if !c.isThreadID(ix, c.method) {
				c.refuse(ix.Pos, fmt.Sprintf("a [thread] dimension of %s is indexed by a value that is not a thread id", e.Name))
				return
			}
			c.expr(ix, "as an index", true)
		} else {
			c.expr(ix, "in an index other than a thread id alone", false)
		}
	}
}

// declaredPerThread reports whether the shared array at offset off is
// declared with the indices [1..nthreads]: one slot per thread.
func (c *symChecker) declaredPerThread(off int32) bool {
	o := int32(0)
	for i, v := range c.p.Obj.Shared {
		if o == off {
			lo, ok := v.LenLo.(*syntax.IntLit)
			hi, ok2 := v.Len.(*syntax.Ident)
			return v.ThreadDims == 0 && ok && lo.Value == 1 && ok2 && hi.Name == "nthreads"
		}
		o += c.p.SharedSlots[i]
	}
	return false
}

// perThreadByData refuses a [1..nthreads] array indexed by a value that is
// not a thread id (the first such index): a loop over the slots of a
// per-thread array visits the threads in a fixed order, which a
// permutation does not keep (nthreads itself is a constant that no
// permutation changes).
func (c *symChecker) perThreadByData() string {
	first := syntax.NoPos
	var name string
	for off, pos := range c.otherIndex {
		if c.declaredPerThread(off) && (first == syntax.NoPos || pos < first) {
			first, name = pos, c.names[off]
		}
	}
	if first == syntax.NoPos {
		return ""
	}
	return fmt.Sprintf("%s: %s [1..nthreads] is indexed by a value that is not a thread id; thread symmetry needs per-thread slots indexed by thread ids (declare it [thread] and visit the threads with for j in others)",
		c.p.Source.Position(first), name)
}
