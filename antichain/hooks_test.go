package antichain_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// sparseLTS is an LTS read as an implementation that numbers a state only
// when the search asks (antichain.Sparse), and that may name an ample set
// of each state's steps (antichain.Ampler, from ample: LTS state → its
// ample transitions).
type sparseLTS struct {
	*antichain.ExplicitImpl
	l     *lts.LTS
	num   map[int32]int32 // LTS state → number
	of    []int32         // number → LTS state
	to    []int32         // per transition of the state Steps read last: its number or -1
	at    int32           // that state, in the LTS
	ample map[int32][]int32
}

func newSparseLTS(l *lts.LTS, x *antichain.ExplicitImpl) *sparseLTS {
	m := &sparseLTS{ExplicitImpl: x, l: l, num: map[int32]int32{}, to: make([]int32, len(l.Dst))}
	m.number(l.Initial)
	return m
}

func (m *sparseLTS) number(s int32) int32 {
	n, ok := m.num[s]
	if !ok {
		n = int32(len(m.of))
		m.num[s] = n
		m.of = append(m.of, s)
	}
	return n
}

func (m *sparseLTS) Initial() int32 { return 0 }

func (m *sparseLTS) Steps(s int32) (to, label []int32, lo, hi int32, err error) {
	m.at = m.of[s]
	lo, hi = m.l.Out[m.at], m.l.Out[m.at+1]
	for t := lo; t < hi; t++ {
		m.to[t] = -1
		if n, ok := m.num[m.l.Dst[t]]; ok {
			m.to[t] = n
		}
	}
	return m.to, m.l.Label, lo, hi, nil
}

func (m *sparseLTS) Store(id int32) int32 {
	n := m.number(m.l.Dst[id])
	for t := m.l.Out[m.at]; t < m.l.Out[m.at+1]; t++ {
		if m.l.Dst[t] == m.l.Dst[id] {
			m.to[t] = n
		}
	}
	return n
}

func (m *sparseLTS) Ample() []int32 { return m.ample[m.at] }

// TestSparseStates holds the search over an implementation that numbers
// its states as the search takes them (antichain.Sparse) to the search
// over the same LTS read in place, on random LTS pairs: layered by visible
// actions, the same pairs; layered by steps, the same verdict and
// violation depth, and past the violation every reachable state numbered
// and paired.
func TestSparseStates(t *testing.T) {
	for seed := range uint64(testsize.Count(300, 3000)) {
		rng := rand.New(rand.NewPCG(seed, 37))
		impl, spec := randomPair(rng)
		labelOf := labelsIn(impl, spec)
		for _, opts := range []antichain.SearchOptions{{Prune: true}, {Prune: true, BySteps: true, Past: true}} {
			opts.MaxPairs = 1 << 20
			what := fmt.Sprintf("seed %d %+v", seed, opts)
			run := func(x antichain.Impl) (*antichain.Search, int32) {
				norm := antichain.NewSubsets(antichain.NewExplicit(spec), !opts.BySteps)
				init, err := norm.Closure([]int32{spec.Initial})
				require.NoError(t, err)
				s := antichain.NewSearch(x, norm, 0, opts)
				pair, _, err := s.Run(init)
				require.NoError(t, err, what)
				return s, pair
			}
			want, wantPair := run(antichain.NewExplicitImpl(impl, labelOf))
			sparse := newSparseLTS(impl, antichain.NewExplicitImpl(impl, labelOf))
			got, gotPair := run(sparse)
			require.Equal(t, wantPair < 0, gotPair < 0, what)
			if !opts.BySteps {
				require.Equal(t, want.Pairs.Len(), got.Pairs.Len(), what)
				require.Equal(t, want.Depth, got.Depth, what)
				continue
			}
			require.Equal(t, want.ViolationDepth, got.ViolationDepth, what)
			require.Len(t, sparse.of, reachableStates(impl), what)
			paired := map[int32]bool{}
			for _, s := range got.Pairs.State {
				paired[s] = true
			}
			require.Len(t, paired, len(sparse.of), "%s: a state numbered only when paired", what)
		}
	}
}

// TestCycleProviso runs the search with the partial-order hook on an
// implementation whose two states each have an ample τ-step to the other
// and a visible step the specification lacks: following the ample steps
// alone around the cycle would never take it. The proviso refuses the
// ample set of the pair that closes the cycle, which then follows every
// step and finds the violation.
func TestCycleProviso(t *testing.T) {
	b := lts.NewBuilder()
	b.SetNumStates(4)
	b.AddTransition(0, lts.Tau, 1)
	b.AddTransition(0, b.Label("a"), 2)
	b.AddTransition(1, lts.Tau, 0)
	b.AddTransition(1, b.Label("a"), 3)
	impl := b.Build()
	sb := lts.NewBuilder()
	sb.SetNumStates(1)
	sb.AddTransition(0, sb.Label("b"), 0)
	spec := sb.Build()
	x := antichain.NewExplicitImpl(impl, labelsIn(impl, spec))
	m := newSparseLTS(impl, x)
	m.ample = map[int32][]int32{}
	for s := range impl.NumStates {
		for t := impl.Out[s]; t < impl.Out[s+1]; t++ {
			if impl.Label[t] == lts.Tau {
				m.ample[s] = append(m.ample[s], t)
			}
		}
	}
	norm := antichain.NewSubsets(antichain.NewExplicit(spec), false)
	init, err := norm.Closure([]int32{spec.Initial})
	require.NoError(t, err)
	s := antichain.NewSearch(m, norm, 0, antichain.SearchOptions{Prune: true, BySteps: true, MaxPairs: 100})
	pair, step, err := s.Run(init)
	require.NoError(t, err)
	require.GreaterOrEqual(t, pair, int32(0), "the violation is found")
	require.Equal(t, "a", impl.LabelName(step))
	require.Equal(t, []int64{1, 1, 1}, []int64{s.Ample, s.Full, s.ProvisoFull}, "ample, full, refused by the proviso")
}

// TestDominatedInLevel runs the search layered by steps on an
// implementation whose state 3 is reached at level 2 by a then τ and by b
// then τ; the specification can do a to two states and b to one of them,
// so the pair reached through a, stored first, has a subset that strictly
// includes the other's: it is dominated in its level and not followed,
// and its c-step's pair (state 4 with both c-successors) is never stored.
// Without the rule (SearchOptions.FollowDominated) the search stores 7
// pairs (8 going on past the violation); with it, 6 (7), and the same violation, the d-step the
// specification lacks, at the same level.
func TestDominatedInLevel(t *testing.T) {
	b := lts.NewBuilder()
	b.SetNumStates(6)
	b.AddTransition(0, b.Label("a"), 1)
	b.AddTransition(0, b.Label("b"), 2)
	b.AddTransition(1, lts.Tau, 3)
	b.AddTransition(2, lts.Tau, 3)
	b.AddTransition(3, b.Label("c"), 4)
	b.AddTransition(4, b.Label("d"), 5)
	impl := b.Build()
	sb := lts.NewBuilder()
	sb.SetNumStates(5)
	sb.AddTransition(0, sb.Label("a"), 1)
	sb.AddTransition(0, sb.Label("a"), 2)
	sb.AddTransition(0, sb.Label("b"), 1)
	sb.AddTransition(1, sb.Label("c"), 3)
	sb.AddTransition(2, sb.Label("c"), 4)
	spec := sb.Build()
	labelOf := labelsIn(impl, spec)
	for _, c := range []struct{ past, all bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		past := c.past
		norm := antichain.NewSubsets(antichain.NewExplicit(spec), false)
		init, err := norm.Closure([]int32{spec.Initial})
		require.NoError(t, err)
		s := antichain.NewSearch(antichain.NewExplicitImpl(impl, labelOf), norm, 0,
			antichain.SearchOptions{Prune: true, BySteps: true, Past: past, MaxPairs: 100, FollowDominated: c.all})
		pair, step, err := s.Run(init)
		require.NoError(t, err)
		require.GreaterOrEqual(t, pair, int32(0), "the violation is found")
		require.Equal(t, "d", impl.LabelName(step))
		require.Equal(t, 3, s.ViolationDepth, "past %v", past)
		path, err := s.Path(pair, step)
		require.NoError(t, err)
		require.Len(t, path, 4, "past %v", past)
		// Levels 0..3: 1, 2, 2 and 1 pair (not 2: (4, {3, 4}) is never
		// reached); past the violation, level 4's pair after d.
		want := 6
		if past {
			want = 7
		}
		if c.all { // every pair followed (FollowDominated)
			require.Equal(t, want+1, s.Pairs.Len(), "past %v", past)
			require.Zero(t, s.Dominated, "past %v", past)
			continue
		}
		require.Equal(t, want, s.Pairs.Len(), "past %v", past)
		require.Equal(t, int64(1), s.Dominated, "past %v", past)
		states := map[int32]bool{}
		for _, st := range s.Pairs.State {
			states[st] = true
		}
		require.Len(t, states, 5+btoi(past), "every reachable state paired, past %v", past)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
