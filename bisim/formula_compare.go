package bisim

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/lts"
)

// distinguishingFormula builds, from the partition of the union u of a and
// b (off is b's offset in u), a formula that tells their initial states
// apart, and checks it on a and b as they are: it must hold in the initial
// state of side holdsIn and not in the other's. A formula that fails the
// check is a bug in linbis and is returned as an error, never shown.
//
// When the weak traces differ the formula says so: it is the path of a
// shortest trace that one side has and the other lacks (found on the
// quotient by distinguishingTrace), the best evidence there is. When they
// are the same and, under DivBranching, one side can diverge after a trace
// where the other cannot, the formula is that trace followed by Δtrue
// (divergence is set): the whole difference of a model that is not
// lock-free, where the refinement's history would spell out every choice
// on the way. Otherwise it is read off the refinement's history: Fast's own splits when it
// recorded them (strong bisimilarity: historyBuilder), else rounds on the
// quotient (formulaBuilder).
//
// The trace search may read at most traceWork(u) states and steps, a
// fraction of one pass over the union: the minimisation reads every
// transition several times, so the search stays a small part of Compare
// even where it gives up (then the explanation says so).
func distinguishingFormula(a, b, u *lts.LTS, off int32, k *kernel, kblock, class, rename []int32, numClasses int32,
	eq Equivalence, opts *Options) (f *Formula, holdsIn int, sameTraces, divergence bool, err error) {
	x, y := class[a.Initial], class[off+b.Initial]
	maxPairs := opts.MaxPairs
	if maxPairs <= 0 {
		maxPairs = DefaultMaxPairs
	}
	fromHistory := opts.history != nil
	var q *lts.LTS
	var g traceGraph
	if fromHistory {
		g = newClassGraph(u, class, numClasses) // the quotient is not needed
	} else {
		q = quotient(u, k, kblock, rename, numClasses)
		g = quotientGraph{q}
	}
	var diverges func(int32) bool
	if eq == DivBranching && q != nil {
		diverges = func(c int32) bool { return hasTauLoop(q, c) }
	}
	labels, side, ok, complete, divergence := distinguishingTrace(g, x, y, maxPairs, traceWork(u), diverges)
	sameTraces = !ok && complete
	switch {
	case ok:
		holder := [2]*lts.LTS{a, b}[side]
		names := make([]string, len(labels))
		for i, l := range labels {
			names[i] = u.Labels[l]
		}
		path, ok := lts.Replay(holder, names)
		if !ok {
			return nil, 0, false, false, fmt.Errorf("internal error: the distinguishing trace %v of the quotient is not a trace of side %c", names, "AB"[side])
		}
		f, holdsIn = traceFormula(holder, path, eq), side
	case divergence:
		f, holdsIn = Diverge(True()), side
		for i := len(labels) - 1; i >= 0; i-- {
			f = Until(True(), u.Labels[labels[i]], f)
		}
	case fromHistory:
		hb := &historyBuilder{h: opts.history, l: u, block: kblock, memo: map[[2]int32]*Formula{}}
		if f, err = hb.distinguish(a.Initial, off+b.Initial); err != nil {
			return nil, 0, false, false, err
		}
	default:
		fb, err := newFormulaBuilder(q, eq, x, y)
		if err != nil {
			return nil, 0, false, false, err
		}
		if f, err = fb.distinguish(x, y); err != nil {
			return nil, 0, false, false, err
		}
	}
	if !ok && f.Op == OpNot { // say what one side can do rather than what it cannot
		f, holdsIn = f.Args[0], 1
	}
	if err := CheckDistinguishes(a, b, f, holdsIn); err != nil {
		return nil, 0, false, false, err
	}
	return f, holdsIn, sameTraces, divergence, nil
}

// hasTauLoop reports whether state s of l has a τ self-loop: in a
// DivBranching quotient, whether class s diverges.
func hasTauLoop(l *lts.LTS, s int32) bool {
	for t := l.Out[s]; t < l.Out[s+1]; t++ {
		if l.Label[t] == lts.Tau && l.Dst[t] == s {
			return true
		}
	}
	return false
}

// traceWork is the bound on the states and steps distinguishingTrace reads
// on the quotient of the union u (see distinguishingFormula).
func traceWork(u *lts.LTS) int64 {
	return 1<<16 + (int64(u.NumStates)+int64(u.NumTransitions()))/4
}

// CheckDistinguishes model-checks f on a and b and returns an error unless
// it holds in the initial state of a when holdsIn is 0 (of b when 1) and not
// in the other's.
func CheckDistinguishes(a, b *lts.LTS, f *Formula, holdsIn int) error {
	ha, hb := Holds(a, f), Holds(b, f)
	if ha == hb || ha != (holdsIn == 0) {
		return fmt.Errorf("internal error: the distinguishing formula holds in A: %v, in B: %v, expected only in %c: %v",
			ha, hb, "AB"[holdsIn], f)
	}
	return nil
}

// FormulaEvidence is a distinguishing formula with what a person needs to
// read it: the paths that witness it and its meaning in words.
type FormulaEvidence struct {
	// Equivalence is the equivalence the formula belongs to.
	Equivalence Equivalence
	// NameA and NameB name the two LTSs compared (Options.NameA/NameB,
	// or "A", "B").
	NameA, NameB string
	// Formula holds in the initial state of side HoldsIn (0: the first LTS
	// compared, 1: the second) and not in the other's; both were checked.
	Formula *Formula
	HoldsIn int // the side where Formula holds: 0 the first LTS, 1 the second
	// Holder and Other name the side where Formula holds and the other.
	Holder, Other string
	// Witness is a path of Holder from its initial state that takes the
	// formula's steps (see witnessPath).
	Witness *lts.Trace
	// OtherPath is a path of Other with the same visible labels as
	// Witness, or nil when Other has none: then Witness's visible labels
	// are a trace that Other cannot do and TraceDistinguishes is set.
	OtherPath          *lts.Trace
	TraceDistinguishes bool // OtherPath is nil: Witness's visible labels are a distinguishing trace
	// Explanation says in English what Formula says and what the paths show.
	Explanation string
	// Actions names the labels of both LTSs as mCRL2 actions and declares
	// them, for checking Formula with mCRL2 (WriteMCRL2).
	Actions *lts.MCRL2Actions
	// sides are the LTSs compared, for their mCRL2 copies (Export) when
	// Actions had to rename labels.
	sides [2]*lts.LTS
}

// formulaEvidence builds the checked formula (distinguishingFormula), its
// witnessing paths and its explanation.
func formulaEvidence(a, b, u *lts.LTS, off int32, k *kernel, kblock, class, rename []int32, numClasses int32,
	eq Equivalence, opts *Options) (*FormulaEvidence, error) {
	f, side, sameTraces, divergence, err := distinguishingFormula(a, b, u, off, k, kblock, class, rename, numClasses, eq, opts)
	if err != nil {
		return nil, err
	}
	sides := [2]*lts.LTS{a, b}
	names := [2]string{opts.NameA, opts.NameB}
	for i, def := range []string{"A", "B"} {
		if names[i] == "" {
			names[i] = def
		}
	}
	e := &FormulaEvidence{Equivalence: eq, NameA: names[0], NameB: names[1],
		Formula: f, HoldsIn: side, Holder: names[side], Other: names[1-side],
		Actions: lts.NewMCRL2Actions(a.Labels, b.Labels), sides: [2]*lts.LTS{a, b}}
	holder, other := sides[side], sides[1-side]
	path, marked, loop := witnessPath(holder, newLocalChecker(holder), f)
	e.Witness = lts.TraceOf(holder, path)
	e.Witness.LoopStart = loop
	for _, i := range marked {
		e.Witness.Steps[i].Note = "a step of the formula"
	}
	e.Witness.Title = fmt.Sprintf("a path of %s that takes the formula's steps:", e.Holder)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s and %s are not %s bisimilar. This formula holds in the initial state of %s and not in that of %s "+
		"(linbis model-checked it on both):\n  %v\n", names[0], names[1], proseName(eq), e.Holder, e.Other, f)
	steps := "every step may come after τ-steps"
	if eq == Strong {
		steps = "step by step, τ-steps included"
	}
	fmt.Fprintf(&sb, "In words (%s):\n%s\n", steps, wrap(f.Sentences(e.Holder), "  ", 100))
	if otherPath, ok := lts.Replay(other, e.Witness.Visible()); ok {
		e.OtherPath = lts.TraceOf(other, otherPath)
		e.OtherPath.Title = fmt.Sprintf("a path of %s with the same visible steps (no path of %s does what the formula says):", e.Other, e.Other)
		limit := opts.MaxPairs
		if limit <= 0 {
			limit = DefaultMaxPairs
		}
		switch {
		case divergence:
			fmt.Fprintf(&sb, "%s can take the same visible steps, and the two have the same traces: the difference is that %s can then take τ-steps forever and %s cannot (%s bisimilarity, not trace equivalence).",
				e.Other, e.Holder, e.Other, proseName(eq))
		case sameTraces:
			fmt.Fprintf(&sb, "%s can take the same visible steps, and the two have the same traces: the difference is in the choices left open along the way (%s bisimilarity, not trace equivalence).",
				e.Other, proseName(eq))
		default:
			fmt.Fprintf(&sb, "%s can take the same visible steps (whether their traces differ elsewhere was not settled: the search for a distinguishing trace stopped at its limit of %d pairs of state sets or %d states and steps read).",
				e.Other, limit, traceWork(u))
		}
	} else {
		e.TraceDistinguishes = true
		fmt.Fprintf(&sb, "%s has no path with the visible steps of the path of %s below: it is a distinguishing trace.", e.Other, e.Holder)
	}
	e.Explanation = sb.String()
	return e, nil
}

// FormulaReport is the JSON form of a FormulaEvidence, written by
// `compare --counterexample` and `verify --export` and embedded in their
// --json output; verify/schema.json documents it ($defs/formula_evidence).
type FormulaReport struct {
	Equivalence string `json:"equivalence"` // the equivalence the formula belongs to, e.g. "divbranching"
	A           string `json:"a"`           // the first LTS compared's name (Options.NameA, or "A")
	B           string `json:"b"`           // the second's (Options.NameB, or "B")
	// HoldsIn is "A" or "B": the side whose initial state satisfies Formula.
	HoldsIn string `json:"holds_in"`
	// Formula is the tree: {"op":…, "label":…, "args":[…]}.
	Formula *Formula `json:"formula"`
	// Text is the formula in mathematical notation.
	Text string `json:"text"`
	// MCRL2 is the formula in mCRL2's modal μ-calculus, its labels as
	// MCRL2Renamed says.
	MCRL2 string `json:"mcrl2"`
	// MCRL2Declarations declares the sorts and actions of both LTSs' labels
	// for mCRL2 (lts2pbes --data).
	MCRL2Declarations string `json:"mcrl2_declarations"`
	// MCRL2Renamed maps each label that mCRL2 cannot read as it is to
	// the action that stands for it; nil when none.
	MCRL2Renamed map[string]string `json:"mcrl2_renamed,omitempty"`
	Depth        int               `json:"depth"` // the formula's modal depth (Formula.Depth)
	Size         int               `json:"size"`  // its nodes written out as a tree (Formula.Size)
	// Explanation is the English reading.
	Explanation string `json:"explanation"`
	// DistinguishingTrace says whether Witness's visible labels are a
	// trace that the other side cannot do.
	DistinguishingTrace bool `json:"distinguishing_trace"`
	// Witness is a path of the side where the formula holds, from its
	// initial state, that takes the formula's steps.
	Witness *lts.Trace `json:"witness"`
	// OtherPath is a path of the other side with Witness's visible
	// labels; nil when it has none.
	OtherPath *lts.Trace `json:"other_path,omitempty"`
}

// Report returns the JSON form of e.
func (e *FormulaEvidence) Report() *FormulaReport {
	return &FormulaReport{Equivalence: e.Equivalence.String(), A: e.NameA, B: e.NameB, HoldsIn: string("AB"[e.HoldsIn]),
		Formula: e.Formula, Text: e.Formula.String(), MCRL2: e.Formula.MCRL2Named(e.Actions.Name),
		MCRL2Declarations: e.Actions.Declarations(), MCRL2Renamed: e.Actions.Renamed(), Depth: e.Formula.Depth(), Size: e.Formula.Size(),
		Explanation: e.Explanation, DistinguishingTrace: e.TraceDistinguishes, Witness: e.Witness, OtherPath: e.OtherPath}
}

// WriteText writes the explanation and the witnessing paths, titled by the
// LTS each belongs to.
func (e *FormulaEvidence) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "%s\n\n", e.Explanation); err != nil {
		return err
	}
	if err := e.Witness.WriteText(w); err != nil {
		return err
	}
	if e.OtherPath == nil {
		return nil
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	return e.OtherPath.WriteText(w)
}

// WriteJSON writes e.Report() as indented JSON.
func (e *FormulaEvidence) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(e.Report())
}

// MCRL2Files names the files of an mCRL2 check of a formula: the .mcf
// file, the .mcrl2 declarations, and the .aut files of sides A and B as
// mCRL2 reads them (copies with renamed labels when MCRL2Renamed is set).
type MCRL2Files struct {
	Formula      string    // the .mcf file's path, as the commands name it
	Declarations string    // the .mcrl2 declarations' path, passed to lts2pbes --data
	Sides        [2]string // the .aut files of A and B, in order
}

// WriteMCRL2 writes r's formula as an mCRL2 .mcf file whose comments say
// where it holds and give the commands that check it with mCRL2's
// lts2pbes and pbessolve (true on one side, false on the other).
func (r *FormulaReport) WriteMCRL2(w io.Writer, files MCRL2Files) error {
	holds, other := 0, 1
	if r.HoldsIn == "B" {
		holds, other = 1, 0
	}
	names := [2]string{r.A, r.B}
	_, err := fmt.Fprintf(w, "%% holds in the initial state of %s (%s), not in that of %s (%s bisimilarity).\n"+
		"%% Check with mCRL2 (paths from where linbis was run; actions declared in %s):\n"+
		"%%   lts2pbes --data=%s --formula=%s %s | pbessolve   # true\n"+
		"%%   lts2pbes --data=%s --formula=%s %s | pbessolve   # false\n%s\n",
		names[holds], r.HoldsIn, names[other], r.Equivalence, files.Declarations,
		files.Declarations, files.Formula, files.Sides[holds], files.Declarations, files.Formula, files.Sides[other], renamedNote(r.MCRL2Renamed)+r.MCRL2)
	return err
}

// renamedNote says, as .mcf comment lines, which labels mCRL2 reads under
// another name ("" when none): the .aut files the commands name are
// copies with those labels renamed.
func renamedNote(renamed map[string]string) string {
	if len(renamed) == 0 {
		return ""
	}
	labels := make([]string, 0, len(renamed))
	for l := range renamed {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	var sb strings.Builder
	sb.WriteString("% mCRL2 cannot read these labels as they are; here and in the .aut files above they are renamed:\n")
	for _, l := range labels {
		fmt.Fprintf(&sb, "%%   %q -> %s\n", l, renamed[l])
	}
	return sb.String()
}

// WriteMCRL2Declarations writes r.MCRL2Declarations, the .mcrl2 file that
// WriteMCRL2's commands pass to lts2pbes --data.
func (r *FormulaReport) WriteMCRL2Declarations(w io.Writer) error {
	_, err := io.WriteString(w, r.MCRL2Declarations)
	return err
}

// ExportMCRL2 writes, to dir, base.mcf (the formula, WriteMCRL2) and
// base.mcrl2 (the declarations), and, when labels had to be renamed for
// mCRL2, the two LTSs compared with their labels renamed as
// base-mcrl2-A.aut and base-mcrl2-B.aut; otherwise the commands name the
// files compared, NameA and NameB being their paths.
func (e *FormulaEvidence) ExportMCRL2(dir, base string) error {
	r := e.Report()
	at := func(name string) string { return filepath.Join(dir, name) }
	fs := MCRL2Files{Formula: at(base + ".mcf"), Declarations: at(base + ".mcrl2"), Sides: [2]string{e.NameA, e.NameB}}
	if r.MCRL2Renamed != nil {
		for i, side := range []string{"A", "B"} {
			fs.Sides[i] = at(base + "-mcrl2-" + side + ".aut")
			if err := lts.WriteAutFile(fs.Sides[i], lts.Relabel(e.sides[i], e.Actions.Name)); err != nil {
				return err
			}
		}
	}
	if err := files.Create(fs.Declarations, r.WriteMCRL2Declarations); err != nil {
		return err
	}
	return files.Create(fs.Formula, func(w io.Writer) error { return r.WriteMCRL2(w, fs) })
}

// Export writes, to dir, base.txt (explanation and paths), base.json
// (Report), the mCRL2 files of ExportMCRL2, and the witnessing paths as
// base.aut and base.dot (the holder's) and base-other.aut and
// base-other.dot (the other side's, when it has one), creating dir if
// needed.
func (e *FormulaEvidence) Export(dir, base string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	out := map[string]func(io.Writer) error{
		base + ".txt":  e.WriteText,
		base + ".json": e.WriteJSON,
	}
	paths := map[string]*lts.Trace{base: e.Witness, base + "-other": e.OtherPath}
	for name, tr := range paths {
		if tr == nil {
			continue
		}
		linear := tr.LTS()
		out[name+".aut"] = func(w io.Writer) error { return lts.WriteAut(w, linear) }
		out[name+".dot"] = func(w io.Writer) error { return lts.WriteDot(w, linear) }
	}
	for name, write := range out {
		if err := files.Create(filepath.Join(dir, name), write); err != nil {
			return err
		}
	}
	return e.ExportMCRL2(dir, base)
}

// proseName names eq for a sentence: "divergence-preserving branching"
// rather than the option name "divbranching".
func proseName(eq Equivalence) string {
	if eq == DivBranching {
		return "divergence-preserving branching"
	}
	return eq.String()
}
