package check

import (
	"slices"
	"strings"

	"github.com/linbis/linbis/frontend/syntax"
)

// The checks of references to one of several node types, `ref A | B`:
// a descriptor or a value in RDCSS's data word, the descriptors of
// several kinds of MCAS. Such a reference may hold a node of any of its
// types (or null). It is tested with `x is A` (false for null, and never
// a shared access: a node's type never changes while it is referenced),
// converted with `x as A` (a ref A: a model error if x holds a node of
// another type; null stays null), and its fields are read directly only
// when every type declares the field alike (same name, type and place,
// like a common header), so that no access depends on a type the checker
// cannot see. A ref A is assignable to a ref A | B, not the converse.

// heap returns the heap type named by id, or nil after reporting it
// undefined.
func (c *checker) heap(id *syntax.Ident) *Heap {
	var names []string
	for _, h := range c.obj.Heaps {
		if h.Name == id.Name {
			return h
		}
		names = append(names, h.Name)
	}
	c.errorf(id.Pos, "undefined heap type %s%s", id.Name, hint(id.Name, names))
	return nil
}

// union checks the type ref A | B | ….
func (c *checker) union(t *syntax.Type) Type {
	var hs []*Heap
	for _, id := range append([]*syntax.Ident{t.Ref}, t.Refs...) {
		h := c.heap(id)
		if h == nil {
			return Type{}
		}
		if slices.Contains(hs, h) {
			c.errorf(id.Pos, "%s appears twice in the union", h.Name)
			continue
		}
		hs = append(hs, h)
	}
	if len(hs) == 1 {
		return Type{Kind: Ref, Node: hs[0]}
	}
	slices.SortFunc(hs, func(a, b *Heap) int { return a.ID - b.ID })
	return Type{Kind: Ref, Union: hs}
}

// unionField checks the selector e of a field of a reference of the
// union type t: every type of the union must declare the field alike.
func (c *checker) unionField(e *syntax.SelectorExpr, t Type) Type {
	var first *Field
	var lacking []string
	for _, h := range t.Union {
		var f *Field
		for _, g := range h.Fields {
			if g.Name == e.Sel.Name {
				f = g
			}
		}
		switch {
		case f == nil || first != nil && (f.Index != first.Index || f.Type.String() != first.Type.String()):
			lacking = append(lacking, h.Name)
		case first == nil:
			first = f
		}
	}
	if first == nil || len(lacking) > 0 {
		c.errorf(e.Sel.Pos, "%s: field %s is not declared alike (same type, same place) in every type of the union (not in %s); test the node with `is` and read the field after a conversion, (x as %s).%s",
			t, e.Sel.Name, strings.Join(lacking, ", "), t.Union[0].Name, e.Sel.Name)
		return Type{}
	}
	c.info.Fields[e] = first
	return first.Type
}

// test checks x is T and x as T.
func (c *checker) test(e *syntax.TestExpr) Type {
	op := "is"
	if e.As {
		op = "as"
	}
	xt := c.expr(e.X)
	h := c.heap(e.Type)
	switch {
	case xt.Kind == Invalid || h == nil:
		return Type{}
	case xt.Kind != Ref:
		c.errorf(e.OpPos, "%s needs a reference, not %s", op, xt)
		return Type{}
	case !xt.Has(h):
		c.errorf(e.Type.Pos, "%s never holds a node of type %s", xt, h.Name)
		return Type{}
	}
	c.info.Tests[e] = h
	if e.As {
		return Type{Kind: Ref, Node: h}
	}
	return Type{Kind: Bool}
}
