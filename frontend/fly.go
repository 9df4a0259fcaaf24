package frontend

import (
	"github.com/linbis/linbis/frontend/explore"
	"github.com/linbis/linbis/lts"
)

// FlyResult is the outcome of an on-the-fly check (see explore.CheckOnTheFly).
type FlyResult = explore.FlyResult

// Reductions select the state-space reductions of an on-the-fly check.
type Reductions struct {
	// Symmetry identifies states that differ by a permutation of the
	// threads, when the model can be shown symmetric.
	Symmetry bool
	// PartialOrder follows, where it can, the steps of one thread only:
	// invisible steps independent of everything the other threads may
	// still do (ample sets with the cycle proviso).
	PartialOrder bool
}

// ReductionModes are the values of --reduce, each with its reductions.
var ReductionModes = []struct {
	Name string
	Reductions
}{
	{"none", Reductions{}},
	{"symmetry", Reductions{Symmetry: true}},
	{"por", Reductions{PartialOrder: true}},
	{"all", Reductions{Symmetry: true, PartialOrder: true}},
}

// CheckOnTheFly decides trace refinement (linearizability) and
// lock-freedom of m under b without building the LTSs: a breadth-first
// search of the product of implementation states and specification
// subsets that stops at the first violation, then a search for τ-cycles.
// opts.MaxStates bounds the product pairs.
func CheckOnTheFly(m *Model, b Bounds, opts Options, r Reductions) (*FlyResult, error) {
	return explore.CheckOnTheFly(m.Program, b, explore.FlyOptions{Options: opts, Symmetry: r.Symmetry, PartialOrder: r.PartialOrder})
}

// ReplayOnBounds replays tr, a violation or lasso that CheckOnTheFly found
// under smaller bounds, on the unreduced semantics of m under b, and
// returns it as a trace there (explore.ReplayOnBounds); the error wraps
// explore.ErrNoReplay when it is not a violation under b.
func ReplayOnBounds(m *Model, b Bounds, opts Options, tr *lts.Trace) (*lts.Trace, error) {
	return explore.ReplayOnBounds(m.Program, b, opts, tr)
}
