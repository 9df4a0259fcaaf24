package confluence

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/lts"
)

// randomLTS draws a small LTS rich in τ-steps (so that diamonds, cycles and
// confluent sets of every shape occur), every state reachable in the spine.
func randomLTS(r *rand.Rand) *lts.LTS {
	b := lts.NewBuilder()
	labels := []int32{lts.Tau, lts.Tau, lts.Tau, b.Label("a"), b.Label("b")}
	n := 2 + r.IntN(11)
	b.SetNumStates(int32(n))
	for s := 1; s < n; s++ {
		if r.IntN(2) == 0 {
			b.AddTransition(int32(r.IntN(s)), labels[r.IntN(len(labels))], int32(s))
		}
	}
	for range 1 + r.IntN(3*n) {
		b.AddTransition(int32(r.IntN(n)), labels[r.IntN(len(labels))], int32(r.IntN(n)))
	}
	return b.Build()
}

type arc struct{ s, a, d int32 }

// naiveMaximalSet is the largest confluent set computed from the definition
// with a map of transitions, independently of transitionIndex.
func naiveMaximalSet(l *lts.LTS) map[arc]bool {
	T := map[arc]bool{}
	for t := range l.NumTransitions() {
		if l.Label[t] == lts.Tau && l.Src[t] != l.Dst[t] {
			T[arc{l.Src[t], lts.Tau, l.Dst[t]}] = true
		}
	}
	ok := func(x arc) bool {
		lo, hi := l.Outgoing(x.s)
		for y := lo; y < hi; y++ {
			a, u := l.Label[y], l.Dst[y]
			if a == lts.Tau && u == x.d {
				continue
			}
			closed := false
			lo2, hi2 := l.Outgoing(x.d)
			for z := lo2; z < hi2 && !closed; z++ {
				closed = l.Label[z] == a && T[arc{u, lts.Tau, l.Dst[z]}]
			}
			if !closed {
				return false
			}
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for x := range T {
			if !ok(x) {
				delete(T, x)
				changed = true
			}
		}
	}
	return T
}

// TestReduceKeepsDivBranchingBisimilarity draws random LTSs and holds the
// largest confluent set to the definition's naive fixpoint, and the LTS of
// representatives to the input by divergence-preserving branching
// bisimilarity.
func TestReduceKeepsDivBranchingBisimilarity(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 2000))
	reduced, confluent := 0, 0
	for i := range 3000 {
		l := randomLTS(r)
		inT := MaximalSet(l)
		want := naiveMaximalSet(l)
		for x, conf := range inT {
			require.Equal(t, want[arc{l.Src[x], l.Label[x], l.Dst[x]}], conf, "LTS %d, transition %d", i, x)
			if conf {
				confluent++
			}
		}
		red, st := Reduce(l)
		cmp, err := bisim.Compare(l, red, bisim.DivBranching, bisim.Options{})
		require.NoError(t, err)
		require.True(t, cmp.Equivalent, "LTS %d: its representatives are not divbranching bisimilar to it:\n%s\n%s", i, aut(l), aut(red))
		if st.ReducedStates < int(l.NumStates) {
			reduced++
		}
	}
	// The family must exercise the reduction, not only pass through it.
	require.Greater(t, reduced, 500)
	require.Greater(t, confluent, 1000)
}

func aut(l *lts.LTS) string {
	s := fmt.Sprintf("des (%d,%d,%d)\n", l.Initial, l.NumTransitions(), l.NumStates)
	for t := range l.NumTransitions() {
		s += fmt.Sprintf("(%d,%q,%d)\n", l.Src[t], l.Labels[l.Label[t]], l.Dst[t])
	}
	return s
}

// studyCases are the bundled models and bounds of the study in
// benchmarks/RESULTS.md ("τ-confluence").
var studyCases = []struct {
	model       string
	threads, op int
}{
	{"treiber", 2, 2}, {"ms-queue", 2, 2}, {"dglm-queue", 2, 2}, {"hp-stack", 2, 2},
	{"lazy-list", 2, 1}, {"kregister", 2, 2}, {"elimination-stack", 2, 1}, {"shann-queue", 2, 2},
}

func compile(t testing.TB, model string, threads, ops int) (impl, spec *lts.LTS) {
	m, err := frontend.ParseExample(model)
	require.NoError(t, err)
	b := m.DefaultBounds()
	b.Threads, b.Ops = threads, ops
	impl, spec, err = frontend.Compile(m, b, frontend.Options{})
	require.NoError(t, err)
	return impl, spec
}

// TestReduceKeepsModelVerdicts reduces bundled models' implementation LTSs
// and checks that each stays divbranching bisimilar to its input, so that
// the bisimulation route's verdict against the specification is unchanged.
func TestReduceKeepsModelVerdicts(t *testing.T) {
	for _, c := range studyCases {
		t.Run(fmt.Sprintf("%s-%d-%d", c.model, c.threads, c.op), func(t *testing.T) {
			impl, spec := compile(t, c.model, c.threads, c.op)
			red, st := Reduce(impl)
			same, err := bisim.Compare(impl, red, bisim.DivBranching, bisim.Options{})
			require.NoError(t, err)
			require.True(t, same.Equivalent)
			before, err := bisim.Compare(impl, spec, bisim.DivBranching, bisim.Options{})
			require.NoError(t, err)
			after, err := bisim.Compare(red, spec, bisim.DivBranching, bisim.Options{})
			require.NoError(t, err)
			require.Equal(t, before.Equivalent, after.Equivalent)
			t.Logf("%d → %d states, %d of %d τ-steps confluent", st.States, st.ReducedStates, st.Confluent, st.TauTransitions)
		})
	}
}

// BenchmarkReduce is the study: for each model it reports the share of
// τ-steps that are confluent and the share of states the representatives keep.
//
//	go test ./benchmarks/confluence -run '^$' -bench . -benchtime 1x
func BenchmarkReduce(b *testing.B) {
	cases := []struct {
		model      string
		threads, o int
	}{
		{"treiber", 3, 2}, {"treiber", 2, 3}, {"ms-queue", 3, 1}, {"ms-queue", 2, 3}, {"dglm-queue", 2, 3},
		{"hp-stack", 2, 3}, {"hp-stack", 3, 1}, {"lazy-list", 2, 2}, {"kregister", 3, 2}, {"elimination-stack", 2, 2},
		{"shann-queue", 2, 2}, {"harris-michael", 2, 2},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s-%d-%d", c.model, c.threads, c.o), func(b *testing.B) {
			impl, _ := compile(b, c.model, c.threads, c.o)
			var st Stats
			for b.Loop() {
				_, st = Reduce(impl)
			}
			b.ReportMetric(float64(st.States), "states")
			b.ReportMetric(100*float64(st.Confluent)/float64(max(st.TauTransitions, 1)), "%τ-confluent")
			b.ReportMetric(100*float64(st.ReducedStates)/float64(st.States), "%states-kept")
			b.ReportMetric(100*float64(st.ReducedTransitions)/float64(st.Transitions), "%transitions-kept")
		})
	}
}
