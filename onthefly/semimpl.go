package onthefly

import (
	"fmt"
	"slices"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/limits"
)

// semImpl is a program's implementation as the semantics gives it, read
// by the antichain search as an implicit LTS (antichain.Impl), with the
// on-the-fly search's own parts. Told a level's order (antichain.Leveler),
// it expands the level's states in batches on the search's expanders
// (workers.go): a batch resolved on every core
// (its successors looked up, and what each pair's steps lead to worked
// out, which it gives the engine through antichain.Foresight) while the
// next is expanded on the other cores; outside a level (a search layered
// by visible actions, rebuilt paths) it expands a state on its own on the
// first expander (flySearch.expand). A successor's state is stored in the
// search's state store when a pair takes it (antichain.Sparse), and, with
// the symmetry reduction, found through the cache of recent successors
// (flycache.go). Its visible labels are the specification's keys
// (flySpec.specKey). With the symmetry reduction, its states are the
// representatives of their orbits and it renames the subsets with them
// (antichain.Renamer), taking the least of the renamings by a
// representative's stabiliser (flySearch.renamed); with the partial-order
// reduction, it names the ample thread's steps (antichain.Ampler). It
// keeps the τ-steps that the pairs follow in the search's τ-lists
// (antichain.Follower), for the cycle search; the engine keeps its pairs
// in the search's records (pairRecords, which note the states paired
// since the batch was resolved: sinceBatch). Its work is counted in the
// search's Stats: states expanded, successors, states represented.
type semImpl struct {
	f *flySearch
	// labelIDs numbers the visible label keys met, keys lists them
	// after the invisible labels' id (tauLabel); recent remembers the
	// ids of recent keys, by their hashes (labelID).
	labelIDs map[semantics.LabelKey]int32
	recent   [256]recentLabel
	keys     []semantics.LabelKey
	init     int32
	// to and label are Steps', ample Ample's; expanded holds the
	// expansion whose steps they are, for the cache (remember).
	to, label, ample []int32
	expanded         []*expansions
	// With a level's order (Level), its states are expanded in batches
	// on the search's expanders (workers.go): runs delimit the order's states, lo is the level's
	// first pair, batch the batch being followed (-1 before the first),
	// state the index in the level of the state Steps serves next,
	// ahead the run expanding the next batch, pre what the expanders
	// worked out for the pairs of the state Steps served last (n steps
	// each).
	order []uint64
	runs  []int32
	lo    int32
	batch int
	state int
	ahead *running
	pre   []flyPre
	n     int
}

var (
	_ antichain.Impl      = (*semImpl)(nil)
	_ antichain.Sparse    = (*semImpl)(nil)
	_ antichain.Renamer   = (*semImpl)(nil)
	_ antichain.Ampler    = (*semImpl)(nil)
	_ antichain.Follower  = (*semImpl)(nil)
	_ antichain.Leveler   = (*semImpl)(nil)
	_ antichain.Foresight = (*semImpl)(nil)
)

// newSemImpl returns the implementation of search f, whose expanders are
// started (the first one reads it), and the subset of its initial pair.
func newSemImpl(f *flySearch) (*semImpl, int32, error) {
	init, sub, err := f.initial()
	if err != nil {
		return nil, antichain.NoSubset, err
	}
	f.pairRecords.since = &f.since
	m := &semImpl{f: f, labelIDs: map[semantics.LabelKey]int32{}, keys: []semantics.LabelKey{0}, init: init, expanded: []*expansions{&f.scratch}}
	return m, sub, nil
}

// Initial implements antichain.Impl.
func (m *semImpl) Initial() int32 { return m.init }

// Steps implements antichain.Impl: a state's steps, named by their index
// among its successors; a successor not stored yet enters -1.
func (m *semImpl) Steps(s int32) (to, label []int32, lo, hi int32, err error) {
	f := m.f
	if m.order != nil {
		return m.batched(s)
	}
	if f.cache != nil && len(f.succs) > 0 {
		for part := range f.cache {
			f.remember(part, m.expanded)
		}
		f.cache.fit(f.states.len())
	}
	if t, fail := f.expand(s); fail != nil {
		return nil, nil, 0, 0, &stepFailure{state: s, thread: t, fail: fail}
	}
	return m.steps()
}

// steps returns the steps of the expansion in use (flySearch.use).
func (m *semImpl) steps() (to, label []int32, lo, hi int32, err error) {
	// In locals, as m's fields are in the heap: no write barrier a step.
	succs, thread := m.f.succs, m.f.ample
	n := len(succs)
	to, label, ample := slices.Grow(m.to[:0], n)[:n], slices.Grow(m.label[:0], n)[:n], m.ample[:0]
	for i := range succs {
		sc := &succs[i]
		to[i] = sc.to
		a := int32(tauLabel)
		if isVisible(sc.label) {
			a = m.labelID(sc.label)
		}
		label[i] = a
		if thread >= 0 && int(sc.thread) == thread {
			ample = append(ample, int32(i))
		}
	}
	m.to, m.label, m.ample = to, label, ample
	return to, label, 0, int32(n), nil
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

// tauLabel is the id of every invisible label: most steps are τ-steps,
// which need no lookup.
const tauLabel = 0

// recentLabel is a label key and its id+1 (semImpl.recent; 0: empty).
type recentLabel struct {
	key semantics.LabelKey
	id1 int32
}

// labelID returns the id of label key k, numbering it if new: a model has
// a few hundred labels, met millions of times, so the ids of recent keys
// are found by their hashes before the map is asked.
func (m *semImpl) labelID(k semantics.LabelKey) int32 {
	r := &m.recent[uint64(k)*0x9e3779b97f4a7c15>>56]
	if r.key == k && r.id1 > 0 {
		return r.id1 - 1
	}
	a, ok := m.labelIDs[k]
	if !ok {
		a = int32(len(m.keys))
		m.labelIDs[k] = a
		m.keys = append(m.keys, k)
	}
	*r = recentLabel{key: k, id1: a + 1}
	return a
}

// Level implements antichain.Leveler: the level's states are expanded in
// batches on the expanders, the first one now (workers.go): the cache of recent successors filled with the
// last batch of the level before, and fitted to the states stored.
func (m *semImpl) Level(order []uint64, lo int32) error {
	f := m.f
	m.halt()
	if m.order != nil && f.cache != nil {
		last := f.chunks[(len(f.bounds)-2)%2][:f.nchunks[(len(f.bounds)-2)%2]]
		f.onExpanders(len(f.cache), func(_ *expander, part int) { f.remember(part, last) }, nil)
	}
	f.cache.fit(f.states.len())
	m.order, m.lo, m.batch, m.state = order, lo, -1, 0
	m.runs = stateRuns(m.runs[:0], order)
	f.cutLevel(len(m.runs) - 1)
	f.useSet(0, f.batch(m.runs, 0))
	f.onExpanders(f.nchunks[0], func(e *expander, c int) {
		r := chunkRuns(f.batch(m.runs, 0), c)
		e.load(f.chunks[0][c], order, r)
		e.expandChunk(f.chunks[0][c], order, r)
	}, nil)
	return nil
}

// done ends the batches once the search is over: the expansion under
// way stopped, a state's steps found on their own from then on (for
// rebuilt paths).
func (m *semImpl) done() {
	m.halt()
	m.order = nil
}

// halt stops the expansion of the next batch, if one is under way.
func (m *semImpl) halt() {
	if m.ahead != nil {
		m.ahead.join(true)
		m.ahead = nil
	}
}

// batched is Steps over a level's batches: at a batch's first state, the
// expansion of the batch is completed, the batch resolved and the next
// one's expansion started on the other expanders, which the follower
// joins when it reaches the batch after (workers.go).
func (m *semImpl) batched(s int32) (to, label []int32, lo, hi int32, err error) {
	f := m.f
	if m.batch+1 < len(f.bounds)-1 && m.state == f.bounds[m.batch+1] {
		i, nb := m.batch+1, len(f.bounds)-1
		if m.ahead != nil {
			m.ahead.join(false)
			m.ahead = nil
		}
		f.resolve(m.order, m.runs, m.lo, i, nb)
		if i+1 < nb {
			next, k := f.batch(m.runs, i+1), i%2
			m.ahead = f.startOthers(chunkCount(next), func(e *expander, c int) {
				e.expandChunk(f.chunks[1-k][c], m.order, chunkRuns(next, c))
			}, false)
		}
		m.batch = i
	}
	at := m.state - f.bounds[m.batch]
	x := f.chunks[m.batch%2][at/chunkStates]
	ex := &x.states[at%chunkStates]
	m.state++
	if ex.state != s {
		return nil, nil, 0, 0, fmt.Errorf("internal error: state %d asked for where state %d was expanded", s, ex.state)
	}
	if f.res.Stats.Expanded&(1<<12-1) == 0 {
		if f.o.Progress != nil && f.res.Stats.Expanded&0x3fff == 0 {
			f.o.Progress.Report("product pairs", int64(f.subset.Len()), "state pairs")
		}
		if err := limits.Err(f.o.Context); err != nil {
			return nil, nil, 0, 0, err
		}
	}
	f.use(x, ex)
	if ex.fail != nil {
		return nil, nil, 0, 0, &stepFailure{state: s, thread: ex.failThread, fail: ex.fail}
	}
	f.findNew()
	m.n = len(f.succs)
	// The table of states grows here, where the search can stop, rather
	// than in the insertion of a successor: it polls the context.
	if err := f.states.reserve(f.o.Context, m.n); err != nil {
		return nil, nil, 0, 0, err
	}
	m.pre = x.pre[ex.pre:][:int(ex.end-ex.first)*m.n]
	return m.steps()
}

// Foreseen implements antichain.Foresight: what the expanders worked out
// for the state's g-th pair of the level and successor id (flyPre), the
// lookup among the pairs stored before the batch was resolved; past
// every pair when the successor's state has none stored since
// (sinceBatch).
func (m *semImpl) Foreseen(g int, id int32) (sub int32, violates bool, same int32, covered bool, since int32, ok bool) {
	if m.order == nil {
		return 0, false, -1, false, 0, false
	}
	pr := &m.pre[g*m.n+int(id)]
	if !pr.ok {
		return 0, false, -1, false, 0, false
	}
	since = antichain.NoneSince // no pair of the state stored since
	if d := m.to[id]; d >= 0 && m.f.since.touched.has(int(d)) {
		since = m.f.since.pairs
	}
	return pr.sub, pr.violates, pr.same, pr.covered, since, true
}

// Store implements antichain.Sparse: it stores the state of step id,
// counting its orbit, and gives its number to every step of Steps' that
// enters it.
func (m *semImpl) Store(id int32) int32 {
	f := m.f
	sc := &f.succs[id]
	v := f.succVec[sc.vecStart:sc.vecEnd]
	f.insertSucc(sc)
	s := sc.to
	m.to[id] = s
	for j, d := range m.to { // the steps not numbered yet, as the step's was
		if o := &f.succs[j]; d < 0 && o.hash == sc.hash && slices.Equal(f.succVec[o.vecStart:o.vecEnd], v) {
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
