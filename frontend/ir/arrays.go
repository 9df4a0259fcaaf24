package ir

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
func (c *compiler) elem(v *check.Var, idx *Expr, j int32) *Expr {
	stride := int32(v.Type.Slots())
	if v.Kind == check.SharedVar {
		off, lo, n := c.shared(v)
		return &Expr{Kind: EElem, V: off + j, Lo: lo, N: n, Stride: stride, A: idx, Name: v.Name, Shared: true}
	}
	lo := int32(0)
	if v.LenLo != nil {
		lo, _ = c.constEval(v.LenLo) // a literal (checked)
	}
	return &Expr{Kind: ELocalElem, V: c.frameBase() + int32(v.Slot) + j, Lo: lo, N: int32(v.Elems), Stride: stride, A: idx, Name: v.Name}
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
	var lhs, xs []*Expr
	base := c.frameBase() + int32(v.Slot)
	comps := v.Type.Components()
	for e := range v.Elems {
		for j, ct := range comps {
			slot := base + int32(e*len(comps)+j)
			lhs = append(lhs, &Expr{Kind: ELocal, V: slot, Name: v.Name, Ref: ct.Kind == check.Ref, Pos: s.Pos})
			xs = append(xs, &Expr{Kind: EConst})
		}
	}
	c.assign(s, lhs, xs)
}
