package verify

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/onthefly"
)

// TestAutoRungs: the clients method auto searches below the requested
// bounds are the ladder's and those the extrapolation reads, smallest
// first, the requested bounds last; clients of one thread only where
// the bounds have one or the corrected parallelogram reads them (three
// threads and two operations or more).
func TestAutoRungs(t *testing.T) {
	type tb struct{ threads, ops int }
	for _, c := range []struct {
		b    tb
		want []tb
	}{
		{tb{3, 3}, []tb{{1, 2}, {1, 3}, {2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {3, 3}}},
		{tb{3, 2}, []tb{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}}},
		{tb{4, 2}, []tb{{2, 1}, {2, 2}, {3, 1}, {3, 2}, {4, 1}, {4, 2}}},
		{tb{2, 3}, []tb{{2, 1}, {2, 2}, {2, 3}}},
		{tb{2, 2}, []tb{{2, 1}, {2, 2}}},
		{tb{5, 1}, []tb{{2, 1}, {3, 1}, {4, 1}, {5, 1}}},
		{tb{1, 3}, []tb{{1, 1}, {1, 2}, {1, 3}}},
		{tb{3, -1}, []tb{{2, -1}, {3, -1}}},
	} {
		var got []tb
		for _, r := range autoRungs(frontend.Bounds{Threads: c.b.threads, Ops: c.b.ops}) {
			got = append(got, tb{r.Threads, r.Ops})
		}
		assert.Equal(t, c.want, got, "%v", c.b)
	}
}

// growth returns rungs below b whose counts are k·g^(threads+ops), so
// that both of the extrapolation's estimates are exact.
func growth(b frontend.Bounds, k, g float64) []AutoRung {
	var rungs []AutoRung
	for _, r := range autoRungs(b)[:len(autoRungs(b))-1] {
		n := func(k float64) int64 { return int64(math.Round(k * math.Pow(g, float64(r.Threads+r.Ops)))) }
		rungs = append(rungs, AutoRung{Threads: r.Threads, Ops: r.Ops, States: n(k), Transitions: n(3 * k),
			Pairs: n(k / 2), FlyStates: n(k / 4), Successors: n(k)})
	}
	return rungs
}

// TestExtrapolate: counts that grow by the same factor per thread and
// per operation are extrapolated exactly; with the clients of two
// threads fewer, the parallelogram is corrected by its error one thread
// lower; without them, where the two estimates differ the result is
// their geometric mean; one estimate alone is used as it is, and none
// leaves the bounds unmeasured.
func TestExtrapolate(t *testing.T) {
	for _, b := range []frontend.Bounds{{Threads: 3, Ops: 3}, {Threads: 4, Ops: 2}} {
		est, ok := extrapolate(b, growth(b, 1, 10))
		require.True(t, ok)
		want := int64(math.Pow(10, float64(b.Threads+b.Ops)))
		assert.InDelta(t, want, est.States, float64(want)*1e-9, "%v", b)
		assert.InDelta(t, 3*want, est.Transitions, float64(want)*1e-9, "%v", b)
		assert.InDelta(t, want/4, est.FlyStates, float64(want)*1e-9, "%v", b)
	}
	// 3×3: the parallelogram A·B/C = 20·30/10 = 60, the operation step
	// repeated B²/D = 30²/5 = 180: their geometric mean.
	b := frontend.Bounds{Threads: 3, Ops: 3}
	rungs := []AutoRung{{Threads: 2, Ops: 3, States: 20}, {Threads: 3, Ops: 2, States: 30}, {Threads: 2, Ops: 2, States: 10}, {Threads: 3, Ops: 1, States: 5}}
	est, ok := extrapolate(b, rungs)
	require.True(t, ok)
	assert.Equal(t, int64(math.Round(math.Sqrt(60*180))), est.States)
	// Without 3×1, the parallelogram alone.
	est, ok = extrapolate(b, rungs[:3])
	require.True(t, ok)
	assert.Equal(t, int64(60), est.States)
	// With 1×3 and 1×2, the parallelogram's error one thread lower,
	// ρ = X(2,3)·X(1,2)/(X(1,3)·X(2,2)) = 20·5/(4·10) = 2.5, corrects it:
	// 60·2.5 = 150, the geometric mean and 3×1 set aside.
	est, ok = extrapolate(b, append(rungs, AutoRung{Threads: 1, Ops: 3, States: 4}, AutoRung{Threads: 1, Ops: 2, States: 5}))
	require.True(t, ok)
	assert.Equal(t, int64(150), est.States)
	// 5×1: thread steps only, the last one repeated: 4×1² / 3×1.
	est, ok = extrapolate(frontend.Bounds{Threads: 5, Ops: 1}, []AutoRung{{Threads: 3, Ops: 1, States: 10}, {Threads: 4, Ops: 1, States: 40}})
	require.True(t, ok)
	assert.Equal(t, int64(160), est.States)
	_, ok = extrapolate(frontend.Bounds{Threads: 2, Ops: 2}, []AutoRung{{Threads: 2, Ops: 1, States: 10}})
	assert.False(t, ok, "2×2 has no second step to extrapolate from")
	assert.False(t, extrapolable(frontend.Bounds{Threads: 2, Ops: 2}))
	for _, b := range []frontend.Bounds{{Threads: 3, Ops: 3}, {Threads: 4, Ops: 2}, {Threads: 2, Ops: 3}, {Threads: 4, Ops: 1}, {Threads: 4, Ops: -1}} {
		assert.True(t, extrapolable(b), "%v", b)
	}
}

// TestDecideAuto holds each branch of method auto's rule to synthetic
// measurements.
func TestDecideAuto(t *testing.T) {
	b := frontend.Bounds{Threads: 3, Ops: 3}
	// k·10^(t+o): at 3×3, 1 M states and 3 M transitions; 0.5 M pairs,
	// 0.25 M stored states and 1 M successors on the fly.
	rungs := growth(b, 1, 10)
	// 100 pairs a stored state: 50 M pairs at 3×3.
	manyPairs := growth(b, 1, 10)
	for i := range manyPairs {
		manyPairs[i].Pairs *= 100
	}
	// 10 transitions a state: 30 M transitions at 3×3.
	manyTransitions := growth(b, 1, 10)
	for i := range manyTransitions {
		manyTransitions[i].Transitions *= 10
	}
	// 1.5 times as many transitions: 4.5 M at 3×3.
	halfAgain := growth(b, 1, 10)
	for i := range halfAgain {
		halfAgain[i].Transitions = halfAgain[i].Transitions * 3 / 2
	}
	roomy := autoBudget{memory: 64 << 30, maxStates: 50_000_000, cores: 2}
	cases := []struct {
		name   string
		m      autoMeasure
		budget autoBudget
		route  Method
		reason string
	}{
		{"small", autoMeasure{b: b, small: 5000}, roomy, Bisim, "has 5000 states, few enough to explore at once"},
		{"violation below", autoMeasure{b: b, rungs: rungs, violation: "2×2"}, roomy, Fly, "smaller client 2×2 found a linearizability violation"},
		{"model error below", autoMeasure{b: b, rungs: rungs, modelError: "3×1"}, roomy, Bisim, "a model error is reachable (with the client 3×1)"},
		{"state limit below", autoMeasure{b: b, rungs: rungs, limit: "3×2"}, roomy, Bisim, "reached the state limit"},
		{"too small", autoMeasure{b: b, rungs: rungs[:1]}, roomy, Bisim, "too small to measure a growth"},
		{"LTS above the state limit", autoMeasure{b: b, rungs: rungs, bisimilar: Yes},
			autoBudget{maxStates: 100_000, cores: 2}, Fly, "more than the state limit"},
		{"bisimulation above the memory limit", autoMeasure{b: b, rungs: rungs, bisimilar: Yes},
			autoBudget{memory: 100 << 20, maxStates: 50_000_000, cores: 2}, Fly, "the bisimulation route would need about"},
		{"on the fly above the memory limit", autoMeasure{b: b, rungs: manyPairs, symmetric: true, bisimilar: No},
			autoBudget{memory: 200 << 20, maxStates: 50_000_000, cores: 2}, Bisim, "the on-the-fly route would need about"},
		{"neither fits", autoMeasure{b: b, rungs: rungs, bisimilar: No}, autoBudget{memory: 54 << 20, maxStates: 50_000_000, cores: 2}, Fly, "neither route fits"},
		// 3 M transitions bisimilar: 3 M·(0.30/1.7 + 0.07) µs ≈ 0.74 s;
		// 1 M successors with symmetry, and 0.5 M pairs of 0.25 M
		// states: 1.1 + 0.3·0.5·2 s = 1.4 s.
		// Bisimilar on the small clients: 1.9× faster if the requested
		// bounds are too, beyond autoBisimilarBelowMargin.
		{"bisimulation faster", autoMeasure{b: b, rungs: rungs, bisimilar: Yes, symmetric: true}, roomy, Bisim,
			"estimated 0.74 s by bisimulation if bisimilar as on the small clients, 3.1 s if not (3 M transitions), against 1.4 s on the fly (1 M successors; symmetry 0.0×, 0% of pairs on one thread, 2.0 pairs a state): at worst 1.9× the other route on the fly, 2.2× by bisimulation"},
		// 4.5 M transitions: 1.1 s if bisimilar, 4.6 s if not, against
		// 1.4 s on the fly: on the fly, 1.26× at worst.
		{"bisimulation faster by less than the margin", autoMeasure{b: b, rungs: halfAgain, bisimilar: Yes, symmetric: true}, roomy, Fly,
			"estimated 1.1 s by bisimulation if bisimilar as on the small clients, 4.6 s if not (4.5 M transitions), against 1.4 s on the fly (1 M successors; symmetry 0.0×, 0% of pairs on one thread, 2.0 pairs a state): at worst 1.3× the other route on the fly, 3.3× by bisimulation"},
		// Not bisimilar: 3 M·(0.30/1.7 + 0.85) µs ≈ 3.1 s.
		{"on the fly faster", autoMeasure{b: b, rungs: rungs, symmetric: true, bisimilar: No}, roomy, Fly,
			"estimated 3.1 s by bisimulation (3 M transitions, not bisimilar on the small clients)"},
		// Not compared: 50 M pairs on the fly (3.8 s for their 0.25 M
		// states' chains alone) lose to 3.1 s even if not bisimilar.
		{"bisimulation faster either way", autoMeasure{b: b, rungs: manyPairs, symmetric: true}, roomy, Bisim,
			"estimated 3.1 s by bisimulation (3 M transitions even if not bisimilar, not compared)"},
		// Not compared: 30 M transitions take 7.4 s even if bisimilar,
		// against 0.9 s on the fly.
		{"on the fly faster either way", autoMeasure{b: b, rungs: manyTransitions}, roomy, Fly,
			"estimated 7.4 s by bisimulation (30 M transitions even if bisimilar, not compared)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := decideAuto(c.m, c.budget)
			assert.Equal(t, string(c.route), r.Route)
			assert.Contains(t, r.Reason, c.reason)
			assert.NotContains(t, r.Reason, "\n")
		})
	}
	// The choice depends on bisimilarity only where it is close.
	for _, c := range []struct {
		name    string
		m       autoMeasure
		matters bool
	}{
		{"close", autoMeasure{b: b, rungs: rungs, symmetric: true}, true},
		{"bisimulation faster either way", autoMeasure{b: b, rungs: manyPairs, symmetric: true}, false},
		{"on the fly faster either way", autoMeasure{b: b, rungs: manyTransitions}, false},
		{"a violation below", autoMeasure{b: b, rungs: rungs, violation: "2×2"}, false},
	} {
		assert.Equal(t, c.matters, bisimilarityMatters(c.m, roomy), c.name)
		if !c.matters {
			assert.Equal(t, decideAuto(c.m, roomy).Route, decideAuto(autoMeasure{b: b, rungs: c.m.rungs, symmetric: c.m.symmetric,
				violation: c.m.violation, bisimilar: Yes}, roomy).Route, c.name)
		}
	}
	// Rungs counted by their represented states are explored only
	// where the on-the-fly route does not win by autoAmpleMargin (or
	// by the bisimulation route's not fitting the limits).
	twiceTransitions := growth(b, 1, 10)
	for i := range twiceTransitions {
		twiceTransitions[i].Transitions *= 2
	}
	for _, c := range []struct {
		name    string
		m       autoMeasure
		budget  autoBudget
		matters bool
	}{
		{"all explored", autoMeasure{b: b, rungs: manyTransitions}, roomy, false},
		// 7.4 s even if bisimilar against 0.9 s on the fly.
		{"on the fly far faster", autoMeasure{b: b, rungs: manyTransitions, unexplored: []int{0}}, roomy, false},
		// 1.5 s if bisimilar against 0.9 s: within the margin.
		{"on the fly faster, within the margin", autoMeasure{b: b, rungs: twiceTransitions, unexplored: []int{0}}, roomy, true},
		{"bisimulation faster", autoMeasure{b: b, rungs: rungs, symmetric: true, unexplored: []int{0}}, roomy, true},
		{"bisimulation above the memory limit", autoMeasure{b: b, rungs: twiceTransitions, unexplored: []int{0}},
			autoBudget{memory: 100 << 20, maxStates: 50_000_000, cores: 2}, false},
		{"a violation below", autoMeasure{b: b, rungs: rungs, violation: "2×2", unexplored: []int{0}}, roomy, false},
	} {
		assert.Equal(t, c.matters, exploreMatters(c.m, c.budget), c.name)
	}
	unknown := decideAuto(autoMeasure{b: b, rungs: manyPairs, symmetric: true}, roomy).Estimate
	require.NotNil(t, unknown)
	assert.Equal(t, Unknown, unknown.Bisimilar, "not compared")
	// The memory branches mean what they say: the estimates straddle
	// their limits.
	est := decideAuto(autoMeasure{b: b, rungs: rungs, bisimilar: No}, roomy).Estimate
	require.NotNil(t, est)
	assert.Equal(t, int64(1_000_000), est.States)
	assert.Greater(t, est.BisimBytes, int64(100<<20))
	assert.Less(t, est.FlyBytes, int64(100<<20))
	assert.Greater(t, est.FlyBytes, int64(54<<20))
}

// TestAutoSmall: an implementation within autoProbeStates is explored by
// method auto, which takes the bisimulation route on that LTS: the same
// LTS and verdicts as method bisim, no measuring.
func TestAutoSmall(t *testing.T) {
	m, err := frontend.ParseExample("treiber")
	require.NoError(t, err)
	b := m.DefaultBounds()
	b.Threads, b.Ops, b.Values = 2, 3, []int{1}
	out, err := Run(context.Background(), "treiber", m, b, Options{Method: Auto})
	require.NoError(t, err)
	r := out.Report
	require.NotNil(t, r.Auto)
	assert.Equal(t, "bisim", r.Method)
	assert.Contains(t, r.Auto.Reason, "few enough to explore at once")
	bis, err := Run(context.Background(), "treiber", m, b, Options{Method: Bisim})
	require.NoError(t, err)
	assert.Equal(t, bis.Report.Impl, r.Impl)
	assert.Equal(t, bis.Report.Linearizable, r.Linearizable)
	assert.Equal(t, bis.Report.LockFree, r.LockFree)
	var stages []string
	for _, s := range r.Stages {
		stages = append(stages, s.Name)
	}
	assert.Equal(t, []string{"auto", "compile", "bisimulation"}, stages)
}

// TestAutoAgreesWithBothRoutes: on every bundled model under small
// bounds, method auto gives the verdicts of the bisimulation route and of
// the on-the-fly route, whichever it takes, and says why. Where a route
// stops at a model error or a limit (the two routes report a model error
// and a violation in different orders), auto's outcome is one of theirs.
// The models are measured however small they are.
func TestAutoAgreesWithBothRoutes(t *testing.T) {
	defer func(n int) { autoProbeStates = n }(autoProbeStates)
	autoProbeStates = 100
	bounds := [][2]int{{2, 3}}
	if testsize.Full() {
		bounds = append(bounds, [2]int{3, 2})
	}
	all := onthefly.Reductions{Symmetry: true, PartialOrder: true}
	routes := map[string]int{}
	for _, name := range frontend.Examples() {
		for _, tb := range bounds {
			t.Run(fmt.Sprintf("%s/%dx%d", name, tb[0], tb[1]), func(t *testing.T) {
				m, err := frontend.ParseExample(name)
				require.NoError(t, err)
				b := m.DefaultBounds()
				b.Threads, b.Ops, b.Values = tb[0], tb[1], []int{1}
				run := func(method Method) (*Report, error) {
					out, err := Run(context.Background(), name, m, b, Options{Method: method, Antichain: true, Reductions: all,
						Compile: frontend.Options{MaxStates: 2_000_000}})
					if err != nil {
						return nil, err
					}
					return out.Report, nil
				}
				bis, errB := run(Bisim)
				fly, errF := run(Fly)
				auto, errA := run(Auto)
				if errA != nil {
					assert.True(t, errB != nil || errF != nil, "auto: %v, and neither route stopped", errA)
					return
				}
				require.NotNil(t, auto.Auto)
				assert.NotEmpty(t, auto.Auto.Reason)
				assert.Equal(t, auto.Auto.Route, auto.Method)
				routes[auto.Method]++
				agreed := 0
				for i, other := range []*Report{bis, fly} {
					if []error{errB, errF}[i] != nil {
						continue
					}
					agreed++
					assert.Equal(t, other.Linearizable, auto.Linearizable, "linearizable, %s route", other.Method)
					assert.Equal(t, other.LockFree, auto.LockFree, "lock-free, %s route", other.Method)
				}
				assert.Positive(t, agreed, "auto decided where both routes stopped: bisim %v, fly %v", errB, errF)
				validateReport(t, auto)
			})
		}
	}
	t.Logf("routes taken: %v", routes)
	assert.Positive(t, routes[string(Fly)], "auto never went on the fly")
	assert.Positive(t, routes[string(Bisim)], "auto never took the bisimulation route")
}

// TestAutoFlyBytes holds method auto's memory per pair and per state on
// the fly to the search's live heap, read after a collection at each of
// its progress reports (counts of bytes, not timings), without the
// symmetry reduction and its cache: Treiber 3×3 (values 1) stores 1.3 M
// pairs of 1.2 M states in about 38 MB (the MS queue 3×3, 7.3 M pairs of
// 6.3 M states, 141 MB: 1.23× with these constants; 2026-12-07, main at
// d575e19). The live heap at the last report
// is the search's but for the states stored since and what the run
// holds before the search (the program, the specification), the base.
func TestAutoFlyBytes(t *testing.T) {
	if !testsize.Full() {
		t.Skip("a search of 7 M pairs with a collection every 16 k states (LINBIS_FULL=1)")
	}
	m, err := frontend.ParseExample("treiber")
	require.NoError(t, err)
	b := m.DefaultBounds()
	b.Threads, b.Ops, b.Values = 3, 3, []int{1}
	var ms runtime.MemStats
	var first, peak uint64
	res, err := onthefly.Check(m.Program, b, onthefly.Options{Reductions: onthefly.Reductions{PartialOrder: true},
		Options: frontend.Options{Progress: meter.Func(func(string, int64, string) {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			if first == 0 {
				first = ms.HeapAlloc
			}
			peak = max(peak, ms.HeapAlloc)
		})}})
	require.NoError(t, err)
	require.True(t, res.Refines)
	live := float64(peak - first)
	est := float64(res.Stats.Pairs*autoFlyPairBytes + res.Stats.States*autoFlyStateBytes)
	t.Logf("%d pairs, %d states: %.0f MB live, estimated %.0f MB (%.2f×)", res.Stats.Pairs, res.Stats.States, live/1e6, est/1e6, est/live)
	assert.InDelta(t, 1, est/live, 0.35, "the estimate within 0.65–1.35× of the live heap: update autoFlyPairBytes and autoFlyStateBytes")
}
