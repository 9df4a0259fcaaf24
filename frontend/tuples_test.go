package frontend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// tupleModel returns a pair from two methods: one reads the values in
// two steps, the other in one atomic block.
const tupleModel = `object T {
  shared x int(0..3) = 2
  shared f bool = true
  method read() (int(0..3), bool) {
    a := x
    return a, f
  }
  method both() (int(0..3), bool) { atomic { return x, f } }
}
spec auto`

// TestGoldenTupleResults pins the LTS of tupleModel for one thread and
// one operation, derived by hand. read's step reads x and stops before
// the return, which reads f (1 → 3), then the ret carries both values
// (3 → 5); both's atomic block is one step that leaves the packed pair in
// the result slot (2 → 4), and the ret unpacks it (4 → 5). Both rets end
// in the same idle state: 6 states, 6 transitions, and the labels list
// the values as a call lists its arguments.
func TestGoldenTupleResults(t *testing.T) {
	want := `des (0, 6, 6)
(0,"call(1,read)",1)
(0,"call(1,both)",2)
(1,"tau",3)
(2,"tau",4)
(3,"ret(1,read,2,true)",5)
(4,"ret(1,both,2,true)",5)
`
	assert.Equal(t, want, autOf(t, tupleModel, Bounds{Threads: 1, Ops: 1, Values: []int{1}}))
}

// TestTupleResultOutOfRange: a value outside its component's range is a
// model error at the return (the packing would be ambiguous otherwise),
// found first in both, whose trace is the shorter.
func TestTupleResultOutOfRange(t *testing.T) {
	src := strings.Replace(tupleModel, "shared x int(0..3) = 2", "shared x int = 5", 1)
	me := modelError(t, "t.lin", src, Bounds{Threads: 1, Ops: 1, Values: []int{1}})
	assert.Equal(t, "result 1 of both: 5 is outside int(0..3)", me.Msg)
	assert.True(t, strings.HasPrefix(me.Error(), "t.lin:8:"), me.Error())
}
