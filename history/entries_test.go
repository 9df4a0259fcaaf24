package history

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/linbis/linbis/history/record"
	"github.com/stretchr/testify/require"
)

// TestEntryListOrder compares the list built by merging the sorted returns
// into the calls with a stable sort of all entries by time, calls first at
// equal times, on random operations in call order with many equal times
// and pending operations; one list is reused throughout.
func TestEntryListOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	var l entryList
	for trial := range 2000 {
		n := rng.IntN(30)
		ops := make([]record.Op, n)
		call := int64(0)
		for i := range ops {
			call += rng.Int64N(3)
			ops[i].Call, ops[i].Return = call, call+rng.Int64N(8)
			if rng.IntN(6) == 0 {
				ops[i].Return = record.Pending
			}
		}
		want := make([]int32, 2*n)
		for i := range want {
			want[i] = int32(i)
		}
		at := func(e int32) int64 {
			if e&1 == 0 {
				return ops[e>>1].Call
			}
			return ops[e>>1].Return
		}
		sort.SliceStable(want, func(a, b int) bool {
			ta, tb := at(want[a]), at(want[b])
			return ta < tb || ta == tb && want[a]&1 < want[b]&1
		})
		l.reset(opView{all: ops})
		var got []int32
		prev := entryHead(n)
		for e := l.first(); e >= 0; e = l.next[e] {
			require.Equal(t, prev, l.prev[e], "trial %d: prev of %d", trial, e)
			got = append(got, e)
			prev = e
		}
		if n == 0 {
			got = []int32{}
		}
		require.Equal(t, want, got, "trial %d", trial)
	}
}
