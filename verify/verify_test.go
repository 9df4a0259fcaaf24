package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/onthefly"
)

// runExample verifies a bundled model under its own client bounds, with
// the number of operations per thread replaced by ops when ops != 0.
func runExample(t *testing.T, name string, ops int, method Method, explicit bool) *Outcome {
	t.Helper()
	return runExampleReduced(t, name, ops, method, explicit, onthefly.Reductions{})
}

// runExampleReduced is runExample with the reductions of the on-the-fly
// method.
func runExampleReduced(t *testing.T, name string, ops int, method Method, explicit bool, red onthefly.Reductions) *Outcome {
	t.Helper()
	m, err := frontend.ParseExample(name)
	require.NoError(t, err)
	b := m.DefaultBounds()
	if ops != 0 {
		b.Ops = ops
	}
	copts := frontend.Options{}
	copts.Explicit = explicit
	out, err := Run(context.Background(), name, m, b, Options{Method: method, Antichain: true, Compile: copts, Reductions: red})
	require.NoError(t, err)
	return out
}

// TestBundledModelVerdicts checks every bundled model against the verdict
// the literature gives (cited in each model file), under 2 threads and the
// model's own bounds (at most 2 operations each, but 3 where the bug needs
// them). Nothing here is told to
// the checker: it computes the verdicts, the test compares.
func TestBundledModelVerdicts(t *testing.T) {
	cases := []struct {
		model        string
		ops          int // 0: the model's own bound
		explicit     bool
		bisimilar    Verdict
		linearizable Verdict
		lockFree     Verdict
		evidence     []string // kinds of counterexamples expected
		source       string
	}{
		{"treiber", 0, false, Yes, Yes, Yes, nil, "Yang et al. Table 1"},
		{"treiber-free", 0, false, Yes, Yes, Yes, nil, "GC mode: free is a no-op"},
		{"treiber-lin", 0, false, Yes, Yes, Yes, nil, "lin markers are no-ops without --lin-points"},
		{"treiber-free", 3, true, No, No, Yes, []string{"refinement-violation", "distinguishing-formula"}, "ABA needs 3 ops: push, pop, push reusing the node (Michael 2004)"},
		{"hp-stack", 0, false, Yes, Yes, Yes, nil, "Yang et al. Table 1"},
		{"hp-stack-revised", 0, false, No, Yes, No, []string{"lasso", "distinguishing-formula"}, "Yang et al. §6.3"},
		{"ms-queue", 0, false, Yes, Yes, Yes, nil, "Michael & Scott 1996"},
		{"shann-queue", 0, false, No, No, Yes, []string{"refinement-violation", "distinguishing-formula"}, "Doolan et al. Table 6"},
		{"hw-queue", 0, false, No, Yes, No, []string{"lasso", "distinguishing-formula"}, "Herlihy & Wing 1990: deq retries while empty"},
		{"kregister", 0, false, No, Yes, Yes, []string{"distinguishing-formula"}, "Liu et al. Example 1"},
		{"spinlock-stack", 0, false, No, Yes, No, []string{"lasso", "distinguishing-formula"}, "blocking"},
		{"counter1", 0, false, Yes, Yes, Yes, nil, "Yang et al. Fig. 2 Δ1"},
		{"counter2", 0, false, No, Yes, No, []string{"lasso", "distinguishing-formula"}, "Yang et al. Fig. 2 Δ2"},
		{"counter3", 0, false, No, Yes, No, []string{"lasso", "distinguishing-formula"}, "Yang et al. Fig. 2 Δ3"},
		{"cas-counter", 0, false, Yes, Yes, Yes, nil, "Yang et al. Fig. 1"},
		{"cas-counter-mod", 0, false, Yes, Yes, Yes, nil, "Yang et al. Example 1: ops forever, lock-free"},
	}
	for _, c := range cases {
		name := c.model
		if c.explicit {
			name += "/explicit"
		}
		t.Run(name, func(t *testing.T) {
			out := runExample(t, c.model, c.ops, Bisim, c.explicit)
			r := out.Report
			assert.Equal(t, c.bisimilar, r.Bisimilar, c.source)
			assert.Equal(t, c.linearizable, r.Linearizable, c.source)
			assert.Equal(t, c.lockFree, r.LockFree, c.source)
			var kinds []string
			for _, e := range r.Evidence {
				kinds = append(kinds, e.Kind)
				checkEvidencePaths(t, out, e)
			}
			assert.Equal(t, c.evidence, kinds)
			assert.Empty(t, r.Notes)
			validateReport(t, r)

			// The on-the-fly method, with and without symmetry, gives the
			// same verdicts, lock-freedom after a refinement violation
			// included, and its counterexamples are paths of the
			// implementation's LTS.
			for _, red := range []onthefly.Reductions{{}, {Symmetry: true}} {
				fly := runExampleReduced(t, c.model, c.ops, Fly, c.explicit, red).Report
				assert.Equal(t, c.linearizable, fly.Linearizable, "fly %+v: %s", red, c.source)
				assert.Equal(t, c.lockFree, fly.LockFree, "fly %+v: %s", red, c.source)
				for _, e := range fly.Evidence {
					assert.True(t, lts.Follows(out.Impl, e.Trace), "the %s is a path of the implementation", e.Kind)
					assert.NotEmpty(t, e.Interleaving)
				}
				require.NotNil(t, fly.OnTheFly)
				validateReport(t, fly)
			}
		})
	}
}

// checkEvidenceOnImpl replays a counterexample on the implementation: its
// steps are consecutive transitions from the initial state, a lasso's cycle
// closes, and every step carries its thread.
func checkEvidenceOnImpl(t *testing.T, impl *lts.LTS, e Evidence) {
	t.Helper()
	checkPath(t, impl, e, e.Trace)
	assert.NotEmpty(t, e.Interleaving)
	assert.NotEmpty(t, e.Explanation)
}

// checkEvidencePaths checks the paths of e on the LTSs they belong to: a
// distinguishing formula's trace on the side where the formula holds, its
// other trace on the other side; every other trace on the implementation.
func checkEvidencePaths(t *testing.T, out *Outcome, e Evidence) {
	t.Helper()
	if e.Formula == nil {
		checkEvidenceOnImpl(t, out.Impl, e)
		return
	}
	holder, other := out.Impl, out.Spec
	if e.Formula.HoldsIn == "B" {
		holder, other = out.Spec, out.Impl
	}
	checkEvidenceOnImpl(t, holder, e)
	if e.OtherTrace != nil {
		checkPath(t, other, e, e.OtherTrace)
		assert.Equal(t, e.Trace.Visible(), e.OtherTrace.Visible())
	}
}

// checkPath checks that tr is a path of l from its initial state, each
// step with a thread when l records them.
func checkPath(t *testing.T, l *lts.LTS, e Evidence, tr *lts.Trace) {
	t.Helper()
	require.NotNil(t, tr)
	at := l.Initial
	for i, s := range tr.Steps {
		if e.Kind == "refinement-violation" && i == len(tr.Steps)-1 {
			assert.NotEmpty(t, s.Note, "the unmatched action is marked")
		}
		require.Equal(t, at, s.From, "step %d of %s starts where the last ended", i+1, e.Kind)
		found := false
		for x := l.Out[at]; x < l.Out[at+1]; x++ {
			found = found || (l.LabelName(x) == s.Label && l.Dst[x] == s.To)
		}
		require.True(t, found, "step %d (%s) is a transition of its LTS", i+1, s.Label)
		if l.Meta != nil {
			assert.NotZero(t, s.Thread, "step %d has a thread", i+1)
		}
		at = s.To
	}
	if tr.IsLasso() {
		assert.Equal(t, tr.Steps[tr.LoopStart].From, at, "the cycle closes")
	}
}

// TestMethodsAgree runs every check on models of each verdict and expects
// the methods to agree (Run notes any disagreement as INCONSISTENT).
func TestMethodsAgree(t *testing.T) {
	for _, model := range []string{"treiber", "shann-queue", "hp-stack-revised"} {
		t.Run(model, func(t *testing.T) {
			both := runExample(t, model, 0, Both, false).Report
			assert.Empty(t, both.Notes)
			var stages []string
			for _, s := range both.Stages {
				stages = append(stages, s.Name)
			}
			assert.Equal(t, []string{"compile", "bisimulation", "refinement", "progress"}, stages)
			ref := runExample(t, model, 0, Refine, false).Report
			assert.Equal(t, Unknown, ref.Bisimilar, "refine alone does not decide bisimilarity")
			assert.Equal(t, both.Linearizable, ref.Linearizable)
			assert.Equal(t, both.LockFree, ref.LockFree)
			validateReport(t, both)
			validateReport(t, ref)
		})
	}
}

// TestInterleavingGolden pins the rendering of one real counterexample:
// Shann's queue, where a dequeue returns a value that is not at the front.
func TestInterleavingGolden(t *testing.T) {
	r := runExample(t, "shann-queue", 0, Refine, false).Report
	require.Len(t, r.Evidence, 1)
	e := r.Evidence[0]
	require.Equal(t, "refinement-violation", e.Kind)
	golden(t, "shann-queue-violation.txt", e.Explanation+"\n\n"+e.Interleaving)
}

// TestLinPoints is Liu et al.'s linearization-point mode (Thm 2) on the
// Treiber stack with its points marked: refinement over lin events holds.
// With a point marked one step too late (pop's lin after its CAS, in the
// step that reads the node's value) the check fails, and the verdict is
// "unknown", not "not linearizable": the failure may be the points' fault.
func TestLinPoints(t *testing.T) {
	src, err := frontend.Example("treiber-lin")
	require.NoError(t, err)
	verifyLin := func(src []byte) *Report {
		m, err := frontend.Parse("treiber-lin.lin", src)
		require.NoError(t, err)
		out, err := Run(context.Background(), "treiber-lin", m, m.DefaultBounds(), Options{Method: Bisim, LinPoints: true, Antichain: true, Compile: frontend.Options{}})
		require.NoError(t, err)
		validateReport(t, out.Report)
		return out.Report
	}
	r := verifyLin(src)
	assert.Equal(t, Yes, r.Refines)
	assert.Equal(t, Yes, r.Linearizable)
	assert.Contains(t, r.Theorem, "Liu et al. Thm 2")

	late := strings.Replace(string(src), "if cas(Top, old, nx) { lin(v); return v }",
		"if cas(Top, old, nx) { lin(old.value); return old.value }", 1)
	require.NotEqual(t, string(src), late)
	r = verifyLin([]byte(late))
	assert.Equal(t, No, r.Refines)
	assert.Equal(t, Unknown, r.Linearizable, "a lin-mode failure is not conclusive")
	require.Len(t, r.Evidence, 1)
	assert.Contains(t, r.Evidence[0].Interleaving, "lin(", "lin events are shown by name")
}
