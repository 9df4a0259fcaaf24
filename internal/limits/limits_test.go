package limits

import (
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTimeLimitIsReported(t *testing.T) {
	hits := make(chan string, 1)
	w := Watch(Limits{Time: 20 * time.Millisecond}, time.Millisecond, func(which Kind, msg string) {
		assert.Equal(t, Time, which)
		hits <- msg
	})
	defer w.Stop()
	select {
	case msg := <-hits:
		assert.Equal(t, "time limit reached: still running after 20ms", msg)
	case <-time.After(5 * time.Second):
		t.Fatal("the time limit was not reported")
	}
}

func TestMemoryLimitIsReported(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	hits := make(chan string, 1)
	// Any running Go process holds more than one byte.
	w := Watch(Limits{Memory: 1}, time.Millisecond, func(which Kind, msg string) {
		assert.Equal(t, Memory, which)
		hits <- msg
	})
	defer w.Stop()
	select {
	case msg := <-hits:
		assert.Contains(t, msg, "memory limit reached: ")
		assert.Contains(t, msg, "in use, limit 1 B")
	case <-time.After(5 * time.Second):
		t.Fatal("the memory limit was not reported")
	}
}

func TestNoLimitNoReport(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	w := Watch(Limits{Time: time.Hour, Memory: 1 << 50}, time.Millisecond, func(_ Kind, msg string) { t.Errorf("unexpected: %s", msg) })
	time.Sleep(20 * time.Millisecond)
	w.Stop()
	w.Stop() // idempotent
	Watch(Limits{}, time.Millisecond, func(_ Kind, msg string) { t.Errorf("unexpected: %s", msg) }).Stop()
}

func TestHeldAndDefault(t *testing.T) {
	assert.Greater(t, Held(), int64(1<<20), "a Go test process holds more than a MiB")
	if d := DefaultMemory(); d != 0 {
		require.Greater(t, d, int64(1<<20))
	}
}
