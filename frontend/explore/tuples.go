package explore

import (
	"strings"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// Tuple results of methods (check/tuples.go). A ret label carries one
// value, so `return a, b` packs the values in mixed radix, each by the
// size of its component's range (bool: 2), the first most significant:
// deterministic, with no table to share between workers, and unpacked
// only to print the label, ret(T,M,a,b), whose values are listed as a
// call's arguments are.

// pack compiles `return a, b, …` of a method with a tuple result.
func (c *compiler) pack(s *syntax.ReturnStmt) *expr {
	x := &expr{k: ePack, v: c.m.index}
	for _, v := range append([]syntax.Expr{s.Value}, s.Rest...) {
		x.list = append(x.list, c.expr(v))
	}
	return x
}

// tupleRange returns the lowest value and the number of values of a
// component of a tuple result.
func tupleRange(t check.Type) (lo, size int32) {
	if t.Kind == check.Bool {
		return 0, 2
	}
	return int32(t.Lo), int32(t.Hi - t.Lo + 1)
}

// formatResult prints the result value v of m as a label shows it: the
// values of a tuple separated by commas, else the one value.
func (m *method) formatResult(v int32) string {
	if m.tuple == nil {
		return formatValue(m.result, v)
	}
	vals := make([]string, len(m.tuple))
	for i := len(m.tuple) - 1; i >= 0; i-- {
		lo, size := tupleRange(m.tuple[i])
		vals[i] = formatValue(m.tuple[i].Kind, lo+v%size)
		v /= size
	}
	return strings.Join(vals, ",")
}
