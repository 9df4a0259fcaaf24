package check

import "github.com/linbis/linbis/frontend/syntax"

// MaxWordFields bounds the fields of a word type.
const MaxWordFields = 8

// The checks of multi-field atomic words. A word (`word MarkedRef { ref
// ref Node; mark bool }`) is a value of several scalar fields that lives
// in one shared location: a heap field, a shared variable or an array
// element, or a local. It is read, written, compared (== and !=) and
// compared-and-swapped whole; its fields are read with a selector
// (p.next.mark) but never written one by one, since a field store would
// be a partial write of the location. A value is built with the word's
// name as a function of its fields in order: MarkedRef(n, false).

// wordField checks the selector e of a field of a value of word type w.
func (c *checker) wordField(e *syntax.SelectorExpr, w *WordType) Type {
	if w.Loc != nil {
		c.errorf(e.Sel.Pos, "a %s has no fields; (*l).%s selects in the location it refers to", w.Name, e.Sel.Name)
		return Type{}
	}
	var names []string
	for _, f := range w.Fields {
		if f.Name == e.Sel.Name {
			c.info.Fields[e] = f
			c.checkArrayField(e, f)
			return f.Type
		}
		names = append(names, f.Name)
	}
	c.errorf(e.Sel.Pos, "word %s has no field %s%s", w.Name, e.Sel.Name, hint(e.Sel.Name, names))
	return Type{}
}

// build checks the construction W(a, b, …) of a value of word type w:
// one argument per field, in the fields' order.
func (c *checker) build(e *syntax.CallExpr, w *WordType) Type {
	c.info.Builds[e] = w
	if len(e.Args) != len(w.Fields) {
		c.errorf(e.Fun.Pos, "%s(…) takes %d values, one per field (%s), got %d", w.Name, len(w.Fields), fieldList(w), len(e.Args))
	}
	for i, a := range e.Args {
		if i < len(w.Fields) && w.Fields[i].Elems > 0 {
			c.arrayArg(a, w, w.Fields[i])
			continue
		}
		t := c.expr(a)
		if i < len(w.Fields) && !assignable(w.Fields[i].Type, t) {
			c.errorf(a.Start(), "field %s of %s is %s, not %s", w.Fields[i].Name, w.Name, w.Fields[i].Type, t)
		}
	}
	return Type{Kind: Word, Word: w}
}

// fieldList is the fields of w as declared: "ref ref Node, mark bool".
func fieldList(w *WordType) string {
	s := ""
	for i, f := range w.Fields {
		if i > 0 {
			s += ", "
		}
		s += f.Name + " " + f.Type.String()
	}
	return s
}

// arrayArg checks the argument a of a construction of w for its array
// field f: a local array of f's length and element type.
func (c *checker) arrayArg(a syntax.Expr, w *WordType, f *Field) {
	id, ok := syntax.Unparen(a).(*syntax.Ident)
	var v *Var
	if ok {
		if v = c.lookup(id.Name); v != nil {
			c.info.Uses[id] = v
		}
	}
	if v == nil || v.Kind != LocalVar || v.Elems != f.Elems || !sameType(v.Type, f.Type) {
		if !ok {
			c.expr(a)
		}
		c.errorf(a.Start(), "field %s of %s is an array of %d %s: give a local array of the same length and type (var a [%d] %s)", f.Name, w.Name, f.Elems, f.Type, f.Elems, f.Type)
		return
	}
	c.info.Types[a] = v.Type
}
