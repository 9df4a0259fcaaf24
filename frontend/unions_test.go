package frontend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unionModel keeps a reference to an A or a B in x.
const unionModel = `object U {
  heap A { v int }
  heap B { w int }
  shared x ref A | B = null
  init { x = new A{v: 3} }
  method flip() int {
    r := x
    if r is A { x = new B{w: (r as A).v + 1}; return 0 }
    return (r as B).w
  }
}
spec auto`

// TestGoldenUnion pins the LTS of unionModel for one thread and two
// operations, derived by hand. The type test and the conversion read the
// node's type, which is no shared access: from 1 the step reads x (the A
// node #1{v: 3}), tests it (local) and stops before the store into x
// (1 → 2); the store replaces x by B{w: 4} and stops before the return
// (2 → 3); the return of 0 is the ret step (3 → 4; the A node is now
// garbage). The second flip reads x, finds a B and stops before the
// return, whose field read is shared (5 → 6), then returns 4 (6 → 7).
// 8 states, 7 transitions.
func TestGoldenUnion(t *testing.T) {
	want := `des (0, 7, 8)
(0,"call(1,flip)",1)
(1,"tau",2)
(2,"tau",3)
(3,"ret(1,flip,0)",4)
(4,"call(1,flip)",5)
(5,"tau",6)
(6,"ret(1,flip,4)",7)
`
	assert.Equal(t, want, autOf(t, unionModel, Bounds{Threads: 1, Ops: 2, Values: []int{1}}))
}

// TestUnionConversionFails: converting a reference to a type its node
// does not have is a model error at the conversion, with the trace: the
// second flip finds the B node and converts it to an A.
func TestUnionConversionFails(t *testing.T) {
	src := strings.Replace(unionModel, "return (r as B).w", "return (r as A).v", 1)
	me := modelError(t, "u.lin", src, Bounds{Threads: 1, Ops: 2, Values: []int{1}})
	assert.Equal(t, "conversion to A of a node of type B", me.Msg)
	assert.True(t, strings.HasPrefix(me.Error(), "u.lin:9:"), me.Error())
	require.NotNil(t, me.Trace)
	assert.Len(t, me.Trace.Steps, 7)
}
