package onthefly

import (
	"fmt"
	"slices"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/frontend/semantics"
)

// semImpl is a program's implementation as the semantics gives it, read
// by the antichain search as an implicit LTS (antichain.Impl), with the
// on-the-fly search's own parts: its states are expanded by the search's
// first expander (flySearch.expand), stored in its state store
// (states.go) when a pair takes them (antichain.Sparse), as the search
// stores them, and, with the symmetry reduction, found through its cache
// of recent successors (flycache.go), filled with the steps of the state
// expanded before once its pairs have stored what they lead to. Its
// visible labels are the specification's keys (flySpec.specKey). With
// the symmetry reduction, its states are the representatives of their
// orbits and it renames the subsets with them (antichain.Renamer), taking
// the least of the renamings by a representative's stabiliser
// (flySearch.renamed); with the partial-order reduction, it names the
// ample thread's steps (antichain.Ampler). It keeps the τ-steps that the
// pairs follow in the search's τ-lists (antichain.Follower), for the
// cycle search. Its work is counted in the search's Stats: states
// expanded, successors, states represented.
type semImpl struct {
	f *flySearch
	// labelIDs numbers the label keys met, keys lists them.
	labelIDs map[semantics.LabelKey]int32
	keys     []semantics.LabelKey
	init     int32
	// to and label are Steps', ample Ample's; expanded holds the
	// expansion whose steps they are, for the cache (remember).
	to, label, ample []int32
	expanded         []*expansions
}

var (
	_ antichain.Impl     = (*semImpl)(nil)
	_ antichain.Sparse   = (*semImpl)(nil)
	_ antichain.Renamer  = (*semImpl)(nil)
	_ antichain.Ampler   = (*semImpl)(nil)
	_ antichain.Follower = (*semImpl)(nil)
)

// newSemImpl returns the implementation of search f, whose expanders are
// started (the first one reads it), and the subset of its initial pair.
func newSemImpl(f *flySearch) (*semImpl, int32, error) {
	init, sub, err := f.initial()
	if err != nil {
		return nil, antichain.NoSubset, err
	}
	m := &semImpl{f: f, labelIDs: map[semantics.LabelKey]int32{}, init: init, expanded: []*expansions{&f.scratch}}
	return m, sub, nil
}

// Initial implements antichain.Impl.
func (m *semImpl) Initial() int32 { return m.init }

// Steps implements antichain.Impl: a state's steps, named by their index
// among its successors; a successor not stored yet enters -1.
func (m *semImpl) Steps(s int32) (to, label []int32, lo, hi int32, err error) {
	f := m.f
	if f.cache != nil && len(f.succs) > 0 {
		for part := range f.cache {
			f.remember(part, m.expanded)
		}
		f.cache.fit(f.states.len())
	}
	if t, fail := f.expand(s); fail != nil {
		return nil, nil, 0, 0, &stepFailure{state: s, thread: t, fail: fail}
	}
	m.to, m.label, m.ample = m.to[:0], m.label[:0], m.ample[:0]
	for i := range f.succs {
		sc := &f.succs[i]
		if f.ample >= 0 && int(sc.thread) == f.ample {
			m.ample = append(m.ample, int32(i))
		}
		a, ok := m.labelIDs[sc.label]
		if !ok {
			a = int32(len(m.keys))
			m.labelIDs[sc.label] = a
			m.keys = append(m.keys, sc.label)
		}
		m.to, m.label = append(m.to, sc.to), append(m.label, a)
	}
	return m.to, m.label, 0, int32(len(m.to)), nil
}

// stepFailure is Steps' error when a state's expansion meets a model
// error: the state, the failing thread and the failure.
type stepFailure struct {
	state  int32
	thread int
	fail   *semantics.Failure
}

func (e *stepFailure) Error() string {
	return fmt.Sprintf("model error of thread %d: %s", e.thread+1, e.fail.Msg)
}

// Store implements antichain.Sparse: it stores the state of step id,
// counting its orbit, and gives its number to every step of Steps' that
// enters it.
func (m *semImpl) Store(id int32) int32 {
	f := m.f
	sc := &f.succs[id]
	v := f.succVec[sc.vecStart:sc.vecEnd]
	s, isNew := f.states.insert(v, sc.hash)
	if isNew {
		f.countOrbit(sc.stab, sc.exact)
	}
	for j := range f.succs {
		if o := &f.succs[j]; o.to < 0 && o.hash == sc.hash && slices.Equal(f.succVec[o.vecStart:o.vecEnd], v) {
			o.to, m.to[j] = s, s
		}
	}
	return s
}

// Rename implements antichain.Renamer.
func (m *semImpl) Rename(sub, id int32) (int32, error) {
	sub, _, _ = m.f.renamed(sub, &m.f.succs[id], m.f.alts, false)
	return sub, nil
}

// Ample implements antichain.Ampler: the ample thread's steps.
func (m *semImpl) Ample() []int32 { return m.ample }

// Followed implements antichain.Follower: it keeps the τ-steps that the
// pairs of state st followed, all of them or the ample thread's, in the
// search's τ-lists (taulists.go), for its cycle search.
func (m *semImpl) Followed(st int32, all bool) error {
	m.f.followedAll = all
	return m.f.keepTau(st)
}

// Label implements antichain.Impl: the calls and returns as the
// specification's keys, the rest as τ.
func (m *semImpl) Label(a int32) uint64 {
	if k := m.keys[a]; isVisible(k) {
		return uint64(m.f.spec.specKey(k))
	}
	return antichain.TauStep
}

// states returns the number of states stored.
func (m *semImpl) states() int { return m.f.states.len() }
