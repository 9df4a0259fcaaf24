package bisim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// TestFastGroups runs Fast with its invariant check before every target
// (checkStable: every block stable under every block that is neither
// target-dirty nor in a group, and under every group of fast_group.go)
// on random LTSs, with groups of any size (as small LTSs need to have
// some) and of the size Fast forms them, and requires GV's partition;
// over all of them some group parts must have been left unread, or the
// derivation was not exercised. benchRandom(2000), too big to check at every target, has
// its contracted giant τ-SCC, the case the groups are for.
func TestFastGroups(t *testing.T) {
	seeds := testsize.Count(300, 3000)
	unread := 0
	run := func(l *lts.LTS, eq Equivalence, check bool, minIn int32, what string) {
		t.Helper()
		gv, _, err := Partition(l, eq, Options{Algorithm: GV})
		require.NoError(t, err)
		k := newKernel(l, eq)
		r := newRefiner(k)
		r.minGroupIn = minIn
		d := &fastDebug{}
		if check {
			r.debug = d
		}
		r.refine(&Options{})
		require.NoError(t, d.err, what)
		got, _, _ := classesOf(l, k, r.block, r.numBlocks)
		require.Equal(t, gv, got, what)
		unread += d.unread
	}
	for seed := range seeds {
		l := randomLTS(uint64(9_000_000+seed), 25+seed%200)
		for _, eq := range []Equivalence{Branching, DivBranching} {
			for _, minIn := range []int32{0, groupMinIn} {
				run(l, eq, true, minIn, fmt.Sprintf("seed %d %v, groups from %d transitions in", seed, eq, minIn))
			}
		}
	}
	require.Positive(t, unread, "no group part was left unread")
	run(benchRandom(2000), DivBranching, false, groupMinIn, "benchRandom(2000)")
}
