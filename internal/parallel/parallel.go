// Package parallel runs independent pieces of work on several goroutines.
package parallel

import (
	"sync"
	"sync/atomic"
)

// ForEach calls f(0), …, f(n-1) on up to workers goroutines, the calling
// one among them, each taking the next index as it becomes free, and
// returns when all calls have returned.
func ForEach(workers, n int, f func(i int)) {
	var next atomic.Int64
	loop := func() {
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			f(i)
		}
	}
	var wg sync.WaitGroup
	for range min(workers, n) - 1 {
		wg.Go(loop)
	}
	loop()
	wg.Wait()
}
