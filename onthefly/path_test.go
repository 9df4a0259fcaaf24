package onthefly

import (
	"fmt"
	"testing"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPathsRebuilt: on every bundled model (3×1 with values 1; at the
// full size 3×1 with values 1..2 instead), in both heap modes, unreduced
// and with both reductions, stopping at the first violation and not, the
// parent that the engine rebuilds for every pair (antichain.Search.Rebuild,
// which path.go reads counterexamples off) is the step that found it in
// the search (Options.checkPaths), so a counterexample's path is the
// one parent pointers would have kept; and the τ-steps that the cycle
// search finds again by expanding each state are those the search
// followed (Options.checkTau). At the full size, 3×1 and 2×2 with values
// 1 in the four modes are TestDominanceKeepsTheOutcome's: its pruned
// searches are these, with checkPaths and checkTau (their 200 000-pair
// bound is far above the bundled models' 27 395 at most there).
func TestPathsRebuilt(t *testing.T) {
	bounds := []ir.Bounds{{Threads: 3, Ops: 1, Values: []int{1}}}
	if testsize.Full() {
		bounds = []ir.Bounds{{Threads: 3, Ops: 1, Values: []int{1, 2}}}
	}
	var pairs int64
	var violations int
	for _, m := range bundledModels(t, bounds...) {
		for _, mode := range searchModes(true) {
			for _, first := range []bool{false, true} {
				what := fmt.Sprintf("%v explicit=%v %+v first=%v", m, mode.explicit, mode.red, first)
				o := Options{Options: semantics.Options{Explicit: mode.explicit}, Reductions: mode.red, FirstViolation: first, checkPaths: true, checkTau: true}
				res, err := Check(m.prog, m.b, o)
				if err != nil {
					// A model error stops the search before CheckParents.
					require.NotContains(t, err.Error(), "internal error", what)
					continue
				}
				pairs += res.Stats.Pairs
				if !res.Refines || !res.LockFree {
					violations++
				}
			}
		}
	}
	t.Logf("%d pairs' parents rebuilt, %d runs with a counterexample", pairs, violations)
	assert.Positive(t, violations)
}
