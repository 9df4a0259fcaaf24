package verify

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/lts"
)

// TestFormulaEvidenceGolden pins the distinguishing-formula evidence, as
// `verify` prints it, on the cases of issue 23: models whose evidence used
// to be a harmless or mislabelled trace. The formula was model-checked on
// both LTSs by bisim.Compare; the test also checks its paths.
func TestFormulaEvidenceGolden(t *testing.T) {
	cases := []struct {
		model string
		ops   int
	}{
		{"shann-queue", 0},      // not linearizable: the refinement violation comes first
		{"hp-stack-revised", 0}, // linearizable, not lock-free
		{"kregister", 0},        // linearizable and lock-free, linearization points in the future
		{"ms-queue", 3},         // the same at a larger bound
	}
	for _, c := range cases {
		t.Run(c.model, func(t *testing.T) {
			out := runExample(t, c.model, c.ops, Bisim, false)
			var sb strings.Builder
			for _, e := range out.Report.Evidence {
				if e.Kind == "distinguishing-formula" {
					checkEvidencePaths(t, out, e)
					checkMCRL2Export(t, out.Impl, out.Spec, e)
					writeEvidence(&sb, e)
				}
			}
			require.NotEmpty(t, sb.String(), "no distinguishing formula")
			golden(t, "formula-"+c.model+".txt", sb.String())
		})
	}
}

// TestFormulaEvidenceTreiber pins the evidence for Treiber's stack against
// its specification under strong bisimilarity (they differ only in τ-steps,
// so no trace can tell them apart: the old search marked a path the
// specification has as "unmatched") and against a broken specification
// whose push may return twice (a real distinguishing trace).
func TestFormulaEvidenceTreiber(t *testing.T) {
	out := runExample(t, "treiber", 0, Refine, false)
	broken := withExtraStep(out.Spec, "call(1,push,1)", "ret(1,push)")
	for _, c := range []struct {
		name string
		spec *lts.LTS
		eq   bisim.Equivalence
	}{
		{"strong", out.Spec, bisim.Strong},
		{"broken-spec", broken, bisim.DivBranching},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmp, err := bisim.Compare(out.Impl, c.spec, c.eq, bisim.Options{NameA: "the implementation", NameB: "the specification"})
			require.NoError(t, err)
			require.False(t, cmp.Equivalent)
			e := distinguishing(cmp)
			checkEvidencePaths(t, &Outcome{Impl: out.Impl, Spec: c.spec}, e)
			checkMCRL2Export(t, out.Impl, c.spec, e)
			var sb strings.Builder
			writeEvidence(&sb, e)
			golden(t, "formula-treiber-"+c.name+".txt", sb.String())
		})
	}
}

// withExtraStep returns a copy of l with one more transition: from the
// state after the first step labelled after, a step labelled label back to
// that same state (so the broken specification can, for instance, return
// from push twice).
func withExtraStep(l *lts.LTS, after, label string) *lts.LTS {
	b := lts.NewBuilder()
	for _, name := range l.Labels {
		b.Label(name)
	}
	b.SetNumStates(l.NumStates)
	b.SetInitial(l.Initial)
	at := int32(-1)
	for x := range l.Src {
		b.AddTransition(l.Src[x], l.Label[x], l.Dst[x])
		if at < 0 && l.Src[x] == l.Initial && l.LabelName(int32(x)) == after {
			at = l.Dst[x]
		}
	}
	b.AddTransition(at, b.Label(label), at)
	return b.Build()
}
