package reduce

import (
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
)

// Partial-order reduction for the on-the-fly search: ample sets (Clarke,
// Grumberg, Peled, "Model Checking", ch. 10; Peled 1993; Valmari's
// stubborn sets), chosen per implementation state from a static analysis
// of the locations each step may touch.
//
// Ample set. At a state s, ample(s) is either every successor of s or all
// the successors of one thread t, when
//   - C0: t has at least one successor at s;
//   - C2: every successor of t is τ (t is inside an operation and its
//     step is not the ret), so the ample steps change neither the visible
//     trace nor the specification subset of the pair;
//   - C1: t's step at s is independent of every step that any other
//     thread u could take before t moves, on any path from s, including
//     u's future calls: the locations t's step may touch (step[t][pc_t])
//     do not conflict (write/write or read/write) with the union of the
//     locations of every step u may still take (fut[u][pc_u], plus every
//     method u may call while it has operations left). Then u's steps
//     leave t's reads unchanged, so t's step stays enabled with the same
//     outcomes, and t's step leaves u's reads unchanged: the diamond
//     closes on the same state vector, hence on the same canonical state
//     (GC heaps renumbered, thread permutations applied). Steps that fail
//     (assert, null dereference, a range) are visible: a failure of u
//     depends only on what u reads, so it is still enabled after t's step
//     and is found when its state is expanded (every stored state's
//     successors are computed in full, whatever is followed).
//   - C3: the cycle proviso, in onthefly/fly.go's follow: a pair follows only its
//     ample successors when each of them is a new pair or a pair stored
//     after it (a larger id; for a breadth-first search this is
//     Bošnački and Holzmann's proviso, made exact by the ids); otherwise
//     it follows every successor. So along any edge of the reduced graph
//     that leaves a pair not fully expanded the pair id grows, and every
//     cycle of the reduced graph contains a fully expanded pair.
//
// The locations (a bit set each): every slot of the shared variables,
// array elements one by one (an element is precise when the index is a
// constant or the thread's own id — tid, or a local that only ever holds
// tid — resolved per thread: A[tid] of thread t is the element t, and
// RL[tid][i] of a [thread][n] array is in row t, which no other thread
// touches when the array's rows are only ever indexed by their owners, so
// steps on such thread-private slots are independent of everything; an
// index the analysis cannot resolve, such as the j of `for j in others`,
// stands for every element); one location per heap field index (all nodes and heap
// types together; an array field's elements are its slots' locations, one
// when the index is known); and one location heap for the heap's shape. An access
// through a loc (*l, ir.EDeref) has a target known only at run time: it
// stands for every location whose address the program takes
// (ir.Program.AddrTaken, whole arrays and words; DerefLo..DerefHi), the
// only ones a loc can hold; taking an address (ir.EAddr) reads only its
// operands. heap is
// read by the two things that depend on which nodes are referenced from
// where: the privacy test of ▶p instructions (machine.private: whether a
// node is reachable only from the thread's locals decides where a step
// ends) and, in explicit memory, allocation (it may reuse any freed node
// still referenced, zeroing its fields: an explicit allocation writes
// every field location too) and free. It is written by every step that
// may change a reference: a store of a reference anywhere (locals too),
// the clearing of dead reference locals where a step ends, a return.
// A thread whose step may test privacy is never the ample thread (another
// thread dropping a reference can make its node private and lengthen its
// step). Allocation with garbage collection reads nothing: a fresh node
// is private, and canonical renumbering makes the order of two
// allocations irrelevant. Only the node limit depends on the heap's
// size; a reduced search that meets no allocation failure has followed
// the same successors as it would without a limit, so its verdict is the
// one for a larger limit, never a wrong one (and a failure met is
// reported as the unreduced search reports it).
//
// Both checks are preserved. The ample-set theorem (Clarke, Grumberg and
// Peled, ch. 10: under C0-C3 every path of the full graph, infinite ones
// included, is stuttering equivalent to a path of the reduced graph) is
// applied to the
// product of implementation states with specification subsets: a τ-step
// keeps the subset and a call or ret of u commutes with t's τ-step in the
// product as in the implementation, so the conditions evaluated on the
// implementation state hold for each of its pairs. (The antichain stores
// a pair only when no pair with a smaller subset of the same state is
// stored; a smaller subset can only fail sooner, so the pairs it keeps
// simulate the ones it drops, and a subsumed successor counts as not new
// for C3.) Refinement: every trace of the implementation with its last
// action refused by the specification has a stuttering-equivalent path in
// the reduced product, with the same visible actions, so the search finds
// a violation iff there is one. Lock-freedom: a reachable τ-cycle is an
// infinite path with finitely many visible actions; its stuttering-
// equivalent reduced path also ends in infinitely many τ-steps, a τ-cycle
// of the reduced graph (finite); conversely a reduced τ-cycle is a real
// one. The cycle search (onthefly/flycycle.go) runs over the edges the reduced search
// followed: all τ-successors of a state of which some pair was fully
// expanded, the ample thread's (all τ by C2) otherwise; every pair of a
// state that was not fully expanded followed exactly those edges, so each
// path of the reduced product projects onto this graph.
//
// Symmetry. Ample sets are chosen on the canonical representatives, which
// is Emerson, Jha and Peled's combination (1997): the footprints are a
// function of the thread's code and its tid only through tid-indexed
// elements, which a permutation renames consistently, so independence and
// visibility are invariant under the group, and the proviso is checked on
// the stored (quotient) pairs.
//
// Why the heap's shape is one location. A finer rule would let a step
// that writes references only into the thread's own rows and locals be
// ample while others may test privacy, unless it may drop the last outside
// reference to a node that another thread holds or may come to hold
// before t moves. "May come to hold" is the catch: a node that t's step
// drops may be referenced from a node still in the shared structure (the
// HP stack's retired node points into the live stack through next), and
// a node reachable from it may be read by u, then unlinked by a third
// thread, and become private to u exactly when t drops its reference. A
// simple sound rule therefore needs the whole subheap reachable from t's
// own locations to be unreachable from anywhere else, which a retired
// node almost never is. On hp-stack-sym, even ignoring the heap's shape
// and the privacy tests altogether (unsound) saves less than a fifth of
// the states (benchmarks/RESULTS.md), so the rule is kept coarse.

// footprint is a set of locations read and a set written, or opaque: a
// construct the analysis does not know, which conflicts with everything.
type footprint struct {
	reads, writes []uint64
	opaque        bool
}

// POR is the partial-order reduction of one program and its
// bounds: the footprints of each thread's steps. Choose writes buffers of
// its own: a POR belongs to one goroutine, and Clone gives another one.
type POR struct {
	P        *ir.Program // the program analysed
	B        ir.Bounds   // its bounds
	Explicit bool        // explicit memory: a freed node may be reused while referenced
	Nlocs    int         // the locations footprints name: shared slots, then fields, then the heap's shape
	Heap     int         // the heap-shape location
	Fields   int         // the first field location
	Own      uint64      // the local slots that hold the thread's own id (ownLocals)
	// DerefLo, DerefHi: the locations an access through a loc may touch
	// (derefLocs).
	DerefLo, DerefHi int
	// step[t][pc]: what the step of thread t from pc may touch; stepPriv:
	// whether it may test privacy (then t is never the ample thread).
	step     [][]footprint
	stepPriv [][]bool
	// fut[t][pc]: what any step of t from pc to the end of its operation
	// may touch; calls[t]: any operation t may call.
	fut   [][]footprint
	calls []footprint
	// Buffers of choose: the future of each thread at the current state.
	others []footprint
	counts []int
}

// NewPOR analyses p under b; allowed[t][m] says whether thread t may call
// method m.
func NewPOR(p *ir.Program, b ir.Bounds, allowed [][]bool, explicit bool) *POR {
	maxFields := int32(0)
	for _, n := range p.Layout.Nfields {
		maxFields = max(maxFields, n)
	}
	a := &POR{P: p, B: b, Explicit: explicit, Fields: int(p.Layout.Nshared), Own: ownLocals(p)}
	a.Heap = a.Fields + int(maxFields)
	a.Nlocs = a.Heap + 1
	a.DerefLo, a.DerefHi = a.derefLocs()
	n := len(p.Code)
	a.step = make([][]footprint, b.Threads)
	a.stepPriv = make([][]bool, b.Threads)
	a.fut = make([][]footprint, b.Threads)
	a.calls = make([]footprint, b.Threads)
	a.others = make([]footprint, b.Threads)
	a.counts = make([]int, b.Threads)
	for t := 0; t < b.Threads; t++ {
		instrs := make([]footprint, n)
		for pc := 1; pc < n; pc++ {
			instrs[pc] = a.instr(t, pc)
		}
		a.step[t] = make([]footprint, n)
		a.stepPriv[t] = make([]bool, n)
		a.fut[t] = make([]footprint, n)
		for pc := 1; pc < n; pc++ {
			a.step[t][pc], a.stepPriv[t][pc] = a.stepFootprint(instrs, pc)
			a.fut[t][pc] = a.futFootprint(instrs, pc)
		}
		a.calls[t] = a.newFootprint()
		for _, m := range p.Methods {
			if allowed[t][m.Index] {
				a.calls[t].add(&a.fut[t][m.Entry])
			}
		}
		a.others[t] = a.newFootprint()
	}
	return a
}

// Clone returns the reduction with buffers of its own, for another
// goroutine: Choose writes its buffers, the footprints are shared.
func (a *POR) Clone() *POR {
	c := *a
	c.others = make([]footprint, len(a.others))
	for u := range c.others {
		c.others[u] = a.newFootprint()
	}
	c.counts = make([]int, len(a.counts))
	return &c
}

func (a *POR) newFootprint() footprint {
	w := (a.Nlocs + 63) / 64
	return footprint{reads: make([]uint64, w), writes: make([]uint64, w)}
}

func (f *footprint) add(g *footprint) {
	f.opaque = f.opaque || g.opaque
	for i := range f.reads {
		f.reads[i] |= g.reads[i]
		f.writes[i] |= g.writes[i]
	}
}

func (f *footprint) clear() {
	f.opaque = false
	clear(f.reads)
	clear(f.writes)
}

func setBits(s []uint64, lo, hi int) {
	for i := lo; i < hi; i++ {
		s[i/64] |= 1 << uint(i%64)
	}
}

// conflicts reports whether steps touching f and g may not commute: one
// writes what the other reads or writes.
func (f *footprint) conflicts(g *footprint) bool {
	if f.opaque || g.opaque {
		return true
	}
	for i := range f.reads {
		if f.writes[i]&(g.reads[i]|g.writes[i]) != 0 || f.reads[i]&g.writes[i] != 0 {
			return true
		}
	}
	return false
}

// instr is the footprint of instruction pc executed by thread t.
func (a *POR) instr(t, pc int) footprint {
	f := a.newFootprint()
	in := &a.P.Code[pc]
	switch in.Op {
	case ir.OpAssign, ir.OpAssignWord:
		for _, l := range in.Targets() {
			a.write(&f, t, l)
		}
		for _, x := range in.Values() {
			a.read(&f, t, x)
		}
	case ir.OpEval, ir.OpBranch, ir.OpAssert, ir.OpAwait, ir.OpLin:
		a.read(&f, t, in.X)
	case ir.OpReturn:
		a.read(&f, t, in.X)
		setBits(f.writes, a.Heap, a.Heap+1) // the thread's references are dropped
	case ir.OpFree:
		a.read(&f, t, in.X)
		if a.Explicit {
			setBits(f.reads, a.Heap, a.Heap+1)
			setBits(f.writes, a.Heap, a.Heap+1)
		}
	case ir.OpNop, ir.OpJump, ir.OpAtomicBegin, ir.OpAtomicEnd, ir.OpFallOff, ir.OpRetPending:
	default:
		f.opaque = true
	}
	if in.Boundary && in.Priv != 0 {
		setBits(f.reads, a.Heap, a.Heap+1) // the privacy test (machine.private)
	}
	return f
}

// read adds what evaluating e reads (and writes: cas, new): every node
// of e, visited by ir.WalkExpr, adds what it touches itself (touch), so
// that the operands of a kind are read without a case here naming them.
func (a *POR) read(f *footprint, t int, e *ir.Expr) {
	ir.WalkExpr(e, func(x *ir.Expr) { a.touch(f, t, x) })
}

// touch adds what node e touches itself, its operands aside (the walk in
// read visits them; for &A, A's address operands, A not being read): the
// location of a shared variable, an element, a field or a loc's target it
// reads, the locations a read-modify-write also writes, the heap a new
// node may reuse. Other kinds go by their class (ir.Class): leaves,
// operators and choices touch nothing of their own; a kind without a
// class, or a location or allocation this does not know, touches
// everything.
func (a *POR) touch(f *footprint, t int, e *ir.Expr) {
	switch e.Kind {
	case ir.ELocal, ir.ELocalElem:
		// A local array's element is the thread's own: only the index
		// may touch shared state.
		return
	case ir.EShared, ir.EElem, ir.EField, ir.EDeref, ir.EFieldElem:
		lo, hi := a.location(f, t, e)
		setBits(f.reads, lo, hi)
		return
	case ir.ENew:
		if a.Explicit { // may reuse a freed node that is still referenced
			setBits(f.reads, a.Heap, a.Heap+1)
			setBits(f.writes, a.Fields, a.Heap+1)
		}
		return
	}
	switch e.Kind.Class() {
	case ir.Leaf, ir.Operator, ir.Choice:
		// A node's type never changes while it is referenced (is, as);
		// the loops over threads work on the thread's visited-set local.
	case ir.ReadModifyWrite:
		// The walk reads the locations, as it reads any operand.
		ir.Written(e, func(l *ir.Expr) { a.writeLocation(f, t, l) })
	default:
		f.opaque = true
	}
}

// writeLocation adds the write of a read-modify-write into location l,
// which the walk reads as an operand.
func (a *POR) writeLocation(f *footprint, t int, l *ir.Expr) {
	lo, hi := a.location(f, t, l)
	setBits(f.writes, lo, hi)
	if l.Ref {
		setBits(f.writes, a.Heap, a.Heap+1)
	}
}

// write adds what storing into location e touches: the location, and
// what its operands (indices, the node of a field) read.
func (a *POR) write(f *footprint, t int, e *ir.Expr) {
	if e.Ref {
		setBits(f.writes, a.Heap, a.Heap+1)
	}
	switch e.Kind {
	case ir.ELocal, ir.ELocalElem:
	case ir.EShared, ir.EElem, ir.EField, ir.EDeref, ir.EFieldElem:
		lo, hi := a.location(f, t, e)
		setBits(f.writes, lo, hi)
	default:
		f.opaque = true
	}
	ir.WalkExpr(e, func(x *ir.Expr) {
		if x != e {
			a.touch(f, t, x)
		}
	})
}

// location returns the locations [lo, hi) that e (a shared variable, an
// array element or a field) may denote for thread t; its operands are
// read by the caller's walk. An element is one location when its indices
// are known (constants, or values that are t's own id: see ownLocals); a
// per-thread array's row indexed by t's own id is the row's locations,
// so that a [thread] or [thread][n] array indexed by tid is private to
// each thread.
func (a *POR) location(f *footprint, t int, e *ir.Expr) (int, int) {
	switch e.Kind {
	case ir.EShared:
		return int(e.V), int(e.V) + 1
	case ir.EElem:
		if !e.Shared { // not a shared array: the thread's own slots
			return 0, 0
		}
		stride := max(e.Stride, 1) // an array of words: slots per element
		whole := [2]int{int(e.V), int(e.V + e.N*max(e.N2, 1)*stride)}
		i, ok := a.index(t, e.A, e.Lo, e.N)
		switch {
		case !ok:
			return whole[0], whole[1]
		case e.B == nil:
			return int(e.V + i*stride), int(e.V+i*stride) + 1
		}
		row := e.V + i*e.N2*stride
		if j, ok := a.index(t, e.B, e.Lo2, e.N2); ok {
			return int(row + j*stride), int(row+j*stride) + 1
		}
		return int(row), int(row + e.N2*stride)
	case ir.EField:
		return a.Fields + int(e.V), a.Fields + int(e.V) + 1
	case ir.EFieldElem:
		// Its field locations, or the element's when the index is known.
		lo := a.Fields + int(e.V)
		if i, ok := a.index(t, e.B, e.Lo, e.N); ok {
			return lo + int(i*e.Stride), lo + int(i*e.Stride) + 1
		}
		return lo, lo + int(e.N*e.Stride)
	case ir.EDeref:
		// The target is known only at run time: any location whose
		// address the program takes (derefLocs).
		return a.DerefLo, a.DerefHi
	}
	f.opaque = true
	return 0, 0
}

// derefLocs returns the locations [lo, hi) that cover every location
// whose address p takes (ir.Program.AddrTaken), whole arrays and words:
// what an access through a loc may touch. (One range, so that location
// stays one range: the shared slots come before the field locations.)
func (a *POR) derefLocs() (int, int) {
	lo, hi := a.Nlocs, 0
	for _, addr := range a.P.AddrTaken() {
		var l, h int
		switch x := addr.A; x.Kind {
		case ir.EShared:
			l, h = int(x.V), int(x.V)
		case ir.EElem:
			l, h = int(x.V), int(x.V+x.N*max(x.N2, 1)*max(x.Stride, 1))-1
		case ir.EField:
			l, h = a.Fields+int(x.V), a.Fields+int(x.V)
		case ir.EFieldElem:
			l, h = a.Fields+int(x.V), a.Fields+int(x.V+x.N*x.Stride)-1
		}
		lo, hi = min(lo, l), max(hi, h+int(addr.N))
	}
	return lo, max(lo, hi)
}

// index returns the position in [0, n) that index expression x has for
// thread t in a dimension starting at lo, when the analysis knows it: a
// constant, or thread t's own id (tid, or a local that only ever holds
// it) within range; otherwise the caller takes every element.
func (a *POR) index(t int, x *ir.Expr, lo, n int32) (int32, bool) {
	var i int32
	switch {
	case x.Kind == ir.EConst:
		i = x.V - lo
	case x.Kind == ir.ETid || x.Kind == ir.ELocal && a.Own&(1<<uint(x.V)) != 0:
		i = int32(t) + 1 - lo
	default:
		return 0, false
	}
	return i, i >= 0 && i < n
}

// ownLocals returns the local slots that only ever hold the running
// thread's own id or no thread (0): every store into them is of tid, of
// 0 or of another such slot, and no method's argument lands in them (a
// fixpoint from all slots down). `var me thread = tid` makes me one, so
// that RL[me][i] is as private to the thread as RL[tid][i].
func ownLocals(p *ir.Program) uint64 {
	params := 0
	for _, m := range p.Methods {
		params = max(params, len(m.Params))
	}
	own := ^uint64(0)
	if params < 64 {
		own <<= uint(params)
	} else {
		own = 0
	}
	holdsOwn := func(x *ir.Expr) bool {
		return x.Kind == ir.ETid || x.Kind == ir.EConst && x.V == 0 || x.Kind == ir.ELocal && own&(1<<uint(x.V)) != 0
	}
	for changed := true; changed; {
		changed = false
		drop := func(lo, hi int32) {
			for s := lo; s < hi && s < 64; s++ {
				if own&(1<<uint(s)) != 0 {
					own &^= 1 << uint(s)
					changed = true
				}
			}
		}
		for pc := range p.Code {
			in := &p.Code[pc]
			ls, xs := in.Targets(), in.Values()
			for k, l := range ls {
				switch {
				case l.Kind == ir.ELocal && (len(xs) != len(ls) || !holdsOwn(xs[k])):
					drop(l.V, l.V+1)
				case l.Kind == ir.ELocalElem:
					drop(l.V, l.V+l.N*max(l.Stride, 1))
				}
			}
			for _, x := range xs {
				ir.WalkExpr(x, func(e *ir.Expr) {
					switch {
					case (e.Kind == ir.ECas || e.Kind == ir.ESwap || e.Kind == ir.EFaa) && e.A.Kind == ir.ELocal:
						drop(e.A.V, e.A.V+1)
					case e.Kind == ir.ECasWord:
						for _, l := range e.List[:len(e.List)/3] {
							if l.Kind == ir.ELocal {
								drop(l.V, l.V+1)
							}
						}
					}
				})
			}
		}
	}
	return own
}

// stepFootprint is the union of the footprints of the instructions that a
// step from pc may execute (machine.step's rules, both outcomes of every
// branch and of every privacy test), and whether it may test privacy.
// Where the step may end, the reference locals that become dead are
// cleared: a heap write.
func (a *POR) stepFootprint(instrs []footprint, pc0 int) (footprint, bool) {
	code := a.P.Code
	f := a.newFootprint()
	priv := false
	seen := map[walkAt]bool{}
	work := []walkAt{{pc: int32(pc0)}}
	end := func(pc int32) {
		if a.P.RefMask[pc0]&a.P.Dead[pc]&^a.P.Dead[pc0] != 0 {
			setBits(f.writes, a.Heap, a.Heap+1)
		}
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[s] || s.pc <= 0 || int(s.pc) >= len(code) {
			continue
		}
		seen[s] = true
		in := &code[s.pc]
		if in.Boundary && s.depth == 0 {
			if in.Priv != 0 {
				priv = true
				// Private: no boundary; the instruction runs as local work.
				a.runInstr(&f, instrs, s, &work, end)
			}
			if s.did {
				end(s.pc)
				continue
			}
			s.did = true
		}
		a.runInstr(&f, instrs, s, &work, end)
	}
	return f, priv
}

// walkAt is a point of stepFootprint's walk: an instruction, whether the
// step has touched shared state before it, and the atomic-block depth.
type walkAt struct {
	pc    int32
	did   bool
	depth int
}

// runInstr adds instruction s.pc's footprint and its continuations within
// the step.
func (a *POR) runInstr(f *footprint, instrs []footprint, s walkAt, work *[]walkAt, end func(int32)) {
	in := &a.P.Code[s.pc]
	f.add(&instrs[s.pc])
	next := func(pc int32, depth int) { *work = append(*work, walkAt{pc, s.did, depth}) }
	switch in.Op {
	case ir.OpReturn, ir.OpRetPending:
		// The step ends here (before it, if shared state was touched; in
		// an atomic block, at the method's pending ret).
		end(s.pc)
		if in.Op == ir.OpReturn && s.depth > 0 {
			end(a.P.Methods[in.Method].RetPending)
		}
	case ir.OpFallOff:
	case ir.OpAtomicBegin:
		next(s.pc+1, s.depth+1)
	case ir.OpAtomicEnd:
		next(s.pc+1, s.depth-1)
	case ir.OpBranch:
		next(s.pc+1, s.depth)
		next(in.Target, s.depth)
	case ir.OpJump:
		if in.Back && s.depth == 0 {
			end(in.Target)
			return
		}
		if in.Fold && s.depth == 0 {
			// A folded loop goes on, or ends the step at its head once
			// its locals repeat (machine.localCycle).
			end(in.Target)
		}
		next(in.Target, s.depth)
	default:
		next(s.pc+1, s.depth)
	}
}

// futFootprint is the union of the footprints of every instruction
// reachable from pc in its method; a method with reference locals may
// clear them at any step.
func (a *POR) futFootprint(instrs []footprint, pc0 int) footprint {
	code := a.P.Code
	f := a.newFootprint()
	seen := make([]bool, len(code))
	work := []int32{int32(pc0)}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		if pc <= 0 || int(pc) >= len(code) || seen[pc] {
			continue
		}
		seen[pc] = true
		f.add(&instrs[pc])
		in := &code[pc]
		switch in.Op {
		case ir.OpReturn:
			work = append(work, a.P.Methods[in.Method].RetPending)
		case ir.OpFallOff, ir.OpRetPending:
		case ir.OpBranch:
			work = append(work, pc+1, in.Target)
		case ir.OpJump:
			work = append(work, in.Target)
		default:
			work = append(work, pc+1)
		}
	}
	if a.P.RefMask[pc0] != 0 {
		setBits(f.writes, a.Heap, a.Heap+1)
	}
	return f
}

// Choose returns the ample thread of state cur, whose successors (every
// thread's, in thread order) are succs, or -1 when no thread qualifies
// (see the comment at the top). Among the threads that qualify it takes
// one with the fewest successors; a thread that has all of them (the
// others are blocked or done) is no reduction and is not taken.
func (a *POR) Choose(cur []int32, succs []semantics.Succ) int {
	lay := &a.P.Layout
	counts := a.counts
	clear(counts)
	for i := range succs {
		sc := &succs[i]
		if sc.Label != 0 {
			counts[sc.Thread] = -1 << 30 // a visible step: not a candidate
		}
		counts[sc.Thread]++
	}
	any := false
	for t := range counts {
		if pc := cur[lay.ThreadBase(t)+ir.TPC]; pc != 0 && counts[t] > 0 && counts[t] < len(succs) && !a.stepPriv[t][pc] && !a.step[t][pc].opaque {
			any = true
		}
	}
	if !any {
		return -1
	}
	for u := range a.others {
		o := &a.others[u]
		o.clear()
		base := lay.ThreadBase(u)
		if pc := cur[base+ir.TPC]; pc != 0 {
			o.add(&a.fut[u][pc])
		}
		if a.B.Ops < 0 || int(cur[base+ir.TOps]) < a.B.Ops {
			o.add(&a.calls[u])
		}
	}
	best := -1
	for t, n := range counts {
		pc := cur[lay.ThreadBase(t)+ir.TPC]
		// A thread with every successor is no reduction: the state is
		// expanded in full (and the proviso is not needed).
		if pc == 0 || n <= 0 || n == len(succs) || a.stepPriv[t][pc] || best >= 0 && n >= counts[best] {
			continue
		}
		st := &a.step[t][pc]
		ok := true
		for u := range a.others {
			if u != t && st.conflicts(&a.others[u]) {
				ok = false
				break
			}
		}
		if ok {
			best = t
		}
	}
	return best
}
