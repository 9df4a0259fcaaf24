package verify

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
)

// TestContextStopsEachStage ends the run's context from inside each
// stage (at its first progress report, with a time limit as the cause, as
// limits.Watch does) and checks that the run stops there: the stage is
// recorded as "limit", no later stage runs, and Run returns the limit with
// the partial report.
func TestContextStopsEachStage(t *testing.T) {
	src, err := frontend.Example("treiber")
	require.NoError(t, err)
	m, err := frontend.Parse("treiber.lin", src)
	require.NoError(t, err)
	b := m.DefaultBounds()
	b.Threads, b.Ops = 3, 1
	cases := []struct {
		method Method
		at     string // the progress report that ends the context
		stages []string
	}{
		{Bisim, "exploring", []string{"compile"}},
		{Bisim, "kernel states", []string{"compile", "bisimulation"}}, // GJ: the kernel is built, then refined
		{Refine, "refinement pairs", []string{"compile", "refinement"}},
		{Fly, "product pairs", []string{"on-the-fly"}},
	}
	for _, c := range cases {
		t.Run(string(c.method)+" at "+c.at, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			cause := &limits.LimitError{Limit: limits.Time, Value: 1, Err: errors.New("time limit reached: still running after 1ns")}
			opts := Options{Method: c.method, Antichain: true, Algorithm: bisim.GJ,
				Progress: meter.Func(func(stage string, _ int64, _ string) {
					if stage == c.at {
						cancel(cause)
					}
				})}
			out, err := Run(ctx, "treiber", m, b, opts)
			var le *LimitError
			require.ErrorAs(t, err, &le)
			assert.Same(t, cause, le)
			require.NotNil(t, out)
			assert.False(t, out.Finished)
			r := out.Report
			assert.Equal(t, "time", r.StoppedBy)
			var names []string
			for _, s := range r.Stages {
				names = append(names, s.Name)
			}
			assert.Equal(t, c.stages, names)
			assert.Equal(t, "limit", r.Stages[len(r.Stages)-1].Result)
			assert.Equal(t, Unknown, r.Linearizable)
			assert.Equal(t, Unknown, r.LockFree)
		})
	}
}
