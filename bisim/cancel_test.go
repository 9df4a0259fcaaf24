package bisim

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// splitChain returns a path of n-1 states by a, closed into a cycle when
// cyclic, whose last state alone can do b, into state n-1: its classes
// split off one state at a time, so the refinement takes many steps, and
// without the cycle the one-pass classification reads many transitions.
func splitChain(n int32, cyclic bool) *lts.LTS {
	var ts []lts.Triple
	for s := int32(0); s+2 < n; s++ {
		ts = append(ts, lts.Triple{Src: s, Label: "a", Dst: s + 1})
	}
	if cyclic {
		ts = append(ts, lts.Triple{Src: n - 2, Label: "a", Dst: 0})
	}
	ts = append(ts, lts.Triple{Src: n - 2, Label: "b", Dst: n - 1})
	return lts.FromTriples(0, n, ts)
}

// TestCancelledContextStops: every long loop of the package — the fast
// refinement, GJ's and GV's, the one-pass classification, Compare's — stops
// once Options.Context has ended, and the exported function returns an
// error wrapping its cause, with no result.
func TestCancelledContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cyclic, acyclic := splitChain(1<<15, true), splitChain(1<<16, false)
	_, ok := classifyAcyclic(acyclic, Strong, &Options{})
	require.True(t, ok, "the one-pass case needs an LTS that the one-pass classification decides")
	cases := []struct {
		name string
		l    *lts.LTS
		opts Options
	}{
		{"fast", cyclic, Options{}},
		{"gj", cyclic, Options{Algorithm: GJ}},
		{"gv", splitChain(200, true), Options{Algorithm: GV}},
		{"one pass", acyclic, Options{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Context = ctx
			q, err := Quotient(c.l, Strong, c.opts)
			assert.ErrorIs(t, err, context.Canceled)
			assert.Nil(t, q)
			_, _, err = Partition(c.l, Branching, c.opts)
			assert.ErrorIs(t, err, context.Canceled)
			_, err = Compare(c.l, c.l, DivBranching, c.opts)
			assert.ErrorIs(t, err, context.Canceled)
			// A live context changes nothing.
			c.opts.Context = context.Background()
			q, err = Quotient(c.l, Strong, c.opts)
			require.NoError(t, err)
			assert.Equal(t, c.l.NumStates, q.NumStates, "every state of the chain is its own class")
		})
	}
}
