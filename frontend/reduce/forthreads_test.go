package reduce

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/explore"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/lts"
)

// orderFreePicks counts the loops over threads of p that take their
// threads in ascending order (orderFree).
func orderFreePicks(p *ir.Program) int {
	n := 0
	for _, in := range p.Code {
		if in.X != nil && in.X.Kind == ir.EPickThread && in.X.Lo == 1 {
			n++
		}
	}
	return n
}

// TestOrderFreeLoopsKeepTheLTS: taking the iterations of an order-free
// loop over threads in ascending order (orderFree) gives the LTS that
// every order gives, byte for byte, on the models that have such loops;
// and the loops that write what they read, or write different constants,
// keep every order.
func TestOrderFreeLoopsKeepTheLTS(t *testing.T) {
	cases := []struct {
		name, file, src string
		b               ir.Bounds
		free            int // order-free loops of the implementation
	}{
		{"hp-stack-sym", "hp-stack-sym.lin", "", ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}, 2},
		{"hp-stack-sym", "hp-stack-sym.lin", "", ir.Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}, 2},
		// Its count (c = c + 1) is order-free, but not by orderFree's rule.
		{"per-thread", "", perThread, ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}, 0},
		{"not order-free", "", `object O {
  shared last thread
  shared A [thread] int = 0
  method m() {
    atomic { for j in threads { last = j } }
    atomic { n := 0; for j in others { if A[j] == 0 { n = n + 1 } }; A[tid] = n }
    atomic { for j in others { A[j] = 1; A[tid] = 2 } }
  }
}
spec auto
`, ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}, 0},
	}
	for _, c := range cases {
		for _, explicit := range []bool{false, true} {
			prog := loadModel(t, c.name, c.file, c.src)
			p, err := ir.Compile(prog, prog.Impl, c.b.Threads, c.b.Values, false, explicit)
			require.NoError(t, err)
			assert.Equal(t, c.free, orderFreePicks(p), "%s: order-free loops", c.name)
			aut := func(anyOrder bool) string {
				ir.InAnyOrder = anyOrder
				defer func() { ir.InAnyOrder = true }()
				l, err := explore.Explore(prog, prog.Impl, c.b, semantics.Options{Explicit: explicit, Workers: 1})
				require.NoError(t, err)
				var buf bytes.Buffer
				require.NoError(t, lts.WriteAut(&buf, l))
				return buf.String()
			}
			// Every order gives the same successors, each once per order:
			// the same states and transitions up to repeats.
			every, ascending := aut(false), aut(true)
			assert.Equal(t, transitionSet(ascending), transitionSet(every), "%s %v explicit=%v", c.name, c.b, explicit)
		}
	}
}

// transitionSet returns the states and the distinct transitions of an
// .aut text, sorted.
func transitionSet(aut string) string {
	lines := strings.Split(strings.TrimSpace(aut), "\n")
	states := strings.Split(strings.TrimSuffix(lines[0], ")"), ", ")
	body := slices.Compact(slices.Sorted(slices.Values(lines[1:])))
	return states[len(states)-1] + " states\n" + strings.Join(body, "\n")
}

// TestOrderFreeSpecAuto: outside an atomic block a loop over threads
// keeps every order (its steps interleave with the others'); spec auto
// makes the body one atomic block, where the same loop is order-free.
func TestOrderFreeSpecAuto(t *testing.T) {
	prog := parseSource(t, "auto.lin", `object O {
  shared A [thread] int = 0
  method m() bool {
    A[tid] = 1
    found := false
    for j in others { if A[j] != 0 { found = true } }
    return found
  }
}
spec auto
`)
	for _, c := range []struct {
		obj  *check.Object
		free int
	}{{prog.Impl, 0}, {prog.Spec, 1}} {
		p, err := ir.Compile(prog, c.obj, 3, []int{1}, false, false)
		require.NoError(t, err)
		assert.Equal(t, c.free, orderFreePicks(p), "auto=%v", c.obj.Auto)
	}
}
