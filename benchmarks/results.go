package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Row is one line of results.csv: a case, our measurements and the paper's.
type Row struct {
	Case
	ImplStates, ImplTransitions int64
	SpecStates, SpecTransitions int64
	ImplQuotient, SpecQuotient  int64
	GenSeconds                  float64
	GenPeakMiB                  float64 // peak memory of `linbis compile` (both LTSs, with statistics)
	BisimSeconds                float64
	BisimPeakMiB                float64
	RefineSeconds               float64
	RefinePeakMiB               float64
	RefinePairs                 int64
	RefineNoACSeconds           float64
	RefineNoACPeakMiB           float64
	RefineNoACPairs             int64
	// The on-the-fly method with every reduction (Fly) and with none
	// (FlyNone): time, peak memory, implementation states and product
	// pairs stored.
	FlySeconds, FlyPeakMiB         float64
	FlyStates, FlyPairs            int64
	FlyNoneSeconds, FlyNonePeakMiB float64
	FlyNoneStates, FlyNonePairs    int64
	Bisimilar, Refines             string
	Linearizable, LockFree         string
	// VerdictOK is "ok" when our verdicts match the literature, "MISMATCH"
	// when they differ, "" when there is nothing to compare.
	VerdictOK string
	Notes     []string
}

// columns are the CSV header; values renders a row in the same order.
var columns = []string{
	"grid", "model", "label", "threads", "ops",
	"impl_states", "impl_transitions", "spec_states", "spec_transitions", "impl_quotient_states", "spec_quotient_states",
	"generate_s", "generate_peak_mib", "bisim_s", "bisim_peak_mib", "refine_s", "refine_peak_mib", "refine_pairs",
	"refine_noantichain_s", "refine_noantichain_peak_mib", "refine_noantichain_pairs",
	"fly_s", "fly_peak_mib", "fly_states", "fly_pairs", "fly_none_s", "fly_none_peak_mib", "fly_none_states", "fly_none_pairs",
	"bisimilar", "refines", "linearizable", "lock_free", "expected_linearizable", "expected_lock_free", "verdict_check",
	"paper_spec_states", "paper_impl_states", "paper_bisim_s", "paper_refine_s", "paper_source", "notes",
}

func num(v int64) string {
	if v < 0 {
		return ""
	}
	return strconv.FormatInt(v, 10)
}

func secs(v float64) string {
	if v < 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// gib renders MiB as GiB with two decimals, "" when unknown.
func gib(mib float64) string {
	if mib < 0 {
		return ""
	}
	return strconv.FormatFloat(mib/1024, 'f', 2, 64)
}

func (r *Row) values() []string {
	return []string{
		r.Grid, r.Model, r.Label, strconv.Itoa(r.Threads), strconv.Itoa(r.Ops),
		num(r.ImplStates), num(r.ImplTransitions), num(r.SpecStates), num(r.SpecTransitions), num(r.ImplQuotient), num(r.SpecQuotient),
		secs(r.GenSeconds), secs(r.GenPeakMiB), secs(r.BisimSeconds), secs(r.BisimPeakMiB), secs(r.RefineSeconds), secs(r.RefinePeakMiB), num(r.RefinePairs),
		secs(r.RefineNoACSeconds), secs(r.RefineNoACPeakMiB), num(r.RefineNoACPairs),
		secs(r.FlySeconds), secs(r.FlyPeakMiB), num(r.FlyStates), num(r.FlyPairs),
		secs(r.FlyNoneSeconds), secs(r.FlyNonePeakMiB), num(r.FlyNoneStates), num(r.FlyNonePairs),
		r.Bisimilar, r.Refines, r.Linearizable, r.LockFree, r.WantLinearizable, r.WantLockFree, r.VerdictOK,
		r.PaperSpecStates, r.PaperImplStates, r.PaperBisimSeconds, r.PaperRefineSeconds, r.PaperSource, strings.Join(r.Notes, "; "),
	}
}

// newRow starts a row with every measurement unknown (-1).
func newRow(c Case) *Row {
	return &Row{Case: c, ImplStates: -1, ImplTransitions: -1, SpecStates: -1, SpecTransitions: -1,
		ImplQuotient: -1, SpecQuotient: -1, GenSeconds: -1, GenPeakMiB: -1, BisimSeconds: -1, BisimPeakMiB: -1,
		RefineSeconds: -1, RefinePeakMiB: -1, RefinePairs: -1, RefineNoACSeconds: -1, RefineNoACPeakMiB: -1, RefineNoACPairs: -1,
		FlySeconds: -1, FlyPeakMiB: -1, FlyStates: -1, FlyPairs: -1, FlyNoneSeconds: -1, FlyNonePeakMiB: -1, FlyNoneStates: -1, FlyNonePairs: -1}
}

// checkVerdicts compares our verdicts with the literature's.
func (r *Row) checkVerdicts() {
	compare := func(want, got string) (bool, bool) { // (comparable, equal)
		if want == "" || got == "" || got == "unknown" {
			return false, false
		}
		return true, want == got
	}
	c1, ok1 := compare(r.WantLinearizable, r.Linearizable)
	c2, ok2 := compare(r.WantLockFree, r.LockFree)
	switch {
	case (c1 && !ok1) || (c2 && !ok2):
		r.VerdictOK = "MISMATCH"
	case c1 || c2:
		r.VerdictOK = "ok"
	}
}

// WriteCSV writes rows as CSV with a header.
func WriteCSV(w io.Writer, rows []*Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(columns); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(r.values()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes rows as a Markdown table shaped like the papers':
// sizes, then our times beside the paper's.
func WriteMarkdown(w io.Writer, rows []*Row, machine string) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Machine: %s\n\n", machine)
	sb.WriteString("| grid | model | #th/#op | spec states | impl states (paper) | quotient impl/spec | gen s | peak GiB gen/bisim | bisim s (paper) | refine s (paper) | refine no-antichain s | pairs | on the fly s (states stored, peak GiB) | unreduced on the fly s (states) | linearizable | lock-free | check | notes |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	paper := func(ours, theirs string) string {
		if theirs == "" {
			return ours
		}
		if ours == "" {
			ours = "–"
		}
		return ours + " (" + theirs + ")"
	}
	for _, r := range rows {
		fly, flyNone := "", ""
		if r.FlySeconds >= 0 {
			fly = fmt.Sprintf("%s (%s, %s)", secs(r.FlySeconds), num(r.FlyStates), gib(r.FlyPeakMiB))
		}
		if r.FlyNoneSeconds >= 0 {
			flyNone = fmt.Sprintf("%s (%s)", secs(r.FlyNoneSeconds), num(r.FlyNoneStates))
		}
		fmt.Fprintf(&sb, "| %s | %s | %d/%d | %s | %s | %s/%s | %s | %s/%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.Grid, r.Label, r.Threads, r.Ops,
			paper(num(r.SpecStates), r.PaperSpecStates), paper(num(r.ImplStates), r.PaperImplStates),
			num(r.ImplQuotient), num(r.SpecQuotient), secs(r.GenSeconds), gib(r.GenPeakMiB), gib(r.BisimPeakMiB),
			paper(secs(r.BisimSeconds), r.PaperBisimSeconds), paper(secs(r.RefineSeconds), r.PaperRefineSeconds),
			secs(r.RefineNoACSeconds), num(r.RefinePairs), fly, flyNone, r.Linearizable, r.LockFree, r.VerdictOK,
			strings.Join(r.Notes, "; "))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// ReadCSV reads rows written by WriteCSV, so that results.md and the plot
// can be drawn again from a results.csv (`--from-csv`).
func ReadCSV(r io.Reader) ([]*Row, error) {
	records, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(records) == 0 || strings.Join(records[0], ",") != strings.Join(columns, ",") {
		return nil, fmt.Errorf("not a results.csv: expected the header %s", strings.Join(columns, ","))
	}
	var rows []*Row
	for i, rec := range records[1:] {
		row, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+2, err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// parseRow is the inverse of Row.values.
func parseRow(rec []string) (*Row, error) {
	if len(rec) != len(columns) {
		return nil, fmt.Errorf("%d fields, expected %d", len(rec), len(columns))
	}
	field := map[string]string{}
	for i, name := range columns {
		field[name] = rec[i]
	}
	var firstErr error
	integer := func(name string) int64 {
		if field[name] == "" {
			return -1
		}
		v, err := strconv.ParseInt(field[name], 10, 64)
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("%s: %v", name, err)
		}
		return v
	}
	float := func(name string) float64 {
		if field[name] == "" {
			return -1
		}
		v, err := strconv.ParseFloat(field[name], 64)
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("%s: %v", name, err)
		}
		return v
	}
	r := &Row{Case: Case{Grid: field["grid"], Model: field["model"], Label: field["label"],
		Threads: int(integer("threads")), Ops: int(integer("ops")),
		WantLinearizable: field["expected_linearizable"], WantLockFree: field["expected_lock_free"],
		PaperSpecStates: field["paper_spec_states"], PaperImplStates: field["paper_impl_states"],
		PaperBisimSeconds: field["paper_bisim_s"], PaperRefineSeconds: field["paper_refine_s"], PaperSource: field["paper_source"]},
		ImplStates: integer("impl_states"), ImplTransitions: integer("impl_transitions"),
		SpecStates: integer("spec_states"), SpecTransitions: integer("spec_transitions"),
		ImplQuotient: integer("impl_quotient_states"), SpecQuotient: integer("spec_quotient_states"),
		GenSeconds: float("generate_s"), GenPeakMiB: float("generate_peak_mib"),
		BisimSeconds: float("bisim_s"), BisimPeakMiB: float("bisim_peak_mib"),
		RefineSeconds: float("refine_s"), RefinePeakMiB: float("refine_peak_mib"), RefinePairs: integer("refine_pairs"),
		RefineNoACSeconds: float("refine_noantichain_s"), RefineNoACPeakMiB: float("refine_noantichain_peak_mib"),
		RefineNoACPairs: integer("refine_noantichain_pairs"),
		FlySeconds:      float("fly_s"), FlyPeakMiB: float("fly_peak_mib"), FlyStates: integer("fly_states"), FlyPairs: integer("fly_pairs"),
		FlyNoneSeconds: float("fly_none_s"), FlyNonePeakMiB: float("fly_none_peak_mib"), FlyNoneStates: integer("fly_none_states"),
		FlyNonePairs: integer("fly_none_pairs"),
		Bisimilar:    field["bisimilar"], Refines: field["refines"], Linearizable: field["linearizable"],
		LockFree: field["lock_free"], VerdictOK: field["verdict_check"]}
	if field["notes"] != "" {
		r.Notes = strings.Split(field["notes"], "; ")
	}
	return r, firstErr
}
