package antichain

import (
	"math"

	"github.com/linbis/linbis/lts"
)

// Impl is an implementation LTS as the search reads it: its initial state
// and one state's steps at a time, so that its states may be found as the
// search reaches them or all be there already (an *lts.LTS, through
// NewExplicitImpl). States are numbered from 0, not necessarily densely;
// labels too, each standing for a specification action (Label).
type Impl interface {
	// Initial returns the initial state.
	Initial() int32
	// Steps returns the steps leaving state s, in the same order at every
	// call: for each i from lo to hi, a step that enters to[i] by
	// label[i], named i (an LTS's transition id: its arrays are read in
	// place), a name the search only hands back, in paths. The slices are
	// only read, until the next call. An error (a model error of an
	// implementation computed as the search goes) stops the search.
	Steps(s int32) (to, label []int32, lo, hi int32, err error)
	// Label returns what label a is to the specification: TauStep (the
	// pair keeps its subset), Foreign (a visible action the specification
	// has none of: it cannot follow), or the specification's key of a
	// visible action, as Subsets.After takes it. It is asked once a label.
	Label(a int32) uint64
}

// Renamer is the symmetry hook: an Impl that implements it gives as its
// states the representatives of their orbits under a symmetry (thread
// permutations) that the specification shares, a step entering the
// representative of the state it reaches; the subset a pair reaches by
// the step is then renamed by the permutation that took that state to its
// representative, so that a pair stands for the pairs of its orbit.
type Renamer interface {
	// Rename returns subset sub renamed by the permutation of step id of
	// the state Steps returned last.
	Rename(sub, id int32) (int32, error)
}

// The labels of steps that are no specification action.
const (
	// TauStep is the label of an invisible step.
	TauStep uint64 = math.MaxUint64
	// Foreign is the label of a visible step whose action the
	// specification does not have.
	Foreign uint64 = math.MaxUint64 - 1
)

// ExplicitImpl is the Impl of an LTS whose states are all known.
type ExplicitImpl struct {
	l *lts.LTS

	// label maps the LTS's label ids to what Label returns.
	label []uint64
}

// NewExplicitImpl returns the Impl of l, whose τ steps are TauSteps and
// whose visible labels are mapped to the specification's keys by spec: a
// label id of spec (an LTS's, as Explicit names them), or -1 for Foreign.
func NewExplicitImpl(l *lts.LTS, spec func(label int32) int32) *ExplicitImpl {
	x := &ExplicitImpl{l: l, label: make([]uint64, len(l.Labels))}
	for a := range x.label {
		switch k := spec(int32(a)); {
		case int32(a) == lts.Tau:
			x.label[a] = TauStep
		case k < 0:
			x.label[a] = Foreign
		default:
			x.label[a] = uint64(k)
		}
	}
	return x
}

// Initial implements Impl.
func (x *ExplicitImpl) Initial() int32 { return x.l.Initial }

// Steps implements Impl: the transitions of s, in the LTS's own arrays.
func (x *ExplicitImpl) Steps(s int32) (to, label []int32, lo, hi int32, err error) {
	return x.l.Dst, x.l.Label, x.l.Out[s], x.l.Out[s+1], nil
}

// Label implements Impl.
func (x *ExplicitImpl) Label(a int32) uint64 { return x.label[a] }
