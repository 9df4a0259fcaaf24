package verify

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/parallel"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/onthefly"
	"github.com/linbis/linbis/progress"
	"github.com/linbis/linbis/refine"
)

func TestLadderRungs(t *testing.T) {
	type tb struct{ threads, ops int }
	for _, c := range []struct {
		want []tb
	}{
		{[]tb{{2, 1}, {2, 2}, {3, 2}, {3, 3}}},
		{[]tb{{2, 1}, {2, 2}, {3, 2}, {3, 3}, {4, 3}}},
		{[]tb{{2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1}}},
		{[]tb{{2, 1}, {2, 2}, {2, 3}, {2, 4}}},
		{[]tb{{1, 1}, {1, 2}, {1, 3}}},
		{[]tb{{1, 1}}},
		{[]tb{{2, -1}, {3, -1}, {4, -1}}},
	} {
		last := c.want[len(c.want)-1]
		b := frontend.Bounds{Threads: last.threads, Ops: last.ops, Values: []int{1, 2}}
		var got []tb
		for _, r := range ladder(b) {
			got = append(got, tb{r.Threads, r.Ops})
			assert.Equal(t, b.Values, r.Values)
		}
		assert.Equal(t, c.want, got, "ladder to %v", last)
	}
	// `only` lines follow the threads that remain.
	b := frontend.Bounds{Threads: 3, Ops: 1, Only: map[int][]string{1: {"push"}, 3: {"pop"}}}
	rungs := ladder(b)
	assert.Equal(t, map[int][]string{1: {"push"}}, rungs[0].Only)
	assert.Equal(t, b.Only, rungs[1].Only)
}

// TestLadderAgreesWithFullLTS holds the on-the-fly method with its bounds
// ladder to the refinement and progress checkers on the full LTS of random
// programs under bounds one operation above their own: the verdicts agree,
// and a counterexample found on a lower rung is a path of the full
// implementation LTS whose last action the specification refuses;
// lock-freedom is decided whether or not the program is linearizable; and
// the ladder with 3 workers finds the same as with one.
func TestLadderAgreesWithFullLTS(t *testing.T) {
	n := testsize.Count(60, 300) // random programs
	type outcome struct{ violation, lower bool }
	outcomes := make([]outcome, n)
	parallel.ForEach(runtime.GOMAXPROCS(0), n, func(seed int) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 7)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := frontend.Parse(name, []byte(p.Source))
		if !assert.NoError(t, err, name) {
			return
		}
		b := m.DefaultBounds()
		if b.Ops > 0 {
			b.Ops++
		}
		copts := frontend.Options{MaxStates: 50_000}
		impl, spec, err := frontend.Compile(m, b, copts)
		if err != nil {
			return // a model error or too large: the fly tests cover those
		}
		want, err := refine.Check(impl, spec, refine.Options{})
		require.NoError(t, err, name)
		lf, err := progress.Check(impl, progress.LockFree)
		require.NoError(t, err, name)

		// The product holds several pairs per state.
		fopts := copts
		fopts.MaxStates = 1_000_000
		fopts.Workers = 1
		out, err := Run(context.Background(), name, m, b, Options{Method: Fly, Compile: fopts, Reductions: onthefly.Reductions{Symmetry: true}})
		if !assert.NoError(t, err, name) {
			return
		}
		r := out.Report
		// The searches with more workers store and find the same.
		fopts.Workers = 3
		more, err := Run(context.Background(), name, m, b, Options{Method: Fly, Compile: fopts, Reductions: onthefly.Reductions{Symmetry: true}})
		if assert.NoError(t, err, name) {
			assert.Equal(t, r.OnTheFly, more.Report.OnTheFly, "%s: the ladder with 3 workers", name)
			assert.Equal(t, r.Evidence, more.Report.Evidence, "%s: the ladder with 3 workers", name)
			assert.Equal(t, [2]Verdict{r.Linearizable, r.LockFree}, [2]Verdict{more.Report.Linearizable, more.Report.LockFree}, name)
		}
		assert.Equal(t, verdictOf(want.Refines), r.Linearizable, name)
		// Lock-freedom is decided after a violation too: the search goes
		// on over the implementation alone, or, after a lower rung's
		// violation, searches the requested bounds' implementation.
		assert.Equal(t, verdictOf(lf.Holds), r.LockFree, name)
		outcomes[seed] = outcome{violation: !want.Refines || !lf.Holds, lower: r.OnTheFly.FoundAt != nil}
		for _, e := range r.Evidence {
			switch e.Kind {
			case "refinement-violation":
				assertRefused(t, name, impl, spec, e.Trace)
			case "lasso":
				assert.True(t, lts.Follows(impl, e.Trace), "%s: the lasso is a path of the full LTS whose loop closes", name)
			}
		}
	})
	var violations, lower int
	for _, o := range outcomes {
		if o.violation {
			violations++
		}
		if o.lower {
			lower++
		}
	}
	t.Logf("%d programs: %d with a violation, %d of them found on a lower rung and replayed", n, violations, lower)
	assert.Greater(t, lower, n/20, "too few violations found on a lower rung to test the replay")
}

// assertRefused checks that tr is a path of impl whose visible trace spec
// cannot do, though it can do every proper prefix.
func assertRefused(t *testing.T, name string, impl, spec *lts.LTS, tr *lts.Trace) {
	t.Helper()
	if !assert.True(t, lts.Follows(impl, tr), "%s: the counterexample is a path of the full implementation LTS", name) {
		return
	}
	vis := tr.Visible()
	_, prefix := lts.Replay(spec, vis[:len(vis)-1])
	_, all := lts.Replay(spec, vis)
	assert.True(t, prefix && !all, "%s: the specification follows the counterexample up to its last action, and no further", name)
}

// A model whose bug exists only with 2 threads: the rung of 2 threads
// finds it, it does not replay under 3, and the ladder goes on to find
// that the model is linearizable under the bounds asked for.
const twoThreadBug = `object O {
  shared c int = 0
  method get() int {
    if nthreads == 2 { return 1 }
    return 0
  }
}
spec S {
  shared c int = 0
  method get() int { return c }
}
client { threads 3; ops 1 }
`

func TestLadderRefusesWhatDoesNotReplay(t *testing.T) {
	m, err := frontend.Parse("two.lin", []byte(twoThreadBug))
	require.NoError(t, err)
	out, err := Run(context.Background(), "two", m, m.DefaultBounds(), Options{Method: Fly, Reductions: onthefly.Reductions{Symmetry: true}})
	require.NoError(t, err)
	r := out.Report
	assert.Equal(t, Yes, r.Linearizable)
	assert.Equal(t, Yes, r.LockFree)
	require.Len(t, r.OnTheFly.Ladder, 2)
	assert.Equal(t, "does not replay", r.OnTheFly.Ladder[0].Result)
	assert.Equal(t, "holds", r.OnTheFly.Ladder[1].Result)
	assert.Nil(t, r.OnTheFly.FoundAt)

	// Under 2 threads the bug is real.
	b := m.DefaultBounds()
	b.Threads = 2
	out, err = Run(context.Background(), "two", m, b, Options{Method: Fly})
	require.NoError(t, err)
	assert.Equal(t, No, out.Report.Linearizable)
}

// TestLockFreeAfterViolationStopsAtLimit: when the search of the requested
// bounds' implementation that follows a lower rung's violation stops at a
// limit, the violation stands, lock-freedom is left undecided, and the
// report names the limit; --first-violation skips that search.
func TestLockFreeAfterViolationStopsAtLimit(t *testing.T) {
	m, err := frontend.ParseExample("shann-queue-8")
	require.NoError(t, err)
	b := m.DefaultBounds()
	b.Threads, b.Ops = 3, 3
	red := onthefly.Reductions{Symmetry: true, PartialOrder: true}
	// The 2×2 rung finds the violation within 30 000 pairs; 3×3's
	// implementation alone needs far more.
	opts := Options{Method: Fly, Compile: frontend.Options{MaxStates: 30_000}, Reductions: red}
	out, err := Run(context.Background(), "shann-queue-8", m, b, opts)
	require.NoError(t, err)
	r := out.Report
	assert.Equal(t, No, r.Linearizable)
	assert.Equal(t, Unknown, r.LockFree)
	assert.Equal(t, "states", r.StoppedBy)
	require.NotNil(t, r.OnTheFly.FoundAt)
	last := r.OnTheFly.Ladder[len(r.OnTheFly.Ladder)-1]
	// The stage and the reason count what the search had stored.
	assert.Equal(t, LadderStage{Threads: 3, Ops: 3, Pairs: 30_000, States: last.States, Result: "limit"}, last)
	assert.Positive(t, last.States)
	assert.Equal(t, fmt.Sprintf("the search of the implementation alone for lock-freedom stopped after 30000 pairs and %d implementation states: the state limit (--max-states 30000, which counts product pairs)", last.States), r.Reason)
	assert.Contains(t, strings.Join(r.Notes, "\n"), "lock-freedom under the requested bounds is not decided")

	opts.FirstViolation = true
	out, err = Run(context.Background(), "shann-queue-8", m, b, opts)
	require.NoError(t, err)
	assert.Equal(t, No, out.Report.Linearizable)
	assert.Equal(t, Unknown, out.Report.LockFree)
	assert.Empty(t, out.Report.StoppedBy)
	assert.NotEqual(t, 3, out.Report.OnTheFly.Ladder[len(out.Report.OnTheFly.Ladder)-1].Threads, "no search of the requested bounds")
}
