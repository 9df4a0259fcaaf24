package check

import (
	"github.com/linbis/linbis/frontend/intop"
	"github.com/linbis/linbis/frontend/syntax"
)

// intop checks a call of an integer operation of a Go type (`add_u64(x,
// y)`, package intop), which the Go front end writes: its operands are
// ints, its value an int, or a bool for a comparison.
func (c *checker) intop(e *syntax.CallExpr, code intop.Code) Type {
	if len(e.Args) != code.Args() {
		c.errorf(e.Fun.Pos, "%s takes %d arguments, got %d", e.Fun.Name, code.Args(), len(e.Args))
	}
	for _, a := range e.Args {
		if t := c.expr(a); t.Kind != Int && t.Kind != Invalid {
			c.errorf(a.Start(), "%s: an operand must be an int, not %s", e.Fun.Name, t)
		}
	}
	if code.Compare() {
		return Type{Kind: Bool}
	}
	return Type{Kind: Int}
}
