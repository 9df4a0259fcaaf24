package relation

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/refine"
)

// Options tune Compare.
type Options struct {
	// NameA and NameB name the two LTSs (their files) in the verdict, the
	// formula's explanation and the counterexample; empty means "A" and
	// "B".
	NameA, NameB string
	// Preorder asks whether A's behaviour is included in B's instead of
	// whether they are equivalent; only a relation with HasPreorder has
	// one.
	Preorder bool
	// Bisim tunes the bisimilarities: the algorithm, progress, the
	// context. Its names and MaxPairs are set from these options; its
	// Context stops the trace relations' refinement too.
	Bisim bisim.Options
	// MaxPairs bounds the pairs searched: by the search for a
	// distinguishing trace under a bisimilarity (past it, the formula is
	// built without one), by the refinement under a trace relation (past
	// it, Compare returns an error wrapping refine.ErrPairLimit). 0 means
	// the engine's default.
	MaxPairs int
}

// Result is the verdict of Compare.
type Result struct {
	// Relation is the relation asked for.
	Relation Relation
	Preorder bool // A's inclusion in B was asked, not the equivalence
	// Holds reports whether A and B are related (equivalent, or A's
	// behaviour included in B's).
	Holds bool
	// Report is the verdict with its evidence as `compare --json` states
	// it; its Counterexample, for a trace relation that does not hold, is
	// a shortest trace of Report.Side that the other side cannot do.
	Report *Report
	// Evidence, for a bisimilarity that does not hold, is the
	// distinguishing formula, model-checked on both sides, with its
	// paths and its reading in English.
	Evidence *bisim.FormulaEvidence
	// classes is the number of classes of the disjoint union (the
	// bisimilarities).
	classes int32
}

// Compare decides whether a and b are related by r, as an equivalence or,
// with opts.Preorder, as a preorder: the bisimilarities by bisim.Compare,
// the trace relations by refine.Check, in one direction for a preorder and
// in both for an equivalence.
func Compare(a, b *lts.LTS, r Relation, opts Options) (*Result, error) {
	if r < 0 || r >= numRelations {
		return nil, fmt.Errorf("unknown relation %d", int(r))
	}
	if opts.Preorder && !r.HasPreorder() {
		return nil, fmt.Errorf("%s has no preorder here: expected %s", r, Names(Preorders()))
	}
	if opts.NameA == "" {
		opts.NameA = "A"
	}
	if opts.NameB == "" {
		opts.NameB = "B"
	}
	if eq, ok := r.Bisimilarity(); ok {
		bopts := opts.Bisim
		bopts.NameA, bopts.NameB, bopts.MaxPairs = opts.NameA, opts.NameB, opts.MaxPairs
		c, err := bisim.Compare(a, b, eq, bopts)
		if err != nil {
			return nil, err
		}
		return &Result{Relation: r, Holds: c.Equivalent, Report: bisimReport(c, opts.NameA, opts.NameB, r),
			Evidence: c.Evidence, classes: c.Classes}, nil
	}
	return compareTraces(a, b, r, opts)
}

// visibleTau is the name τ takes when it counts as an action (Trace).
const visibleTau = "τ"

// compareTraces decides the trace relation r by trace refinement, in one
// direction for a preorder and in both for an equivalence.
func compareTraces(a, b *lts.LTS, r Relation, opts Options) (*Result, error) {
	sides := [2]*lts.LTS{a, b}
	if r == Trace {
		expose := func(name string) string {
			if name == lts.TauName {
				return visibleTau
			}
			return name
		}
		sides = [2]*lts.LTS{lts.Relabel(a, expose), lts.Relabel(b, expose)}
	}
	names := [2]string{opts.NameA, opts.NameB}
	ropts := refine.Options{Antichain: true, Quotient: true, MaxPairs: opts.MaxPairs, Context: opts.Bisim.Context}
	out := &Report{A: names[0], B: names[1], Relation: r.String(), Preorder: opts.Preorder, Holds: true,
		StatesA: a.NumStates, StatesB: b.NumStates}
	dirs := [][2]int{{0, 1}}
	if !opts.Preorder {
		dirs = append(dirs, [2]int{1, 0})
	}
	for _, d := range dirs {
		res, err := refine.Check(sides[d[0]], sides[d[1]], ropts)
		if err != nil {
			return nil, err
		}
		out.Pairs += res.Stats.Pairs
		if !res.Refines {
			out.Holds, out.Side, out.Kind = false, names[d[0]], "distinguishing-trace"
			out.Counterexample = r.nameSides(res.Counterexample, names[d[1]])
			break
		}
	}
	return &Result{Relation: r, Preorder: opts.Preorder, Holds: out.Holds, Report: out}, nil
}

// nameSides rewords refine's counterexample, which speaks of an
// implementation and a specification, for two LTSs compared under the
// trace relation r: other is the file that cannot do its last step.
func (r Relation) nameSides(tr *lts.Trace, other string) *lts.Trace {
	tr.Title = ""
	last := tr.Steps[len(tr.Steps)-1]
	tr.Steps[len(tr.Steps)-1].Note = other + " cannot do this"
	before, kind := 0, "visible action"
	if r == Trace {
		before, kind = len(tr.Steps)-1, "action"
	} else {
		for _, s := range tr.Steps[:len(tr.Steps)-1] {
			if s.Label != lts.TauName {
				before++
			}
		}
	}
	switch before {
	case 0:
		tr.Final = fmt.Sprintf("%s cannot do %s as its first %s", other, last.Label, kind)
	case 1:
		tr.Final = fmt.Sprintf("%s cannot do %s after the %s before it", other, last.Label, kind)
	default:
		tr.Final = fmt.Sprintf("%s cannot do %s after the %d %ss before it", other, last.Label, before, kind)
	}
	if r == Trace && last.Label == visibleTau {
		tr.Final += " (under trace equivalence τ counts as an action; under weak-trace it would not)"
	}
	return tr
}

// WriteText writes the verdict for a person: one line, then, when the
// relation does not hold, the evidence.
func (res *Result) WriteText(w io.Writer) error {
	rep, r := res.Report, res.Relation
	if _, ok := r.Bisimilarity(); ok {
		verdict := "equivalent"
		if !res.Holds {
			verdict = "NOT equivalent"
		}
		if _, err := fmt.Fprintf(w, "%s and %s are %s modulo %s bisimilarity (%d + %d states, %d classes)\n",
			rep.A, rep.B, verdict, r, rep.StatesA, rep.StatesB, res.classes); err != nil {
			return err
		}
		if res.Holds {
			return nil
		}
		return res.Evidence.WriteText(w)
	}
	var err error
	switch in := table[r]; {
	case res.Preorder && res.Holds:
		_, err = fmt.Fprintf(w, "%s is included in %s modulo %s ("+in.preorder+")\n", rep.A, rep.B, r)
	case res.Preorder:
		_, err = fmt.Fprintf(w, "%s is NOT included in %s modulo %s\n", rep.A, rep.B, r)
	case res.Holds:
		_, err = fmt.Fprintf(w, "%s and %s are %s equivalent (%s)\n", rep.A, rep.B, r, in.definition)
	default:
		_, err = fmt.Fprintf(w, "%s and %s are NOT %s equivalent\n", rep.A, rep.B, r)
	}
	if err != nil || res.Holds {
		return err
	}
	other := rep.A
	if rep.Side == rep.A {
		other = rep.B
	}
	if _, err := fmt.Fprintf(w, "%s can do this trace, %s cannot do its last action:\n", rep.Side, other); err != nil {
		return err
	}
	return rep.Counterexample.WriteText(w)
}

// WriteCounterexample writes the evidence of a relation that does not
// hold to file, in the format its extension names, or in all of them when
// it has none: for a bisimilarity the formula (.txt explanation, .json
// formula tree, .mcf mCRL2 formula with its .mcrl2 declarations) or its
// witnessing path (.aut, .dot); for a trace relation the trace (.txt,
// .json, .aut, .dot).
func (res *Result) WriteCounterexample(file string) error {
	if res.Holds {
		return fmt.Errorf("%s: no counterexample: the relation holds", file)
	}
	ext := strings.ToLower(filepath.Ext(file))
	if ev := res.Evidence; ev != nil {
		switch ext {
		case "":
			return ev.Export(filepath.Dir(file), filepath.Base(file))
		case ".aut", ".dot", ".gv":
			return lts.WriteFile(file, ev.Witness.LTS())
		case ".txt":
			return files.Create(file, ev.WriteText)
		case ".json":
			return files.Create(file, ev.WriteJSON)
		case ".mcf": // with the .mcrl2 declarations mCRL2 needs beside it
			return ev.ExportMCRL2(filepath.Dir(file), strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)))
		}
		return fmt.Errorf("%s: unknown counterexample format: expected .txt, .json, .mcf, .aut, .dot or no extension", file)
	}
	tr := res.Report.Counterexample
	switch ext {
	case "":
		return tr.Export(filepath.Dir(file), filepath.Base(file))
	case ".aut", ".dot", ".gv":
		return lts.WriteFile(file, tr.LTS())
	case ".txt":
		return files.Create(file, tr.WriteText)
	case ".json":
		return files.Create(file, tr.WriteJSON)
	}
	return fmt.Errorf("%s: unknown counterexample format for a trace: expected .txt, .json, .aut, .dot or no extension", file)
}

// Reduce returns the quotient modulo r of the part of l reachable from
// its initial state, and the number of reachable states
// (bisim.MinimizeReachable); r must be Reducible.
func Reduce(l *lts.LTS, r Relation, opts bisim.Options) (q *lts.LTS, reachable int32, err error) {
	eq, ok := r.Bisimilarity()
	if !ok {
		return nil, 0, fmt.Errorf("no quotient modulo %s: expected %s", r, Names(Reducibles()))
	}
	return bisim.MinimizeReachable(l, eq, opts)
}

// ReduceConsuming is Reduce, consuming its input (bisim.Consumed): for a
// caller that reads no more than the LTS's sizes afterwards.
func ReduceConsuming(in *bisim.Consumed, r Relation, opts bisim.Options) (q *lts.LTS, reachable int32, err error) {
	eq, ok := r.Bisimilarity()
	if !ok {
		return nil, 0, fmt.Errorf("no quotient modulo %s: expected %s", r, Names(Reducibles()))
	}
	return bisim.MinimizeReachableConsuming(in, eq, opts)
}
