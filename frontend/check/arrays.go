package check

import "github.com/linbis/linbis/frontend/syntax"

// maxLocalArray bounds the elements of a local array (a method has at
// most 64 local slots).
const maxLocalArray = 64

// localArray checks `var a [n] T` and `var a [lo..hi] T`: a local array,
// such as the collect of a double-collect snapshot. Its bounds are
// integer literals, so that the slots of the locals are known before the
// model's bounds (nthreads) are; it starts zeroed, and like a shared array
// it is read and written an element at a time.
func (c *checker) localArray(s *syntax.VarStmt) {
	d := s.Type
	elem := *d
	elem.Len, elem.LenLo = nil, nil
	t := c.typ(&elem, false)
	elems := 1
	if n, _, ok := c.literalLength(d, "a local array"); ok {
		if n < 1 || n > maxLocalArray {
			c.errorf(d.Len.Start(), "local array %s has %d elements; it needs between 1 and %d", s.Name.Name, n, maxLocalArray)
		} else {
			elems = int(n)
		}
	}
	if s.Value != nil {
		c.expr(s.Value)
		c.errorf(s.Value.Start(), "a local array starts zeroed; assign its elements instead of giving it an initial value")
	}
	c.info.Vars[s] = c.declareArray(s.Name, t, d, elems)
}

// literalLength returns the number of elements and the lowest index of
// the array type d ([n] or [lo..hi]) of what (a local array, an array
// field), whose bounds must be integer literals; ok is false once a bound
// that is not one has been reported.
func (c *checker) literalLength(d *syntax.Type, what string) (n, lo int64, ok bool) {
	ok = true
	if d.LenLo != nil {
		lo, ok = c.literal(d.LenLo, what)
	}
	hi, okHi := c.literal(d.Len, what)
	switch {
	case !ok || !okHi:
		return 0, 0, false
	case d.LenLo != nil:
		return hi - lo + 1, lo, true
	}
	return hi, lo, true
}

// literal returns the value of e, an integer literal (or its negation),
// or reports that the bound of what (a local array, an array field) must
// be one.
func (c *checker) literal(e syntax.Expr, what string) (int64, bool) {
	switch x := syntax.Unparen(e).(type) {
	case *syntax.IntLit:
		return x.Value, true
	case *syntax.UnaryExpr:
		if lit, ok := syntax.Unparen(x.X).(*syntax.IntLit); ok && x.Op == syntax.SUB {
			return -lit.Value, true
		}
	}
	c.expr(e)
	c.errorf(e.Start(), "the bounds of %s are integer literals (its slots are fixed before nthreads is known)", what)
	return 0, false
}
