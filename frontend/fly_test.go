package frontend

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/onthefly"
	"github.com/linbis/linbis/progress"
	"github.com/linbis/linbis/refine"
)

// flyCase is a bundled model at some bounds and heap mode.
type flyCase struct {
	model    string
	threads  int
	ops      int
	explicit bool
}

func (c flyCase) String() string {
	mode := "gc"
	if c.explicit {
		mode = "explicit"
	}
	return fmt.Sprintf("%s/%dx%d/%s", c.model, c.threads, c.ops, mode)
}

// flyCases are every bundled model at three bounds in both heap modes,
// small enough for the unreduced LTS to be built in a unit test.
func flyCases() []flyCase {
	var cases []flyCase
	for _, name := range Examples() {
		for _, b := range [][2]int{{1, 2}, {2, 1}, {2, 2}} {
			for _, explicit := range []bool{false, true} {
				cases = append(cases, flyCase{name, b[0], b[1], explicit})
			}
		}
	}
	return cases
}

func (c flyCase) setup(t *testing.T) (*Model, Bounds, Options) {
	src, err := Example(c.model)
	require.NoError(t, err)
	m, err := Parse(c.model+".lin", src)
	require.NoError(t, err)
	b := m.DefaultBounds()
	b.Threads, b.Ops = c.threads, c.ops
	opts := Options{}
	opts.Explicit = c.explicit
	opts.MaxStates = 300_000
	return m, b, opts
}

// TestFlyAgreesWithFullLTS holds the on-the-fly check, unreduced and
// reduced, to the verdicts of the refinement and progress checkers on the
// full LTSs, and checks its counterexamples against the full LTSs: a
// violating trace must be a trace of the implementation that the
// specification lacks, and a lasso a path of the implementation whose
// loop is a τ-cycle.
func TestFlyAgreesWithFullLTS(t *testing.T) {
	for _, c := range flyCases() {
		t.Run(c.String(), func(t *testing.T) {
			m, b, opts := c.setup(t)
			compareFlyWithFull(t, c.String(), m, b, opts)
		})
	}
}

// flyComparison is what compareFlyWithFull found.
type flyComparison struct {
	// failed: the full exploration failed (a model error or a limit), and
	// so did the on-the-fly check.
	failed bool
	// The full LTS's verdicts.
	refines, lockFree bool
	// byMode are the on-the-fly results under each of onthefly.ReductionModes.
	byMode [4]*onthefly.Result
}

// compareFlyWithFull builds the full LTSs of m under b and holds the
// on-the-fly check, unreduced and with symmetry, to the verdicts of the
// refinement and progress checkers on them, under every reduction mode
// (none, symmetry, partial-order, both); its counterexamples must be
// paths of the full LTS (a violation one the specification cannot finish,
// a shortest one without partial-order reduction; a lasso one whose loop
// closes), and unreduced it must store the LTS's states. It uses assert, not require, so that it can run
// on other goroutines than the test's.
func compareFlyWithFull(t *testing.T, what string, m *Model, b Bounds, opts Options) flyComparison {
	t.Helper()
	var cmp flyComparison
	opts.Workers = 1 // the reference; flyWorkers others must do the same
	impl, spec, err := Compile(m, b, opts)
	if err != nil {
		// On the fly, the model error is the error, or it is reported
		// beside a violation met before it (Result.ModelError).
		got, ferr := onthefly.Check(m.Program, b, onthefly.Options{Options: opts})
		if ferr == nil && got != nil && !got.Refines {
			ferr = got.ModelError
		}
		assert.Error(t, ferr, "%s: the full exploration failed with %v", what, err)
		cmp.failed = true
		return cmp
	}
	want, err := refine.Check(impl, spec, refine.Options{})
	if !assert.NoError(t, err, what) {
		return cmp
	}
	lf, err := progress.Check(impl, progress.LockFree)
	if !assert.NoError(t, err, what) {
		return cmp
	}
	cmp.refines, cmp.lockFree = want.Refines, lf.Holds
	for i, mode := range onthefly.ReductionModes {
		if mode.Symmetry && mode.PartialOrder {
			if sym, por := cmp.byMode[1], cmp.byMode[2]; sym != nil && por != nil && (!sym.Symmetric ||
				por.LockFreeChecked && por.Stats.Ample == 0 && por.Stats.ProvisoFull == 0) {
				// all is por when symmetry is refused; and it is symmetry
				// when no reachable state had an ample thread (a complete
				// search that never chose one: choose is a function of
				// the state, and the representatives are reachable
				// states): nothing new to run.
				cmp.byMode[i] = por
				if sym.Symmetric {
					cmp.byMode[i] = sym
				}
				continue
			}
		}
		got, err := onthefly.Check(m.Program, b, onthefly.Options{Options: opts, Reductions: mode.Reductions})
		if !assert.NoError(t, err, what) {
			return cmp
		}
		cmp.byMode[i] = got
		run := fmt.Sprintf("%s --reduce %s", what, mode.Name)
		for _, w := range flyWorkers() {
			o := opts
			o.Workers = w
			other, err := onthefly.Check(m.Program, b, onthefly.Options{Options: o, Reductions: mode.Reductions})
			if assert.NoError(t, err, "%s --workers %d", run, w) {
				assertSameSearch(t, got, other, fmt.Sprintf("%s --workers %d", run, w))
			}
		}
		assert.Equal(t, mode.PartialOrder, got.PartialOrder, run)
		if !mode.PartialOrder {
			assert.Zero(t, got.Stats.Ample+got.Stats.Full, run)
		}
		assert.Equal(t, want.Refines, got.Refines, "refinement: %s", run)
		if !got.Refines {
			checkViolation(t, impl, spec, got.Counterexample)
			if !want.Refines && !mode.PartialOrder {
				// The reduced graph's paths may take independent steps
				// early, so only the unreduced BFS promises a shortest one.
				assert.LessOrEqual(t, len(got.Counterexample.Steps), len(want.Counterexample.Steps),
					"breadth-first, the violation is a shortest path: %s", run)
			}
			// Past the violation the search goes on over the
			// implementation alone and decides lock-freedom too; with
			// FirstViolation it stops there, leaving it undecided.
			// (With more workers: the same violation, whatever their number.)
			o := opts
			o.Workers = flyWorkers()[0]
			first, err := onthefly.Check(m.Program, b, onthefly.Options{Options: o, Reductions: mode.Reductions, FirstViolation: true})
			if assert.NoError(t, err, run) {
				assert.False(t, first.Refines, "first violation: %s", run)
				assert.False(t, first.LockFreeChecked, "first violation: %s", run)
				assert.Equal(t, got.Counterexample.Steps, first.Counterexample.Steps, "the same first violation: %s", run)
			}
		}
		if !assert.True(t, got.LockFreeChecked, run) {
			continue
		}
		assert.Equal(t, lf.Holds, got.LockFree, "lock-freedom: %s", run)
		if !got.LockFree {
			checkLasso(t, impl, got.Lasso)
		}
		if mode.Reductions == (onthefly.Reductions{}) {
			assert.Equal(t, int64(impl.NumStates), got.Stats.States, "unreduced, every state is stored: %s", run)
		} else {
			assert.LessOrEqual(t, got.Stats.States, int64(impl.NumStates), "reduced, at most the states of the LTS: %s", run)
		}
		// The stored states' orbits are the reachable states: counted
		// exactly when every stabiliser was enumerated, else from below
		// (and from below under partial-order reduction, which stores
		// only some of them).
		if got.Stats.RepresentedExact && !mode.PartialOrder {
			assert.Equal(t, int64(impl.NumStates), got.Stats.Represented, "the orbits of the stored states: %s", run)
		} else {
			assert.LessOrEqual(t, got.Stats.Represented, int64(impl.NumStates), "the orbits of the stored states: %s", run)
		}
	}
	return cmp
}

// flyWorkers are the numbers of workers whose searches compareFlyWithFull
// holds to the search with one: 3, more than the cores here (the
// onthefly package's tests take 2 and 3 with batches of a few states).
func flyWorkers() []int { return []int{3} }

// assertSameSearch asserts that two on-the-fly checks of a model stored,
// counted and reported the same, but for the successors found in the cache
// of recent successors (Stats.Recognised), which depends on the workers.
func assertSameSearch(t *testing.T, want, got *onthefly.Result, what string) {
	t.Helper()
	w, g := *want, *got
	w.Stats.Recognised, g.Stats.Recognised = 0, 0
	assert.Equal(t, w, g, "the same search with any number of workers: %s", what)
}

// checkViolation checks that tr is a path of impl whose visible trace
// spec cannot do, though it can do every proper prefix.
func checkViolation(t *testing.T, impl, spec *lts.LTS, tr *lts.Trace) {
	t.Helper()
	if !assert.NotNil(t, tr) || !assert.True(t, lts.Follows(impl, tr), "the counterexample is a path of the implementation") {
		return
	}
	vis := tr.Visible()
	if !assert.NotEmpty(t, vis) {
		return
	}
	_, ok := lts.Replay(spec, vis[:len(vis)-1])
	assert.True(t, ok, "the specification can do the history before the last action")
	_, ok = lts.Replay(spec, vis)
	assert.False(t, ok, "the specification cannot do the whole trace")
}

// checkLasso checks that tr is a path of impl that ends in a τ-cycle.
func checkLasso(t *testing.T, impl *lts.LTS, tr *lts.Trace) {
	t.Helper()
	if !assert.NotNil(t, tr) || !assert.True(t, tr.IsLasso()) {
		return
	}
	assert.True(t, lts.Follows(impl, tr), "the lasso is a path of the implementation whose loop closes")
	for _, s := range tr.Steps[tr.LoopStart:] {
		assert.Equal(t, lts.TauName, s.Label, "the loop is made of τ-steps")
	}
}
