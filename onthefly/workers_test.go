package onthefly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/testsize"
)

// TestWorkersKeepTheSearch: the search stores, counts and reports the same
// with 1, 2 and 3 expanders, and with levels taken in one batch or in
// batches of a few states, its τ-steps kept, given up midway
// (Options.tauEntries) or found again by the cycle search (in windows of
// as many states, most states reached beyond them: Options.rebuildTau, as
// when the memory limit leaves no room for the τ-lists) — pairs, states,
// orbits, ample sets, verdicts,
// counterexamples, lassos, model errors — on every bundled model (3×1,
// and at 2×2 with LINBIS_FULL=1), unreduced in garbage-collected mode and
// with both reductions in explicit mode (in both modes each with
// LINBIS_FULL=1), stopping at the first violation and not. Only Recognised, what the cache of recent successors
// spared, depends on the expanders.
func TestWorkersKeepTheSearch(t *testing.T) {
	bounds := []ir.Bounds{{Threads: 3, Ops: 1, Values: []int{1}}}
	if testsize.Full() {
		bounds = append(bounds, ir.Bounds{Threads: 2, Ops: 2, Values: []int{1}})
	}
	// The first is the reference: one expander, levels in one batch each
	// (at these sizes), the τ-steps kept; the second gives them up after
	// 40 entries; the last takes levels in batches of a few states and
	// finds the τ-steps again.
	runs := []struct {
		workers, batch int
		tauEntries     int
		rebuildTau     bool
	}{{1, 0, 0, false}, {2, 0, 40, false}, {3, 3, 0, true}}
	var pairs int64
	violations, errors := 0, 0
	for _, m := range bundledModels(t, bounds...) {
		for _, mode := range searchModes(false) {
			for _, first := range []bool{false, true} {
				what := fmt.Sprintf("%v explicit=%v %+v first=%v", m, mode.explicit, mode.red, first)
				var want *Result
				var wantErr error
				for i, r := range runs {
					o := Options{Options: semantics.Options{Explicit: mode.explicit, Workers: r.workers}, Reductions: mode.red,
						FirstViolation: first, batchStates: r.batch, tauEntries: r.tauEntries, rebuildTau: r.rebuildTau}
					got, err := Check(m.prog, m.b, o)
					if got != nil {
						got.Stats.Recognised = 0
					}
					if i == 0 {
						want, wantErr = got, err
						continue
					}
					run := fmt.Sprintf("%s workers=%d batch=%d tauEntries=%d rebuildTau=%v", what, r.workers, r.batch, r.tauEntries, r.rebuildTau)
					require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err), run)
					require.Equal(t, want, got, run)
				}
				switch {
				case wantErr != nil:
					errors++
				case !want.Refines || want.LockFreeChecked && !want.LockFree:
					violations++
				}
				if want != nil {
					pairs += want.Stats.Pairs
				}
			}
		}
	}
	t.Logf("%d pairs, %d runs with a counterexample, %d with an error", pairs, violations, errors)
	assert.Positive(t, violations)
	assert.Positive(t, errors)
}
