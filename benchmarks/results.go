package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Row is one line of results.csv: a case, our measurements and the paper's.
// A count or time of -1 was not measured (the run failed, stopped at a
// limit, or was not asked for).
type Row struct {
	Case
	ImplStates        int64   // the implementation LTS's states
	ImplTransitions   int64   // its transitions
	SpecStates        int64   // the specification LTS's states
	SpecTransitions   int64   // its transitions
	ImplQuotient      int64   // the states of the implementation's divbranching quotient
	SpecQuotient      int64   // the states of the specification's
	GenSeconds        float64 // the compile stage's seconds (verify --method bisim's)
	GenPeakMiB        float64 // peak memory of `linbis compile` (both LTSs, with statistics)
	BisimSeconds      float64 // the bisimulation stage's seconds
	BisimPeakMiB      float64 // the peak memory of the verify --method bisim run
	RefineSeconds     float64 // the refinement stage's seconds, antichains on (-1 without a verdict)
	RefinePeakMiB     float64 // the peak memory of that verify --method refine run
	RefinePairs       int64   // the product pairs that refinement explored
	RefineNoACSeconds float64 // the same three without antichains (--antichain=false)
	RefineNoACPeakMiB float64 // its run's peak memory
	RefineNoACPairs   int64   // its product pairs
	// Fly: the on-the-fly method under each of flyModes (every
	// reduction, none, symmetry alone, partial-order alone), in that
	// order.
	Fly          [len(flyModes)]FlyRun
	Bisimilar    string // the verdict's word, "yes", "no" or "unknown"; "" if not run
	Refines      string // likewise, from the refine run
	Linearizable string // likewise, from the bisim run (the refine run's if that had none)
	LockFree     string // likewise, from the bisim run
	// VerdictOK is "ok" when our verdicts match the literature, "MISMATCH"
	// when they differ, "" when there is nothing to compare.
	VerdictOK string
	Notes     []string // what each run reported or failed with, prefixed by its method
}

// FlyRun is one on-the-fly run's measurements (-1: not measured).
type FlyRun struct {
	Seconds float64 // the on-the-fly stage's seconds
	PeakMiB float64 // the run's peak memory, MiB
	States  int64   // implementation states stored
	Pairs   int64   // product pairs stored
}

// flyModes are the on-the-fly runs of a case: the name used in notes, the
// --reduce value and the prefix of the CSV columns.
var flyModes = [...]struct{ name, reduce, column string }{
	{"fly", "all", "fly"},
	{"fly-none", "none", "fly_none"},
	{"fly-symmetry", "symmetry", "fly_symmetry"},
	{"fly-por", "por", "fly_por"},
}

// columns are the CSV header; values renders a row in the same order.
var columns = slices.Concat([]string{
	"grid", "model", "label", "threads", "ops",
	"impl_states", "impl_transitions", "spec_states", "spec_transitions", "impl_quotient_states", "spec_quotient_states",
	"generate_s", "generate_peak_mib", "bisim_s", "bisim_peak_mib", "refine_s", "refine_peak_mib", "refine_pairs",
	"refine_noantichain_s", "refine_noantichain_peak_mib", "refine_noantichain_pairs"},
	flyColumns(),
	[]string{"bisimilar", "refines", "linearizable", "lock_free", "expected_linearizable", "expected_lock_free", "verdict_check",
		"paper_spec_states", "paper_impl_states", "paper_bisim_s", "paper_refine_s", "paper_source", "notes"},
)

// flyColumns are the four columns of each on-the-fly mode. They are
// optional in a results.csv read back: the files committed before a mode
// existed lack its columns, and redraw leaves it unmeasured.
func flyColumns() []string {
	var cols []string
	for _, m := range flyModes {
		cols = append(cols, m.column+"_s", m.column+"_peak_mib", m.column+"_states", m.column+"_pairs")
	}
	return cols
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
	v := []string{
		r.Grid, r.Model, r.Label, strconv.Itoa(r.Threads), strconv.Itoa(r.Ops),
		num(r.ImplStates), num(r.ImplTransitions), num(r.SpecStates), num(r.SpecTransitions), num(r.ImplQuotient), num(r.SpecQuotient),
		secs(r.GenSeconds), secs(r.GenPeakMiB), secs(r.BisimSeconds), secs(r.BisimPeakMiB), secs(r.RefineSeconds), secs(r.RefinePeakMiB), num(r.RefinePairs),
		secs(r.RefineNoACSeconds), secs(r.RefineNoACPeakMiB), num(r.RefineNoACPairs),
	}
	for _, f := range r.Fly {
		v = append(v, secs(f.Seconds), secs(f.PeakMiB), num(f.States), num(f.Pairs))
	}
	return append(v,
		r.Bisimilar, r.Refines, r.Linearizable, r.LockFree, r.WantLinearizable, r.WantLockFree, r.VerdictOK,
		r.PaperSpecStates, r.PaperImplStates, r.PaperBisimSeconds, r.PaperRefineSeconds, r.PaperSource, strings.Join(r.Notes, "; "))
}

// newRow starts a row with every measurement unknown (-1).
func newRow(c Case) *Row {
	r := &Row{Case: c, ImplStates: -1, ImplTransitions: -1, SpecStates: -1, SpecTransitions: -1,
		ImplQuotient: -1, SpecQuotient: -1, GenSeconds: -1, GenPeakMiB: -1, BisimSeconds: -1, BisimPeakMiB: -1,
		RefineSeconds: -1, RefinePeakMiB: -1, RefinePairs: -1, RefineNoACSeconds: -1, RefineNoACPeakMiB: -1, RefineNoACPairs: -1}
	for i := range r.Fly {
		r.Fly[i] = FlyRun{Seconds: -1, PeakMiB: -1, States: -1, Pairs: -1}
	}
	return r
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
	sb.WriteString("| grid | model | #th/#op | spec states | impl states (paper) | quotient impl/spec | gen s | peak GiB gen/bisim | bisim s (paper) | refine s (paper) | refine no-antichain s | pairs | on the fly s (states stored, peak GiB) | unreduced on the fly s (states) | symmetry only s (states) | partial-order only s (states) | linearizable | lock-free | check | notes |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
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
		var fly [len(flyModes)]string
		for i, f := range r.Fly {
			switch {
			case f.Seconds < 0:
			case i == 0: // every reduction: with its peak memory
				fly[i] = fmt.Sprintf("%s (%s, %s)", secs(f.Seconds), num(f.States), gib(f.PeakMiB))
			default:
				fly[i] = fmt.Sprintf("%s (%s)", secs(f.Seconds), num(f.States))
			}
		}
		fmt.Fprintf(&sb, "| %s | %s | %d/%d | %s | %s | %s/%s | %s | %s/%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.Grid, r.Label, r.Threads, r.Ops,
			paper(num(r.SpecStates), r.PaperSpecStates), paper(num(r.ImplStates), r.PaperImplStates),
			num(r.ImplQuotient), num(r.SpecQuotient), secs(r.GenSeconds), gib(r.GenPeakMiB), gib(r.BisimPeakMiB),
			paper(secs(r.BisimSeconds), r.PaperBisimSeconds), paper(secs(r.RefineSeconds), r.PaperRefineSeconds),
			secs(r.RefineNoACSeconds), num(r.RefinePairs), fly[0], fly[1], fly[2], fly[3], r.Linearizable, r.LockFree, r.VerdictOK,
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
	if len(records) == 0 {
		return nil, fmt.Errorf("not a results.csv: no header")
	}
	header := records[0]
	optional := flyColumns()
	for _, name := range header {
		if !slices.Contains(columns, name) {
			return nil, fmt.Errorf("not a results.csv: unknown column %q", name)
		}
	}
	for _, name := range columns {
		if !slices.Contains(header, name) && !slices.Contains(optional, name) {
			return nil, fmt.Errorf("not a results.csv: no column %q", name)
		}
	}
	var rows []*Row
	for i, rec := range records[1:] {
		row, err := parseRow(header, rec)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+2, err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// parseRow is the inverse of Row.values, for a record under header (a
// column absent from it is empty: not measured).
func parseRow(header, rec []string) (*Row, error) {
	if len(rec) != len(header) {
		return nil, fmt.Errorf("%d fields, expected %d", len(rec), len(header))
	}
	field := map[string]string{}
	for i, name := range header {
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
		Bisimilar:       field["bisimilar"], Refines: field["refines"], Linearizable: field["linearizable"],
		LockFree: field["lock_free"], VerdictOK: field["verdict_check"]}
	for i, m := range flyModes {
		r.Fly[i] = FlyRun{Seconds: float(m.column + "_s"), PeakMiB: float(m.column + "_peak_mib"),
			States: integer(m.column + "_states"), Pairs: integer(m.column + "_pairs")}
	}
	if field["notes"] != "" {
		r.Notes = strings.Split(field["notes"], "; ")
	}
	return r, firstErr
}
