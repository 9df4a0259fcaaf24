package bisim

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// TestSignatureRounds holds the signature rounds (sigref.go) on random
// LTSs and the benchmark families, with 1, 2 and 3 workers (the set-up
// phases too): the partition and the arcs they leave are the same arrays
// for every number of workers, it is never
// finer than GV's (invariant (1) of fastRefine), it is GV's where the
// rounds found it stable, and the worklist after them gives GV's. Each way
// the rounds end (stable; too few new blocks, where under strong
// bisimilarity only the parts split last are target-dirty; the budget)
// must be taken on some input: the share of new blocks that keeps them
// going is raised, and the budget set to 0, in turn.
func TestSignatureRounds(t *testing.T) {
	defer func(budget int64, gain int32, workers int) {
		sigBudget, sigMinGain, testWorkers = budget, gain, workers
	}(sigBudget, sigMinGain, testWorkers)
	sizes := []int32{300}
	if testsize.Full() {
		sizes = append(sizes, 1000)
	}
	inputs := sweepInputs(testsize.Count(150, 3000), func(seed int) *lts.LTS { return randomLTS(uint64(39_000+seed), 5+seed%120) },
		sizes, map[string]func(int32) *lts.LTS{"random family": benchRandom, "tauscc": benchTauSCC, "tauchains": benchTauChains,
			"cycles": func(int32) *lts.LTS { return benchCycles(8) }})
	type key struct {
		what string
		eq   Equivalence
	}
	gvOf := map[key][]int32{}
	for what, l := range inputs {
		for _, eq := range allEquivalences {
			gv, _, err := Partition(l, eq, Options{Algorithm: GV})
			require.NoError(t, err)
			gvOf[key{what, eq}] = gv
		}
	}
	ends := map[string]int{}
	for _, limits := range []struct {
		budget int64
		gain   int32
	}{{4, 64}, {4, 1}, {0, 64}} {
		sigBudget, sigMinGain = limits.budget, limits.gain
		for what, l := range inputs {
			for _, eq := range allEquivalences {
				gv := gvOf[key{what, eq}]
				rep := map[int32]int{} // per GV class, its first state
				for s := len(gv) - 1; s >= 0; s-- {
					rep[gv[s]] = s
				}
				var first []int32
				var firstInto []inRange
				var firstArcs []int32
				for workers := 1; workers <= 3; workers++ {
					testWorkers = workers // the set-up phases too, the dead arcs' drop among them
					k := newKernel(l, eq)
					r := newRefinerWith(k, !packable(k), workers)
					testWorkers = 0
					left := append([]int32(nil), r.block...)
					if workers == 1 {
						first, firstInto, firstArcs = left, slices.Clone(r.into), slices.Clone(r.inArc)
						end := "handed over"
						switch {
						case r.sigStable:
							end = "stable"
						case r.sigDirty != nil:
							end += ", the parts split last dirty"
						}
						if limits.budget == 0 {
							end += ", no budget"
						}
						ends[end]++
					} else {
						require.Equal(t, first, left, "%s %v: %d workers", what, eq, workers)
						require.Equal(t, firstInto, r.into, "%s %v: %d workers", what, eq, workers)
						require.Equal(t, firstArcs, r.inArc, "%s %v: %d workers", what, eq, workers)
					}
					r.refine(&Options{})
					got, _, _ := classesOf(l, k, r.block, r.numBlocks)
					require.Equal(t, gv, got, "%s %v: %d workers", what, eq, workers)
					coarse, _, _ := classesOf(l, k, left, r.numBlocks)
					for s := range gv {
						require.Equal(t, coarse[s], coarse[rep[gv[s]]], "%s %v: the rounds split GV's class %d", what, eq, gv[s])
					}
				}
			}
		}
	}
	t.Log(ends)
	require.Positive(t, ends["stable"])
	require.Positive(t, ends["handed over"])
	require.Positive(t, ends["handed over, no budget"])
	require.Positive(t, ends["handed over, the parts split last dirty"])
}

// TestGroupTakesASkewedShard groups states whose keys all fall to one
// worker's shard: its table must hold them all (sized by n/workers, it
// filled and the probing never ended, as on seed 1 000 088 of
// TestFastMatchesGVOnLargerLTSs, 9 states on 3 workers).
func TestGroupTakesASkewedShard(t *testing.T) {
	const n, workers = 20, 3
	sr := &sigRound{k: &kernel{n: n}, cls: make([]int32, n), next: make([]int32, n),
		hash: make([]uint64, 0, n), base: make([][]uint64, n), extra: make([][]uint64, n), workers: workers}
	for h := uint64(0); len(sr.hash) < n; h++ {
		if mix64(h)%workers == 0 { // the key of class 0 and hash h
			sr.hash = append(sr.hash, h)
		}
	}
	type result struct {
		count int32
		exact bool
	}
	done := make(chan result, 1)
	go func() {
		count, exact := sr.group()
		done <- result{count, exact}
	}()
	select {
	case got := <-done:
		require.Equal(t, result{n, true}, got, "every state has a signature of its own")
	case <-time.After(20 * time.Second):
		t.Fatal("group does not return when one shard holds every key")
	}
}
