package onthefly

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
)

// TestDominanceKeepsTheOutcome holds the search that follows only the
// least pairs of each state's level (dominance.go) to the search that
// follows them all (noDominance), on every bundled model in both heap
// modes (unreduced and with both reductions: searchModes), and on random
// programs: the same verdicts, model errors alike, lassos alike, no more
// pairs; without the partial-order reduction also the same states and
// counterexamples of the same length (a shortest violation stays a
// shortest one; with it, the pairs followed decide where the proviso
// holds, and the reduced graphs may differ). The pruned search runs with
// its paths and τ-steps checked (checkPaths, checkTau), stopping at the
// first violation and going on past it. The search without pruning is
// held to the full LTSs by TestOneEngineForBothRoutes and verify's tests.
func TestDominanceKeepsTheOutcome(t *testing.T) {
	type input struct {
		name string
		prog *check.Program
		b    ir.Bounds
	}
	var inputs []input
	bounds := []ir.Bounds{{Threads: 3, Ops: 1, Values: []int{1}}}
	if testsize.Full() {
		bounds = append(bounds, ir.Bounds{Threads: 2, Ops: 2, Values: []int{1}})
	}
	for _, m := range bundledModels(t, bounds...) {
		inputs = append(inputs, input{m.String(), m.prog, m.b})
	}
	for seed := range testsize.Count(20, 60) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 38)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := frontend.Parse(name, []byte(p.Source))
		require.NoError(t, err, name)
		inputs = append(inputs, input{name, m.Program, m.DefaultBounds()})
	}
	var runs, pruned int
	var all, kept, dominated int64
	for _, in := range inputs {
		for _, mode := range searchModes(false) {
			for _, first := range []bool{false, true} {
				what := fmt.Sprintf("%s %v explicit=%v %+v first=%v", in.name, in.b, mode.explicit, mode.red, first)
				o := Options{Options: semantics.Options{Explicit: mode.explicit, MaxStates: 200_000}, Reductions: mode.red, FirstViolation: first}
				o.noDominance = true
				want, wantErr := Check(in.prog, in.b, o)
				o.noDominance, o.checkPaths, o.checkTau = false, true, true
				got, gotErr := Check(in.prog, in.b, o)
				if wantErr != nil || gotErr != nil {
					require.Error(t, wantErr, what)
					require.Error(t, gotErr, what)
					require.NotContains(t, gotErr.Error(), "internal error", what)
					assert.Equal(t, wantErr.Error(), gotErr.Error(), what)
					continue
				}
				runs++
				assert.Equal(t, want.Refines, got.Refines, what)
				assert.Equal(t, want.RefinesDecided, got.RefinesDecided, what)
				assert.Equal(t, want.LockFreeChecked, got.LockFreeChecked, what)
				assert.Equal(t, want.LockFree, got.LockFree, what)
				assert.Equal(t, want.ModelError != nil, got.ModelError != nil, what)
				if !mode.red.PartialOrder {
					// With it, the pairs followed decide where the proviso
					// holds: the reduced graphs may differ (dominance.go).
					assert.Equal(t, want.Stats.States, got.Stats.States, what)
					assert.Equal(t, want.Stats.Represented, got.Stats.Represented, what)
				}
				assert.LessOrEqual(t, got.Stats.Pairs, want.Stats.Pairs, what)
				assert.Zero(t, want.Stats.Dominated, what)
				if want.Counterexample != nil && assert.NotNil(t, got.Counterexample, what) && !mode.red.PartialOrder {
					assert.Len(t, got.Counterexample.Steps, len(want.Counterexample.Steps), what)
				}
				assert.Equal(t, want.Lasso != nil, got.Lasso != nil, what)
				all += want.Stats.Pairs
				kept += got.Stats.Pairs
				dominated += got.Stats.Dominated
				if got.Stats.Dominated > 0 {
					pruned++
				}
			}
		}
	}
	t.Logf("%d runs, %d with pairs not followed (%d); %d pairs stored against %d", runs, pruned, dominated, kept, all)
	assert.Positive(t, pruned)
}
