package frontend

import "github.com/linbis/linbis/frontend/explore"

// FlyResult is the outcome of an on-the-fly check (see explore.CheckOnTheFly).
type FlyResult = explore.FlyResult

// Reductions select the state-space reductions of an on-the-fly check.
type Reductions struct {
	// Symmetry identifies states that differ by a permutation of the
	// threads, when the model can be shown symmetric.
	Symmetry bool
}

// CheckOnTheFly decides trace refinement (linearizability) and
// lock-freedom of m under b without building the LTSs: a breadth-first
// search of the product of implementation states and specification
// subsets that stops at the first violation, then a search for τ-cycles.
// opts.MaxStates bounds the product pairs.
func CheckOnTheFly(m *Model, b Bounds, opts Options, r Reductions) (*FlyResult, error) {
	return explore.CheckOnTheFly(m.Program, b, explore.FlyOptions{Options: opts, Symmetry: r.Symmetry})
}
