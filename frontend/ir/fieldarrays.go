package ir

import (
	"fmt"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// Array fields (check's fieldarrays.go) take one slot per element (per
// field of a word element) in their node or word, from the field's
// first slot. An element of a node's array field is EFieldElem, whose
// index is known only at run time: a shared access, a location of its
// own for the partial-order footprints when the index is a constant and
// the whole array otherwise. An element of a word's array field is read
// from a word held in a local, as an element of a local array.

// fieldElem compiles p.view[i] or w.view[i]: one location per slot of the
// element.
func (c *compiler) fieldElem(e *syntax.IndexExpr) []*Expr {
	sel := syntax.Unparen(e.X).(*syntax.SelectorExpr)
	f := c.info.Fields[sel]
	comps := f.Type.Components()
	stride := int32(len(comps))
	idx := c.expr(e.Index)
	out := make([]*Expr, len(comps))
	if c.info.Types[sel.X].Kind == check.Word {
		xs := c.values(sel.X)
		if first := xs[f.Index]; first.Kind == ELocal {
			out[0] = &Expr{Kind: ELocalElem, V: first.V, Lo: int32(f.Lo), N: int32(f.Elems), Stride: 1, A: idx, Name: first.Name, Ref: f.Type.Kind == check.Ref, Pos: e.Start()}
			return out
		}
		c.errs.Add(c.file.Position(sel.Sel.Pos), fmt.Sprintf("internal error: %s[i] of a word not held in a local", sel.Sel.Name))
		out[0] = &Expr{Kind: EConst}
		return out
	}
	node := c.expr(sel.X)
	if len(comps) > 1 {
		c.pure(node, "the node of "+f.Name+"[…]")
		c.pure(idx, "the index of "+f.Name+"[…]")
	}
	for j, ct := range comps {
		x := &Expr{Kind: EFieldElem, V: int32(f.Index + j), A: cloneExpr(node), B: cloneExpr(idx), Lo: int32(f.Lo), N: int32(f.Elems), Stride: stride,
			Name: f.Name, Shared: true, Ref: ct.Kind == check.Ref, Pos: e.Start()}
		if ct.HasRange {
			x.Rng = &comps[j]
		}
		out[j] = x
	}
	return out
}
