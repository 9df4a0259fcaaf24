package check

import "github.com/linbis/linbis/frontend/syntax"

// Arrays inside nodes and words: a field of constant length, `view [3]
// int` or `view [1..3] int`, as the embedded views of Afek et al.'s
// snapshot registers. Its bounds are integer literals (a node's slots are
// fixed before nthreads is known), at most maxFieldArray elements, and it
// takes one slot per element (per field of a word element) in its node
// or word. p.view[i] is an element, read and written (cas, swap, faa, &)
// like a field, the index checked when it runs (out of range: a model
// error). Of a word, w.view[i] reads an element of a word held in a local
// (a word is read and written whole); a word is built with an array
// field from a local array of the same length (W(v, a)). A new node's
// array field starts zeroed.

// maxFieldArray bounds the elements of an array field.
const maxFieldArray = 64

// fieldType returns the type of the field f of in (an array field's
// element type) and, for an array field, its number of elements and its
// lowest index.
func (c *checker) fieldType(f *syntax.Field, in string) (Type, int, int) {
	d := f.Type
	if len(d.ThreadDims) > 0 {
		c.errorf(d.Pos, "field %s: an array field has one ordinary dimension ([n] or [lo..hi]), no [thread] one", f.Name.Name)
		return Type{}, 0, 0
	}
	if d.Len == nil {
		return c.typ(d, false), 0, 0
	}
	elem := *d
	elem.Len, elem.LenLo, elem.ThreadDims = nil, nil, nil
	t := c.typ(&elem, false)
	n, lo, ok := c.literalLength(d, "an array field")
	if !ok {
		return t, 1, 0
	}
	if n < 1 || n > maxFieldArray {
		c.errorf(d.Len.Start(), "array field %s of %s has %d elements; it needs between 1 and %d", f.Name.Name, in, n, maxFieldArray)
		return t, 1, int(lo)
	}
	return t, int(n), int(lo)
}

// arrayField returns the array field that the selector e names, or nil.
func (c *checker) arrayField(e *syntax.SelectorExpr) *Field {
	if f := c.info.Fields[e]; f != nil && f.Elems > 0 {
		return f
	}
	return nil
}

// fieldIndex checks p.view[i] or w.view[i], an element of an array
// field: sel is p.view.
func (c *checker) fieldIndex(e *syntax.IndexExpr, sel *syntax.SelectorExpr) Type {
	c.indexed = sel
	t := c.expr(sel)
	c.indexed = nil
	it := c.expr(e.Index)
	if it.Kind != Int && it.Kind != Invalid {
		c.errorf(e.Index.Start(), "array index must be int, not %s", it)
	}
	if t.Kind == Invalid {
		return t
	}
	f := c.arrayField(sel)
	if f == nil {
		c.errorf(sel.Sel.Pos, "%s is not an array field", sel.Sel.Name)
		return Type{}
	}
	if c.info.Types[sel.X].Kind == Word && !c.localWord(sel.X) {
		c.errorf(sel.Sel.Pos, "%s[i] reads an element of a word held in a local; read the word into a local first (w := …; w.%s[i])", f.Name, f.Name)
	}
	return t
}

// localWord reports whether e is a local variable (or parameter).
func (c *checker) localWord(e syntax.Expr) bool {
	id, ok := syntax.Unparen(e).(*syntax.Ident)
	if !ok {
		return false
	}
	v := c.info.Uses[id]
	return v != nil && (v.Kind == LocalVar || v.Kind == ParamVar) && !v.IsArray()
}

// checkArrayField reports the selector e of the array field f where an
// element is needed (not under fieldIndex).
func (c *checker) checkArrayField(e *syntax.SelectorExpr, f *Field) {
	if f.Elems > 0 && c.indexed != e {
		c.errorf(e.Sel.Pos, "%s is an array field; select an element, %s[i]", f.Name, f.Name)
	}
}
