package ir

import (
	"fmt"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// References to locations (check's locs.go). A loc takes two slots, as a
// word of two fields: the node that holds the location (a reference
// slot: the canonical renumbering renames it, garbage collection follows
// it, explicit memory's reuse and the privacy test see it) and the offset
// (the field's slot in the node, or the shared slot plus one; (null, 0)
// is the null loc). So the machine finds the location in one addition,
// and a loc names the same location in every state that holds it, up to
// the renumbering of its node.
//
// &x compiles to the pair (node, EAddr{A: x}): x's address operands (the
// node of a field, the index of an element) are evaluated, x is not read,
// so taking an address is local work. *l compiles to one EDeref per slot
// of the location, each holding the loc's two slots; every access through
// a loc is a shared access (its target is known only at run time), and
// the analyses treat it as touching any location whose address the
// program takes (AddrTaken).

// addrOf compiles &x: the loc's node and offset.
func (c *compiler) addrOf(e *syntax.UnaryExpr) []*Expr {
	loc := c.values(syntax.Unparen(e.X))[0] // the location's first slot
	node := &Expr{Kind: EConst, Pos: e.Pos}
	off := &Expr{Kind: EAddr, A: loc, N: int32(c.info.Types[e.X].Slots()), Pos: e.Pos, Name: "&" + loc.Name}
	switch loc.Kind {
	case EField, EFieldElem:
		node = cloneExpr(c.pure(loc.A, "the node of &"+loc.Name))
		off.Shared = loc.A.Shared || loc.B != nil && loc.B.Shared
	case EElem:
		off.Shared = loc.A.Shared
	}
	node.Pos = e.Pos
	return []*Expr{node, off}
}

// deref compiles *l: one location per slot of its target type.
func (c *compiler) deref(e *syntax.UnaryExpr) []*Expr {
	t := c.info.Types[e]
	comps := t.Components()
	loc := c.values(e.X)
	name := "*" + locName(e.X)
	for _, x := range loc {
		c.pure(x, "the loc of "+name)
	}
	out := make([]*Expr, len(comps))
	for j, ct := range comps {
		x := &Expr{Kind: EDeref, V: int32(j), A: cloneExpr(loc[0]), B: cloneExpr(loc[1]), Shared: true, Pos: e.Pos,
			Name: name, Ref: ct.Kind == check.Ref}
		if t.Kind == check.Word {
			x.Name = fmt.Sprintf("(%s).%s", name, t.Word.Fields[j].Name)
		}
		if ct.HasRange {
			x.Rng = &comps[j]
		}
		out[j] = x
	}
	return out
}

// locName names the loc expression e in messages: its variable or field.
func locName(e syntax.Expr) string {
	switch e := syntax.Unparen(e).(type) {
	case *syntax.Ident:
		return e.Name
	case *syntax.SelectorExpr:
		return locName(e.X) + "." + e.Sel.Name
	case *syntax.IndexExpr:
		return locName(e.X) + "[…]"
	}
	return "loc"
}

// cloneExpr returns a deep copy of e: an expression belongs to one place
// of one instruction.
func cloneExpr(e *Expr) *Expr {
	if e == nil {
		return nil
	}
	y := *e
	y.A, y.B, y.C = cloneExpr(e.A), cloneExpr(e.B), cloneExpr(e.C)
	if e.List != nil {
		y.List = make([]*Expr, len(e.List))
		for i, x := range e.List {
			y.List[i] = cloneExpr(x)
		}
	}
	if e.Inits != nil {
		y.Inits = make([]FieldInit, len(e.Inits))
		for i, fi := range e.Inits {
			y.Inits[i] = FieldInit{Field: fi.Field, X: cloneExpr(fi.X)}
		}
	}
	return &y
}

// AddrTaken returns p's EAddr expressions: their locations (A, of N
// slots) are the only ones a loc can refer to, and so the ones an EDeref
// may touch.
func (p *Program) AddrTaken() []*Expr {
	var out []*Expr
	for i := range p.Code {
		in := &p.Code[i]
		for _, e := range append(in.Targets(), in.Values()...) {
			WalkExpr(e, func(x *Expr) {
				if x.Kind == EAddr {
					out = append(out, x)
				}
			})
		}
	}
	return out
}
