package semantics

import (
	"math/bits"
	"unsafe"

	"github.com/linbis/linbis/frontend/intop"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/syntax"
)

// Evaluators. The machine evaluates each expression with a function
// chosen once for its kind, operator and operands (evaluatorOf), so that
// evaluating it dispatches once: the general evalNode switches on the
// kind, then on the operator, calls binop and tests for the short-circuit
// operators, and that was a third of the instructions of an interpreter-
// bound model (the atomic loops of hp-stack's scan). lower stores each
// expression's evaluator in its Eval field, which ir keeps for the
// machine. The kinds without an evaluator of their own use evalNode, which
// gives every failure its message; the evaluators below report the same
// failures in the same order.

// evaluator evaluates e on m (see eval).
type evaluator func(m *machine, e *ir.Expr) int32

// lower sets the evaluators of p's expressions. newMachine calls it, so
// that a program is lowered before a machine runs it; it writes the same
// evaluators each time, and machines are made before they run
// concurrently.
func lower(p *ir.Program) { lowerWith(p, evaluatorOf) }

// lowerWith sets the evaluator of every expression of p's code to
// choose's for it.
func lowerWith(p *ir.Program, choose func(*ir.Expr) evaluator) {
	set := func(e *ir.Expr) { *evalOf(e) = choose(e) }
	for i := range p.Code {
		in := &p.Code[i]
		for _, l := range in.Targets() {
			ir.WalkExpr(l, set)
		}
		for _, x := range in.Values() {
			ir.WalkExpr(x, set)
		}
	}
}

// evalOf is e's evaluator, in the field that ir keeps for the machine: a
// func value is one pointer, which the unsafe.Pointer holds and the
// collector traces.
func evalOf(e *ir.Expr) *evaluator { return (*evaluator)(unsafe.Pointer(&e.Eval)) }

// binaryEvaluators holds the evaluators of the binary operators that
// have one; the others (division, which can fail) use evalNode.
var binaryEvaluators = map[syntax.Token]evaluator{
	syntax.ADD:  evAdd,
	syntax.SUB:  evSub,
	syntax.MUL:  evMul,
	syntax.EQL:  evEql,
	syntax.NEQ:  evNeq,
	syntax.LSS:  evLss,
	syntax.LEQ:  evLeq,
	syntax.GTR:  evGtr,
	syntax.GEQ:  evGeq,
	syntax.LAND: evLand,
	syntax.LOR:  evLor,
}

// constRightEvaluators holds the evaluators of the binary operators whose
// right operand is a constant (i < n, i + 1, x != null), the most common
// operators in loops: the constant is read in place.
var constRightEvaluators = map[syntax.Token]evaluator{
	syntax.ADD: func(m *machine, e *ir.Expr) int32 { return m.checkInt(m.eval(e.A) + e.B.V) },
	syntax.SUB: func(m *machine, e *ir.Expr) int32 { return m.checkInt(m.eval(e.A) - e.B.V) },
	syntax.EQL: func(m *machine, e *ir.Expr) int32 { return b2i(m.eval(e.A) == e.B.V) },
	syntax.NEQ: func(m *machine, e *ir.Expr) int32 { return b2i(m.eval(e.A) != e.B.V) },
	syntax.LSS: func(m *machine, e *ir.Expr) int32 { return b2i(m.eval(e.A) < e.B.V) },
	syntax.LEQ: func(m *machine, e *ir.Expr) int32 { return b2i(m.eval(e.A) <= e.B.V) },
	syntax.GTR: func(m *machine, e *ir.Expr) int32 { return b2i(m.eval(e.A) > e.B.V) },
	syntax.GEQ: func(m *machine, e *ir.Expr) int32 { return b2i(m.eval(e.A) >= e.B.V) },
}

// evaluatorOf chooses e's evaluator.
func evaluatorOf(e *ir.Expr) evaluator {
	switch e.Kind {
	case ir.EConst:
		return evConst
	case ir.ELocal:
		return evLocal
	case ir.EShared:
		return evShared
	case ir.EElem:
		if e.B == nil {
			return evElem
		}
		return evElem2
	case ir.EField:
		return evField
	case ir.ETid:
		return evTid
	case ir.ECas:
		return evCas
	case ir.EThreadsLeft:
		return evThreadsLeft
	case ir.EPickThread:
		if e.Lo != 0 {
			return evLowestThread
		}
	case ir.EAddThread:
		return evAddThread
	case ir.EUnary:
		if e.Op == syntax.SUB {
			return evNeg
		}
		return evNot
	case ir.EBinary:
		if e.V != 0 {
			return evIntOp
		}
		if f := constRightEvaluators[e.Op]; f != nil && e.B.Kind == ir.EConst {
			return f
		}
		if f := binaryEvaluators[e.Op]; f != nil {
			return f
		}
	}
	return (*machine).evalNode
}

func evConst(_ *machine, e *ir.Expr) int32 { return e.V }

func evLocal(m *machine, e *ir.Expr) int32 { return m.mem[m.base+ir.TLocals+e.V] }

func evShared(m *machine, e *ir.Expr) int32 { return m.mem[e.V] }

// evElem reads an element of a shared array of one dimension.
func evElem(m *machine, e *ir.Expr) int32 {
	i := m.eval(e.A)
	if i < e.Lo || i >= e.Lo+e.N || m.err != nil {
		m.indexFailed(e, i)
		return 0
	}
	return m.mem[e.V+(i-e.Lo)*max(e.Stride, 1)]
}

// evElem2 reads an element of a shared array of two dimensions (the
// per-thread arrays, forthreads.go: RL[tid][k]).
func evElem2(m *machine, e *ir.Expr) int32 {
	a := m.elemAddr(e, 0)
	if a < 0 {
		return 0
	}
	return m.mem[a]
}

func evTid(m *machine, _ *ir.Expr) int32 { return int32(m.t + 1) }

// evCas evaluates cas(A, B, C): stores C at A when A holds B, and
// returns whether it did.
func evCas(m *machine, e *ir.Expr) int32 {
	a := m.addr(e.A)
	exp := m.eval(e.B)
	nw := m.eval(e.C)
	if a < 0 || m.err != nil {
		return 0
	}
	if m.mem[a] == exp {
		m.store(e.A, a, nw)
		m.casOutcome(1)
		return 1
	}
	m.casOutcome(0)
	return 0
}

// The loops over threads (evalThreads): whether a thread is left, the
// lowest one left (in a loop whose order is free; the others choose), and
// the visited set with a thread added.

func evThreadsLeft(m *machine, e *ir.Expr) int32 {
	return b2i(m.threadsLeft(m.eval(e.A), e.V) != 0)
}

func evLowestThread(m *machine, e *ir.Expr) int32 {
	return int32(bits.TrailingZeros32(m.threadsLeft(m.eval(e.A), e.V))) + 1
}

func evAddThread(m *machine, e *ir.Expr) int32 {
	return m.eval(e.A) | 1<<uint(m.eval(e.B)-1)
}

// evField reads a field of a node.
func evField(m *machine, e *ir.Expr) int32 {
	id := m.eval(e.A)
	if id == 0 || m.err != nil {
		m.nullFailed(e)
		return 0
	}
	return m.mem[m.p.Layout.NodeAddr(id)+m.p.Layout.Hdr+e.V]
}

func evNeg(m *machine, e *ir.Expr) int32 { return m.checkInt(-m.eval(e.A)) }

func evNot(m *machine, e *ir.Expr) int32 { return 1 - m.eval(e.A) }

// b2i is a comparison's value.
func b2i(c bool) int32 {
	if c {
		return 1
	}
	return 0
}

// operands evaluates the operands of the binary operator e, the left one
// first, as evalNode does; a constant right operand (i < n, i + 1), the
// common case, is read without eval's call.
func (m *machine) operands(e *ir.Expr) (x, y int32) {
	x = m.eval(e.A)
	y = e.B.V
	if e.B.Kind != ir.EConst {
		y = m.eval(e.B)
	}
	return x, y
}

func evAdd(m *machine, e *ir.Expr) int32 {
	x, y := m.operands(e)
	return m.checkInt(x + y)
}

func evSub(m *machine, e *ir.Expr) int32 {
	x, y := m.operands(e)
	return m.checkInt(x - y)
}

func evMul(m *machine, e *ir.Expr) int32 {
	x, y := m.operands(e)
	v, _ := ir.Binop(syntax.MUL, x, y)
	return m.checkInt(v)
}

func evEql(m *machine, e *ir.Expr) int32 {
	x, y := m.operands(e)
	return b2i(x == y)
}

func evNeq(m *machine, e *ir.Expr) int32 {
	x, y := m.operands(e)
	return b2i(x != y)
}

func evLss(m *machine, e *ir.Expr) int32 {
	x, y := m.operands(e)
	return b2i(x < y)
}

func evLeq(m *machine, e *ir.Expr) int32 {
	x, y := m.operands(e)
	return b2i(x <= y)
}

func evGtr(m *machine, e *ir.Expr) int32 {
	x, y := m.operands(e)
	return b2i(x > y)
}

func evGeq(m *machine, e *ir.Expr) int32 {
	x, y := m.operands(e)
	return b2i(x >= y)
}

func evLand(m *machine, e *ir.Expr) int32 {
	if m.eval(e.A) == 0 {
		return 0
	}
	return m.eval(e.B)
}

func evLor(m *machine, e *ir.Expr) int32 {
	if m.eval(e.A) != 0 {
		return 1
	}
	return m.eval(e.B)
}

// evIntOp evaluates an integer operation of a Go type (package intop):
// a conversion has no second operand. evaluatorOf always chooses it for
// them, so that evalNode, whose size decides what the compiler inlines
// into the hot paths, need not know them.
func evIntOp(m *machine, e *ir.Expr) int32 {
	x := m.eval(e.A)
	var y int32
	if e.B != nil {
		y = m.eval(e.B)
	}
	if m.err != nil {
		return 0
	}
	v, f := intop.Eval(intop.Code(e.V), x, y)
	if f != intop.OK {
		m.fail("%s", f)
	}
	return v
}
