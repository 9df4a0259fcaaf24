package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/linbis/linbis/lts"
)

// TestDrawIsTheFamily checks the sizes, the labels and the share of τ of
// what Draw returns, and that a seed names one LTS.
func TestDrawIsTheFamily(t *testing.T) {
	l := Draw(500, 5000, 20, 0.3, 1)
	assert.NoError(t, l.Validate())
	assert.Equal(t, int32(500), l.NumStates)
	assert.Equal(t, 5000, l.NumTransitions())
	assert.Equal(t, 21, l.NumLabels(), "τ and 20 visible labels")
	tau := 0
	for _, a := range l.Label {
		if a == lts.Tau {
			tau++
		}
	}
	assert.InDelta(t, 1500, tau, 150, "30 %% τ")
	assert.Equal(t, l, Draw(500, 5000, 20, 0.3, 1))
	assert.NotEqual(t, l, Draw(500, 5000, 20, 0.3, 2))
}
