package bisim

import (
	"fmt"

	"github.com/linbis/linbis/lts"
)

// Comparison is the verdict of Compare.
type Comparison struct {
	// Equivalent reports whether the initial states are equivalent.
	Equivalent bool
	// Evidence, when not Equivalent, is a distinguishing formula,
	// model-checked on both LTSs before Compare returns it, with its
	// witnessing paths and its reading in English (formula_compare.go).
	Evidence *FormulaEvidence
	// Classes is the number of classes of the disjoint union; StatesA and
	// StatesB the sizes of the inputs.
	Classes, StatesA, StatesB int32
}

// Compare decides whether a and b are equivalent under eq, via the
// partition of their disjoint union (labels are matched by name). When they
// are not, it explains why with a formula of the equivalence's logic that
// holds in one initial state and not in the other: the shortest trace one
// side lacks when their traces differ, else a formula read off the
// refinement's history; the formula is model-checked on both LTSs before it
// is returned (formula_build.go, formula_compare.go). With Fast, a union
// whose only cycles are τ-cycles is classified in one pass first
// (acyclic.go), and the refinement runs only when the initial states
// differ, for the evidence.
func Compare(a, b *lts.LTS, eq Equivalence, opts Options) (c *Comparison, err error) {
	defer recoverStopped(&err)
	if a.NumStates == 0 || b.NumStates == 0 {
		return nil, fmt.Errorf("cannot compare an LTS without states")
	}
	u, off := lts.Union(a, b)
	if eq == Strong && opts.Algorithm == Fast {
		opts.history = &splitHistory{} // for the formula, if they differ
	}
	opts.release = false // u is read again for the evidence
	if one, ok := tryAcyclic(u, eq, &opts); ok {
		block, _, numClasses := classesOf(u, identity, one.class, one.classes.count())
		if block[a.Initial] == block[off+b.Initial] {
			return &Comparison{Equivalent: true, Classes: numClasses, StatesA: a.NumStates, StatesB: b.NumStates}, nil
		}
		// The evidence is read from the refinement's kernel and blocks.
	}
	k, kblock, kn, err := partitionKernel(u, eq, &opts)
	if err != nil {
		return nil, err
	}
	block, rename, numClasses := classesOf(u, k, kblock, kn)
	c = &Comparison{Classes: numClasses, StatesA: a.NumStates, StatesB: b.NumStates}
	c.Equivalent = block[a.Initial] == block[off+b.Initial]
	if !c.Equivalent {
		if c.Evidence, err = formulaEvidence(a, b, u, off, k, kblock, block, rename, numClasses, eq, &opts); err != nil {
			return nil, err
		}
	}
	return c, nil
}
