package frontend

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
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
			impl, spec, err := Compile(m, b, opts)
			if err != nil {
				// A model error or an oversized case: the on-the-fly check
				// must fail the same way.
				_, ferr := CheckOnTheFly(m, b, opts, Reductions{})
				require.Error(t, ferr, "full exploration failed with %v", err)
				return
			}
			want, err := refine.Check(impl, spec, refine.Options{})
			require.NoError(t, err)
			lf, err := progress.Check(impl, progress.LockFree)
			require.NoError(t, err)
			for _, sym := range []bool{false, true} {
				got, err := CheckOnTheFly(m, b, opts, Reductions{Symmetry: sym})
				require.NoError(t, err)
				assert.Equal(t, want.Refines, got.Refines, "refinement, symmetry %v", sym)
				if !got.Refines {
					requireViolation(t, impl, spec, got.Counterexample)
					assert.LessOrEqual(t, len(got.Counterexample.Steps), len(want.Counterexample.Steps),
						"breadth-first, the violation is a shortest path")
					continue
				}
				require.True(t, got.LockFreeChecked)
				assert.Equal(t, lf.Holds, got.LockFree, "lock-freedom, symmetry %v", sym)
				if !got.LockFree {
					requireLasso(t, impl, got.Lasso)
				}
				if !sym {
					assert.Equal(t, int64(impl.NumStates), got.Stats.States, "unreduced, every state is stored")
				}
			}
		})
	}
}

// requireViolation checks that tr is a path of impl whose visible trace
// spec cannot do, though it can do every proper prefix.
func requireViolation(t *testing.T, impl, spec *lts.LTS, tr *lts.Trace) {
	t.Helper()
	require.NotNil(t, tr)
	require.True(t, lts.Follows(impl, tr), "the counterexample is a path of the implementation")
	vis := tr.Visible()
	require.NotEmpty(t, vis)
	_, ok := lts.Replay(spec, vis[:len(vis)-1])
	assert.True(t, ok, "the specification can do the history before the last action")
	_, ok = lts.Replay(spec, vis)
	assert.False(t, ok, "the specification cannot do the whole trace")
}

// requireLasso checks that tr is a path of impl that ends in a τ-cycle.
func requireLasso(t *testing.T, impl *lts.LTS, tr *lts.Trace) {
	t.Helper()
	require.NotNil(t, tr)
	require.True(t, tr.IsLasso())
	require.True(t, lts.Follows(impl, tr), "the lasso is a path of the implementation whose loop closes")
	for _, s := range tr.Steps[tr.LoopStart:] {
		assert.Equal(t, lts.TauName, s.Label, "the loop is made of τ-steps")
	}
}
