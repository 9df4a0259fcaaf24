package frontend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLocNodeRenumbered checks that the node a loc refers into is
// renumbered with the heap: two threads allocate A's and B's nodes in
// either order, so A's node has either address, and a loc to A's field,
// published in L with A (atomically, so that L never keeps an old node
// alive), must not tell the orders apart. The LTS then has
// exactly the states of the same object with a flag in L's place, in both
// heap modes; a loc whose node kept its address would split them.
func TestLocNodeRenumbered(t *testing.T) {
	const model = `object O {
  heap N { v int; next ref N }
  shared A ref N = null
  shared B ref N = null
  shared L loc int
  method a() { atomic { n := new N{v: 1}; A = n; L = &n.v } }
  method b() { n := new N{v: 2}; B = n; n.next = A }
  method c() int { atomic { l := L; var z loc int; if l == z { return 0 }; return *l } }
}
spec auto
client { threads 2; ops 2; values 1 }
`
	flag := strings.NewReplacer("shared L loc int", "shared L int = 0", "L = &n.v", "L = 1",
		"l := L; var z loc int; if l == z { return 0 }; return *l", "if L == 0 { return 0 }; return A.v").Replace(model)
	require.NotEqual(t, model, flag)
	for _, explicit := range []bool{false, true} {
		states := func(src string) int32 {
			m, err := Parse("m.lin", []byte(src))
			require.NoError(t, err)
			opts := Options{}
			opts.Explicit = explicit
			impl, _, err := Compile(m, m.DefaultBounds(), opts)
			require.NoError(t, err)
			return impl.NumStates
		}
		assert.Equal(t, states(flag), states(model), "explicit=%v", explicit)
	}
}
