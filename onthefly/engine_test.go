package onthefly

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/explore"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/reduce"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/refine"
)

// semImpl is a program's implementation as the semantics gives it, read
// by the antichain search as an implicit LTS (antichain.Impl): its states
// are numbered when a pair takes them (antichain.Sparse), as the
// on-the-fly route's search numbers them, and its visible labels are the
// specification's keys (flySpec.specKey). With the symmetry reduction, its
// states are the representatives of their orbits and it renames the
// subsets with them (antichain.Renamer), taking the least of the renamings
// by a representative's stabiliser; with the partial-order reduction
// (por), it names the ample thread's steps (antichain.Ampler). Its steps
// are found by an expander of the on-the-fly search's (e), and renamed as
// that search renames them (flySearch.renamed, over f's specification,
// symmetry and permutations).
type semImpl struct {
	f     *flySearch
	e     *expander
	por   *reduce.POR
	ample []int32 // the ample steps of the state Steps expanded last
	// succs are Steps' steps' permutations to their representatives and
	// their alternatives (alts), as renamed reads them.
	succs []flySucc
	alts  []uint16
	// ids numbers the states by their encodings, encs lists them;
	// pending[i] is the encoding of Steps' step i, whose state is to[i]
	// (-1 until Store numbers it).
	ids     map[string]int32
	encs    []string
	pending []string
	init    int32
	// labelIDs numbers the label keys met, keys lists them.
	labelIDs  map[semantics.LabelKey]int32
	keys      []semantics.LabelKey
	to, label []int32 // Steps'
	cur       []int32
	enc       []byte
}

// newSemImpl returns the implementation x against spec, reduced by sym
// (nil: not), and the permutation that takes its initial state to its
// representative.
func newSemImpl(x *semantics.System, spec *flySpec, sym *reduce.Symmetry) (*semImpl, uint16, error) {
	f := &flySearch{x: x, spec: spec, sym: sym}
	f.perms.intern(identity(x.Bounds.Threads))
	m := &semImpl{f: f, e: &expander{f: f, st: x.NewStepper(), sym: sym, permIDs: map[string]uint16{}},
		ids: map[string]int32{}, labelIDs: map[semantics.LabelKey]int32{}}
	init, err := x.InitialState()
	if err != nil {
		return nil, 0, err
	}
	rep, perm := m.e.representative(semantics.Encode(nil, init))
	m.init = m.state(string(semantics.Encode(nil, rep)))
	return m, perm, nil
}

// Rename implements antichain.Renamer.
func (m *semImpl) Rename(sub, id int32) (int32, error) {
	sub, _, _ = m.f.renamed(sub, &m.succs[id], m.alts, false)
	return sub, nil
}

// state returns the id of the state encoded as enc, adding it if new.
func (m *semImpl) state(enc string) int32 {
	id, ok := m.ids[enc]
	if !ok {
		id = int32(len(m.encs))
		m.ids[enc] = id
		m.encs = append(m.encs, enc)
	}
	return id
}

// Store implements antichain.Sparse: it numbers the state of step id,
// and gives its number to every step of Steps' that enters it.
func (m *semImpl) Store(id int32) int32 {
	s := m.state(m.pending[id])
	for j, enc := range m.pending {
		if m.to[j] < 0 && enc == m.pending[id] {
			m.to[j] = s
		}
	}
	return s
}

func (m *semImpl) Initial() int32 { return m.init }

// Steps names a state's steps by their index among its successors.
func (m *semImpl) Steps(s int32) (to, label []int32, lo, hi int32, err error) {
	m.cur = semantics.Decode(m.cur[:0], []byte(m.encs[s]))
	t, fail := m.e.st.Successors(m.cur)
	if fail != nil {
		return nil, nil, 0, 0, fmt.Errorf("model error of thread %d: %s", t+1, fail.Msg)
	}
	blk := &m.e.st.Blk
	m.ample = m.ample[:0]
	if m.por != nil {
		if t := m.por.Choose(m.cur, blk.Succs); t >= 0 {
			for i := range blk.Succs {
				if int(blk.Succs[i].Thread) == t {
					m.ample = append(m.ample, int32(i))
				}
			}
		}
	}
	m.to, m.label, m.succs, m.alts, m.pending = m.to[:0], m.label[:0], m.succs[:0], m.alts[:0], m.pending[:0]
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		rep, perm := m.e.representative(blk.Batch[sc.Start:sc.End])
		altStart := int32(len(m.alts))
		m.alts, _, _ = m.e.stabilizer(m.e.sigma, m.alts)
		m.succs = append(m.succs, flySucc{perm: perm, altStart: altStart, altEnd: int32(len(m.alts))})
		m.enc = semantics.Encode(m.enc[:0], rep)
		id, ok := m.ids[string(m.enc)]
		if !ok {
			id = -1
		}
		m.to = append(m.to, id)
		m.pending = append(m.pending, string(m.enc))
		a, ok := m.labelIDs[sc.Label]
		if !ok {
			a = int32(len(m.keys))
			m.labelIDs[sc.Label] = a
			m.keys = append(m.keys, sc.Label)
		}
		m.label = append(m.label, a)
	}
	return m.to, m.label, 0, int32(len(m.to)), nil
}

// Ample implements antichain.Ampler: the ample thread's steps.
func (m *semImpl) Ample() []int32 { return m.ample }

// Label gives the calls and returns as the specification's keys, the
// rest as τ.
func (m *semImpl) Label(a int32) uint64 {
	if k := m.keys[a]; isVisible(k) {
		return uint64(m.f.spec.specKey(k))
	}
	return antichain.TauStep
}

// engineOnSemantics runs the antichain search (refine's engine) over the
// semantics of prog under b, implementation and specification both
// implicit: the on-the-fly route's systems; layered by steps with
// bySteps, as the on-the-fly route's search is (going on past a
// violation, as that search does by default), with the symmetry
// reduction where r asks for it and the model has it (reduced says so),
// and with the partial-order reduction where r asks for it.
func engineOnSemantics(prog *check.Program, b ir.Bounds, o semantics.Options, bySteps bool, r Reductions) (s *antichain.Search, m *semImpl, holds, reduced bool, err error) {
	impl, err := semantics.NewSystem(prog, prog.Impl, b, o)
	if err != nil {
		return nil, nil, false, false, err
	}
	specSys, err := semantics.NewSystem(prog, prog.Spec, b, o)
	if err != nil {
		return nil, nil, false, false, err
	}
	spec, err := newFlySpec(specSys, impl.Program)
	if err != nil {
		return nil, nil, false, false, err
	}
	var sym *reduce.Symmetry
	if r.Symmetry {
		implSym, _ := reduce.NewSymmetry(impl.Program, b)
		specSym, _ := reduce.NewSymmetry(specSys.Program, b)
		if implSym != nil && specSym != nil {
			sym, spec.sym, reduced = implSym, specSym, true
		}
	}
	init, err := spec.initial()
	if err != nil {
		return nil, nil, false, false, err
	}
	m, perm, err := newSemImpl(impl, spec, sym)
	if err != nil {
		return nil, nil, false, false, err
	}
	init, _ = spec.permute(init, perm, &m.f.perms, false)
	if r.PartialOrder {
		m.por = reduce.NewPOR(impl.Program, b, impl.Allowed, impl.Options.Explicit)
	}
	s = antichain.NewSearch(m, spec.subsets, 0, antichain.SearchOptions{Prune: true, BySteps: bySteps, Past: bySteps, MaxPairs: 1 << 30})
	pair, _, err := s.Run(init)
	return s, m, pair < 0, reduced, err
}

// TestOneEngineForBothRoutes runs the antichain search that refine runs
// on explicit LTSs (antichain.Search over antichain.ExplicitImpl) over
// the semantics the on-the-fly route reads (semImpl, flySpec), on the
// bundled models and on random programs. Layered by visible actions, it
// is held to refine.Check on the full LTSs: the same verdict, the same
// layer depth (the violation's number of visible actions, or the longest
// trace's) and the same pairs — the two searches meet the same pairs in
// the same order, the states named differently; over the semantics the
// search finds pairs by their states' chains, as the on-the-fly route
// does, not by refine's index. Layered by steps and going on past a
// violation, it is held to Check, unreduced, with the symmetry reduction
// (semImpl as antichain.Renamer), with the partial-order reduction
// (antichain.Ampler) and with both: the same verdict, the same states (both number a
// state when a pair takes it: antichain.Sparse), a counterexample of as
// many steps, the same pairs, the same pairs dominated in their level and
// not followed (dominance.go), and the same ample sets.
func TestOneEngineForBothRoutes(t *testing.T) {
	type input struct {
		name string
		prog *check.Program
		b    ir.Bounds
	}
	var inputs []input
	files, err := filepath.Glob("../frontend/examples/*.lin")
	require.NoError(t, err)
	for _, file := range files {
		inputs = append(inputs, input{filepath.Base(file), checkedFile(t, file), ir.Bounds{Threads: 2, Ops: 1, Values: []int{1}}})
	}
	for seed := range testsize.Count(60, 200) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 36)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := frontend.Parse(name, []byte(p.Source))
		require.NoError(t, err, name)
		inputs = append(inputs, input{name, m.Program, m.DefaultBounds()})
	}
	var fails, refines, symmetric int
	var ample, dominated int64
	for _, in := range inputs {
		o := semantics.Options{MaxStates: 200_000, Workers: 1}
		implLTS, err := explore.Explore(in.prog, in.prog.Impl, in.b, o)
		if err != nil {
			continue // model errors: the routes report them differently
		}
		specLTS, err := explore.Explore(in.prog, in.prog.Spec, in.b, o)
		require.NoError(t, err, in.name)
		want, err := refine.Check(implLTS, specLTS, refine.Options{Antichain: true})
		require.NoError(t, err, in.name)
		got, _, holds, _, err := engineOnSemantics(in.prog, in.b, o, false, Reductions{})
		require.NoError(t, err, in.name)
		what := fmt.Sprintf("%s %v", in.name, in.b)
		assert.Equal(t, want.Refines, holds, what)
		assert.Equal(t, want.Stats.Depth, got.Depth, what)
		assert.Equal(t, want.Stats.Pairs, int64(got.Pairs.Len()), what)
		// Without the index, a pair killed and met again counts as subsumed.
		assert.LessOrEqual(t, want.Stats.Subsumed, got.Pairs.Subsumed, what)
		// Check as it runs by default: both follow only the least pairs of
		// a state's pairs of a level (dominance.go, Search.Dominated).
		fly, err := Check(in.prog, in.b, Options{Options: o})
		require.NoError(t, err, what)
		assert.Equal(t, want.Refines, fly.Refines, what)
		for _, r := range []Reductions{{}, {Symmetry: true}, {PartialOrder: true}, {Symmetry: true, PartialOrder: true}} {
			steps, m, holds, reduced, err := engineOnSemantics(in.prog, in.b, o, true, r)
			require.NoError(t, err, what)
			fly := fly
			if r != (Reductions{}) {
				if fly, err = Check(in.prog, in.b, Options{Options: o, Reductions: r}); !assert.NoError(t, err, what) {
					continue
				}
				assert.Equal(t, fly.Symmetric, reduced, what)
				symmetric += btoi(reduced)
			}
			run := fmt.Sprintf("%s by steps, %+v", what, r)
			assert.Equal(t, fly.Refines, holds, run)
			// Both store a pair once, even when two steps of a state
			// enter the same new state, and under symmetry keep the least
			// of a stabiliser's renamings.
			assert.Equal(t, fly.Stats.Pairs, int64(steps.Pairs.Len()), run)
			assert.Equal(t, fly.Stats.Dominated, steps.Dominated, "dominated: %s", run)
			dominated += steps.Dominated
			if r.PartialOrder {
				// The same ample sets, refused by the proviso alike.
				assert.Equal(t, [3]int64{fly.Stats.Ample, fly.Stats.Full, fly.Stats.ProvisoFull},
					[3]int64{steps.Ample, steps.Full, steps.ProvisoFull}, "ample, full, proviso: %s", run)
				ample += steps.Ample
			}
			assert.Equal(t, fly.Stats.States, int64(len(m.encs)), "states: %s", run)
			if !fly.Refines {
				assert.Len(t, fly.Counterexample.Steps, steps.ViolationDepth+1, "counterexample: %s", run)
			}
		}
		if holds {
			refines++
		} else {
			fails++
		}
	}
	t.Logf("%d inputs: %d refine, %d fail, %d symmetric, %d pairs followed an ample set, %d dominated in their level", len(inputs), refines, fails, symmetric, ample, dominated)
	assert.Positive(t, symmetric)
	assert.Positive(t, ample)
	assert.Positive(t, dominated)
	assert.Positive(t, refines)
	assert.Positive(t, fails)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
