package bisim

import "runtime"

// parallelFrom is the number of transitions from which the set-up phases
// (the kernel's compaction, the refiner's incoming arcs, the quotient)
// run on several goroutines: below it, starting them costs more than it
// saves.
const parallelFrom = 1 << 20

// testWorkers, when positive, is the number of goroutines every such
// phase uses whatever the input's size; tests set it to hold the
// parallel phases to the sequential ones on small inputs.
var testWorkers int

// workersFor returns how many goroutines a set-up phase over m
// transitions uses. Every phase gives the same result for any number of
// workers: each worker owns a range of states (or targets) and the
// ranges are joined in order.
func workersFor(m int) int {
	if testWorkers > 0 {
		return testWorkers
	}
	if m < parallelFrom {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// split cuts [0, n) into parts ranges of nearly equal length and returns
// their bounds: range p is [bounds[p], bounds[p+1]).
func split(n int32, parts int) []int32 {
	bounds := make([]int32, parts+1)
	for p := range parts + 1 {
		bounds[p] = int32(int64(n) * int64(p) / int64(parts))
	}
	return bounds
}
