package bisim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// TestWorkersGiveTheSequentialResult holds the phases that run on several
// goroutines on large inputs (the kernel's compaction, the refiner's
// incoming arcs, the classes and the quotient) to one goroutine: with 2,
// 3 and 7 workers forced on small inputs, the kernel, the arcs, the
// partition and the quotient are the same, array for array, on random
// LTSs (τ-cycles, self-loops, duplicates) and on the benchmark families,
// for every equivalence.
func TestWorkersGiveTheSequentialResult(t *testing.T) {
	defer func(saved int) { testWorkers = saved }(testWorkers)
	inputs := map[string]*lts.LTS{}
	for seed := range 400 {
		inputs[fmt.Sprintf("random seed %d", seed)] = randomLTS(uint64(7_000+seed), 60)
	}
	for _, n := range []int32{500, 3000} {
		inputs[fmt.Sprintf("random family n=%d", n)] = benchRandom(n)
		inputs[fmt.Sprintf("tauscc n=%d", n)] = benchTauSCC(n)
		inputs[fmt.Sprintf("manylabels n=%d", n)] = benchManyLabels(n)
	}
	for what, l := range inputs {
		for _, eq := range allEquivalences {
			testWorkers = 1
			want := setUp(t, l, eq)
			for _, workers := range []int{2, 3, 7} {
				testWorkers = workers
				got := setUp(t, l, eq)
				require.Equal(t, want, got, "%s, %v, %d workers", what, eq, workers)
			}
		}
	}
}

// setUpResult is what the phases that may run in parallel produce.
type setUpResult struct {
	lab, dst, out                       []int32 // the kernel
	inIndex, inArc, inLab, tauTo, inert []int32 // the refiner's arcs
	class                               []int32 // Minimize's state map
	quotient                            *lts.LTS
}

func setUp(t *testing.T, l *lts.LTS, eq Equivalence) setUpResult {
	k := newKernel(l, eq)
	r := newRefiner(k)
	require.Equal(t, r.inIndex[1:], r.inLive, "inLive starts at the end of every target's arcs")
	q, class, err := Minimize(l, eq, Options{})
	require.NoError(t, err)
	return setUpResult{lab: k.lab, dst: k.dst, out: k.out,
		inIndex: r.inIndex, inArc: r.inArc, inLab: r.inLab, tauTo: r.tauTo, inert: r.inertOut,
		class: class, quotient: q}
}
