package ir

import (
	"strconv"
	"strings"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/intop"
	"github.com/linbis/linbis/frontend/syntax"
)

// Tuple results of methods (check/tuples.go). A ret label carries one
// value, so `return a, b` packs the values in mixed radix, each by the
// size of its component's range (bool: 2), the first most significant:
// deterministic, with no table to share between workers, and unpacked
// only to print the label, ret(T,M,a,b), whose values are listed as a
// call's arguments are.

// pack compiles `return a, b, …` of a method with a tuple result.
func (c *compiler) pack(s *syntax.ReturnStmt) *Expr {
	x := &Expr{Kind: EPack, V: c.m.Index}
	for _, v := range append([]syntax.Expr{s.Value}, s.Rest...) {
		x.List = append(x.List, c.expr(v))
	}
	return x
}

// TupleRange returns the lowest value and the number of values of a
// component of a tuple result.
func TupleRange(t check.Type) (lo, size int32) {
	if t.Kind == check.Bool {
		return 0, 2
	}
	return int32(t.Lo), int32(t.Hi - t.Lo + 1)
}

// FormatResult prints the result value v of m as a label shows it: the
// values of a tuple separated by commas, else the one value.
func (m *Method) FormatResult(v int32) string {
	if m.Tuple == nil {
		return m.format(0, m.Result, v)
	}
	vals := make([]string, len(m.Tuple))
	for i := len(m.Tuple) - 1; i >= 0; i-- {
		lo, size := TupleRange(m.Tuple[i])
		vals[i] = m.format(i, m.Tuple[i].Kind, lo+v%size)
		v /= size
	}
	return strings.Join(vals, ",")
}

// format prints result i, of kind k, as its format says (Formats).
func (m *Method) format(i int, k check.Kind, v int32) string {
	if i < len(m.Formats) {
		if ik, ok := intop.KindNamed(m.Formats[i]); ok { // a Go integer: -2^30 is a number, not EMPTY
			if ik.Unsigned() {
				return strconv.FormatUint(intop.Value(ik, v), 10)
			}
			return strconv.FormatInt(int64(intop.Value(ik, v)), 10)
		}
		switch m.Formats[i] {
		case "any":
			if v == Empty {
				return "nil"
			}
		case "anytag": // an any whose value carries its type's tag: tag·2^25 + value
			if v == Empty {
				return "nil"
			}
			return strconv.FormatInt(int64(v)-(int64(v)+1<<24)>>25<<25, 10)
		}
	}
	return FormatValue(k, v)
}
