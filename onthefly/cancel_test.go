package onthefly

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/limits/limitstest"
)

// TestDeadlineStopsTheSearch: an on-the-fly check that would take
// minutes (Treiber, 4 threads of 3 operations, unreduced) stops soon
// after its context's deadline with an error wrapping the context's
// cause; and the pair limit is a *limits.LimitError on --max-states.
func TestDeadlineStopsTheSearch(t *testing.T) {
	prog := treiber(t)
	b := ir.Bounds{Threads: 4, Ops: 3, Values: []int{1, 2}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Check(prog, b, Options{Options: semantics.Options{Context: ctx}})
	elapsed := time.Since(start)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Regexp(t, `the on-the-fly search stopped after \d+ product pairs and \d+ implementation states: `, err.Error(), "what was stored")
	t.Logf("stopped after %s", elapsed)
	assert.Less(t, elapsed, 5*time.Second, "stopped promptly")

	_, err = Check(prog, b, Options{Options: semantics.Options{MaxStates: 100}})
	var le *limits.LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, limits.States, le.Limit)
	assert.Equal(t, int64(100), le.Value)
	assert.ErrorIs(t, err, semantics.ErrStateLimit)
}

// treiber is the bundled Treiber stack, checked.
func treiber(t *testing.T) *check.Program {
	t.Helper()
	return checkedFile(t, "../frontend/examples/treiber.lin")
}

// checkedFile is the model in file, parsed and checked.
func checkedFile(t *testing.T, file string) *check.Program {
	t.Helper()
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	ast, err := syntax.Parse(file, src)
	require.NoError(t, err)
	prog, err := check.Check(ast)
	require.NoError(t, err)
	return prog
}

// TestTableGrowthStops: growing the table of states puts every state in
// it again, seconds of CPU time at a hundred million states, so it polls
// the context: reserve with an ended context stops at its first poll,
// before the growth begins, with the context's cause and the store whole
// (a violation found before is replayed from it); with a live one it
// grows the table, and every state is found again.
func TestTableGrowthStops(t *testing.T) {
	l := &ir.Layout{Nshared: 2, Threads: 2, ThreadSize: 2}
	l.HeapBase = l.Nshared + l.Threads*l.ThreadSize
	s := newStateStore(l)
	vec := func(i int) []int32 { return []int32{int32(i & 0xff), int32(i >> 8), 0, 1, 0, 1} }
	const n = 3 * (rootMask + 1)
	for i := range n {
		v := vec(i)
		_, isNew := s.insert(v, s.hash(v))
		require.True(t, isNew)
	}
	slots := s.table.n

	ctx, cancel := context.WithCancelCause(context.Background())
	stop := &limits.LimitError{Limit: limits.Time, Value: 1}
	cancel(stop)
	err := s.reserve(ctx, slots)
	assert.ErrorIs(t, err, stop, "the growth stopped at its first poll")
	assert.Equal(t, slots, s.table.n, "the table as it was")
	for i := range n {
		v := vec(i)
		require.Equal(t, int32(i), s.find(v, s.hash(v)), "state %d found after the stop", i)
	}

	s = newStateStore(l)
	for i := range n {
		v := vec(i)
		s.insert(v, s.hash(v))
	}
	require.NoError(t, s.reserve(context.Background(), slots))
	assert.GreaterOrEqual(t, s.limit, n+slots, "room for the states reserved")
	for i := range n {
		v := vec(i)
		require.Equal(t, int32(i), s.find(v, s.hash(v)))
	}
}

// TestCycleWindowStops: the cycle search that finds the τ-steps again
// expands up to tauMaxAhead states at a time, a second or so of CPU time,
// so each chunk of them polls the context: with an ended one no state is
// expanded (the expanders here could not), every chunk has its cause, and
// the first is the search's error.
func TestCycleWindowStops(t *testing.T) {
	l := &ir.Layout{Nshared: 2, Threads: 2, ThreadSize: 2}
	l.HeapBase = l.Nshared + l.Threads*l.ThreadSize
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := &limits.LimitError{Limit: limits.Time, Value: 1}
	cancel(stop)
	f := &flySearch{o: Options{Options: semantics.Options{Context: ctx}}, expanders: []*expander{{}, {}}}
	f.states = newStateStore(l)
	for i := range 5 * tauChunk {
		v := []int32{int32(i & 0xff), int32(i >> 8), 0, 1, 0, 1}
		f.states.insert(v, f.states.hash(v))
	}
	g := &tauGraph{f: f, window: tauWindow, chunk: tauChunk, maxAhead: tauMaxAhead}
	g.fill(0)
	require.Len(t, g.cErrs, 5)
	for c, err := range g.cErrs {
		assert.ErrorIs(t, err, stop, "chunk %d", c)
	}
	assert.ErrorIs(t, g.err, stop)
}

// TestCycleSearchStopKeepsRefinement: a limit reached in the search for
// τ-cycles, after the refinement search ended, leaves the refinement's
// verdict standing (Refines, with its counterexample when false) and
// lock-freedom unchecked: stopped at each of its polls in turn, the
// check returns the uninterrupted run's refinement verdict wherever it
// says it decided it, and a stop in the cycle search is met, whether it
// reads the τ-steps kept or finds them again (Options.rebuildTau).
func TestCycleSearchStopKeepsRefinement(t *testing.T) {
	for _, c := range [][2]any{
		{"treiber", false}, {"spinlock-stack", false}, {"counter2", false}, {"lamport-queue-2p", false},
		{"spinlock-stack", true}, {"lamport-queue-2p", true},
	} {
		name, rebuild := c[0].(string), c[1].(bool)
		prog := checkedFile(t, "../frontend/examples/"+name+".lin")
		b := ir.Bounds{Threads: 2, Ops: 2, Values: []int{1}}
		o := Options{Reductions: Reductions{Symmetry: true, PartialOrder: true}, batchStates: 3}
		if rebuild { // in one window: a poll per chunk of 2 states would make many stops to try
			o.batchStates, o.rebuildTau = 0, true
		}
		name = fmt.Sprintf("%s rebuildTau=%v", name, rebuild)
		whole, err := Check(prog, b, o)
		require.NoError(t, err, name)
		require.True(t, whole.RefinesDecided && whole.LockFreeChecked, name)
		t.Logf("%s: refines %v, lock-free %v", name, whole.Refines, whole.LockFree)
		stoppedInCycles := 0
		for k := 0; ; k++ {
			o.Context = limitstest.StopAt(k)
			res, err := Check(prog, b, o)
			if err == nil {
				assert.Equal(t, whole.Refines, res.Refines, name)
				break
			}
			require.ErrorAs(t, err, new(*limits.LimitError), "%s, stop %d", name, k)
			if res == nil || !res.RefinesDecided {
				continue
			}
			assert.False(t, res.LockFreeChecked, "%s, stop %d", name, k)
			assert.Equal(t, whole.Refines, res.Refines, "%s, stop %d", name, k)
			assert.Equal(t, whole.Refines, res.Counterexample == nil, "%s, stop %d", name, k)
			if strings.Contains(err.Error(), "cycle search") {
				stoppedInCycles++
			}
		}
		assert.Positive(t, stoppedInCycles, "%s: a stop in the cycle search", name)
	}
}
