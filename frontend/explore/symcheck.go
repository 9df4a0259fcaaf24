package explore

import (
	"fmt"
	"slices"

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

// newSymmetry returns the thread symmetry of p under bounds b, or nil and
// a one-line reason, naming the source position of the offending use, if
// it cannot show that permuting threads maps the LTS onto itself (see
// above). It is meant for both the implementation and the specification.
func newSymmetry(p *program, b Bounds) (*symmetry, string) {
	if len(b.Only) > 0 {
		where := ""
		if p.client != nil && len(p.client.Only) > 0 {
			where = p.file.Position(p.client.Only[0].Pos).String() + ": "
		}
		return nil, where + "the client's only clause gives threads different methods; thread symmetry needs them interchangeable"
	}
	c := &symChecker{p: p, tidLocals: make([]uint64, len(p.methods)), tidVars: map[int32]bool{},
		indexed: map[int32]bool{}, otherIndex: map[int32]syntax.Pos{}, names: map[int32]string{}}
	c.inferThreadIDs()
	c.checkCode()
	if c.reason != "" {
		return nil, c.reason
	}
	for off := range c.indexed {
		if pos, ok := c.otherIndex[off]; ok {
			return nil, fmt.Sprintf("%s: %s is indexed by a thread id elsewhere and by another value here; thread symmetry needs it indexed by thread ids only",
				p.file.Position(pos), c.names[off])
		}
	}
	if reason := c.perThreadByData(); reason != "" {
		return nil, reason
	}
	s := &symmetry{p: p, threads: p.threads, maxOrders: maxTiedOrders, tidLocals: c.tidLocals}
	for off := range c.indexed {
		s.tidArrays = append(s.tidArrays, threadArray{off: off, rowLen: 1})
	}
	s.tidArrays = append(s.tidArrays, p.threadArrays...)
	slices.SortFunc(s.tidArrays, func(a, b threadArray) int { return int(a.off - b.off) })
	s.setLocals = make([]uint64, len(p.methods))
	for _, ts := range p.threadSets {
		s.setLocals[ts.method] |= 1 << uint(ts.slot)
	}
	for off := range c.tidVars {
		n := int32(1)
		if c.indexed[off] {
			n = int32(p.threads)
		} else if l, ok := c.lengths[off]; ok {
			n = l
		}
		for k := off; k < off+n; k++ {
			if p.init[k] != 0 {
				return nil, fmt.Sprintf("%s holds thread ids and is declared %d; thread symmetry needs 0 (no thread)", c.names[off], p.init[k])
			}
			s.tidShared = append(s.tidShared, k)
		}
	}
	slices.Sort(s.tidShared)
	for _, a := range s.tidShared {
		if !s.inTidArray(a) {
			s.tidScalars = append(s.tidScalars, a)
		}
	}
	for _, a := range p.lay.refShared {
		if !s.inTidArray(a) {
			s.fixedRoots = append(s.fixedRoots, a)
		}
	}
	s.kinds = s.sharedKinds()
	s.keyLen = int(p.lay.threadSize) + len(s.tidScalars)
	for _, ta := range s.tidArrays {
		s.keyLen += s.keyWidth(ta)
	}
	if len(s.tidShared) > 0 || len(p.threadSets) > 0 || slices.ContainsFunc(s.tidLocals, func(m uint64) bool { return m != 0 }) {
		s.keyLen++ // the number of references to the thread from the others
		s.threadIDs = true
	}
	return s, ""
}

// inTidArray reports whether the shared slot a is an element of a
// tid-indexed array.
func (s *symmetry) inTidArray(a int32) bool {
	for _, ta := range s.tidArrays {
		if a >= ta.off && a < ta.off+int32(s.threads)*ta.rowLen {
			return true
		}
	}
	return false
}

// symChecker infers the thread-id locations and checks every use of a
// thread id, for newSymmetry.
type symChecker struct {
	p *program
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
func (c *symChecker) isThreadID(e *expr, m int32) bool {
	switch e.k {
	case eTid, ePickThread:
		return true
	case eLocal:
		return e.thr || c.tidLocals[m]&(1<<uint(e.v)) != 0
	case eLocalElem:
		return c.tidLocals[m]&(1<<uint(e.v)) != 0 // marked whole
	case eShared, eElem:
		return e.thr || c.tidVars[e.v]
	}
	return false
}

// mark makes the location e of method m a thread-id location, and
// reports whether it was not one already. Fields are not marked: storing
// a thread id into one is refused by checkCode.
func (c *symChecker) mark(e *expr, m int32) bool {
	switch e.k {
	case eLocal:
		bit := uint64(1) << uint(e.v)
		if c.tidLocals[m]&bit != 0 {
			return false
		}
		c.tidLocals[m] |= bit
		return true
	case eLocalElem:
		// Any element may receive the thread id: they all hold thread
		// ids (a local array of words holding one is refused).
		if e.stride > 1 {
			c.refuse(e.pos, fmt.Sprintf("a thread id is stored in %s, a local array of words; thread symmetry supports thread ids in scalar arrays and variables only", e.name))
			return false
		}
		bits := (uint64(1)<<uint(e.n) - 1) << uint(e.v)
		if c.tidLocals[m]&bits == bits {
			return false
		}
		c.tidLocals[m] |= bits
		return true
	case eShared, eElem:
		if e.stride > 1 {
			// Permuting an array of words would move k slots per
			// element; the symmetry does not do that.
			c.refuse(e.pos, fmt.Sprintf("a thread id is stored in %s, an array of words; thread symmetry supports thread ids in scalar arrays and variables only", e.name))
			return false
		}
		if c.tidVars[e.v] {
			return false
		}
		c.tidVars[e.v] = true
		c.names[e.v] = e.name
		if e.k == eElem {
			if c.lengths == nil {
				c.lengths = map[int32]int32{}
			}
			c.lengths[e.v] = e.n * max(1, e.n2)
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
	for pc := 1; pc < len(c.p.code); pc++ {
		in := &c.p.code[pc]
		for _, e := range []*expr{in.lhs, in.x} {
			walkExpr(e, func(x *expr) {
				if x.thr {
					c.mark(x, in.method)
				}
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for pc := 1; pc < len(c.p.code); pc++ {
			in := &c.p.code[pc]
			if in.op == opAssign || in.op == opAssignWord {
				xs := in.values()
				for j, l := range in.targets() {
					if c.isThreadID(xs[j], in.method) {
						changed = c.mark(l, in.method) || changed
					}
				}
			}
			for _, e := range append(in.targets(), in.values()...) {
				walkExpr(e, func(x *expr) {
					for _, s := range casSlots(x) {
						if c.isThreadID(s.nw, in.method) || c.isThreadID(s.old, in.method) {
							changed = c.mark(s.loc, in.method) || changed
						}
					}
				})
			}
		}
	}
}

// casSlot is one slot of a cas: its location, expected and new values.
type casSlot struct{ loc, old, nw *expr }

// casSlots returns the slots of the cas e (one for a scalar cas, one per
// field for a cas on a word), or nil if e is no cas.
func casSlots(e *expr) []casSlot {
	switch e.k {
	case eCas:
		return []casSlot{{e.a, e.b, e.c}}
	case eCasWord:
		k := len(e.list) / 3
		out := make([]casSlot, k)
		for j := range k {
			out[j] = casSlot{e.list[j], e.list[k+j], e.list[2*k+j]}
		}
		return out
	}
	return nil
}

// checkCode checks every instruction's use of thread ids.
func (c *symChecker) checkCode() {
	p := c.p
	initMethod := int32(-1)
	if p.initMethod != nil {
		initMethod = p.initMethod.index
	}
	for m, mask := range c.tidLocals {
		if params := uint64(1)<<uint(len(p.methods[m].params)) - 1; mask&params != 0 {
			c.refuse(p.steps[p.methods[m].callStep].pos, fmt.Sprintf("a parameter of %s is given a thread id; thread symmetry needs parameters to hold data only", p.methods[m].name))
			return
		}
	}
	for pc := 1; pc < len(p.code) && c.reason == ""; pc++ {
		in := &p.code[pc]
		c.method = in.method
		if in.method == initMethod {
			c.initStores(in)
			continue
		}
		ctx := "stored"
		switch in.op {
		case opBranch, opAssert, opAwait:
			ctx = "as a condition"
		case opReturn:
			ctx = "returned"
		case opLin:
			ctx = "as a linearization value"
		case opFree:
			ctx = "freed"
		}
		if in.op == opAssign || in.op == opAssignWord {
			xs := in.values()
			for j, l := range in.targets() {
				c.location(l)
				c.store(l, xs[j])
			}
			continue
		}
		c.expr(in.x, ctx, false)
	}
}

// initStores refuses a store of the init block other than 0 into a
// shared thread-id location: the thread ids there must start at 0.
func (c *symChecker) initStores(in *instr) {
	tidVar := func(e *expr) bool { return (e.k == eShared || e.k == eElem) && c.tidVars[e.v] }
	if in.op == opAssign || in.op == opAssignWord {
		xs := in.values()
		for j, l := range in.targets() {
			if tidVar(l) && !isZero(xs[j]) {
				c.refuse(l.pos, fmt.Sprintf("the init block sets %s, which holds thread ids; thread symmetry needs it to start at 0", l.name))
			}
		}
	}
	for _, e := range append(in.targets(), in.values()...) {
		walkExpr(e, func(x *expr) {
			for _, s := range casSlots(x) {
				if tidVar(s.loc) {
					c.refuse(x.pos, fmt.Sprintf("the init block sets %s, which holds thread ids; thread symmetry needs it to start at 0", s.loc.name))
				}
			}
		})
	}
}

// store checks the value x stored into the location lhs.
func (c *symChecker) store(lhs, x *expr) {
	switch {
	case lhs.k == eField && c.isThreadID(x, c.method):
		c.refuse(x.pos, "a thread id is stored in a heap field; thread symmetry supports thread ids in locals and shared variables only")
	case c.isThreadID(lhs, c.method):
		if !c.isThreadID(x, c.method) && !isZero(x) {
			c.refuse(x.pos, fmt.Sprintf("%s holds thread ids and is given another value; thread symmetry needs thread ids or 0 (no thread) there", lhs.name))
			return
		}
		c.expr(x, "stored", true)
	default:
		c.expr(x, "stored", false)
	}
}

// location checks the expressions that select the location e (an index,
// a node).
func (c *symChecker) location(e *expr) {
	switch e.k {
	case eElem:
		c.index(e)
	case eLocalElem:
		c.expr(e.a, "in the index of a local array", false)
	case eField:
		c.expr(e.a, "as a node", false)
	}
}

// isZero reports whether e is the constant 0 (null, false, no thread).
func isZero(e *expr) bool { return e.k == eConst && e.v == 0 && e.name == "" }

// index checks the index of the array element e.
func (c *symChecker) index(e *expr) {
	c.names[e.v] = e.name
	if e.tdims > 0 {
		c.threadIndex(e)
		return
	}
	if c.isThreadID(e.a, c.method) {
		if e.stride > 1 {
			c.refuse(e.a.pos, fmt.Sprintf("a thread id indexes %s, an array of words; thread symmetry needs thread ids only as the index of a scalar shared [1..nthreads] array", e.name))
			return
		}
		if e.lo != 1 || e.n != int32(c.p.threads) {
			c.refuse(e.a.pos, fmt.Sprintf("a thread id indexes %s, whose indices are %d..%d, not 1..nthreads; thread symmetry needs thread ids only as the index of a shared [1..nthreads] array",
				e.name, e.lo, e.lo+e.n-1))
			return
		}
		c.indexed[e.v] = true
		c.expr(e.a, "as an index", true)
		return
	}
	if _, ok := c.otherIndex[e.v]; !ok {
		c.otherIndex[e.v] = e.a.pos
	}
	c.expr(e.a, "in an index other than a thread id alone", false)
}

// expr checks e, found in the context ctx (how its value is used, for the
// message); threadOK tells whether the context accepts a thread id.
func (c *symChecker) expr(e *expr, ctx string, threadOK bool) {
	if e == nil || c.reason != "" {
		return
	}
	if !threadOK && c.isThreadID(e, c.method) {
		what := "tid"
		if e.k != eTid {
			what = "the thread id in " + e.name
		}
		c.refuse(e.pos, what+" is used "+ctx+"; thread symmetry needs thread ids only stored, compared with == or != and used as indices of per-thread arrays (HP[tid], RL[tid][i]: see LANGUAGE.md, Per-thread data)")
		return
	}
	switch e.k {
	case eAddThread:
		c.expr(e.b, "added to a set of threads", true)
	case eElem:
		c.index(e)
	case eLocalElem:
		c.expr(e.a, "in the index of a local array", false)
	case ePack:
		for _, x := range e.list {
			c.expr(x, ctx, false)
		}
	case eUnary:
		c.expr(e.a, "in arithmetic", false)
	case eBinary:
		ctx, ok := "in arithmetic", false
		switch e.op {
		case syntax.EQL, syntax.NEQ:
			ctx = "compared with a value that is not a thread id"
			a, b := c.isThreadID(e.a, c.method), c.isThreadID(e.b, c.method)
			ok = a && (b || isZero(e.b)) || b && isZero(e.a)
		case syntax.LSS, syntax.LEQ, syntax.GTR, syntax.GEQ:
			ctx = "in an order comparison"
		case syntax.LAND, syntax.LOR:
			ctx = "as a condition"
		}
		c.expr(e.a, ctx, ok)
		c.expr(e.b, ctx, ok)
	case eCas, eCasWord:
		for _, s := range casSlots(e) {
			c.location(s.loc)
			ok := c.isThreadID(s.loc, c.method)
			if ok && (!c.isThreadID(s.old, c.method) && !isZero(s.old) || !c.isThreadID(s.nw, c.method) && !isZero(s.nw)) {
				c.refuse(e.pos, fmt.Sprintf("cas on %s, which holds thread ids, with a value that is neither a thread id nor 0", s.loc.name))
				return
			}
			c.expr(s.old, "in a cas", ok)
			c.expr(s.nw, "stored", ok)
		}
	case eField, eIs, eAs:
		c.expr(e.a, "as a node", false)
	case eNew:
		for _, fi := range e.inits {
			if c.isThreadID(fi.x, c.method) {
				c.refuse(fi.x.pos, "a thread id is stored in a heap field; thread symmetry supports thread ids in locals and shared variables only")
				return
			}
			c.expr(fi.x, "stored", false)
		}
	}
}

func (c *symChecker) refuse(pos syntax.Pos, msg string) {
	if c.reason == "" {
		c.reason = c.p.file.Position(pos).String() + ": " + msg
	}
}

// threadIndex checks the indices of an element of an array declared with
// [thread] dimensions: thread ids in those, data in the ordinary one.
func (c *symChecker) threadIndex(e *expr) {
	for k, ix := range []*expr{e.a, e.b} {
		if ix == nil {
			continue
		}
		if k < int(e.tdims) {
			if !c.isThreadID(ix, c.method) {
				c.refuse(ix.pos, fmt.Sprintf("a [thread] dimension of %s is indexed by a value that is not a thread id", e.name))
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
	for i, v := range c.p.obj.Shared {
		if o == off {
			lo, ok := v.LenLo.(*syntax.IntLit)
			hi, ok2 := v.Len.(*syntax.Ident)
			return v.ThreadDims == 0 && ok && lo.Value == 1 && ok2 && hi.Name == "nthreads"
		}
		o += c.p.sharedSlots[i]
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
		c.p.file.Position(first), name)
}
