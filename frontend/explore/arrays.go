package explore

import (
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// Local arrays (check/arrays.go) take one slot per element (per field of
// a word element) among the thread's locals. An element is read and
// written by eLocalElem, whose index is known only at run time: for the
// liveness of locals a read uses the whole array and a write defines
// none of it (it keeps the other elements), so the array stays live from
// its declaration to its last read.

// elem returns element idx of the array v, at slot j of the element (a
// field of a word element, 0 for a scalar): shared or local.
func (c *compiler) elem(v *check.Var, idx *expr, j int32) *expr {
	stride := int32(v.Type.Slots())
	if v.Kind == check.SharedVar {
		off, lo, n := c.shared(v)
		return &expr{k: eElem, v: off + j, lo: lo, n: n, stride: stride, a: idx, name: v.Name, shared: true}
	}
	lo := int32(0)
	if v.LenLo != nil {
		lo, _ = c.constEval(v.LenLo) // a literal (checked)
	}
	return &expr{k: eLocalElem, v: c.frameBase() + int32(v.Slot) + j, lo: lo, n: int32(v.Elems), stride: stride, a: idx, name: v.Name}
}

// frameBase is the slot of the first local of the frame being lowered.
func (c *compiler) frameBase() int32 {
	if len(c.frames) > 0 {
		return c.frames[len(c.frames)-1].base
	}
	return 0
}

// zeroArray lowers `var a [n] T`: every slot of the array is zeroed, so
// that a declaration inside a loop starts each iteration afresh.
func (c *compiler) zeroArray(s *syntax.VarStmt, v *check.Var) {
	var lhs, xs []*expr
	base := c.frameBase() + int32(v.Slot)
	comps := v.Type.Components()
	for e := range v.Elems {
		for j, ct := range comps {
			slot := base + int32(e*len(comps)+j)
			lhs = append(lhs, &expr{k: eLocal, v: slot, name: v.Name, ref: ct.Kind == check.Ref, pos: s.Pos})
			xs = append(xs, &expr{k: eConst})
		}
	}
	c.assign(s, lhs, xs)
}
