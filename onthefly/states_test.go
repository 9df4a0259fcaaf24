package onthefly

import (
	"math/rand/v2"
	"testing"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStateStoreAgreesWithAMap: against a map from vectors to ids, the
// store of states by parts gives every vector inserted its id in order of
// insertion, finds exactly those inserted, and gives each id its vector
// back, over vectors whose parts repeat (few values per part, heaps of
// several lengths) and collide in the table while it grows past a block
// of roots, some vectors inserted again.
func TestStateStoreAgreesWithAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 1))
	l := &ir.Layout{Nshared: 2, Threads: 3, ThreadSize: 4}
	l.HeapBase = l.Nshared + l.Threads*l.ThreadSize
	s := newStateStore(l)
	ids := map[string]int32{}
	var vecs [][]int32
	vector := func() []int32 {
		v := make([]int32, int(l.HeapBase)+r.IntN(4))
		for i := range v {
			if r.IntN(2) == 0 {
				v[i] = int32(r.IntN(3)) - 1
			}
		}
		return v
	}
	for range 100_000 {
		v := vector()
		if len(vecs) > 0 && r.IntN(4) == 0 {
			v = append([]int32(nil), vecs[r.IntN(len(vecs))]...)
		}
		key := string(asBytes(v))
		want, stored := ids[key]
		require.Equal(t, stored, s.find(v, s.hash(v)) >= 0, "find before insert")
		if stored {
			assert.Equal(t, want, s.find(v, s.hash(v)))
		}
		id, isNew := s.insert(v, s.hash(v))
		require.Equal(t, !stored, isNew)
		if !stored {
			require.Equal(t, int32(len(vecs)), id, "ids in insertion order")
			ids[key] = id
			vecs = append(vecs, v)
		} else {
			require.Equal(t, want, id)
		}
	}
	require.Equal(t, len(vecs), s.len())
	require.Greater(t, s.len(), rootMask+1, "more than a block of roots")
	for id, v := range vecs {
		require.Equal(t, v, s.vector(nil, int32(id)))
	}
	t.Logf("%d states of %d parts", s.len(), s.parts())
	assert.Less(t, s.parts(), s.len()/10, "parts are shared")
}
