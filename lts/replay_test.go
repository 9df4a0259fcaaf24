package lts

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReplayShortest(t *testing.T) {
	// Two ways to do a·b: 0-τ->1-τ->2-a->3-b->4 and 0-a->5-τ->6-b->7; the
	// second is shorter by one step.
	l := FromTriples(0, 8, []Triple{
		{0, "tau", 1}, {1, "tau", 2}, {2, "a", 3}, {3, "b", 4},
		{0, "a", 5}, {5, "tau", 6}, {6, "b", 7},
	})
	path, ok := Replay(l, []string{"a", "b"})
	require.True(t, ok)
	tr := TraceOf(l, path)
	assert.Equal(t, []string{"a", "tau", "b"}, labelsOf(tr))
	assert.Equal(t, int32(0), tr.Steps[0].From)
	assert.Equal(t, int32(7), tr.Steps[2].To)

	_, ok = Replay(l, []string{"b"})
	assert.False(t, ok)
	_, ok = Replay(l, []string{"zzz"})
	assert.False(t, ok)
	path, ok = Replay(l, nil)
	assert.True(t, ok)
	assert.Empty(t, path)
}

func labelsOf(tr *Trace) []string {
	var out []string
	for _, s := range tr.Steps {
		out = append(out, s.Label)
	}
	return out
}

func TestReplayRandomPathsAreFound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300; i++ {
		l := randomLTS(rng, 2+rng.IntN(10), rng.IntN(30), 3)
		// Walk randomly, record the visible labels, and replay them.
		s := l.Initial
		var visible []string
		for step := 0; step < 8; step++ {
			lo, hi := l.Outgoing(s)
			if lo == hi {
				break
			}
			tr := lo + int32(rng.IntN(int(hi-lo)))
			if l.Label[tr] != Tau {
				visible = append(visible, l.LabelName(tr))
			}
			s = l.Dst[tr]
		}
		path, ok := Replay(l, visible)
		require.True(t, ok, "a walked trace must replay")
		at := l.Initial
		var got []string
		for _, tr := range path {
			require.Equal(t, at, l.Src[tr], "consecutive transitions")
			at = l.Dst[tr]
			if l.Label[tr] != Tau {
				got = append(got, l.LabelName(tr))
			}
		}
		assert.Equal(t, visible, got)
	}
}
