package bisim

import (
	"fmt"
	"strings"

	"github.com/linbis/linbis/lts"
)

// distinguishingFormula builds, from the partition of the union u of a and
// b (off is b's offset in u), a formula that tells their initial states
// apart, and checks it on a and b as they are: it must hold in the initial
// state of side holdsIn and not in the other's. A formula that fails the
// check is a bug in linbis and is returned as an error, never shown.
func distinguishingFormula(a, b, u *lts.LTS, off int32, k *kernel, kblock, class, rename []int32, numClasses int32,
	eq Equivalence) (f *Formula, holdsIn int, err error) {
	q := quotient(u, k, kblock, rename, numClasses)
	fb, err := newFormulaBuilder(q, eq)
	if err != nil {
		return nil, 0, err
	}
	if f, err = fb.distinguish(class[a.Initial], class[off+b.Initial]); err != nil {
		return nil, 0, err
	}
	if f.Op == OpNot { // say what one side can do rather than what it cannot
		f, holdsIn = f.Args[0], 1
	}
	if err := CheckDistinguishes(a, b, f, holdsIn); err != nil {
		return nil, 0, err
	}
	return f, holdsIn, nil
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
	// Formula holds in the initial state of side HoldsIn (0: the first LTS
	// compared, 1: the second) and not in the other's; both were checked.
	Formula *Formula
	HoldsIn int
	// Holder and Other name the side where Formula holds and the other.
	Holder, Other string
	// Witness is a path of Holder from its initial state that takes the
	// formula's steps (see witnessPath).
	Witness *lts.Trace
	// OtherPath is a path of Other with the same visible labels as
	// Witness, or nil when Other has none: then Witness's visible labels
	// are a trace that Other cannot do and TraceDistinguishes is set.
	OtherPath          *lts.Trace
	TraceDistinguishes bool
	// Explanation says in English what Formula says and what the paths show.
	Explanation string
}

// formulaEvidence builds the checked formula (distinguishingFormula), its
// witnessing paths and its explanation.
func formulaEvidence(a, b, u *lts.LTS, off int32, k *kernel, kblock, class, rename []int32, numClasses int32,
	eq Equivalence, opts *Options) (*FormulaEvidence, error) {
	f, side, err := distinguishingFormula(a, b, u, off, k, kblock, class, rename, numClasses, eq)
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
	e := &FormulaEvidence{Formula: f, HoldsIn: side, Holder: names[side], Other: names[1-side]}
	holder, other := sides[side], sides[1-side]
	path, marked, loop := witnessPath(holder, newFormulaChecker(holder), f)
	e.Witness = lts.TraceOf(holder, path)
	e.Witness.LoopStart = loop
	for _, i := range marked {
		e.Witness.Steps[i].Note = "a step of the formula"
	}
	e.Witness.Title = fmt.Sprintf("a path of %s that takes the formula's steps:", e.Holder)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s and %s are not %s bisimilar. This formula holds in the initial state of %s and not in that of %s "+
		"(linbis model-checked it on both):\n  %v\nIn words, %s\n", names[0], names[1], eq, e.Holder, e.Other, f, e.Holder)
	for _, line := range strings.Split(f.English(), "\n") {
		fmt.Fprintf(&sb, "  %s\n", line)
	}
	if otherPath, ok := lts.Replay(other, e.Witness.Visible()); ok {
		e.OtherPath = lts.TraceOf(other, otherPath)
		e.OtherPath.Title = fmt.Sprintf("a path of %s with the same visible steps (no path of %s does what the formula says):", e.Other, e.Other)
		fmt.Fprintf(&sb, "%s can take the same visible steps, so no trace tells the two apart here: the difference is in the choices left open along the way (%s bisimilarity, not trace equivalence).",
			e.Other, eq)
	} else {
		e.TraceDistinguishes = true
		fmt.Fprintf(&sb, "%s has no path with the visible steps of the path of %s below: it is a distinguishing trace.", e.Other, e.Holder)
	}
	e.Explanation = sb.String()
	return e, nil
}
