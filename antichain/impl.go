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

// Ampler is the partial-order reduction's hook, for a search layered by
// steps (SearchOptions.BySteps): an Impl that implements it may name, for
// the state whose steps Steps returned last, an ample set — invisible
// steps (of one thread, in the semantics) independent of everything the
// other steps may still do — which a pair of that state may follow alone.
// The search follows it where the cycle proviso allows (runBySteps), so
// that every cycle of the reduced product has a pair that follows all its
// steps; frontend/reduce/por.go argues why the reduced product keeps the
// traces and the τ-cycles.
type Ampler interface {
	// Ample returns the ids of the steps of an ample set, among those
	// Steps returned last, in increasing order; none when the state has
	// no ample set. The slice is only read, until the next call.
	Ample() []int32
}

// Sparse is the hook of an implementation that numbers a state only when
// a pair takes it, not when a step reaches it, so that the states a
// reduced search steps over (a partial-order reduction's) cost nothing:
// Steps gives -1 as the state of a step whose state it has not numbered
// yet, and the search calls Store for such a step before it adds a pair
// by it. Layered by steps (SearchOptions.BySteps), the numbering is then
// the order in which pairs take the states, the on-the-fly route's;
// layered by visible actions, every state a step reaches is numbered
// when its source's steps are asked for.
type Sparse interface {
	// Store numbers the state that step id, among those Steps returned
	// last, enters, and returns its number; it gives that number, in the
	// slice of states Steps returned, to every step that enters it.
	Store(id int32) int32
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
