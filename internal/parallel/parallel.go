// Package parallel runs independent pieces of work on several goroutines.
package parallel

import (
	"slices"
	"sync"
	"sync/atomic"
)

// ForEach calls f(0), …, f(n-1) on up to workers goroutines, the calling
// one among them, each taking the next index as it becomes free, and
// returns when all calls have returned.
func ForEach(workers, n int, f func(i int)) {
	ForEachWorker(workers, n, func(_, i int) { f(i) })
}

// ForEachWorker is ForEach telling f which goroutine calls it: w is in
// [0, min(workers, n)), 0 the calling goroutine's, so that each can keep
// buffers of its own.
func ForEachWorker(workers, n int, f func(w, i int)) {
	var next atomic.Int64
	loop := func(w int) {
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			f(w, i)
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < min(workers, n); w++ {
		wg.Go(func() { loop(w) })
	}
	loop(0)
	wg.Wait()
}

// Cuts splits the rows of a compressed sparse row array into parts ranges
// of about equal entries, so that workers reading the rows' entries get
// about equal work: offsets[r] is where row r's entries start, and its
// last element is the total. Range p is rows cuts[p] … cuts[p+1]-1; a range
// may be empty, as when one row holds more than a part's share.
func Cuts(offsets []int32, parts int) []int32 {
	rows := len(offsets) - 1
	total := int64(offsets[rows])
	cuts := make([]int32, parts+1)
	for p := 1; p < parts; p++ {
		// The first row whose entries start at p/parts of them or later.
		i, _ := slices.BinarySearch(offsets[:rows], int32(total*int64(p)/int64(parts)))
		cuts[p] = max(cuts[p-1], int32(i))
	}
	cuts[parts] = int32(rows)
	return cuts
}
