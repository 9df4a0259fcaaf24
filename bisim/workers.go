package bisim

import (
	"runtime"

	"github.com/linbis/linbis/internal/parallel"
)

// parallelFrom is the number of transitions from which the set-up phases
// (the kernel's gathering, the refiner's incoming arcs, the quotient)
// run on several goroutines: below it, starting them costs more than it
// saves.
const parallelFrom = 1 << 18

// sigFrom is the number of kernel transitions from which Fast runs its
// signature rounds (sigref.go). Below it the worklist alone costs less;
// it is above the sizes at which TestWorkPerDoubling doubles tauscc, so
// the rounds do not enter its ratios.
const sigFrom = 1 << 19

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

// ranges cuts [0, n) into workersFor(m) ranges of nearly equal length,
// for a phase over m transitions, and returns their bounds: range p is
// [bounds[p], bounds[p+1]).
func ranges(m int, n int32) (bounds []int32) {
	parts := workersFor(m)
	bounds = make([]int32, parts+1)
	for p := range parts + 1 {
		bounds[p] = int32(int64(n) * int64(p) / int64(parts))
	}
	return bounds
}

// forEachRange calls f(p, lo, hi) for every range p = [lo, hi) of
// bounds, each on a goroutine of its own (the calling one among them), and
// returns when all have returned.
func forEachRange(bounds []int32, f func(p int, lo, hi int32)) {
	parts := len(bounds) - 1
	parallel.ForEach(parts, parts, func(p int) { f(p, bounds[p], bounds[p+1]) })
}

// sigWorkers returns how many goroutines Fast's signature rounds use on a
// kernel of m transitions, 0 for none: below sigFrom the worklist alone
// is faster (tests force the rounds with testWorkers).
func (o *Options) sigWorkers(m int) int {
	switch {
	case o.signatureWorkers > 0:
		return o.signatureWorkers
	case o.signatureWorkers < 0:
		return 0
	case testWorkers > 0:
		return testWorkers
	case m < sigFrom:
		return 0
	case o.Workers > 0:
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}
