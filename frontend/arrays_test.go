package frontend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGoldenLocalArrays pins the LTS of two models with local arrays, for
// one thread and one operation, derived by hand.
func TestGoldenLocalArrays(t *testing.T) {
	one := Bounds{Threads: 1, Ops: 1, Values: []int{1}}
	tests := []struct{ name, src, aut string }{{
		// collect: from 1 the step declares a (zeroed) and i, tests
		// i < 2, copies x[0] into a[0] (the shared read), increments i
		// and ends at the back edge (1 → 2); the next iteration copies
		// x[1] (2 → 3); then the test fails and the return, with no
		// shared access before it in its step, is the ret: 3 + 3.
		name: "collect",
		src: `object L {
  shared x [2] int = 3
  method m() int {
    var a [2] int
    i := 0
    while i < 2 { a[i] = x[i]; i = i + 1 }
    return a[0] + a[1]
  }
}
spec auto`,
		aut: `des (0, 4, 5)
(0,"call(1,m)",1)
(1,"tau",2)
(2,"tau",3)
(3,"ret(1,m,6)",4)
`,
	}, {
		// references: the new node is private (local work); from 1 the
		// step publishes it in top and stops before top = null (1 → 2);
		// that store ends the step before the return (2 → 3), and the
		// node lives on through p[0] alone (the collector follows
		// references in local arrays), so the ret reads its v (3 → 4).
		name: "references",
		src: `object L {
  heap N { v int }
  shared top ref N = null
  method m() int {
    var p [2] ref N
    p[0] = new N{v: 1}
    top = p[0]
    top = null
    return p[0].v
  }
}
spec auto`,
		aut: `des (0, 4, 5)
(0,"call(1,m)",1)
(1,"tau",2)
(2,"tau",3)
(3,"ret(1,m,1)",4)
`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.aut, autOf(t, tc.src, one))
		})
	}
}

// TestLocalArrayIndexOutOfRange: an index outside a local array's bounds
// is a model error at the access, with the trace.
func TestLocalArrayIndexOutOfRange(t *testing.T) {
	src := `object L {
  shared x int = 0
  method m(k int) int {
    var a [1..2] int
    a[k] = x
    return a[k]
  }
}
spec auto`
	me := modelError(t, "l.lin", src, Bounds{Threads: 1, Ops: 1, Values: []int{3}})
	assert.Equal(t, "index 3 out of range [1..2] of a", me.Msg)
	assert.True(t, strings.HasPrefix(me.Error(), "l.lin:5:"), me.Error())
}
