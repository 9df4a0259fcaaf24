package parallel

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestForEachCallsEachIndexOnce: ForEach and ForEachWorker call f once
// for every index, and ForEachWorker's w is below min(workers, n) and is
// never in two calls at once (a worker's buffers are its own).
func TestForEachCallsEachIndexOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		for _, n := range []int{0, 1, 7, 1000} {
			calls := make([]atomic.Int32, n)
			ForEach(workers, n, func(i int) { calls[i].Add(1) })
			for i := range calls {
				assert.Equal(t, int32(1), calls[i].Load(), "workers %d, n %d, index %d", workers, n, i)
			}
			calls = make([]atomic.Int32, n)
			busy := make([]atomic.Int32, min(workers, n))
			ForEachWorker(workers, n, func(w, i int) {
				if !assert.Less(t, w, len(busy)) {
					return
				}
				assert.Equal(t, int32(1), busy[w].Add(1), "worker %d in two calls at once", w)
				calls[i].Add(1)
				busy[w].Add(-1)
			})
			for i := range calls {
				assert.Equal(t, int32(1), calls[i].Load(), "ForEachWorker: workers %d, n %d, index %d", workers, n, i)
			}
		}
	}
}

// TestCutsAgainstTheirDefinition: on random row sizes, range p starts at
// the first row whose entries start at p/parts of the total or later (no
// earlier than range p-1), counted by a walk over the rows.
func TestCutsAgainstTheirDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		rows := rng.IntN(20)
		offsets := make([]int32, rows+1)
		for r := range rows {
			offsets[r+1] = offsets[r] + int32(rng.IntN(5)*rng.IntN(3))
		}
		parts := 1 + rng.IntN(4)
		cuts := Cuts(offsets, parts)
		assert.Len(t, cuts, parts+1)
		assert.Equal(t, int32(0), cuts[0])
		assert.Equal(t, int32(rows), cuts[parts])
		for p := 1; p < parts; p++ {
			share := int64(offsets[rows]) * int64(p) / int64(parts)
			want := int32(0)
			for want < int32(rows) && int64(offsets[want]) < share {
				want++
			}
			assert.Equal(t, max(cuts[p-1], want), cuts[p], "offsets %v, parts %d, range %d", offsets, parts, p)
		}
	}
}
