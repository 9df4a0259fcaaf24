package explore

import "github.com/linbis/linbis/frontend/syntax"

// Evaluators. The machine evaluates each expression with a function
// chosen once for its kind, operator and operands (evaluatorOf), so that
// evaluating it dispatches once: the general evalNode switches on the
// kind, then on the operator, calls binop and tests for the short-circuit
// operators, and that was a third of the instructions of an interpreter-
// bound model (the atomic loops of hp-stack's scan). The instructions are
// data that the front ends produce; the machine keeps the evaluators in a
// table indexed by expr.id (evaluators). The kinds without an evaluator of
// their own use evalNode, which gives every failure its message; the
// evaluators below report the same failures in the same order.

// evaluator evaluates e on m (see eval).
type evaluator func(m *machine, e *expr) int32

// evaluators returns the table of the evaluators of p's expressions,
// indexed by their ids; entry 0, for an expression without an id, is the
// general evalNode.
func evaluators(p *program) []evaluator {
	evals := make([]evaluator, p.nexprs+1)
	evals[0] = (*machine).evalNode
	for i := range p.code {
		in := &p.code[i]
		for _, l := range in.targets() {
			walkExpr(l, func(e *expr) { evals[e.id] = evaluatorOf(e) })
		}
		for _, x := range in.values() {
			walkExpr(x, func(e *expr) { evals[e.id] = evaluatorOf(e) })
		}
	}
	return evals
}

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
	syntax.ADD: func(m *machine, e *expr) int32 { return m.checkInt(m.eval(e.a) + e.b.v) },
	syntax.SUB: func(m *machine, e *expr) int32 { return m.checkInt(m.eval(e.a) - e.b.v) },
	syntax.EQL: func(m *machine, e *expr) int32 { return b2i(m.eval(e.a) == e.b.v) },
	syntax.NEQ: func(m *machine, e *expr) int32 { return b2i(m.eval(e.a) != e.b.v) },
	syntax.LSS: func(m *machine, e *expr) int32 { return b2i(m.eval(e.a) < e.b.v) },
	syntax.LEQ: func(m *machine, e *expr) int32 { return b2i(m.eval(e.a) <= e.b.v) },
	syntax.GTR: func(m *machine, e *expr) int32 { return b2i(m.eval(e.a) > e.b.v) },
	syntax.GEQ: func(m *machine, e *expr) int32 { return b2i(m.eval(e.a) >= e.b.v) },
}

// evaluatorOf chooses e's evaluator.
func evaluatorOf(e *expr) evaluator {
	switch e.k {
	case eConst:
		return evConst
	case eLocal:
		return evLocal
	case eShared:
		return evShared
	case eElem:
		if e.b == nil {
			return evElem
		}
	case eField:
		return evField
	case eUnary:
		if e.op == syntax.SUB {
			return evNeg
		}
		return evNot
	case eBinary:
		if f := constRightEvaluators[e.op]; f != nil && e.b.k == eConst {
			return f
		}
		if f := binaryEvaluators[e.op]; f != nil {
			return f
		}
	}
	return (*machine).evalNode
}

func evConst(_ *machine, e *expr) int32 { return e.v }

func evLocal(m *machine, e *expr) int32 { return m.mem[m.base+tLocals+e.v] }

func evShared(m *machine, e *expr) int32 { return m.mem[e.v] }

// evElem reads an element of a shared array of one dimension.
func evElem(m *machine, e *expr) int32 {
	i := m.eval(e.a)
	if i < e.lo || i >= e.lo+e.n || m.err != nil {
		m.indexFailed(e, i)
		return 0
	}
	return m.mem[e.v+(i-e.lo)*max(e.stride, 1)]
}

// evField reads a field of a node.
func evField(m *machine, e *expr) int32 {
	id := m.eval(e.a)
	if id == 0 || m.err != nil {
		m.nullFailed(e)
		return 0
	}
	return m.mem[m.p.lay.nodeAddr(id)+m.p.lay.hdr+e.v]
}

func evNeg(m *machine, e *expr) int32 { return m.checkInt(-m.eval(e.a)) }

func evNot(m *machine, e *expr) int32 { return 1 - m.eval(e.a) }

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
func (m *machine) operands(e *expr) (x, y int32) {
	x = m.eval(e.a)
	y = e.b.v
	if e.b.k != eConst {
		y = m.eval(e.b)
	}
	return x, y
}

func evAdd(m *machine, e *expr) int32 {
	x, y := m.operands(e)
	return m.checkInt(x + y)
}

func evSub(m *machine, e *expr) int32 {
	x, y := m.operands(e)
	return m.checkInt(x - y)
}

func evMul(m *machine, e *expr) int32 {
	x, y := m.operands(e)
	v, _ := binop(syntax.MUL, x, y)
	return m.checkInt(v)
}

func evEql(m *machine, e *expr) int32 {
	x, y := m.operands(e)
	return b2i(x == y)
}

func evNeq(m *machine, e *expr) int32 {
	x, y := m.operands(e)
	return b2i(x != y)
}

func evLss(m *machine, e *expr) int32 {
	x, y := m.operands(e)
	return b2i(x < y)
}

func evLeq(m *machine, e *expr) int32 {
	x, y := m.operands(e)
	return b2i(x <= y)
}

func evGtr(m *machine, e *expr) int32 {
	x, y := m.operands(e)
	return b2i(x > y)
}

func evGeq(m *machine, e *expr) int32 {
	x, y := m.operands(e)
	return b2i(x >= y)
}

func evLand(m *machine, e *expr) int32 {
	if m.eval(e.a) == 0 {
		return 0
	}
	return m.eval(e.b)
}

func evLor(m *machine, e *expr) int32 {
	if m.eval(e.a) != 0 {
		return 1
	}
	return m.eval(e.b)
}
