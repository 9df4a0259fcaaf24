package verify

import (
	"fmt"
	"io"
	"strings"
)

// String renders a size for people.
func (s *Size) String() string {
	if s == nil {
		return "–"
	}
	return fmt.Sprintf("%d states, %d transitions", s.States, s.Transitions)
}

// WriteText writes the report for a person: the bounds, the sizes, the
// stages with their times, the verdict table, and each counterexample as an
// interleaving table.
func WriteText(w io.Writer, r *Report) error {
	var sb strings.Builder
	writeSummary(&sb, r)
	for _, e := range r.Evidence {
		writeEvidence(&sb, e)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// writeSummary writes what WriteText writes before the counterexamples:
// the bounds, the sizes, the stages and the verdicts.
func writeSummary(sb *strings.Builder, r *Report) {
	fmt.Fprintf(sb, "model          %s\n", r.Model)
	fmt.Fprintf(sb, "bounds         %s\n", r.Bounds)
	if a := r.Auto; a != nil {
		fmt.Fprintf(sb, "route          %s (method auto: %s)\n", a.Route, a.Reason)
	}
	if f := r.OnTheFly; f != nil {
		reductions := "none"
		if len(f.Reductions) > 0 {
			reductions = strings.Join(f.Reductions, ", ")
		}
		dominated := ""
		if f.Dominated > 0 {
			dominated = fmt.Sprintf(" (%d not followed: dominated in their level)", f.Dominated)
		}
		fmt.Fprintf(sb, "on the fly     %d implementation states, %d product pairs%s, %d successors computed (no LTS built)\n", f.States, f.Pairs, dominated, f.Transitions)
		fmt.Fprintf(sb, "specification  %d states explored, %d subsets\n", f.SpecStates, f.Subsets)
		fmt.Fprintf(sb, "reductions     %s", reductions)
		if f.Represented > f.States {
			approx := ""
			if !f.RepresentedExact {
				approx = "at least "
			}
			fmt.Fprintf(sb, " (the %d states stored stand for %s%d: %.1f×)", f.States, approx, f.Represented, float64(f.Represented)/float64(f.States))
		}
		if f.AmplePairs+f.FullPairs > 0 {
			fmt.Fprintf(sb, " (partial-order: %d of %d pairs followed one thread only)", f.AmplePairs, f.AmplePairs+f.FullPairs)
		}
		if len(f.Ladder) > 1 {
			sb.WriteString("\nladder        ")
			for i, st := range f.Ladder {
				if i > 0 {
					sb.WriteString(";")
				}
				fmt.Fprintf(sb, " %d×%s %s (%d states)", st.Threads, opsWord(st.Ops), st.Result, st.States)
			}
		}
	} else {
		fmt.Fprintf(sb, "implementation %s", r.Impl)
		if r.ImplQuotient != nil {
			fmt.Fprintf(sb, " (quotient: %s)", r.ImplQuotient)
		}
		fmt.Fprintf(sb, "\nspecification  %s", r.Spec)
		if r.SpecQuotient != nil {
			fmt.Fprintf(sb, " (quotient: %s)", r.SpecQuotient)
		}
	}
	sb.WriteString("\n\nstage          seconds  result\n")
	for _, s := range r.Stages {
		fmt.Fprintf(sb, "%-14s %7.3f  %s\n", s.Name, s.Seconds, s.Result)
	}
	sb.WriteString("\n")
	bisimilar := string(r.Bisimilar)
	if r.OnTheFly != nil {
		bisimilar = "not checked (the on-the-fly method builds no LTS)"
	}
	fmt.Fprintf(sb, "divergence-preserving branching bisimilar  %s\n", bisimilar)
	refines := string(r.Refines)
	if r.Refines == Unknown && r.Bisimilar == Yes {
		refines = "implied (not checked): bisimilar LTSs have the same traces"
	}
	fmt.Fprintf(sb, "trace refinement impl ⊑ spec               %s\n", refines)
	fmt.Fprintf(sb, "LINEARIZABLE                               %s\n", strings.ToUpper(string(r.Linearizable)))
	fmt.Fprintf(sb, "LOCK-FREE                                  %s\n", strings.ToUpper(string(r.LockFree)))
	fmt.Fprintf(sb, "by: %s\n", r.Theorem)
	fmt.Fprintf(sb, "(under the bounds: %s)\n", r.Bounds)
	for _, n := range r.Notes {
		fmt.Fprintf(sb, "note: %s\n", n)
	}
	if r.StoppedBy != "" {
		// The report may be read without the stderr line that names the limit.
		fmt.Fprintf(sb, "stopped by the %s limit: %s\n", r.StoppedBy, r.Reason)
	}
}

// writeEvidence writes one counterexample: its kind, the explanation, its
// path as an interleaving and, for a distinguishing formula, the other
// side's path, each under a title that names its LTS.
func writeEvidence(sb *strings.Builder, e Evidence) {
	fmt.Fprintf(sb, "\n== %s", e.Kind)
	if e.Property != "" {
		fmt.Fprintf(sb, " (%s)", e.Property)
	}
	fmt.Fprintf(sb, "\n%s\n\n", e.Explanation)
	if e.Formula != nil && e.Trace.Title != "" {
		fmt.Fprintf(sb, "%s\n", e.Trace.Title)
	}
	sb.WriteString(e.Interleaving)
	if e.Trace != nil && e.Trace.Final != "" {
		fmt.Fprintf(sb, "then: %s\n", e.Trace.Final)
	}
	if e.OtherTrace != nil {
		fmt.Fprintf(sb, "\n%s\n%s", e.OtherTrace.Title, e.OtherInterleaving)
	}
}
