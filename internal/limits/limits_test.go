package limits

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// limitOf waits for ctx to end and returns its cause's LimitError.
func limitOf(t *testing.T, ctx context.Context) *LimitError {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the limit was not reported")
	}
	var le *LimitError
	require.ErrorAs(t, Err(ctx), &le)
	return le
}

func TestTimeLimitIsReported(t *testing.T) {
	ctx, stop := Watch(context.Background(), Limits{Time: 20 * time.Millisecond}, time.Millisecond)
	defer stop()
	le := limitOf(t, ctx)
	assert.Equal(t, Time, le.Limit)
	assert.Equal(t, int64(20*time.Millisecond), le.Value)
	assert.Equal(t, "time limit reached: still running after 20ms", le.Error())
	assert.Equal(t, "time", le.Limit.String())
}

func TestMemoryLimitIsReported(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	// Any running Go process holds more than one byte.
	ctx, stop := Watch(context.Background(), Limits{Memory: 1}, time.Millisecond)
	defer stop()
	le := limitOf(t, ctx)
	assert.Equal(t, Memory, le.Limit)
	assert.Contains(t, le.Error(), "memory limit reached: ")
	assert.Contains(t, le.Error(), "in use, limit 1 B")
}

func TestNoLimitNoReport(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	ctx, stop := Watch(context.Background(), Limits{Time: time.Hour, Memory: 1 << 50}, time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	assert.NoError(t, Err(ctx))
	stop()
	ctx, stop = Watch(context.Background(), Limits{}, time.Millisecond)
	assert.NoError(t, Err(ctx))
	stop()
	assert.NoError(t, Err(nil), "a nil context never ends")
}

// TestLimitErrorWraps: a LimitError says its stage's message and lets
// errors.Is find the library's sentinel.
func TestLimitErrorWraps(t *testing.T) {
	sentinel := errors.New("pair limit reached")
	err := fmt.Errorf("refinement: %w", &LimitError{Limit: Pairs, Value: 3, Err: fmt.Errorf("%w: explored 3 pairs", sentinel)})
	var le *LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, Pairs, le.Limit)
	assert.Equal(t, "pair limit reached: explored 3 pairs", le.Error())
	assert.ErrorIs(t, err, sentinel)
	assert.Equal(t, "states limit 10 reached", (&LimitError{Limit: States, Value: 10}).Error())
	assert.Equal(t, "Kind(9)", Kind(9).String())
}

func TestHeldAndDefault(t *testing.T) {
	assert.Greater(t, Held(), int64(1<<20), "a Go test process holds more than a MiB")
	if d := DefaultMemory(); d != 0 {
		require.Greater(t, d, int64(1<<20))
	}
}
