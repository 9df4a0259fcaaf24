package semantics

import (
	"testing"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/syntax"
)

// failMsg is m's failure message, "" if none.
func failMsg(m *machine) string {
	if m.err == nil {
		return ""
	}
	return m.err.Msg
}

// TestBinaryEvaluators holds each binary operator's evaluator to binop and
// checkInt, the general path's semantics, over operands at the edges of
// the integers (overflow, EMPTY, division by zero), with the right operand
// a constant and a local.
func TestBinaryEvaluators(t *testing.T) {
	ops := []syntax.Token{syntax.ADD, syntax.SUB, syntax.MUL, syntax.QUO, syntax.REM,
		syntax.EQL, syntax.NEQ, syntax.LSS, syntax.LEQ, syntax.GTR, syntax.GEQ, syntax.LAND, syntax.LOR}
	vals := []int32{0, 1, -1, 2, -3, 7, maxInt, -maxInt, maxInt - 1, 1 << 20, ir.Empty}
	for _, op := range ops {
		for _, constRight := range []bool{true, false} {
			for _, x := range vals {
				for _, y := range vals {
					var want int32
					wantErr := false
					switch op {
					case syntax.LAND:
						want = y
						if x == 0 {
							want = 0
						}
					case syntax.LOR:
						want = y
						if x != 0 {
							want = 1
						}
					default:
						v, ok := ir.Binop(op, x, y)
						want = v
						wantErr = !ok || (v > maxInt || v < -maxInt) && v != ir.Empty
					}
					b := &ir.Expr{Kind: ir.ELocal, V: 1}
					if constRight {
						b = &ir.Expr{Kind: ir.EConst, V: y}
					}
					e := &ir.Expr{Kind: ir.EBinary, Op: op, A: &ir.Expr{Kind: ir.ELocal, V: 0}, B: b}
					m := machineWith(&ir.Program{}, e, []int32{0, 0, 0, x, y})
					got := m.eval(e)
					if wantErr {
						if m.err == nil {
							t.Errorf("%v %v %v (constant right %v): no failure, want one", x, op, y, constRight)
						}
						continue
					}
					if m.err != nil || got != want {
						t.Errorf("%v %v %v (constant right %v) = %v, %q; want %v", x, op, y, constRight, got, failMsg(m), want)
					}
				}
			}
		}
	}
}

// TestLocationEvaluators holds the evaluators of array elements and node
// fields to the general path, a load from addr's location, in value and
// failure message, for indices in and out of range and null.
func TestLocationEvaluators(t *testing.T) {
	p := &ir.Program{Layout: ir.Layout{HeapBase: 12, NodeSize: 2, Hdr: 0}}
	mem := []int32{0, 0, 0, 0, 0, 10, 11, 12, 13, 14, 15, 0, 2, 20, 21, 22, 23} // A at 5, two nodes at 13
	for _, stride := range []int32{0, 2} {
		for i := int32(-1); i <= 4; i++ {
			e := &ir.Expr{Kind: ir.EElem, V: 5, Lo: 1, N: 3, Stride: stride, Name: "A", A: &ir.Expr{Kind: ir.ELocal, V: 0}}
			fast := machineWith(p, e, append([]int32(nil), mem...))
			fast.mem[ir.TLocals] = i
			got := fast.eval(e)
			slow := &machine{p: p, mem: append([]int32(nil), mem...)}
			slow.mem[ir.TLocals] = i
			var want int32
			if a := slow.addr(e); a >= 0 {
				want = slow.mem[a]
			}
			if got != want || failMsg(fast) != failMsg(slow) {
				t.Errorf("A[%d] (stride %d) = %d, %q; want %d, %q", i, stride, got, failMsg(fast), want, failMsg(slow))
			}
		}
	}
	for id := int32(0); id <= 2; id++ {
		e := &ir.Expr{Kind: ir.EField, V: 1, Name: "next", A: &ir.Expr{Kind: ir.ELocal, V: 0}}
		fast := machineWith(p, e, append([]int32(nil), mem...))
		fast.mem[ir.TLocals] = id
		got := fast.eval(e)
		slow := &machine{p: p, mem: append([]int32(nil), mem...)}
		slow.mem[ir.TLocals] = id
		var want int32
		if a := slow.addr(e); a >= 0 {
			want = slow.mem[a]
		}
		if got != want || failMsg(fast) != failMsg(slow) {
			t.Errorf("node %d's next = %d, %q; want %d, %q", id, got, failMsg(fast), want, failMsg(slow))
		}
	}
}

// machineWith returns a machine over mem that runs a copy of p whose code
// is the one expression e, lowered.
func machineWith(p *ir.Program, e *ir.Expr, mem []int32) *machine {
	q := *p
	q.Code = []ir.Instr{{Op: ir.OpEval, X: e}}
	m := newMachine(&q, false, false, 0)
	m.mem = mem
	return &m
}
