package bisim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/randlts"
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

// TestHubSetsBoundedByTransitions holds the hubs' successor sets
// (hubSteps) to 8 bytes a step of the hubs: on a giant τ-SCC with many
// labels (the random family with 20 000 labels, scaled down) a set per
// label held labels × states bits. With few labels (benchRandom) the sets
// are made, so the bound is not met by making none; both partitions are
// GJ's.
func TestHubSetsBoundedByTransitions(t *testing.T) {
	names := make([]string, 2000)
	for i := range names {
		names[i] = fmt.Sprintf("a%d", i)
	}
	b := lts.NewBuilder()
	randlts.Fill(rand.New(rand.NewPCG(39, 1)), b, randlts.Config{States: 4000, Transitions: 20000, Labels: names, Tau: 0.3})
	for _, c := range []struct {
		name string
		l    *lts.LTS
		sets bool // some set must be made
	}{{"2000 labels", b.Build(), false}, {"benchRandom", benchRandom(2000), true}} {
		k := newKernel(c.l, DivBranching)
		r := newRefiner(k)
		r.refine(&Options{})
		gj, _, err := Partition(c.l, DivBranching, Options{Algorithm: GJ})
		require.NoError(t, err)
		got, _, _ := classesOf(c.l, k, r.block, r.numBlocks)
		require.Equal(t, gj, got, c.name)
		hub := false
		for s := range k.n {
			out := k.out[s+1] - k.out[s]
			hub = hub || out >= hubMin && out >= k.n/16
		}
		require.True(t, hub, "%s: the kernel has no hub", c.name)
		var bytes, steps int64
		for _, set := range r.hubs {
			bytes += 8 * int64(len(set))
		}
		for s := range r.hubStates {
			steps += int64(k.out[s+1] - k.out[s])
		}
		assert.LessOrEqual(t, bytes, 8*steps+8*int64(len(r.hubs)), c.name) // a set's last word is rounded up
		assert.Equal(t, c.sets, len(r.hubs) > 0, c.name)
	}
}
