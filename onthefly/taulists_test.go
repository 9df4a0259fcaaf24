package onthefly

import (
	"math"
	"math/rand/v2"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/limits"
)

// TestTauListsAgreeWithSlices: lists laid out state by state, of lengths
// 0 to a few hundred (past a byte's, whose lengths are kept apart), read
// back where they were written, over many groups of states, and entries
// written after the layout (a later expansion's) stay in their lists.
func TestTauListsAgreeWithSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 3))
	var l tauLists
	var want [][]int32
	for s := range 10 * tauGroup {
		n := r.IntN(5)
		if r.IntN(50) == 0 {
			n = longList - 1 + r.IntN(3)
		}
		at := l.lay(n)
		list := make([]int32, n)
		for k := range list {
			list[k] = -1
			if r.IntN(2) == 0 {
				list[k] = int32(r.IntN(1000))
				l.tos.set(at+k, list[k])
			}
		}
		want = append(want, list)
		if s > 0 && r.IntN(4) == 0 { // a later expansion of an earlier state
			e := int32(r.IntN(s))
			if len(want[e]) > 0 {
				k := r.IntN(len(want[e]))
				want[e][k] = int32(r.IntN(1000))
				l.tos.set(l.start(e)+k, want[e][k])
			}
		}
	}
	require.Equal(t, len(want), l.laid())
	for s, list := range want {
		require.Equal(t, len(list), l.length(int32(s)), "state %d", s)
		at := l.start(int32(s))
		for k, to := range list {
			require.Equal(t, to, l.tos.get(at+k), "state %d entry %d", s, k)
		}
	}
}

// TestTauListsRoomUnderTheMemoryLimit: the τ-lists may grow while the
// process holds less than tauMemoryShare of the memory limit, always
// without one, and never past the uint32 starts.
func TestTauListsRoomUnderTheMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	f := &flySearch{}
	assert.True(t, f.roomForTau(1), "no memory limit")
	assert.False(t, f.roomForTau(math.MaxUint32+1), "past the starts' uint32")
	debug.SetMemoryLimit(4 * limits.Held())
	assert.True(t, f.roomForTau(1), "held at a quarter of the limit")
	// A process holds more than 1 MiB: past any share of it.
	debug.SetMemoryLimit(1 << 20)
	assert.False(t, f.roomForTau(1), "held past the limit")
}
