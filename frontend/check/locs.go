package check

import (
	"slices"

	"github.com/linbis/linbis/frontend/syntax"
)

// References to locations. `&e` takes the location e — a shared
// variable, an element of a shared array, a field of a node — as a value
// of type `loc T`, T being e's type; `*l` is the location a loc l refers
// to, read, written (`*l = v`) and updated (cas(*l, …), swap, faa) as e
// itself would be. A loc is the pointer to a pointer of Michael's list
// (`prev = &cur.next`).
//
// A loc value is a word of two fields (WordType.Loc): the node whose field
// it refers to (a reference, null for a shared location) and the offset:
// the field's slot in the node, or the shared slot plus one (the null loc,
// the zero value, is (null, 0)). As a word it is stored, compared (==, !=)
// and compared-and-swapped whole, in locals, shared variables and node
// fields, and its node is a reference like any other: garbage collection
// keeps the node alive, the canonical renumbering renames it.
//
// Locals have no address (a loc refers to shared state), nor do whole
// arrays, [thread] arrays (permuting the threads would move the location
// under the loc) and single fields of a word (a word is written whole);
// a loc to a thread id is refused for the same reason as a thread id in
// a node.

// locType returns the type `loc t`: the one word type per target type
// (so that two locs of the same target type are of the same type).
func (c *checker) locType(t Type) Type {
	t.Tid = false
	for _, w := range c.locs {
		if sameType(*w.Loc, t) {
			return Type{Kind: Word, Word: w}
		}
	}
	w := &WordType{Name: "loc " + t.String(), Loc: &t, Fields: []*Field{
		{Name: "node", Type: Type{Kind: Ref}, Index: 0},
		{Name: "offset", Type: Type{Kind: Int}, Index: 1},
	}}
	c.locs = append(c.locs, w)
	return Type{Kind: Word, Word: w}
}

// sameType reports whether a and b are the same type (ranges included).
func sameType(a, b Type) bool {
	return a.Kind == b.Kind && a.Word == b.Word && a.HasRange == b.HasRange && a.Lo == b.Lo && a.Hi == b.Hi &&
		a.Wrap == b.Wrap && slices.Equal(a.Heaps(), b.Heaps())
}

// IsLoc reports whether t is a loc type.
func (t Type) IsLoc() bool { return t.Kind == Word && t.Word.Loc != nil }

// addrOf checks `&x`.
func (c *checker) addrOf(e *syntax.UnaryExpr) Type {
	t := c.expr(e.X)
	if t.Kind == Invalid {
		return Type{}
	}
	ok := false
	switch x := syntax.Unparen(e.X).(type) {
	case *syntax.Ident:
		v := c.info.Uses[x]
		ok = v != nil && v.Kind == SharedVar && !v.IsArray()
	case *syntax.IndexExpr:
		if sel, isSel := syntax.Unparen(x.X).(*syntax.SelectorExpr); isSel { // p.view[i]
			xt := c.info.Types[sel.X]
			ok = xt.Kind == Ref && xt.Union == nil
			break
		}
		id, idx := Indices(x)
		v := c.info.Uses[id]
		ok = v != nil && v.Kind == SharedVar && v.ThreadDims == 0 && len(idx) == 1
	case *syntax.SelectorExpr:
		xt := c.info.Types[x.X]
		ok = xt.Kind == Ref && xt.Union == nil
	}
	switch {
	case !ok:
		c.errorf(e.Pos, "& takes a shared variable (&Head), an element of a shared array without [thread] dimensions (&a[i]) or a field of a node (&p.next, &p.view[i]); locals, whole arrays and a word's single fields have no address")
		return Type{}
	case t.Kind == Thread:
		c.errorf(e.Pos, "& of a thread id location: a loc may not refer to thread ids (thread symmetry could not rename them)")
		return Type{}
	}
	return c.locType(t)
}

// deref checks `*l`.
func (c *checker) deref(e *syntax.UnaryExpr) Type {
	t := c.expr(e.X)
	if t.Kind == Invalid {
		return Type{}
	}
	if !t.IsLoc() {
		c.errorf(e.Pos, "* takes a loc (a value of &x), not %s", t)
		return Type{}
	}
	return *t.Word.Loc
}
