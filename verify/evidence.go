package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/internal/files"

	"github.com/linbis/linbis/lts"
)

// distinguishing turns bisim's checked formula into evidence: the
// explanation in words, the path of the side where the formula holds (the
// trace), and the other side's path with the same visible steps, each as
// an interleaving of source lines. Its wording is settled by finishEvidence
// once the other verdicts are known.
func distinguishing(cmp *bisim.Comparison) Evidence {
	ev := cmp.Evidence
	e := Evidence{Kind: "distinguishing-formula", Trace: ev.Witness, Interleaving: Interleaving(ev.Witness),
		Explanation: ev.Explanation, Formula: ev.Report()}
	if ev.OtherPath != nil {
		e.OtherTrace, e.OtherInterleaving = ev.OtherPath, Interleaving(ev.OtherPath)
	}
	return e
}

// finishEvidence puts the evidence in the order a user should read it —
// a refinement violation first (a history with no linearization is the
// fact that matters), then a lock-freedom lasso, the distinguishing
// formula last — and says, when bisimilarity fails but both properties
// hold, that the formula explains why Thm 5.4 does not apply rather than
// a bug.
func finishEvidence(r *Report) {
	rank := map[string]int{"refinement-violation": 0, "lasso": 1, "distinguishing-formula": 2}
	slices.SortStableFunc(r.Evidence, func(x, y Evidence) int { return rank[x.Kind] - rank[y.Kind] })
	for i := range r.Evidence {
		e := &r.Evidence[i]
		if e.Kind != "distinguishing-formula" {
			continue
		}
		switch {
		case r.Linearizable == Yes && r.LockFree == Yes:
			e.Explanation = "Not a bug: the object is linearizable and lock-free; this formula only shows why " +
				"Thm 5.4 does not apply: the implementation keeps a choice open that the atomic specification " +
				"has already made, as when linearization points depend on the future (the K-valued register).\n" + e.Explanation
		case r.Refines == No && e.Formula.DistinguishingTrace:
			e.Explanation = violationFirst + "this formula is a trace of one side that the other lacks, found by the bisimulation check.\n" + e.Explanation
		case r.Refines == No:
			e.Explanation = violationFirst + "this formula shows, in addition, how the branching structures differ.\n" + e.Explanation
		}
	}
}

// violationFirst begins the explanation of a formula found beside a
// refinement violation. It names the violation by its place in the report
// and the name `verify --export` gives it (1-refinement-violation.*),
// not as "above", so that it reads right in the exported formula's file
// too, where nothing is above it.
const violationFirst = "The evidence of non-linearizability is the refinement violation, " +
	"the report's first evidence (exported as 1-refinement-violation); "

func violation(tr *lts.Trace) Evidence {
	hist := History(tr)
	var last string
	if n := len(tr.Steps); n > 0 {
		last = tr.Steps[n-1].Label
	}
	expl := fmt.Sprintf("the implementation can do this trace but the specification cannot do its last action %s after the same history, "+
		"so the history %s has no linearization (Thm 3.3)", last, renderHistory(hist))
	return Evidence{Kind: "refinement-violation", Trace: tr, Interleaving: Interleaving(tr), History: hist, Explanation: expl}
}

// renderHistory writes a history compactly: "[t1:push(1) t2:pop() → 2 …]".
func renderHistory(ops []HistoryOp) string {
	var parts []string
	for _, op := range ops {
		part := fmt.Sprintf("t%d:%s", op.Thread, op.label())
		if op.Ret == 0 {
			part += " pending"
		}
		parts = append(parts, part)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ExportFormula writes the formula of a distinguishing-formula evidence to
// dir as base-formula.json (the tree, see schema.json $defs/formula_evidence),
// base-formula.txt (notation and explanation), base-formula.mcf (mCRL2, with
// the commands that check it) and base-formula.mcrl2 (its declarations),
// and the other side's path as base-other.{txt,json,aut,dot}. sides are
// the LTSs compared (implementation, specification) and autFiles the names
// in dir of their .aut files; when mCRL2 needs labels renamed, copies
// with renamed labels are written as base-mcrl2-impl.aut and
// base-mcrl2-spec.aut and named instead. It does nothing for other
// evidence.
func (e *Evidence) ExportFormula(dir, base string, sides [2]*lts.LTS, autFiles [2]string) error {
	if e.Formula == nil {
		return nil
	}
	f := e.Formula
	mf := bisim.MCRL2Files{Formula: filepath.Join(dir, base+"-formula.mcf"), Declarations: filepath.Join(dir, base+"-formula.mcrl2")}
	for i, kind := range []string{"impl", "spec"} {
		mf.Sides[i] = filepath.Join(dir, autFiles[i])
		if f.MCRL2Renamed == nil || sides[i] == nil {
			continue
		}
		mf.Sides[i] = filepath.Join(dir, base+"-mcrl2-"+kind+".aut")
		renamed := lts.Relabel(sides[i], func(l string) string {
			if n, ok := f.MCRL2Renamed[l]; ok {
				return n
			}
			return l
		})
		if err := lts.WriteAutFile(mf.Sides[i], renamed); err != nil {
			return err
		}
	}
	out := map[string]func(io.Writer) error{
		"-formula.json": func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(f)
		},
		"-formula.txt": func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "%s\n\nformula (holds in %s: %s):\n%s\n", e.Explanation, f.HoldsIn, sideName(f), f.Text)
			return err
		},
		"-formula.mcf":   func(w io.Writer) error { return f.WriteMCRL2(w, mf) },
		"-formula.mcrl2": f.WriteMCRL2Declarations,
	}
	for suffix, write := range out {
		if err := files.Create(filepath.Join(dir, base+suffix), write); err != nil {
			return err
		}
	}
	if e.OtherTrace != nil {
		return e.OtherTrace.Export(dir, base+"-other")
	}
	return nil
}

// sideName names the side of f.HoldsIn.
func sideName(f *bisim.FormulaReport) string {
	if f.HoldsIn == "A" {
		return f.A
	}
	return f.B
}

// otherSideName names the side where f does not hold.
func otherSideName(f *bisim.FormulaReport) string {
	if f.HoldsIn == "A" {
		return f.B
	}
	return f.A
}
