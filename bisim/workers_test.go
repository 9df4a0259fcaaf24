package bisim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// TestWorkersGiveTheSequentialResult holds the phases that run on several
// goroutines on large inputs (the kernel's gathering, the refiner's
// incoming arcs, the classes and the quotient) to one goroutine: with 2,
// 3 and 7 workers forced on small inputs, the kernel, the arcs, the
// partition and the quotient are the same, array for array, on random
// LTSs (τ-cycles, self-loops, duplicates) and on the benchmark families,
// for every equivalence.
func TestWorkersGiveTheSequentialResult(t *testing.T) {
	defer func(saved int) { testWorkers = saved }(testWorkers)
	inputs := sweepInputs(400, func(seed int) *lts.LTS { return randomLTS(uint64(7_000+seed), 60) },
		[]int32{500, 3000}, map[string]func(int32) *lts.LTS{"random family": benchRandom, "tauscc": benchTauSCC, "manylabels": benchManyLabels})
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
	lab, dst, out []int32   // the kernel
	comp          []int32   // the kernel state of every input state
	into          []inRange // the refiner's arcs
	inArc, inLab  []int32
	st            []stateRec // the refiner's inert τ-steps (and marks, none yet)
	class         []int32    // Minimize's state map
	quotient      *lts.LTS
}

func setUp(t *testing.T, l *lts.LTS, eq Equivalence) setUpResult {
	k := newKernel(l, eq)
	r := newRefiner(k)
	for d := range r.into {
		end := int32(len(r.inArc))
		if d+1 < len(r.into) {
			end = r.into[d+1].from
		}
		require.Equal(t, end, r.into[d].live, "the live arcs into %d start as all of them", d)
	}
	q, class, err := Minimize(l, eq, Options{})
	require.NoError(t, err)
	return setUpResult{lab: k.lab, dst: k.dst, out: k.out, comp: k.comp,
		into: r.into, inArc: r.inArc, inLab: r.inLab, st: r.st,
		class: class, quotient: q}
}

// sweepInputs returns the inputs of a sweep by name: seeds random LTSs
// drawn by random, and each family at each size.
func sweepInputs(seeds int, random func(seed int) *lts.LTS, sizes []int32, families map[string]func(int32) *lts.LTS) map[string]*lts.LTS {
	inputs := map[string]*lts.LTS{}
	for seed := range seeds {
		inputs[fmt.Sprintf("random seed %d", seed)] = random(seed)
	}
	for _, n := range sizes {
		for name, f := range families {
			inputs[fmt.Sprintf("%s n=%d", name, n)] = f(n)
		}
	}
	return inputs
}
