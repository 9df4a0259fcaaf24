package verify

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/limits/limitstest"
	"github.com/linbis/linbis/internal/meter"
)

// TestContextStopsEachStage ends the run's context from inside each
// stage (at its first progress report, with a time limit as the cause, as
// limits.Watch does) and checks that the run stops there: the stage is
// recorded as "limit", no later stage runs, and Run returns the limit with
// the partial report, whose text names the limit and its reason.
func TestContextStopsEachStage(t *testing.T) {
	m, err := frontend.ParseExample("treiber")
	require.NoError(t, err)
	b := m.DefaultBounds()
	b.Threads, b.Ops = 3, 1
	cases := []struct {
		method Method
		at     string // the progress report that ends the context
		stages []string
		stored string // how the message names what was stored
	}{
		{Bisim, "exploring", []string{"compile"}, `^implementation \w+: exploration stopped after \d+ states expanded \(\d+ stored, \d+ transitions\): `},
		// GJ: the kernel is built, then refined.
		{Bisim, "kernel states", []string{"compile", "bisimulation"}, `^with the implementation's LTS of \d+ states and \d+ transitions explored, bisimulation stopped: `},
		{Refine, "refinement pairs", []string{"compile", "refinement"}, `^refinement stopped after \d+ pairs: `},
		{Fly, "product pairs", []string{"on-the-fly"}, `^(the ladder's client \d+×\d+: )?the on-the-fly search stopped after \d+ product pairs and \d+ implementation states: `},
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
			// The limit, in the words of the stage it stopped, which say
			// what the stage had stored (issue 38 item 5).
			assert.Equal(t, limits.Time, le.Limit)
			assert.Equal(t, cause.Value, le.Value)
			assert.ErrorIs(t, err, cause)
			assert.Regexp(t, c.stored, le.Error())
			assert.True(t, strings.HasSuffix(le.Error(), ": "+cause.Error()), le.Error())
			require.NotNil(t, out)
			assert.False(t, out.Finished)
			r := out.Report
			assert.Equal(t, "time", r.StoppedBy)
			assert.Equal(t, le.Error(), r.Reason)
			if c.method == Fly {
				// The report counts what the search stored.
				require.NotNil(t, r.OnTheFly)
				assert.Positive(t, r.OnTheFly.Pairs)
				assert.Positive(t, r.OnTheFly.States)
				assert.False(t, r.OnTheFly.Complete)
			}
			validateReport(t, r)
			// The text report says it too, for a reader without stderr.
			var text strings.Builder
			require.NoError(t, WriteText(&text, r))
			assert.Contains(t, text.String(), "\nstopped by the time limit: "+le.Error()+"\n")
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

// TestFlyStopKeepsDecidedVerdict: stopped by a limit at each of its
// polls in turn, the on-the-fly route reports linearizability wherever
// its search of the requested bounds had decided it before the stop (a
// stop in the cycle search), as the uninterrupted run does, and
// lock-freedom undecided.
func TestFlyStopKeepsDecidedVerdict(t *testing.T) {
	for _, name := range []string{"treiber", "lamport-queue-2p"} {
		m, err := frontend.ParseExample(name)
		require.NoError(t, err)
		b := m.DefaultBounds()
		b.Threads, b.Ops, b.Values = 2, 2, []int{1}
		opts := Options{Method: Fly}
		whole, err := Run(context.Background(), name, m, b, opts)
		require.NoError(t, err)
		kept := 0
		for k := 0; ; k++ {
			out, err := Run(limitstest.StopAt(k), name, m, b, opts)
			if err == nil {
				assert.Equal(t, whole.Report.Linearizable, out.Report.Linearizable, name)
				break
			}
			require.ErrorAs(t, err, new(*LimitError), "%s, stop %d", name, k)
			r := out.Report
			if r.Linearizable == Unknown {
				continue
			}
			assert.Equal(t, whole.Report.Linearizable, r.Linearizable, "%s, stop %d", name, k)
			assert.Equal(t, Unknown, r.LockFree, "%s, stop %d", name, k)
			assert.Equal(t, "time", r.StoppedBy)
			validateReport(t, r)
			kept++
		}
		assert.Positive(t, kept, "%s: a stop after the verdict of linearizability", name)
	}
}
