package check

import (
	"github.com/linbis/linbis/frontend/syntax"
)

// This file checks the per-thread forms: array elements `a[i]`,
// `RL[t][i]`, `PL[t][u]` (whose [thread] dimensions take thread ids), and
// the loops over threads `for j in others { … }`, `for j in threads { … }`.

// Indices returns the array named by the element expression e and its
// indices, outermost first: RL[t][i] gives RL and [t, i]; nil if e is not
// a name followed by indices.
func Indices(e *syntax.IndexExpr) (*syntax.Ident, []syntax.Expr) {
	var idx []syntax.Expr
	var x syntax.Expr = e
	for {
		switch y := x.(type) {
		case *syntax.IndexExpr:
			idx = append([]syntax.Expr{y.Index}, idx...)
			x = y.X
		case *syntax.Ident:
			return y, idx
		default:
			return nil, idx
		}
	}
}

// index checks an array element: a shared array with as many indices as
// dimensions, thread ids in the [thread] dimensions and ints in the
// ordinary one.
func (c *checker) index(e *syntax.IndexExpr) Type {
	id, idx := Indices(e)
	if id == nil {
		c.errorf(e.X.Start(), "only arrays can be indexed")
		for _, i := range idx {
			c.expr(i)
		}
		return Type{}
	}
	v := c.lookup(id.Name)
	types := make([]Type, len(idx))
	for k, i := range idx {
		types[k] = c.expr(i)
	}
	if v == nil {
		c.errorf(id.Pos, "undefined: %s%s", id.Name, hint(id.Name, c.visibleNames()))
		return Type{}
	}
	c.info.Uses[id] = v
	if !v.IsArray() {
		c.errorf(id.Pos, "%s is not an array", id.Name)
		return Type{}
	}
	if len(idx) != v.Dims() {
		c.errorf(e.Rbrack, "%s has %d dimension%s, indexed here with %d; write %s", v.Name, v.Dims(), plural(v.Dims()), len(idx), indexForm(v))
		return Type{}
	}
	for k, i := range idx {
		t := types[k]
		if t.Kind == Invalid {
			continue
		}
		if k < v.ThreadDims {
			if !assignable(Type{Kind: Thread}, t) {
				c.errorf(i.Start(), "a [thread] dimension of %s takes a thread id (tid or a thread value), not %s", v.Name, t)
			}
		} else if t.Kind != Int {
			c.errorf(i.Start(), "array index must be int, not %s", t)
		}
	}
	return v.Type
}

// indexForm is how v's elements are written, e.g. RL[t][i].
func indexForm(v *Var) string {
	s := v.Name
	for k := 0; k < v.ThreadDims; k++ {
		s += "[t]"
	}
	if v.Len != nil {
		s += "[i]"
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// forThreads checks `for j in others|threads { body }`: j is a thread
// local of the body's scope; break and continue may not leave the loop
// (branch), since its iterations have no order.
func (c *checker) forThreads(s *syntax.ForStmt) {
	c.scopes = append(c.scopes, map[string]*Var{})
	c.declareLocal(s.Var, Type{Kind: Thread}, LocalVar)
	c.info.Uses[s.Var] = c.scopes[len(c.scopes)-1][s.Var.Name]
	c.loops = append(c.loops, loopScope{atomics: c.atomics})
	c.block(s.Body, true)
	c.loops = c.loops[:len(c.loops)-1]
	c.scopes = c.scopes[:len(c.scopes)-1]
}
