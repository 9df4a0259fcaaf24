package refine

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lts"
)

// countTo returns an LTS that counts a's up to n and then does b: as an
// implementation against itself, the search explores n+1 pairs.
func countTo(n int32) *lts.LTS {
	var ts []lts.Triple
	for s := int32(0); s < n; s++ {
		ts = append(ts, lts.Triple{Src: s, Label: "a", Dst: s + 1})
	}
	ts = append(ts, lts.Triple{Src: n, Label: "b", Dst: n})
	return lts.FromTriples(0, n+1, ts)
}

// TestCancelledContextStops: the search and the minimisation before it
// stop once Options.Context has ended, with an error wrapping its cause.
func TestCancelledContextStops(t *testing.T) {
	l := countTo(1 << 16)
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := &limits.LimitError{Limit: limits.Time, Value: 1, Err: errors.New("time limit reached")}
	cancel(cause)
	for _, quotient := range []bool{false, true} {
		res, err := Check(l, l, Options{Context: ctx, Quotient: quotient, Antichain: true})
		var le *limits.LimitError
		require.ErrorAs(t, err, &le, "quotient=%v", quotient)
		assert.Same(t, cause, le)
		if !quotient {
			assert.Less(t, res.Stats.Pairs, int64(1<<16), "the search stopped early")
		}
	}
	res, err := Check(l, l, Options{Context: context.Background(), Antichain: true})
	require.NoError(t, err)
	assert.True(t, res.Refines)
}

// TestPairLimitIsTyped: the pair limit is a *limits.LimitError with the
// limit's value, and still wraps ErrPairLimit.
func TestPairLimitIsTyped(t *testing.T) {
	l := countTo(100)
	_, err := Check(l, l, Options{MaxPairs: 10})
	var le *limits.LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, limits.Pairs, le.Limit)
	assert.Equal(t, int64(10), le.Value)
	assert.ErrorIs(t, err, ErrPairLimit)
	assert.Contains(t, err.Error(), "pair limit reached: explored 10 pairs")
}
