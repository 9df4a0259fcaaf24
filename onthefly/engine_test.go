package onthefly

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
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

// engineCase is a check of TestEngineKeepsTheOwnLoopsOutcomes: an input at its
// bounds, the options, and its variant.
type engineCase struct {
	what, variant string
	prog          *check.Program
	b             ir.Bounds
	o             Options
}

// engineCases are the checks TestEngineKeepsTheOwnLoopsOutcomes runs: the bundled
// models at 3 threads, 1 operation, 1 value, and seeds random programs,
// in the heap and reduction modes of searchModes(false), each as it is,
// stopping at the first violation, deciding lock-freedom alone
// (Options.LockFreeOnly), following every pair (noDominance) and checking
// rebuilt paths against the parents kept (checkPaths, checkTau); every
// other one on two expanders in batches of three states, so that the
// batches' bounds fall in every level.
func engineCases(t *testing.T, seeds int) []engineCase {
	type input struct {
		name string
		prog *check.Program
		b    ir.Bounds
	}
	var inputs []input
	for _, m := range bundledModels(t, ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}) {
		inputs = append(inputs, input{filepath.Base(m.file), m.prog, m.b})
	}
	for seed := range seeds {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 39)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := frontend.Parse(name, []byte(p.Source))
		require.NoError(t, err, name)
		inputs = append(inputs, input{name, m.Program, m.DefaultBounds()})
	}
	var cases []engineCase
	for _, in := range inputs {
		for j, mode := range searchModes(false) {
			for v, variant := range []string{"", "first", "lock-free only", "no dominance", "check paths"} {
				workers, batch := 1, 0
				if (j+v)%2 == 1 {
					workers, batch = 2, 3
				}
				o := Options{Options: semantics.Options{Explicit: mode.explicit, MaxStates: 200_000, Workers: workers}, Reductions: mode.red, batchStates: batch}
				switch variant {
				case "first":
					o.FirstViolation = true
				case "lock-free only":
					o.LockFreeOnly = true
				case "no dominance":
					o.noDominance = true
				case "check paths":
					o.checkPaths, o.checkTau = true, true
				}
				what := fmt.Sprintf("%s %v explicit=%v %+v %s workers=%d", in.name, in.b, mode.explicit, mode.red, variant, workers)
				cases = append(cases, engineCase{what, variant, in.prog, in.b, o})
			}
		}
	}
	return cases
}

// flyOutcome is what a check found, as TestEngineKeepsTheOwnLoopsOutcomes compares
// it: the counts but the successors the cache recognised (which depend on
// when it is filled), the verdicts, the lengths of the counterexample and
// of the lasso, and the error or the model error met past a violation.
type flyOutcome struct {
	Stats                           Stats
	Verdicts                        [5]bool
	CounterexampleSteps, LassoSteps int
	Err                             string
}

// outcomeOf returns the outcome of a check that returned r and err.
func outcomeOf(r *Result, err error) flyOutcome {
	if err != nil {
		return flyOutcome{Err: err.Error()}
	}
	o := flyOutcome{Stats: r.Stats, Verdicts: [5]bool{r.Refines, r.RefinesDecided, r.LockFreeChecked, r.LockFree, r.ModelError != nil}}
	o.Stats.Recognised = 0
	if r.Counterexample != nil {
		o.CounterexampleSteps = len(r.Counterexample.Steps)
	}
	if r.Lasso != nil {
		o.LassoSteps = len(r.Lasso.Steps)
	}
	if r.ModelError != nil {
		o.Err = r.ModelError.Error()
	}
	return o
}

// TestEngineKeepsTheOwnLoopsOutcomes holds Check, which runs on the
// engine (run: antichain.Search layered by steps over semImpl and the
// search's pair records), to the outcomes that the search's own loop of
// the product, deleted since, found on engineCases (testdata/ownloop.json:
// the counts, verdicts, counterexamples' and lassos' lengths, model
// errors). The file was written by the own loop in the commit that
// switched Check to the engine, the one before the loop's deletion
// (TestOneEngineRunsTheCheck with LINBIS_WRITE_OWN_LOOP), once the engine
// had found the same outcomes on every case, and the same counterexamples
// and lassos step for step. The verdicts stay held to the full LTSs'
// (frontend's TestFlyAgreesWithFullLTS, verify's and cmd's tests), and
// every counterexample is replayed on the unreduced semantics (replay.go).
func TestEngineKeepsTheOwnLoopsOutcomes(t *testing.T) {
	data, err := os.ReadFile("testdata/ownloop.json")
	require.NoError(t, err)
	var golden map[string]flyOutcome
	require.NoError(t, json.Unmarshal(data, &golden))
	matched, fails, cycles := 0, 0, 0
	for _, c := range engineCases(t, 20) {
		want, ok := golden[c.what]
		if !ok {
			continue // a mode only the full size searches
		}
		matched++
		r, err := Check(c.prog, c.b, c.o)
		require.Equal(t, want, outcomeOf(r, err), c.what)
		fails += btoi(want.Err == "" && !want.Verdicts[0] && want.Verdicts[1])
		cycles += btoi(want.Err == "" && want.Verdicts[2] && !want.Verdicts[3])
	}
	t.Logf("%d cases: %d violations, %d τ-cycles", matched, fails, cycles)
	require.Equal(t, len(golden), matched, "every recorded case run")
	assert.Positive(t, fails)
	assert.Positive(t, cycles)
}
