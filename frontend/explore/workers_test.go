package explore_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/explore"
	"github.com/linbis/linbis/frontend/semantics"
)

// TestWorkersSameLTS checks that the parallel search numbers states and
// orders transitions exactly as the sequential one (Workers: 1), for
// several worker counts, in both heap modes, and that a model error and
// the state limit are reported as by the sequential search.
func TestWorkersSameLTS(t *testing.T) {
	cases := []struct {
		model        string
		threads, ops int
		values       []int
		explicit     bool
	}{
		{"treiber", 3, 2, []int{1}, false},
		{"treiber-free", 2, 2, []int{1, 2}, true},
		{"hp-stack", 2, 2, []int{1, 2}, false},
		{"ms-queue", 3, 1, []int{1}, false},
		{"hw-queue", 2, 2, []int{1, 2}, false},
		{"kregister", 3, 1, []int{1}, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d-%d/explicit=%v", c.model, c.threads, c.ops, c.explicit), func(t *testing.T) {
			m, err := frontend.ParseExample(c.model)
			require.NoError(t, err)
			b := frontend.Bounds{Threads: c.threads, Ops: c.ops, Values: c.values}
			objs := []struct {
				name string
				o    *check.Object
			}{{"impl", m.Program.Impl}, {"spec", m.Program.Spec}}
			for _, obj := range objs {
				want, err := explore.Explore(m.Program, obj.o, b, semantics.Options{Explicit: c.explicit, Workers: 1})
				require.NoError(t, err)
				require.Greater(t, want.NumStates, int32(100))
				for _, w := range []int{2, 3, 8} {
					got, err := explore.Explore(m.Program, obj.o, b, semantics.Options{Explicit: c.explicit, Workers: w})
					require.NoError(t, err)
					assert.Equal(t, want.NumStates, got.NumStates, "%s, %d workers: states", obj.name, w)
					assert.Equal(t, want.Labels, got.Labels, "%s, %d workers: labels", obj.name, w)
					assert.Equal(t, want.Src, got.Src, "%s, %d workers: sources", obj.name, w)
					assert.Equal(t, want.Label, got.Label, "%s, %d workers: labels", obj.name, w)
					assert.Equal(t, want.Dst, got.Dst, "%s, %d workers: targets", obj.name, w)
					assert.Equal(t, want.Meta, got.Meta, "%s, %d workers: threads and steps", obj.name, w)
				}
			}
		})
	}
}

// TestWorkersSameErrors checks that a model error found by the parallel
// search has the sequential search's trace, and that the state limit stops
// both at the same point.
func TestWorkersSameErrors(t *testing.T) {
	src := "object O {\n  shared c int = 0\n  method inc() { c = c + 1; assert c < 5 }\n}\nspec auto\n"
	m, err := frontend.Parse("m.lin", []byte(src))
	require.NoError(t, err)
	b := frontend.Bounds{Threads: 3, Ops: 2, Values: []int{1}}
	_, want := explore.Explore(m.Program, m.Program.Impl, b, semantics.Options{Workers: 1})
	var wantME *semantics.ModelError
	require.ErrorAs(t, want, &wantME)
	require.Greater(t, len(wantME.Trace.Steps), 5)
	tr, err := frontend.ParseExample("treiber")
	require.NoError(t, err)
	tb := frontend.Bounds{Threads: 3, Ops: 2, Values: []int{1}}
	_, wantLimit := explore.Explore(tr.Program, tr.Program.Impl, tb, semantics.Options{MaxStates: 5000, Workers: 1})
	require.ErrorIs(t, wantLimit, semantics.ErrStateLimit)
	for _, w := range []int{2, 3, 8} {
		_, got := explore.Explore(m.Program, m.Program.Impl, b, semantics.Options{Workers: w})
		var gotME *semantics.ModelError
		require.ErrorAs(t, got, &gotME)
		assert.Equal(t, wantME, gotME, "%d workers", w)
		_, gotLimit := explore.Explore(tr.Program, tr.Program.Impl, tb, semantics.Options{MaxStates: 5000, Workers: w})
		assert.Equal(t, wantLimit, gotLimit, "%d workers", w)
	}
}
