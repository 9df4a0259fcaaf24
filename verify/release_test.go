package verify

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
)

// TestReleaseImplSameReport checks that releasing the implementation's
// LTS during the bisimulation (Options.ReleaseImpl, here on every size)
// changes no verdict, quotient or counterexample: a bisimilar model's
// Outcome.Impl is gone, and a model that is not bisimilar is explored
// again, to the same LTS, for its counterexample, refinement and
// lock-freedom checks.
func TestReleaseImplSameReport(t *testing.T) {
	defer func(v int) { releaseMinTransitions = v }(releaseMinTransitions)
	releaseMinTransitions = 0
	for _, c := range []struct {
		model     string
		ops       int
		explicit  bool
		bisimilar bool
	}{
		{"treiber", 0, false, true},
		{"ms-queue", 0, false, true},
		{"kregister", 0, false, false},
		{"counter2", 0, false, false},
		{"treiber-free", 3, true, false},
	} {
		t.Run(c.model, func(t *testing.T) {
			m, err := frontend.ParseExample(c.model)
			require.NoError(t, err)
			b := m.DefaultBounds()
			if c.ops != 0 {
				b.Ops = c.ops
			}
			run := func(release bool) *Outcome {
				opts := Options{Method: Bisim, Antichain: true, ReleaseImpl: release}
				opts.Compile.Explicit = c.explicit
				out, err := Run(context.Background(), c.model, m, b, opts)
				require.NoError(t, err)
				return out
			}
			kept, released := run(false), run(true)
			want, got := *kept.Report, *released.Report
			assert.Equal(t, verdictOf(c.bisimilar), got.Bisimilar)
			if c.bisimilar {
				assert.Nil(t, released.Impl)
				assert.Equal(t, want.Notes, got.Notes)
			} else {
				require.NotNil(t, released.Impl)
				assert.Equal(t, kept.Impl.Src, released.Impl.Src)
				assert.Equal(t, kept.Impl.Label, released.Impl.Label)
				assert.Equal(t, kept.Impl.Dst, released.Impl.Dst)
				assert.Contains(t, got.Notes, "the implementation's LTS, released during the bisimulation, was explored again for the counterexample")
			}
			assert.Equal(t, kept.ImplQuotient, released.ImplQuotient)
			want.Stages, got.Stages, want.Notes, got.Notes = nil, nil, nil, nil
			assert.Equal(t, want, got)
		})
	}
}
