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
// several lengths) and collide in the table while it grows, by a quarter
// at a time, past a block of roots, some vectors inserted again; on
// layouts with parts shorter and longer than partHash's 16 bytes, no
// shared variables, values small and large.
func TestStateStoreAgreesWithAMap(t *testing.T) {
	for seed, l := range []*ir.Layout{
		{Nshared: 2, Threads: 3, ThreadSize: 4},
		{Nshared: 0, Threads: 5, ThreadSize: 7},
		{Nshared: 9, Threads: 2, ThreadSize: 1},
	} {
		l.HeapBase = l.Nshared + l.Threads*l.ThreadSize
		storeAgreesWithAMap(t, rand.New(rand.NewPCG(38, uint64(seed))), l, 100_000+20_000*seed)
	}
}

// storeAgreesWithAMap inserts n random vectors of layout l, some again,
// into a store and into a map, and holds the store to the map.
func storeAgreesWithAMap(t *testing.T, r *rand.Rand, l *ir.Layout, n int) {
	s := newStateStore(l)
	ids := map[string]int32{}
	var vecs [][]int32
	vector := func() []int32 {
		v := make([]int32, int(l.HeapBase)+r.IntN(10))
		for i := range v {
			switch c := r.IntN(32); {
			case c < 12:
				v[i] = int32(r.IntN(3)) - 1
			case c == 12:
				v[i] = int32(r.Uint32())
			}
		}
		return v
	}
	for range n {
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
	t.Logf("%d states of %d parts, %d slots", s.len(), s.parts(), s.table.n)
	assert.LessOrEqual(t, s.len()*tableLoadDen, s.table.n*tableLoadNum, "the table's load")
}
