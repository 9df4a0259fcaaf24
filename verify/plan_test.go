package verify

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/onthefly"
)

// TestPlanFor: the plan of every method, and what linearization points,
// --shortest, a small --max-states and ReleaseImpl change in it.
func TestPlanFor(t *testing.T) {
	linNote := "with linearization points only the refinement over lin events is checked (Liu et al. Thm 2)"
	porNote := "partial-order reduction not applied: --shortest asks for a shortest counterexample, and the reduced search may find a longer one first"
	all := onthefly.Reductions{Symmetry: true, PartialOrder: true}
	cases := []struct {
		name string
		opts Options
		want Plan
	}{
		{"bisim", Options{Method: Bisim, ReleaseImpl: true}, Plan{Method: Bisim, Bisimulation: true, ReleaseImpl: true}},
		{"both", Options{Method: Both, ReleaseImpl: true}, Plan{Method: Both, Bisimulation: true, RefineAlways: true}},
		{"refine", Options{Method: Refine}, Plan{Method: Refine, RefineAlways: true}},
		{"fly", Options{Method: Fly, Reductions: all}, Plan{Method: Fly, Reductions: all}},
		{"fly shortest", Options{Method: Fly, Reductions: all, Shortest: true},
			Plan{Method: Fly, Reductions: onthefly.Reductions{Symmetry: true}, Shortest: true, Notes: []string{porNote}}},
		{"auto under a small state limit", Options{Method: Auto, Compile: frontend.Options{MaxStates: 10}}, Plan{Method: Bisim, Bisimulation: true, ReleaseImpl: false}},
		{"bisim with lin points", Options{Method: Bisim, LinPoints: true}, Plan{Method: Refine, RefineAlways: true, Notes: []string{linNote}}},
		{"auto with lin points", Options{Method: Auto, LinPoints: true}, Plan{Method: Refine, RefineAlways: true, Notes: []string{linNote}}},
		{"refine with lin points", Options{Method: Refine, LinPoints: true}, Plan{Method: Refine, RefineAlways: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := PlanFor(c.opts)
			require.NoError(t, err)
			assert.Equal(t, c.want, *p)
		})
	}
	// Auto measures, then follows the bisimulation route's plan or the
	// fly route's own.
	for _, opts := range []Options{{}, {Method: Auto, Shortest: true, Reductions: all, ReleaseImpl: true}} {
		p, err := PlanFor(opts)
		require.NoError(t, err)
		assert.Equal(t, Auto, p.Method)
		fly, err := PlanFor(Options{Method: Fly, Shortest: opts.Shortest, Reductions: opts.Reductions})
		require.NoError(t, err)
		assert.Equal(t, fly, p.AutoFly)
		bisim, err := PlanFor(Options{Method: Bisim, ReleaseImpl: opts.ReleaseImpl})
		require.NoError(t, err)
		assert.Equal(t, bisim, p.AutoBisim)
	}
	_, err := PlanFor(Options{Method: Fly, LinPoints: true})
	assert.ErrorContains(t, err, "--lin-points needs the refinement method")
	_, err = PlanFor(Options{Method: "quick"})
	assert.ErrorContains(t, err, `unknown method "quick"`)
}
