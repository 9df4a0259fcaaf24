package check

import "github.com/linbis/linbis/frontend/syntax"

// MaxTupleValues bounds the number of values of a method's tuple result.
const MaxTupleValues = 1 << 24

// methodTuple checks the tuple result (T, U, …) of method m: a snapshot's
// components, a seqlock reader's two words. The values of a tuple are
// packed into the one value a ret label carries (mixed radix, each
// component by its range) and printed as a list, ret(2,read,1,2); so each
// component is a bool or a ranged int, and a value outside its range is
// a model error.
func (c *checker) methodTuple(m *Method, d *syntax.Method) {
	size := int64(1)
	for i, t := range m.Results {
		switch {
		case t.Kind == Bool:
			size *= 2
		case t.Kind == Int && t.HasRange:
			size *= t.Hi - t.Lo + 1
		case t.Kind == Invalid:
		default:
			c.errorf(d.Tuple[i].Pos, "method %s: the values of a tuple result are bool or int(lo..hi), which its ret label packs, not %s", m.Name, t)
			return
		}
		if size > MaxTupleValues {
			c.errorf(d.Tuple[0].Pos, "method %s: its tuple result has more than %d values; narrow the ranges", m.Name, MaxTupleValues)
			return
		}
	}
}
