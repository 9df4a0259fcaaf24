package limitstest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/limits"
)

// TestStopAt: StopAt(n) lets n polls through, then every poll finds a
// time limit, which limits.Err reports as the cause, as for a deadline
// that limits.Watch set.
func TestStopAt(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		c := StopAt(n)
		for i := range n {
			require.NoError(t, limits.Err(c), "poll %d of StopAt(%d)", i, n)
		}
		for range 2 { // it stays ended
			var le *limits.LimitError
			require.ErrorAs(t, limits.Err(c), &le, "StopAt(%d)", n)
			assert.Equal(t, limits.Time, le.Limit)
			assert.ErrorIs(t, le, context.DeadlineExceeded)
		}
	}
}
