package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// TestExamplesCompile compiles every bundled model for 2 threads × 2
// operations and checks that its specification has no τ-cycle and that
// every transition carries its thread and source step.
func TestExamplesCompile(t *testing.T) {
	names := Examples()
	require.GreaterOrEqual(t, len(names), 12)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, err := Example(name)
			require.NoError(t, err)
			m, err := Parse(name+".lin", src)
			require.NoError(t, err)
			b := m.DefaultBounds()
			b.Threads, b.Ops = 2, 2
			impl, spec, err := Compile(m, b, Options{})
			require.NoError(t, err)
			for _, l := range []*lts.LTS{impl, spec} {
				require.NoError(t, l.Validate())
				require.NotNil(t, l.Meta)
				for tr := range l.Src {
					assert.Positive(t, l.Meta.Thread[tr])
					_, ok := l.StepOf(int32(tr))
					assert.True(t, ok, "transition %d has no source step", tr)
				}
			}
			assert.Zero(t, lts.ComputeStats(spec).DivergentStates, "spec has a τ-cycle")
			t.Logf("impl %d states %d transitions; spec %d states %d transitions",
				impl.NumStates, impl.NumTransitions(), spec.NumStates, spec.NumTransitions())
		})
	}
}
