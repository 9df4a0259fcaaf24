package onthefly

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/explore"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/refine"
)

// engineOnSemantics runs the antichain search (refine's engine) over the
// semantics of prog under b, implementation and specification both
// implicit: the on-the-fly route's systems, set up as Check sets them up
// (newFlySearch) and read through semImpl; layered by steps with
// bySteps, as the on-the-fly route's search is (going on past a
// violation, as that search does by default), with the symmetry
// reduction where r asks for it and the model has it (reduced says so),
// and with the partial-order reduction where r asks for it.
func engineOnSemantics(prog *check.Program, b ir.Bounds, o semantics.Options, bySteps bool, r Reductions) (s *antichain.Search, m *semImpl, pair, step int32, reduced bool, err error) {
	impl, err := semantics.NewSystem(prog, prog.Impl, b, o)
	if err != nil {
		return nil, nil, -1, -1, false, err
	}
	f, err := newFlySearch(prog, impl, b, Options{Options: o, Reductions: r})
	if err != nil {
		return nil, nil, -1, -1, false, err
	}
	f.startExpanders(1)
	m, init, err := newSemImpl(f)
	if err != nil {
		return nil, nil, -1, -1, false, err
	}
	opts := antichain.SearchOptions{Prune: true, BySteps: bySteps, Past: bySteps, MaxPairs: 1 << 30}
	if bySteps {
		opts.Store = &f.pairRecords
	}
	s = antichain.NewSearch(m, f.spec.subsets, 0, opts)
	pair, step, err = s.Run(init)
	m.done()
	return s, m, pair, step, f.res.Symmetric, err
}

// TestOneEngineForBothRoutes runs the antichain search that refine runs
// on explicit LTSs (antichain.Search over antichain.ExplicitImpl) over
// the semantics the on-the-fly route reads (semImpl, flySpec), on the
// bundled models and on random programs. Layered by visible actions, it
// is held to refine.Check on the full LTSs: the same verdict, the same
// layer depth (the violation's number of visible actions, or the longest
// trace's) and the same pairs — the two searches meet the same pairs in
// the same order, the states named differently; over the semantics the
// search finds pairs by their states' chains, as the on-the-fly route
// does, not by refine's index. Layered by steps and going on past a
// violation, it is held to Check, unreduced, with the symmetry reduction
// (semImpl as antichain.Renamer), with the partial-order reduction
// (antichain.Ampler) and with both: the same verdict, the same states (both number a
// state when a pair takes it: antichain.Sparse), a counterexample of as
// many steps, the same pairs, the same pairs dominated in their level and
// not followed (dominance.go), and the same ample sets.
func TestOneEngineForBothRoutes(t *testing.T) {
	type input struct {
		name string
		prog *check.Program
		b    ir.Bounds
	}
	var inputs []input
	files, err := filepath.Glob("../frontend/examples/*.lin")
	require.NoError(t, err)
	for _, file := range files {
		inputs = append(inputs, input{filepath.Base(file), checkedFile(t, file), ir.Bounds{Threads: 2, Ops: 1, Values: []int{1}}})
	}
	for seed := range testsize.Count(60, 200) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 36)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := frontend.Parse(name, []byte(p.Source))
		require.NoError(t, err, name)
		inputs = append(inputs, input{name, m.Program, m.DefaultBounds()})
	}
	var fails, refines, symmetric int
	var ample, dominated int64
	for _, in := range inputs {
		o := semantics.Options{MaxStates: 200_000, Workers: 1}
		implLTS, err := explore.Explore(in.prog, in.prog.Impl, in.b, o)
		if err != nil {
			continue // model errors: the routes report them differently
		}
		specLTS, err := explore.Explore(in.prog, in.prog.Spec, in.b, o)
		require.NoError(t, err, in.name)
		want, err := refine.Check(implLTS, specLTS, refine.Options{Antichain: true})
		require.NoError(t, err, in.name)
		got, _, pair, _, _, err := engineOnSemantics(in.prog, in.b, o, false, Reductions{})
		require.NoError(t, err, in.name)
		holds := pair < 0
		what := fmt.Sprintf("%s %v", in.name, in.b)
		assert.Equal(t, want.Refines, holds, what)
		assert.Equal(t, want.Stats.Depth, got.Depth, what)
		assert.Equal(t, want.Stats.Pairs, int64(got.Pairs.Len()), what)
		// Without the index, a pair killed and met again counts as subsumed.
		assert.LessOrEqual(t, want.Stats.Subsumed, got.Pairs.Subsumed, what)
		// Check as it runs by default: both follow only the least pairs of
		// a state's pairs of a level (dominance.go, Search.Dominated).
		fly, err := Check(in.prog, in.b, Options{Options: o})
		require.NoError(t, err, what)
		assert.Equal(t, want.Refines, fly.Refines, what)
		for _, r := range []Reductions{{}, {Symmetry: true}, {PartialOrder: true}, {Symmetry: true, PartialOrder: true}} {
			steps, m, pair, step, reduced, err := engineOnSemantics(in.prog, in.b, o, true, r)
			require.NoError(t, err, what)
			holds := pair < 0
			fly := fly
			if r != (Reductions{}) {
				if fly, err = Check(in.prog, in.b, Options{Options: o, Reductions: r}); !assert.NoError(t, err, what) {
					continue
				}
				assert.Equal(t, fly.Symmetric, reduced, what)
				symmetric += btoi(reduced)
			}
			run := fmt.Sprintf("%s by steps, %+v", what, r)
			assert.Equal(t, fly.Refines, holds, run)
			// Both store a pair once, even when two steps of a state
			// enter the same new state, and under symmetry keep the least
			// of a stabiliser's renamings.
			assert.Equal(t, fly.Stats.Pairs, int64(steps.Store.Len()), run)
			assert.Equal(t, fly.Stats.Dominated, steps.Dominated, "dominated: %s", run)
			dominated += steps.Dominated
			if r.PartialOrder {
				// The same ample sets, refused by the proviso alike.
				assert.Equal(t, [3]int64{fly.Stats.Ample, fly.Stats.Full, fly.Stats.ProvisoFull},
					[3]int64{steps.Ample, steps.Full, steps.ProvisoFull}, "ample, full, proviso: %s", run)
				ample += steps.Ample
			}
			assert.Equal(t, fly.Stats.States, int64(m.states()), "states: %s", run)
			assert.Equal(t, [3]int64{fly.Stats.Represented, fly.Stats.Expanded, fly.Stats.Transitions},
				[3]int64{m.f.res.Stats.Represented, m.f.res.Stats.Expanded, m.f.res.Stats.Transitions}, "represented, expanded, transitions: %s", run)
			if !fly.Refines {
				assert.Len(t, fly.Counterexample.Steps, steps.ViolationDepth+1, "counterexample: %s", run)
				// The path rebuilt from the levels over the packed records.
				path, err := steps.Path(pair, step)
				if assert.NoError(t, err, run) {
					assert.Len(t, path, steps.ViolationDepth+1, "rebuilt path: %s", run)
				}
			}
		}
		if holds {
			refines++
		} else {
			fails++
		}
	}
	t.Logf("%d inputs: %d refine, %d fail, %d symmetric, %d pairs followed an ample set, %d dominated in their level", len(inputs), refines, fails, symmetric, ample, dominated)
	assert.Positive(t, symmetric)
	assert.Positive(t, ample)
	assert.Positive(t, dominated)
	assert.Positive(t, refines)
	assert.Positive(t, fails)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestOneEngineRunsTheCheck holds Check on the engine's route
// (runOnEngine: antichain.Search layered by steps over semImpl and the
// search's pair records, its batches expanded on the expanders) to
// Check's own loop, on one expander and on two in batches of three states,
// on the bundled models in both heap modes and every reduction mode, and
// on random programs, stopping at the first violation or not, deciding
// lock-freedom alone (Options.LockFreeOnly), following every pair
// (noDominance) and checking rebuilt paths against the parents kept
// (checkPaths, checkTau): the same outcome (the
// verdicts, the counterexample, the lasso and the model error, replayed
// from the same records), and the same counts but the successors the
// cache recognised (which depend on when it is filled).
func TestOneEngineRunsTheCheck(t *testing.T) {
	type input struct {
		name string
		prog *check.Program
		b    ir.Bounds
	}
	var inputs []input
	for _, m := range bundledModels(t, ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}) {
		inputs = append(inputs, input{m.String(), m.prog, m.b})
	}
	for seed := range testsize.Count(20, 60) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 39)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := frontend.Parse(name, []byte(p.Source))
		require.NoError(t, err, name)
		inputs = append(inputs, input{name, m.Program, m.DefaultBounds()})
	}
	var runs, fails, cycles, modelErrors, dominated, lockFreeOnly int
	for _, in := range inputs {
		for j, mode := range searchModes(false) {
			var plainDominated int64 // the pairs the rule left out, without a variant
			for v, variant := range []string{"", "first", "lock-free only", "no dominance", "check paths"} {
				// Every other run on two expanders, in batches of three
				// states: the batches' bounds fall in every level.
				workers, batch := 1, 0
				if (j+v)%2 == 1 {
					workers, batch = 2, 3
				}
				what := fmt.Sprintf("%s %v explicit=%v %+v %s workers=%d", in.name, in.b, mode.explicit, mode.red, variant, workers)
				o := Options{Options: semantics.Options{Explicit: mode.explicit, MaxStates: 200_000, Workers: workers}, Reductions: mode.red, batchStates: batch}
				switch variant {
				case "first":
					o.FirstViolation = true
				case "lock-free only":
					o.LockFreeOnly = true
				case "no dominance":
					o.noDominance = true
				case "check paths":
					// The engine's rebuilt paths checked against the
					// parents it kept, as the own loop's against its own.
					o.checkPaths, o.checkTau = true, true
				}
				want, wantErr := Check(in.prog, in.b, o)
				o.oneEngine = true
				got, gotErr := Check(in.prog, in.b, o)
				if wantErr != nil || gotErr != nil {
					require.Error(t, wantErr, what)
					require.Error(t, gotErr, what)
					assert.Equal(t, wantErr.Error(), gotErr.Error(), what)
					modelErrors++
					continue
				}
				runs++
				want.Stats.Recognised, got.Stats.Recognised = 0, 0
				assert.Equal(t, want.Stats, got.Stats, what)
				assert.Equal(t, [5]bool{want.Refines, want.RefinesDecided, want.LockFreeChecked, want.LockFree, want.ModelError != nil},
					[5]bool{got.Refines, got.RefinesDecided, got.LockFreeChecked, got.LockFree, got.ModelError != nil}, what)
				if want.ModelError != nil && got.ModelError != nil {
					assert.Equal(t, want.ModelError.Error(), got.ModelError.Error(), what)
				}
				assert.Equal(t, want.Counterexample, got.Counterexample, what)
				assert.Equal(t, want.Lasso, got.Lasso, what)
				fails += btoi(!want.Refines && want.RefinesDecided)
				cycles += btoi(want.LockFreeChecked && !want.LockFree)
				if variant == "" {
					plainDominated = want.Stats.Dominated
				}
				// The switch counts where the rule left pairs out.
				dominated += btoi(variant == "no dominance" && plainDominated > 0)
				lockFreeOnly += btoi(variant == "lock-free only" && !got.RefinesDecided)
			}
		}
	}
	t.Logf("%d runs: %d violations, %d τ-cycles; %d model errors; %d lock-freedom alone, %d with every pair followed where the rule leaves some out", runs, fails, cycles, modelErrors, lockFreeOnly, dominated)
	assert.Positive(t, fails)
	assert.Positive(t, cycles)
	assert.Positive(t, lockFreeOnly)
	assert.Positive(t, dominated)
}
