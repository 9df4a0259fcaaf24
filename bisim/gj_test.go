package bisim

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/testsize"
)

// TestGJInvariants runs GJ on random LTSs with its sanity check after
// every round (gjRefiner.sanityCheck: blocks as ranges of perm with their
// bottom states first, slices holding exactly the transitions of their
// block with one label and one target constellation, counters matching
// the transitions of their cell, every block stable under the
// constellations). It also checks that fullCheck reads every state as a
// bottom state at most once (the charge of its reading in the O(m log n)
// argument), the charges of register's walks over slices
// (checkWalkBound), and that the cases of its splits all occur.
func TestGJInvariants(t *testing.T) {
	seeds := testsize.Count(30, 300)
	var paths gjPaths
	check := func(r *gjRefiner, what string) {
		t.Helper()
		r.run(&Options{})
		require.NoError(t, r.debug.err, what)
		require.NoError(t, r.sanityCheck(), what)
		require.Empty(t, r.dirtyList, what)
		require.Negative(t, r.nextConstellation(), "%s: a constellation of two or more blocks is left", what)
		for s, n := range r.debug.bottomReads {
			require.LessOrEqual(t, n, int32(1), "%s: fullCheck read state %d as a bottom state %d times", what, s, n)
		}
		require.NoError(t, r.checkWalkBound(), what)
		for p, n := range r.debug.paths {
			paths[p] += n
		}
	}
	for seed := range seeds {
		l := randomLTS(uint64(2_000_000+seed), 120)
		for _, eq := range allEquivalences {
			k := newKernel(l, eq)
			r := newGJRefiner(k)
			r.debug = newGJDebug(k, true)
			check(r, fmt.Sprintf("seed %d, %v", seed, eq))
		}
	}
	k := newKernel(benchRandom(2000), DivBranching)
	r := newGJRefiner(k)
	r.debug = newGJDebug(k, false) // too big to check every round
	check(r, "benchRandom(2000)")
	for p, what := range map[gjPath]string{
		pathSkipped:         "visited slices of one-state blocks",
		pathRegistered:      "blocks with new bottom states registered when visited",
		pathStable:          "descendant slices found stable",
		pathNoBottomSlices:  "unstable slices no bottom state has",
		pathRegInert:        "constellation-inert slices walked by register",
		pathWholeSlices:     "slices kept whole by moveCells",
		pathNoSearch:        "splits of blocks of bottom states only, without lockstep",
		pathNoBottomWith:    "splits under a slice no bottom state has",
		pathSplitWithout:    "splits moving the part without the slice",
		pathSplitWith:       "splits moving the part with the slice",
		pathNewBottomSplitN: "new-bottom splits moving the part reaching only new bottom states",
		pathNewBottomSplitO: "new-bottom splits moving the part reaching old bottom states",
	} {
		assert.Positive(t, paths[p], what)
	}
	t.Logf("%v", paths)
}

// checkWalkBound checks the charges of fullCheck's visits and register's
// walks (the design comment of gjRefine): every visit is of a scheduled
// slice and is a split, a skipped visit (its witness transition, of a
// one-state block, read so once), or finds its block stable (reading at
// least one marked transition); every transition is read so at most once
// in the run; every scheduling is followed by at least one visit; and
// register walks only slices that some bottom state has (at most its
// bottom states' transitions), the constellation-inert one (at most one
// per registration) or slices it schedules. So the walks are O(n + m).
func (r *gjRefiner) checkWalkBound() error {
	p := r.debug.paths
	reads := 0
	for t, n := range r.debug.visitReads {
		if n > 1 {
			return fmt.Errorf("transition %d read %d times by visits", t, n)
		}
		reads += int(n)
	}
	splits := p[pathSplitWithout] + p[pathSplitWith]
	switch {
	case p[pathVisitUnscheduled] > 0:
		return fmt.Errorf("%d visits of unscheduled slices", p[pathVisitUnscheduled])
	case p[pathVisits] != p[pathSkipped]+p[pathStable]+splits:
		return fmt.Errorf("visits %d != skipped %d + stable %d + splits %d", p[pathVisits], p[pathSkipped], p[pathStable], splits)
	case p[pathSkipped]+p[pathStable] > reads:
		return fmt.Errorf("skipped %d + stable %d visits, but only %d transitions read by visits", p[pathSkipped], p[pathStable], reads)
	case p[pathScheduled] > p[pathVisits]:
		return fmt.Errorf("%d slices scheduled, %d visits", p[pathScheduled], p[pathVisits])
	case p[pathRegHad] > p[pathBottomOut]:
		return fmt.Errorf("register walked %d slices some bottom state has, read %d bottom transitions", p[pathRegHad], p[pathBottomOut])
	case p[pathRegInert] > p[pathRegistrations]:
		return fmt.Errorf("register walked %d constellation-inert slices in %d registrations", p[pathRegInert], p[pathRegistrations])
	case p[pathRegWalk] > p[pathRegHad]+p[pathRegInert]+p[pathScheduled]:
		return fmt.Errorf("register walked %d slices: %d had, %d inert, %d scheduled", p[pathRegWalk], p[pathRegHad], p[pathRegInert], p[pathScheduled])
	}
	return nil
}

// TestGJSweep compares GJ (and Fast) with GV on random LTSs of 25 to 224
// states, sizes at which GJ's checks of blocks with new bottom states
// register nested parts and split under slices no bottom state has (see
// the counts in TestGJInvariants).
func TestGJSweep(t *testing.T) {
	seeds := testsize.Count(200, 2000)
	for seed := range seeds {
		requireAgreesWithGV(t, randomLTS(uint64(9_000_000+seed), 25+seed%200), fmt.Sprintf("seed %d", seed))
	}
}

// TestGJSanityCheckFails shows that the sanity check is not vacuous: it
// rejects a refiner before its first stabilisation (the one block is not
// yet stable) and after its counters or positions are corrupted.
func TestGJSanityCheckFails(t *testing.T) {
	k := newKernel(benchRandom(300), Branching)
	r := newGJRefiner(k)
	assert.ErrorContains(t, r.sanityCheck(), "unstable")
	r.run(&Options{})
	require.NoError(t, r.sanityCheck())
	tr := slices.IndexFunc(k.src, func(s int32) bool { return r.size(r.block[s]) > 1 })
	require.GreaterOrEqual(t, tr, 0, "the test needs a transition from a block of two or more states")
	r.cellCnt[r.tr[tr].cell]++
	assert.ErrorContains(t, r.sanityCheck(), "count")
	r.cellCnt[r.tr[tr].cell]--
	r.where[r.perm[0]]++
	assert.ErrorContains(t, r.sanityCheck(), "where")
}
