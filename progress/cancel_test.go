package progress

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// TestCancelledContextStops: the annotation, the product with the pending
// sets and the searches of Check stop once Options.Context has ended, with
// an error wrapping its cause.
func TestCancelledContextStops(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	// A long run of internal steps after a call: 2^16 states to annotate.
	ts := []lts.Triple{triple(0, "call(1,m)", 1)}
	for s := int32(1); s < 1<<16; s++ {
		ts = append(ts, triple(s, "tau", s+1))
	}
	long := lts.FromTriples(0, 1<<16+1, ts)
	// An LTS whose states do not determine the pending operations: its
	// product with the pending sets is built.
	ambiguous := lts.FromTriples(0, 3, []lts.Triple{triple(0, "tau", 2), triple(0, "call(1,m)", 1), triple(1, "tau", 2), triple(2, "tau", 2)})
	for name, l := range map[string]*lts.LTS{"annotate": long, "product": ambiguous} {
		_, err := NewCheckerOptions(l, Options{Context: cancelled})
		assert.ErrorIs(t, err, context.Canceled, name)
		assert.ErrorContains(t, err, "progress check stopped ("+name, name)
	}
	// Check itself, once the context ends after the annotation.
	ctx, cancel := context.WithCancel(context.Background())
	c, err := NewCheckerOptions(long, Options{Context: ctx})
	require.NoError(t, err)
	cancel()
	for _, p := range []Property{LockFree, DeadlockFree} {
		_, err = c.Check(p)
		assert.ErrorIs(t, err, context.Canceled, p.String())
	}
}
