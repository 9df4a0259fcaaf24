package explore

import (
	"fmt"
	"math/bits"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// maxInt bounds the magnitude of integers; exceeding it is a model error
// rather than a silent wrap.
const maxInt = 1 << 24

// stepBudget bounds the loop iterations inside the atomic blocks of one
// step, which only an atomic block that loops forever can exceed.
const stepBudget = 1 << 20

// outcome is what one step of a thread did. (Its fields are ordered so
// that it takes 16 bytes: one is kept per successor.)
type outcome struct {
	method   int32
	value    int32
	step     int32
	kind     labelKind
	hasValue bool
}

type labelKind uint8

const (
	kTau labelKind = iota
	kCall
	kRet
	kLin
	kBlocked // an await found its condition false: no transition
)

// failure is a model error found while executing a step.
type failure struct {
	msg  string
	step int32
}

// machine executes the steps of one thread on a state vector.
type machine struct {
	p *program
	// evals are the evaluators of p's expressions, by id (evaluators).
	evals    []evaluator
	mem      []int32
	t        int   // thread, from 0
	base     int32 // thread's offset in mem
	gc       bool
	lin      bool
	maxNodes int32
	err      *failure
	choices  []int // nondeterministic choices of this run (explicit-mode allocation)
	limits   []int
	ci       int
	cands    []int32
	// moved: whether the step wrote a new value into a reference (of the
	// thread's locals only, or elsewhere), allocated a node or ended a
	// method that held references; if not, the heap's shape as seen from
	// the roots is as before the step (canonicalStep).
	moved refMoves
}

// newMachine returns a machine that runs p: gc with a garbage-collected
// heap, lin with lin events visible, at most maxNodes live nodes.
func newMachine(p *program, gc, lin bool, maxNodes int32) machine {
	return machine{p: p, evals: evaluators(p), gc: gc, lin: lin, maxNodes: maxNodes}
}

func (m *machine) fail(format string, args ...any) {
	if m.err == nil {
		m.err = &failure{msg: fmt.Sprintf(format, args...), step: -1} // step sets the step
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
	if v != Empty {
		m.fail("integer overflow: %d exceeds ±%d", v, maxInt)
	}
}

// addr returns the index in mem of a location, or -1 after a failure.
func (m *machine) addr(e *expr) int32 {
	switch e.k {
	case eLocal:
		return m.base + tLocals + e.v
	case eShared:
		return e.v
	case eElem:
		return m.elemAddr(e, 0)
	case eLocalElem:
		return m.elemAddr(e, m.base+tLocals)
	case eField:
		id := m.eval(e.a)
		if m.err != nil {
			return -1
		}
		if id == 0 {
			m.nullFailed(e)
			return -1
		}
		return m.p.lay.nodeAddr(id) + m.p.lay.hdr + e.v
	}
	m.fail("internal error: not a location")
	return -1
}

// elemAddr returns the index in mem of the array element e, whose slots
// start at base + e.v (0 for a shared array, the thread's locals for a
// local one), or -1 after a failure.
func (m *machine) elemAddr(e *expr, base int32) int32 {
	i := m.eval(e.a)
	if m.err != nil {
		return -1
	}
	if i < e.lo || i >= e.lo+e.n {
		m.indexFailed(e, i)
		return -1
	}
	k := i - e.lo
	if e.b != nil { // a second dimension (per-thread arrays, forthreads.go)
		j := m.eval(e.b)
		if m.err != nil {
			return -1
		}
		if j < e.lo2 || j >= e.lo2+e.n2 {
			m.fail("index %d out of range [%d..%d] of %s[%d]", j, e.lo2, e.lo2+e.n2-1, e.name, i)
			return -1
		}
		k = k*e.n2 + j - e.lo2
	}
	return base + e.v + k*max(e.stride, 1)
}

// indexFailed is the failure of index i of the array element e (none
// if evaluating i failed: fail keeps the first).
func (m *machine) indexFailed(e *expr, i int32) {
	m.fail("index %d out of range [%d..%d] of %s", i, e.lo, e.lo+e.n-1, e.name)
}

// nullFailed is the failure of the field e of null.
func (m *machine) nullFailed(e *expr) {
	m.fail("null dereference reading or writing field %s", e.name)
}

func (m *machine) store(e *expr, a, v int32) {
	if e.rng != nil && (int64(v) < e.rng.Lo || int64(v) > e.rng.Hi) {
		if !e.rng.Wrap {
			m.fail("value %d out of the declared range %s of %s", v, e.rng, e.name)
			return
		}
		v = wrap(v, e.rng)
	}
	if e.ref && m.mem[a] != v {
		if e.k == eLocal || e.k == eLocalElem {
			m.moved |= movedLocal
		} else {
			m.moved |= movedShared
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
func (m *machine) eval(e *expr) int32 {
	if e.k == eLocal {
		return m.mem[m.base+tLocals+e.v]
	}
	return m.evals[e.id](m, e)
}

// evalNode evaluates e: the evaluator of the kinds that have none of
// their own (evalfn.go).
func (m *machine) evalNode(e *expr) int32 {
	switch e.k {
	case eConst:
		return e.v
	case eShared:
		return m.mem[e.v]
	case eElem, eField, eLocalElem:
		a := m.addr(e)
		if a < 0 {
			return 0
		}
		return m.mem[a]
	case eTid:
		return int32(m.t + 1)
	case eUnary:
		x := m.eval(e.a)
		if e.op == syntax.SUB {
			return m.checkInt(-x)
		}
		return 1 - x
	case eBinary:
		switch e.op {
		case syntax.LAND:
			return evLand(m, e)
		case syntax.LOR:
			return evLor(m, e)
		}
		x, y := m.operands(e)
		v, ok := binop(e.op, x, y)
		if !ok {
			m.fail("division by zero")
		}
		return m.checkInt(v)
	case eCas:
		a := m.addr(e.a)
		exp := m.eval(e.b)
		nw := m.eval(e.c)
		if a < 0 || m.err != nil {
			return 0
		}
		if m.mem[a] == exp {
			m.store(e.a, a, nw)
			return 1
		}
		return 0
	case eCasWord:
		return m.casWord(e)
	case eIs, eAs:
		return m.testType(e)
	case ePack:
		return m.pack(e)
	case eNew:
		return m.alloc(e)
	case eAny:
		return e.lo + int32(m.choose(int(e.n)))
	case eThreadsLeft, ePickThread, eAddThread:
		return m.evalThreads(e)
	}
	return 0
}

// alloc allocates a node. In garbage-collected mode the node is fresh. In
// explicit mode it is fresh or, nondeterministically, any freed node of the
// same type that is still referenced (a reused address: this is how ABA
// arises); freed nodes that nobody references are indistinguishable from
// fresh ones and have already been dropped by canonicalisation.
func (m *machine) alloc(e *expr) int32 {
	var buf [16]int32
	vals := buf[:]
	if len(e.inits) > len(buf) {
		vals = make([]int32, len(e.inits))
	}
	for i, fi := range e.inits {
		vals[i] = m.eval(fi.x)
	}
	if m.err != nil {
		return 0
	}
	m.moved |= movedShared
	lay := &m.p.lay
	count := m.mem[lay.heapBase]
	id := int32(0)
	if !m.gc {
		m.cands = m.cands[:0]
		for k := int32(1); k <= count; k++ {
			a := lay.nodeAddr(k)
			if lay.nodeType(m.mem, a) == e.v && m.mem[a+lay.freedOff] != 0 {
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
		m.mem[lay.heapBase] = count
		for k := int32(0); k < lay.nodeSize; k++ {
			m.mem = append(m.mem, 0)
		}
		id = count
	}
	a := lay.nodeAddr(id)
	for k := int32(0); k < lay.nodeSize; k++ {
		m.mem[a+k] = 0
	}
	if lay.typed {
		m.mem[a] = e.v
	}
	for i, fi := range e.inits {
		ft := lay.fieldTypes[e.v][fi.field]
		if ft.HasRange && (int64(vals[i]) < ft.Lo || int64(vals[i]) > ft.Hi) {
			if ft.Wrap {
				vals[i] = wrap(vals[i], &ft)
			} else {
				m.fail("value %d out of the declared range %s of field", vals[i], ft)
			}
		}
		m.mem[a+lay.hdr+fi.field] = vals[i]
	}
	return id
}

func (m *machine) free(e *expr) {
	id := m.eval(e)
	if id == 0 || m.err != nil || m.gc {
		return
	}
	a := m.p.lay.nodeAddr(id) + m.p.lay.freedOff
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
	lay := &m.p.lay
	for ; slots != 0; slots &= slots - 1 {
		n := m.mem[m.base+tLocals+int32(bits.TrailingZeros64(slots))]
		if n == 0 {
			return false
		}
		for _, a := range lay.refShared {
			if m.mem[a] == n {
				return false
			}
		}
		b := lay.nshared
		for th := range int(lay.threads) {
			if th != m.t {
				for r := m.p.refMask[m.mem[b+tPC]]; r != 0; r &= r - 1 {
					if m.mem[b+tLocals+int32(bits.TrailingZeros64(r))] == n {
						return false
					}
				}
			}
			b += lay.threadSize
		}
		count := m.mem[lay.heapBase]
		for a, end := lay.nodeAddr(1), lay.nodeAddr(count+1); a < end; a += lay.nodeSize {
			for _, f := range lay.nodeRefOffsets(m.mem, a) {
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
	refs := m.p.refMask[m.mem[m.base+tPC]]
	// One pass over the slots: most are clear already, and the common
	// methods have few locals (a clear() call cost more).
	loc := m.mem[m.base+tLocals : m.base+m.p.lay.threadSize]
	for i, v := range loc {
		if v != 0 {
			if refs&(1<<i) != 0 {
				m.moved |= movedLocal
			}
			loc[i] = 0
		}
	}
	m.mem[m.base+tPC] = 0
	m.mem[m.base+tRet] = 0
}

// step runs thread m.t for one step from its pc (which is not idle).
//
// Granularity: a step executes at most one instruction that touches shared
// state (an atomic block counts as one) together with the local-only work
// around it, and stops before the next shared instruction, before a return
// once shared state was touched, and after a loop's back edge (so that a
// loop doing only local work is a τ-cycle rather than a hang). A return
// whose step touched nothing else is the visible ret step itself.
func (m *machine) step() outcome {
	code := m.p.code
	pc := m.mem[m.base+tPC]
	did := false
	depth := 0
	out := outcome{step: -1}
	lin := false
	var linVal int32
	linHas := false
	loops := 0 // back edges taken inside atomic blocks (see stepBudget)
	for {
		in := &code[pc]
		if in.boundary && depth == 0 && (in.priv == 0 || !m.private(in.priv)) {
			if did {
				m.mem[m.base+tPC] = pc
				return m.finish(out, lin, linVal, linHas)
			}
			did = true
			out.step = in.step
		}
		switch in.op {
		case opReturn:
			var v int32
			if depth > 0 {
				if in.x != nil {
					v = m.eval(in.x)
				}
				if m.err != nil {
					m.err.step = in.step
					return out
				}
				m.mem[m.base+tRet] = v
				m.mem[m.base+tPC] = m.p.methods[in.method].retPending
				return m.finish(out, lin, linVal, linHas)
			}
			if did {
				m.mem[m.base+tPC] = pc
				return m.finish(out, lin, linVal, linHas)
			}
			if in.x != nil {
				v = m.eval(in.x)
			}
			if m.err != nil {
				m.err.step = in.step
				return out
			}
			m.resetThread()
			return outcome{kind: kRet, method: in.method, value: v, hasValue: in.x != nil, step: in.step}
		case opRetPending:
			if did {
				m.mem[m.base+tPC] = pc
				return m.finish(out, lin, linVal, linHas)
			}
			v := m.mem[m.base+tRet]
			m.resetThread()
			return outcome{kind: kRet, method: in.method, value: v, hasValue: m.p.methods[in.method].result != check.Void, step: in.step}
		case opAtomicBegin:
			depth++
			pc++
		case opAtomicEnd:
			depth--
			pc++
		case opAssign:
			// A local (i = i + 1), the common case, is found without
			// addr's call, and written without store's if it has no
			// declared range and holds no reference.
			l := in.lhs
			var a int32
			if l.k == eLocal {
				a = m.base + tLocals + l.v
			} else {
				a = m.addr(l)
			}
			v := in.x.v // a constant (i := 0), without eval's call
			if in.x.k != eConst {
				v = m.eval(in.x)
			}
			if m.err == nil && a >= 0 {
				if l.k == eLocal && l.rng == nil && !l.ref {
					m.mem[a] = v
				} else {
					m.store(l, a, v)
				}
			}
			pc++
		case opAssignWord:
			m.assignWord(in)
			pc++
		case opEval:
			m.eval(in.x)
			pc++
		case opBranch:
			if m.eval(in.x) == 0 {
				pc = in.target
			} else {
				pc++
			}
		case opJump:
			pc = in.target
			if in.back {
				if depth == 0 {
					if out.step < 0 {
						out.step = in.step
					}
					m.mem[m.base+tPC] = pc
					return m.finish(out, lin, linVal, linHas)
				}
				if loops++; loops > stepBudget {
					m.fail("a step runs a loop more than %d times: an atomic block that never ends?", stepBudget)
				}
			}
		case opAwait:
			if m.eval(in.x) == 0 && m.err == nil {
				return outcome{kind: kBlocked}
			}
			pc++
		case opAssert:
			if m.eval(in.x) == 0 && m.err == nil {
				m.fail("assertion failed")
			}
			pc++
		case opFree:
			m.free(in.x)
			pc++
		case opLin:
			if m.lin {
				lin = true
				if in.x != nil {
					linVal, linHas = m.eval(in.x), true
				}
				if out.step < 0 {
					out.step = in.step
				}
			}
			pc++
		case opFallOff:
			m.fail("method %s ended without returning a value", m.p.methods[in.method].name)
		default:
			m.fail("internal error: bad instruction %d at pc %d", in.op, pc)
		}
		if m.err != nil {
			// The failure is this instruction's: fail does not know it.
			m.err.step = in.step
			return out
		}
	}
}

func (m *machine) finish(out outcome, lin bool, v int32, has bool) outcome {
	if lin {
		out.kind, out.value, out.hasValue = kLin, v, has
		out.method = m.p.code[m.mem[m.base+tPC]].method
	}
	return out
}
