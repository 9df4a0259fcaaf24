package semantics

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/syntax"
)

// maxInt bounds the magnitude of integers; exceeding it is a model error
// rather than a silent wrap.
const maxInt = 1 << 24

// stepBudget bounds the loop iterations inside the atomic blocks of one
// step and those of the loops folded into it (ir.Instr.Fold), which only
// a loop that never ends can exceed.
const stepBudget = 1 << 20

// loopCycle detects that a loop folded into a step (ir.Instr.Fold) has
// come back to the locals it had at its head, by Brent's algorithm: saved
// is the thread's locals at a power-of-two iteration, lam the iterations
// since, power the next power of two.
type loopCycle struct {
	head       int32
	saved      []int32
	lam, power int
}

// localCycle records that thread m.t took the folded back edge to head
// and reports whether its locals repeat those of an earlier iteration of
// this step: a loop doing local work only, which is deterministic on the
// path the step follows, then runs forever.
func (m *machine) localCycle(cycles *[]loopCycle, head int32) bool {
	locals := m.mem[m.base+ir.TLocals : m.base+m.p.Layout.ThreadSize]
	var c *loopCycle
	for i := range *cycles {
		if (*cycles)[i].head == head {
			c = &(*cycles)[i]
		}
	}
	if c == nil {
		*cycles = append(*cycles, loopCycle{head: head, saved: slices.Clone(locals), power: 1})
		return false
	}
	c.lam++
	if slices.Equal(c.saved, locals) {
		return true
	}
	if c.lam == c.power {
		c.saved = append(c.saved[:0], locals...)
		c.power *= 2
		c.lam = 0
	}
	return false
}

// outcome is what one step of a thread did. (Its fields are ordered so
// that it takes 16 bytes: one is kept per successor.)
type outcome struct {
	method   int32
	value    int32
	step     int32
	Kind     LabelKind // what the step did: τ, call, return, lin, or nothing (blocked)
	hasValue bool
}

// LabelKind is the kind of a step's outcome.
type LabelKind uint8

// The kinds of outcomes.
const (
	KTau     LabelKind = iota // an internal step
	KCall                     // a call
	KRet                      // a return
	KLin                      // a lin statement, visible in linearization-point mode
	KBlocked                  // an await found its condition false: no transition
)

// Failure is a model error found while executing a step.
type Failure struct {
	Msg  string // what went wrong, e.g. "assertion failed"
	Step int32  // the failing step's index in Program.Steps
	// Race, if not nil, makes the failure a data race of a program from
	// the Go front end (race.go), not an error of the model.
	Race *RaceInfo
}

// machine executes the steps of one thread on a state vector.
type machine struct {
	p        *ir.Program
	mem      []int32
	t        int   // thread, from 0
	base     int32 // thread's offset in mem
	gc       bool
	lin      bool
	maxNodes int32
	err      *Failure
	choices  []int // nondeterministic choices of this run (explicit-mode allocation)
	limits   []int
	ci       int
	cands    []int32
	// moved: whether the step wrote a new value into a reference (of the
	// thread's locals only, or elsewhere), allocated a node or ended a
	// method that held references; if not, the heap's shape as seen from
	// the roots is as before the step (canonicalStep).
	moved RefMoves
	// race, if not nil, makes each step record what its first shared
	// instruction accesses (race.go): acc, and its source step accStep (-1
	// if none).
	race    *races
	acc     []access
	accStep int32
	// casPending: the step's shared access is a cas with outcome variants
	// (ir's casoutcome.go), whose outcome casOut the cas records (-1
	// until then; a later cas of the step, on a private node, keeps it).
	casPending bool
	casOut     int32
	// The step's lin marker, if it ran one in linearization-point mode:
	// linSeen, and its value (linHas: it has one).
	linSeen, linHas bool
	linVal          int32
}

// newMachine returns a machine that runs p: gc with a garbage-collected
// heap, lin with lin events visible, at most maxNodes live nodes.
func newMachine(p *ir.Program, gc, lin bool, maxNodes int32) machine {
	lower(p)
	return machine{p: p, gc: gc, lin: lin, maxNodes: maxNodes}
}

func (m *machine) fail(format string, args ...any) {
	if m.err == nil {
		m.err = &Failure{Msg: fmt.Sprintf(format, args...), Step: -1} // step sets the step
	}
}

// maxOutcomes bounds the product of the choice counts along one run of a
// step, and so the runs of the step: only a loop of an atomic block that
// keeps choosing (choose, any) reaches it.
const maxOutcomes = 1 << 20

// choose returns a choice in [0,n); runs are repeated by nextChoice until
// every combination has been taken.
func (m *machine) choose(n int) int {
	if m.ci < len(m.choices) {
		c := m.choices[m.ci]
		m.ci++
		return c
	}
	outcomes := n
	for _, l := range m.limits {
		outcomes *= l
		if outcomes > maxOutcomes {
			m.fail("a step has more than %d nondeterministic outcomes: an atomic block that loops over choose or any, or over threads in every order (for j in …)?", maxOutcomes)
			return 0
		}
	}
	m.choices = append(m.choices, 0)
	m.limits = append(m.limits, n)
	m.ci++
	return 0
}

// nextChoice advances the choice vector like an odometer; false when done.
// The test for a run without choices, the common case, is inlined.
func (m *machine) nextChoice() bool {
	return len(m.choices) > 0 && m.advanceChoice()
}

// advanceChoice is nextChoice for a run that made choices.
func (m *machine) advanceChoice() bool {
	for i := len(m.choices) - 1; i >= 0; i-- {
		if m.choices[i]+1 < m.limits[i] {
			m.choices[i]++
			m.choices, m.limits = m.choices[:i+1], m.limits[:i+1]
			return true
		}
	}
	m.choices, m.limits = m.choices[:0], m.limits[:0]
	return false
}

// checkInt returns v, failing if it exceeds ±maxInt (other than Empty).
// The test is inlined; overflow reports the failure.
func (m *machine) checkInt(v int32) int32 {
	if v > maxInt || v < -maxInt {
		m.overflow(v)
	}
	return v
}

// overflow is checkInt's failure.
func (m *machine) overflow(v int32) {
	if v != ir.Empty {
		m.fail("integer overflow: %d exceeds ±%d", v, maxInt)
	}
}

// addr returns the index in mem of a location, or -1 after a failure.
func (m *machine) addr(e *ir.Expr) int32 {
	switch e.Kind {
	case ir.ELocal:
		return m.base + ir.TLocals + e.V
	case ir.EShared:
		return e.V
	case ir.EElem:
		return m.elemAddr(e, 0)
	case ir.ELocalElem:
		return m.elemAddr(e, m.base+ir.TLocals)
	case ir.EField:
		id := m.eval(e.A)
		if m.err != nil {
			return -1
		}
		if id == 0 {
			m.nullFailed(e)
			return -1
		}
		return m.p.Layout.NodeAddr(id) + m.p.Layout.Hdr + e.V
	case ir.EDeref:
		return m.derefAddr(e)
	case ir.EFieldElem:
		return m.fieldElemAddr(e)
	}
	m.fail("internal error: not a location")
	return -1
}

// derefAddr returns the index in mem of slot e.V of the location that
// the loc (e.A, e.B) refers to (see ir's locs.go), or -1 after a failure.
func (m *machine) derefAddr(e *ir.Expr) int32 {
	node, off := m.eval(e.A), m.eval(e.B)
	switch {
	case m.err != nil:
		return -1
	case node != 0:
		return m.p.Layout.NodeAddr(node) + m.p.Layout.Hdr + off + e.V
	case off == 0:
		m.fail("null dereference: %s through a null loc", e.Name)
		return -1
	}
	return off - 1 + e.V
}

// addrOf returns the offset slot of the loc &e.A: the field's slot in
// its node, or the shared slot plus one.
func (m *machine) addrOf(e *ir.Expr) int32 {
	a := m.addr(e.A)
	switch {
	case a < 0:
		return 0
	case e.A.Kind == ir.EField:
		return e.A.V
	case e.A.Kind == ir.EFieldElem:
		return a - m.p.Layout.NodeAddr(m.eval(e.A.A)) - m.p.Layout.Hdr
	}
	return a + 1
}

// fieldElemAddr returns the index in mem of the element of a node's
// array field e, or -1 after a failure.
func (m *machine) fieldElemAddr(e *ir.Expr) int32 {
	id := m.eval(e.A)
	i := m.eval(e.B)
	switch {
	case m.err != nil:
		return -1
	case id == 0:
		m.nullFailed(e)
		return -1
	case i < e.Lo || i >= e.Lo+e.N:
		m.indexFailed(e, i)
		return -1
	}
	return m.p.Layout.NodeAddr(id) + m.p.Layout.Hdr + e.V + (i-e.Lo)*e.Stride
}

// elemAddr returns the index in mem of the array element e, whose slots
// start at base + e.v (0 for a shared array, the thread's locals for a
// local one), or -1 after a failure.
func (m *machine) elemAddr(e *ir.Expr, base int32) int32 {
	i := m.eval(e.A)
	if m.err != nil {
		return -1
	}
	if i < e.Lo || i >= e.Lo+e.N {
		m.indexFailed(e, i)
		return -1
	}
	k := i - e.Lo
	if e.B != nil { // a second dimension (per-thread arrays, forthreads.go)
		j := m.eval(e.B)
		if m.err != nil {
			return -1
		}
		if j < e.Lo2 || j >= e.Lo2+e.N2 {
			m.fail("index %d out of range [%d..%d] of %s[%d]", j, e.Lo2, e.Lo2+e.N2-1, e.Name, i)
			return -1
		}
		k = k*e.N2 + j - e.Lo2
	}
	return base + e.V + k*max(e.Stride, 1)
}

// indexFailed is the failure of index i of the array element e (none
// if evaluating i failed: fail keeps the first).
func (m *machine) indexFailed(e *ir.Expr, i int32) {
	m.fail("index %d out of range [%d..%d] of %s", i, e.Lo, e.Lo+e.N-1, e.Name)
}

// nullFailed is the failure of the field e of null.
func (m *machine) nullFailed(e *ir.Expr) {
	m.fail("null dereference reading or writing field %s", e.Name)
}

func (m *machine) store(e *ir.Expr, a, v int32) {
	if e.Rng != nil && (int64(v) < e.Rng.Lo || int64(v) > e.Rng.Hi) {
		if !e.Rng.Wrap {
			m.fail("value %d out of the declared range %s of %s", v, e.Rng, e.Name)
			return
		}
		v = wrap(v, e.Rng)
	}
	if e.Ref && m.mem[a] != v {
		if e.Kind == ir.ELocal || e.Kind == ir.ELocalElem {
			m.moved |= MovedLocal
		} else {
			m.moved |= MovedShared
		}
	}
	m.mem[a] = v
}

// wrap returns v wrapped around the range of t: lo + (v - lo) mod size.
func wrap(v int32, t *check.Type) int32 {
	size := t.Hi - t.Lo + 1
	r := (int64(v) - t.Lo) % size
	if r < 0 {
		r += size
	}
	return int32(t.Lo + r)
}

// eval evaluates e. Locals, the expressions evaluated most, are read
// here, in a function small enough to be inlined at its call sites; e's
// evaluator does the rest (evalfn.go).
func (m *machine) eval(e *ir.Expr) int32 {
	if e.Kind == ir.ELocal {
		return m.mem[m.base+ir.TLocals+e.V]
	}
	return (*evalOf(e))(m, e)
}

// evalNode evaluates e: the evaluator of the kinds that have none of
// their own (evalfn.go).
func (m *machine) evalNode(e *ir.Expr) int32 {
	switch e.Kind {
	case ir.EConst:
		return e.V
	case ir.EShared:
		return m.mem[e.V]
	case ir.EElem, ir.EField, ir.ELocalElem, ir.EDeref, ir.EFieldElem:
		a := m.addr(e)
		if a < 0 {
			return 0
		}
		return m.mem[a]
	case ir.ETid:
		return int32(m.t + 1)
	case ir.EUnary:
		x := m.eval(e.A)
		if e.Op == syntax.SUB {
			return m.checkInt(-x)
		}
		return 1 - x
	case ir.EBinary:
		switch e.Op {
		case syntax.LAND:
			return evLand(m, e)
		case syntax.LOR:
			return evLor(m, e)
		}
		x, y := m.operands(e)
		v, ok := ir.Binop(e.Op, x, y)
		if !ok {
			m.fail("division by zero")
		}
		return m.checkInt(v)
	case ir.ECas:
		return evCas(m, e)
	case ir.ECasWord:
		r := m.casWord(e)
		m.casOutcome(r)
		return r
	case ir.ESwap, ir.EFaa:
		return m.rmw(e)
	case ir.EAddr:
		return m.addrOf(e)
	case ir.EIs, ir.EAs:
		return m.testType(e)
	case ir.EPack:
		return m.pack(e)
	case ir.ENew:
		return m.alloc(e)
	case ir.EAny:
		return e.Lo + int32(m.choose(int(e.N)))
	case ir.EThreadsLeft, ir.EPickThread, ir.EAddThread:
		return m.evalThreads(e)
	}
	return 0
}

// casOutcome records the outcome r of a cas as the step's, if it is the
// step's first (see casPending).
func (m *machine) casOutcome(r int32) {
	if m.casOut < 0 {
		m.casOut = r
	}
}

// rmw evaluates swap(a, b) or faa(a, b): one access that reads the
// location and stores b, or the old value plus b, into it (a model error
// if the sum overflows or leaves the location's range, as a store's is).
// Its value is the old one.
func (m *machine) rmw(e *ir.Expr) int32 {
	a := m.addr(e.A)
	v := m.eval(e.B)
	if a < 0 || m.err != nil {
		return 0
	}
	old := m.mem[a]
	if e.Kind == ir.EFaa {
		v = m.checkInt(old + v)
		if m.err != nil {
			return 0
		}
	}
	m.store(e.A, a, v)
	return old
}

// alloc allocates a node. In garbage-collected mode the node is fresh. In
// explicit mode it is fresh or, nondeterministically, any freed node of the
// same type that is still referenced (a reused address: this is how ABA
// arises); freed nodes that nobody references are indistinguishable from
// fresh ones and have already been dropped by canonicalisation.
func (m *machine) alloc(e *ir.Expr) int32 {
	var buf [16]int32
	vals := buf[:]
	if len(e.Inits) > len(buf) {
		vals = make([]int32, len(e.Inits))
	}
	for i, fi := range e.Inits {
		vals[i] = m.eval(fi.X)
	}
	if m.err != nil {
		return 0
	}
	m.moved |= MovedShared
	lay := &m.p.Layout
	count := m.mem[lay.HeapBase]
	id := int32(0)
	if !m.gc {
		m.cands = m.cands[:0]
		for k := int32(1); k <= count; k++ {
			a := lay.NodeAddr(k)
			if lay.NodeType(m.mem, a) == e.V && m.mem[a+lay.FreedOff] != 0 {
				m.cands = append(m.cands, k)
			}
		}
		if len(m.cands) > 0 {
			if c := m.choose(1 + len(m.cands)); c > 0 {
				id = m.cands[c-1]
			}
		}
	}
	if id == 0 {
		if count >= m.maxNodes {
			m.fail("heap exhausted: more than %d live nodes (raise the node limit)", m.maxNodes)
			return 0
		}
		count++
		m.mem[lay.HeapBase] = count
		for k := int32(0); k < lay.NodeSize; k++ {
			m.mem = append(m.mem, 0)
		}
		id = count
	}
	a := lay.NodeAddr(id)
	for k := int32(0); k < lay.NodeSize; k++ {
		m.mem[a+k] = 0
	}
	if lay.Typed {
		m.mem[a] = e.V
	}
	for i, fi := range e.Inits {
		ft := lay.FieldTypes[e.V][fi.Field]
		if ft.HasRange && (int64(vals[i]) < ft.Lo || int64(vals[i]) > ft.Hi) {
			if ft.Wrap {
				vals[i] = wrap(vals[i], &ft)
			} else {
				m.fail("value %d out of the declared range %s of field", vals[i], ft)
			}
		}
		m.mem[a+lay.Hdr+fi.Field] = vals[i]
	}
	return id
}

func (m *machine) free(e *ir.Expr) {
	id := m.eval(e)
	if id == 0 || m.err != nil || m.gc {
		return
	}
	a := m.p.Layout.NodeAddr(id) + m.p.Layout.FreedOff
	if m.mem[a] != 0 {
		m.fail("double free")
		return
	}
	m.mem[a] = 1
}

// private reports whether every node held by the locals of the running
// thread in the slot set slots is referenced from nowhere else: no shared
// variable, no heap field and no other thread's local. Such a node is
// invisible to the other threads, so accessing it is local work (it
// commutes with every step of the others). No slots or a null reference:
// false.
func (m *machine) private(slots uint64) bool {
	if slots == 0 {
		return false
	}
	lay := &m.p.Layout
	for ; slots != 0; slots &= slots - 1 {
		n := m.mem[m.base+ir.TLocals+int32(bits.TrailingZeros64(slots))]
		if n == 0 {
			return false
		}
		for _, a := range lay.RefShared {
			if m.mem[a] == n {
				return false
			}
		}
		b := lay.Nshared
		for th := range int(lay.Threads) {
			if th != m.t {
				for r := m.p.RefMask[m.mem[b+ir.TPC]]; r != 0; r &= r - 1 {
					if m.mem[b+ir.TLocals+int32(bits.TrailingZeros64(r))] == n {
						return false
					}
				}
			}
			b += lay.ThreadSize
		}
		count := m.mem[lay.HeapBase]
		for a, end := lay.NodeAddr(1), lay.NodeAddr(count+1); a < end; a += lay.NodeSize {
			for _, f := range lay.NodeRefOffsets(m.mem, a) {
				if m.mem[a+f] == n {
					return false
				}
			}
		}
	}
	return true
}

// resetThread makes thread m.t idle: dead locals and result cleared.
func (m *machine) resetThread() {
	refs := m.p.RefMask[m.mem[m.base+ir.TPC]]
	// One pass over the slots: most are clear already, and the common
	// methods have few locals (a clear() call cost more).
	loc := m.mem[m.base+ir.TLocals : m.base+m.p.Layout.ThreadSize]
	for i, v := range loc {
		if v != 0 {
			if refs&(1<<i) != 0 {
				m.moved |= MovedLocal
			}
			loc[i] = 0
		}
	}
	m.mem[m.base+ir.TPC] = 0
	m.mem[m.base+ir.TRet] = 0
}

// step runs thread m.t for one step from its pc (which is not idle).
//
// Granularity: a step executes at most one instruction that touches shared
// state (an atomic block counts as one) together with the local-only work
// around it, and stops before the next shared instruction, before a return
// once shared state was touched, and after a loop's back edge. A loop doing
// local work only has its back edge folded (ir.Instr.Fold): it runs within
// the step, which ends at its head when its locals repeat (localCycle), so
// that a local loop that never ends is a τ-cycle rather than a hang. A return
// whose step touched nothing else is the visible ret step itself.
func (m *machine) step() outcome {
	code := m.p.Code
	pc := m.mem[m.base+ir.TPC]
	did := false
	depth := 0
	out := outcome{step: -1}
	m.linSeen, m.linVal, m.linHas = false, 0, false
	loops := 0             // back edges taken inside atomic blocks and folded ones (see stepBudget)
	var cycles []loopCycle // the folded loops' cycle detection (localCycle)
	m.casPending = false
	for {
		in := &code[pc]
		if in.Boundary && depth == 0 && (in.Priv == 0 || !m.private(in.Priv)) {
			if did {
				m.mem[m.base+ir.TPC] = pc
				return m.finish(out)
			}
			did = true
			out.step = in.Step
			if int(in.Step) < len(m.p.CasSteps) && m.p.CasSteps[in.Step] != 0 {
				m.casPending, m.casOut = true, -1
			}
			if m.race != nil && m.race.may[pc] {
				m.acc, m.accStep = m.locations(pc, m.acc[:0]), in.Step
			}
		}
		switch in.Op {
		case ir.OpReturn:
			var v int32
			if depth > 0 {
				if in.X != nil {
					v = m.eval(in.X)
				}
				if m.err != nil {
					m.err.Step = in.Step
					return out
				}
				m.mem[m.base+ir.TRet] = v
				m.mem[m.base+ir.TPC] = m.p.Methods[in.Method].RetPending
				return m.finish(out)
			}
			if did {
				m.mem[m.base+ir.TPC] = pc
				return m.finish(out)
			}
			if in.X != nil {
				v = m.eval(in.X)
			}
			if m.err != nil {
				m.err.Step = in.Step
				return out
			}
			m.resetThread()
			return outcome{Kind: KRet, method: in.Method, value: v, hasValue: in.X != nil, step: in.Step}
		case ir.OpRetPending:
			if did {
				m.mem[m.base+ir.TPC] = pc
				return m.finish(out)
			}
			v := m.mem[m.base+ir.TRet]
			m.resetThread()
			return outcome{Kind: KRet, method: in.Method, value: v, hasValue: m.p.Methods[in.Method].Result != check.Void, step: in.Step}
		case ir.OpAtomicBegin:
			depth++
			pc++
		case ir.OpAtomicEnd:
			depth--
			pc++
		case ir.OpAssign:
			// A local (i = i + 1), the common case, is found without
			// addr's call, and written without store's if it has no
			// declared range and holds no reference.
			l := in.Lhs
			var a int32
			if l.Kind == ir.ELocal {
				a = m.base + ir.TLocals + l.V
			} else {
				a = m.addr(l)
			}
			v := in.X.V // a constant (i := 0), without eval's call
			if in.X.Kind != ir.EConst {
				v = m.eval(in.X)
			}
			if m.err == nil && a >= 0 {
				if l.Kind == ir.ELocal && l.Rng == nil && !l.Ref {
					m.mem[a] = v
				} else {
					m.store(l, a, v)
				}
			}
			pc++
		case ir.OpAssignWord:
			m.assignWord(in)
			pc++
		case ir.OpEval:
			m.eval(in.X)
			pc++
		case ir.OpBranch:
			if m.eval(in.X) == 0 {
				pc = in.Target
			} else {
				pc++
			}
		case ir.OpJump:
			pc = in.Target
			if in.Back {
				if depth == 0 {
					if out.step < 0 {
						out.step = in.Step
					}
					m.mem[m.base+ir.TPC] = pc
					return m.finish(out)
				}
				if loops++; loops > stepBudget {
					m.fail("a step runs a loop more than %d times: an atomic block that never ends?", stepBudget)
				}
			} else if in.Fold {
				if m.localCycle(&cycles, pc) {
					// The loop came back to locals it had: it runs
					// forever, a τ-cycle, as it was before folding.
					if out.step < 0 {
						out.step = in.Step
					}
					m.mem[m.base+ir.TPC] = pc
					return m.finish(out)
				}
				if loops++; loops > stepBudget {
					m.fail("a step runs a loop more than %d times: a loop doing local work only (folded into one step) that never ends?", stepBudget)
				}
			}
		case ir.OpAwait:
			if m.eval(in.X) == 0 && m.err == nil {
				return outcome{Kind: KBlocked}
			}
			pc++
		case ir.OpAssert:
			if m.eval(in.X) == 0 && m.err == nil {
				m.fail("assertion failed")
			}
			pc++
		case ir.OpFree:
			m.free(in.X)
			pc++
		case ir.OpLin:
			if m.lin {
				m.linSeen = true
				if in.X != nil {
					m.linVal, m.linHas = m.eval(in.X), true
				}
				if out.step < 0 {
					out.step = in.Step
				}
			}
			pc++
		case ir.OpFallOff:
			m.fail("method %s ended without returning a value", m.p.Methods[in.Method].Name)
		default:
			m.fail("internal error: bad instruction %d at pc %d", in.Op, pc)
		}
		if m.err != nil {
			// The failure is this instruction's: fail does not know it.
			m.err.Step = in.Step
			return out
		}
	}
}

// finish completes the outcome of a step that ends: small enough to be
// inlined in step's loop, the rare cases in finishMore.
func (m *machine) finish(out outcome) outcome {
	if m.linSeen || m.casPending {
		return m.finishMore(out)
	}
	return out
}

// finishMore is finish for a step with a lin marker or a cas with outcome
// variants (the variant of its outcome is the step taken).
func (m *machine) finishMore(out outcome) outcome {
	if m.casPending && m.casOut >= 0 {
		out.step = m.p.CasVariant(out.step, m.casOut == 1)
	}
	if m.linSeen {
		out.Kind, out.value, out.hasValue = KLin, m.linVal, m.linHas
		out.method = m.p.Code[m.mem[m.base+ir.TPC]].Method
	}
	return out
}
