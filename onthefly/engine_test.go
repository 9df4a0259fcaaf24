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
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/refine"
)

// semImpl is a program's implementation as the semantics gives it,
// unreduced, read by the antichain search as an implicit LTS
// (antichain.Impl): its states are interned as the search reaches them,
// and its visible labels are the specification's keys (flySpec.specKey).
type semImpl struct {
	st   *semantics.Stepper
	set  *semantics.StateSet
	offs []uint64
	spec *flySpec
	init int32
	// labelIDs numbers the label keys met, keys lists them.
	labelIDs  map[semantics.LabelKey]int32
	keys      []semantics.LabelKey
	to, label []int32 // Steps'
	cur       []int32
	enc       []byte
}

func newSemImpl(x *semantics.System, spec *flySpec) (*semImpl, error) {
	m := &semImpl{st: x.NewStepper(), set: semantics.NewStateSet(), spec: spec, labelIDs: map[semantics.LabelKey]int32{}}
	init, err := x.InitialState()
	if err != nil {
		return nil, err
	}
	m.init = m.state(init)
	return m, nil
}

// state returns the id of a state, adding it if new.
func (m *semImpl) state(v []int32) int32 {
	m.enc = semantics.Encode(m.enc[:0], v)
	id, isNew := m.set.Insert(m.enc, m.set.Hash(m.enc))
	if isNew {
		m.offs = append(m.offs, m.set.LastOffset())
	}
	return id
}

func (m *semImpl) Initial() int32 { return m.init }

// Steps names a state's steps by their index among its successors.
func (m *semImpl) Steps(s int32) (to, label []int32, lo, hi int32, err error) {
	m.cur = semantics.Decode(m.cur[:0], m.set.Encoding(m.offs[s]))
	t, fail := m.st.Successors(m.cur)
	if fail != nil {
		return nil, nil, 0, 0, fmt.Errorf("model error of thread %d: %s", t+1, fail.Msg)
	}
	blk := &m.st.Blk
	m.to, m.label = m.to[:0], m.label[:0]
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		m.cur = semantics.Decode(m.cur[:0], blk.Batch[sc.Start:sc.End])
		m.to = append(m.to, m.state(m.cur))
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

// Label gives the calls and returns as the specification's keys, the
// rest as τ.
func (m *semImpl) Label(a int32) uint64 {
	if k := m.keys[a]; isVisible(k) {
		return uint64(m.spec.specKey(k))
	}
	return antichain.TauStep
}

// engineOnSemantics runs the antichain search (refine's engine) over the
// semantics of prog under b, implementation and specification both
// implicit: the on-the-fly route's systems; layered by steps with
// bySteps, as the on-the-fly route's search is.
func engineOnSemantics(prog *check.Program, b ir.Bounds, o semantics.Options, bySteps bool) (*antichain.Search, *semImpl, bool, error) {
	impl, err := semantics.NewSystem(prog, prog.Impl, b, o)
	if err != nil {
		return nil, nil, false, err
	}
	specSys, err := semantics.NewSystem(prog, prog.Spec, b, o)
	if err != nil {
		return nil, nil, false, err
	}
	spec, err := newFlySpec(specSys, impl.Program)
	if err != nil {
		return nil, nil, false, err
	}
	init, err := spec.initial()
	if err != nil {
		return nil, nil, false, err
	}
	m, err := newSemImpl(impl, spec)
	if err != nil {
		return nil, nil, false, err
	}
	s := antichain.NewSearch(m, spec.subsets, 0, antichain.SearchOptions{Prune: true, BySteps: bySteps, MaxPairs: 1 << 30})
	pair, _, err := s.Run(init)
	return s, m, pair < 0, err
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
// does, not by refine's index. Layered by steps, it is held to Check
// (unreduced, stopping at the first violation): the same verdict, the
// same states, a counterexample of as many steps, and no more pairs.
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
	for seed := range testsize.Count(60, 300) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 36)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := frontend.Parse(name, []byte(p.Source))
		require.NoError(t, err, name)
		inputs = append(inputs, input{name, m.Program, m.DefaultBounds()})
	}
	var fails, refines int
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
		got, _, holds, err := engineOnSemantics(in.prog, in.b, o, false)
		require.NoError(t, err, in.name)
		what := fmt.Sprintf("%s %v", in.name, in.b)
		assert.Equal(t, want.Refines, holds, what)
		assert.Equal(t, want.Stats.Depth, got.Depth, what)
		assert.Equal(t, want.Stats.Pairs, int64(got.Pairs.Len()), what)
		// Without the index, a pair killed and met again counts as subsumed.
		assert.LessOrEqual(t, want.Stats.Subsumed, got.Pairs.Subsumed, what)
		fly, err := Check(in.prog, in.b, Options{Options: o, FirstViolation: true})
		require.NoError(t, err, what)
		assert.Equal(t, want.Refines, fly.Refines, what)
		steps, m, holds, err := engineOnSemantics(in.prog, in.b, o, true)
		require.NoError(t, err, what)
		assert.Equal(t, fly.Refines, holds, what)
		// Check stores a pair twice when two steps of a state lead to the
		// same new state (path.go), the engine once.
		assert.LessOrEqual(t, int64(steps.Pairs.Len()), fly.Stats.Pairs, "pairs by steps: %s", what)
		if fly.Refines {
			assert.Equal(t, fly.Stats.States, int64(len(m.offs)), "states by steps: %s", what)
		} else {
			assert.Len(t, fly.Counterexample.Steps, steps.Depth+1, "counterexample by steps: %s", what)
		}
		if holds {
			refines++
		} else {
			fails++
		}
	}
	t.Logf("%d inputs: %d refine, %d fail", len(inputs), refines, fails)
	assert.Positive(t, refines)
	assert.Positive(t, fails)
}
