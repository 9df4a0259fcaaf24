package explore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/explore"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/limits"
)

// TestDeadlineStopsTheSearch: a search that would take minutes (Treiber,
// 3 threads of 3 operations) stops soon after its context's deadline,
// with one goroutine or several, with an error wrapping the context's
// cause; and the state limit is a *limits.LimitError. Either way the
// error is an *explore.StoppedError whose counts are the message's.
func TestDeadlineStopsTheSearch(t *testing.T) {
	m, err := frontend.ParseExample("treiber")
	require.NoError(t, err)
	b := frontend.Bounds{Threads: 3, Ops: 3, Values: []int{1, 2}}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := explore.Explore(m.Program, m.Program.Impl, b, semantics.Options{Context: ctx, Workers: workers})
			elapsed := time.Since(start)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Regexp(t, `exploration stopped after \d+ states expanded \(\d+ stored, \d+ transitions\): `, err.Error(), "what was stored")
			var se *explore.StoppedError
			require.ErrorAs(t, err, &se)
			want := fmt.Sprintf("exploration stopped after %d states expanded (%d stored, %d transitions): ", se.Expanded, se.States, se.Transitions)
			assert.True(t, strings.HasPrefix(err.Error(), want), "the counts are the message's: %q, %q", err, want)
			assert.LessOrEqual(t, se.Expanded, se.States)
			t.Logf("stopped after %s", elapsed)
			assert.Less(t, elapsed, 5*time.Second, "stopped promptly")
		})
	}
	_, err = explore.Explore(m.Program, m.Program.Impl, b, semantics.Options{MaxStates: 100})
	var le *limits.LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, limits.States, le.Limit)
	assert.Equal(t, int64(100), le.Value)
	assert.ErrorIs(t, err, semantics.ErrStateLimit)
	var se *explore.StoppedError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 101, se.States, "one state past the limit")
	assert.Contains(t, err.Error(), fmt.Sprintf("(%d transitions so far; %d states fully expanded", se.Transitions, se.Expanded))
}
