package bisim

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// fig3 builds the object systems of Yang et al. Fig. 3 (§5.2): thread 1
// calls dec once and thread 2 calls inc once, concurrently, on a counter c
// that starts at 0. The figure itself is only partly legible in our copy,
// so the systems are rebuilt from the text: every state is a pair (p1, p2)
// of program counters — 0 before the call, 1 called, 2 the method's effect
// done, 3 returned — numbered 4·p1 + p2. inc is atomic in all three:
// inc2, τ (c := c+1), ret2. dec is
//
//	'a' (Δ1): atomic: dec1, τ (c := c−1), ret1;
//	'b' (Δ2): while (1) skip: dec1, then a τ self-loop forever;
//	'c' (Δ3): while (c ≤ 0) skip; c := c−1: dec1, then a τ self-loop
//	          while inc's effect is not done (c = 0), and a τ to the
//	          decremented state once it is (c = 1), then ret1.
//
// The paper's r3, s3 and u3 are the state (1,1) of each system: both
// methods called, no effect yet; the function returns it too.
func fig3(dec byte) (l *lts.LTS, state3 int32) {
	id := func(p1, p2 int32) int32 { return 4*p1 + p2 }
	var tr []lts.Triple
	for p1 := int32(0); p1 < 4; p1++ { // thread 2's inc, whatever thread 1 does
		tr = append(tr, lts.Triple{Src: id(p1, 0), Label: "inc2", Dst: id(p1, 1)},
			lts.Triple{Src: id(p1, 1), Label: "tau", Dst: id(p1, 2)},
			lts.Triple{Src: id(p1, 2), Label: "ret2", Dst: id(p1, 3)})
	}
	for p2 := int32(0); p2 < 4; p2++ { // thread 1's dec
		tr = append(tr, lts.Triple{Src: id(0, p2), Label: "dec1", Dst: id(1, p2)})
		switch {
		case dec == 'a' || dec == 'c' && p2 >= 2:
			tr = append(tr, lts.Triple{Src: id(1, p2), Label: "tau", Dst: id(2, p2)},
				lts.Triple{Src: id(2, p2), Label: "ret1", Dst: id(3, p2)})
		default: // 'b', or 'c' while c = 0
			tr = append(tr, lts.Triple{Src: id(1, p2), Label: "tau", Dst: id(1, p2)})
		}
	}
	return lts.FromTriples(0, 16, tr), id(1, 1)
}

// tri makes a triple for lts.FromTriples.
func tri(src int32, label string, dst int32) lts.Triple {
	return lts.Triple{Src: src, Label: label, Dst: dst}
}

// from returns l with its initial state changed.
func from(l *lts.LTS, initial int32) *lts.LTS {
	c := *l
	c.Initial = initial
	return &c
}

func TestYangFig3(t *testing.T) {
	r, r3 := fig3('a')
	s, s3 := fig3('b')
	u, u3 := fig3('c')
	cases := []struct {
		name       string
		a, b       *lts.LTS
		eq         Equivalence
		equivalent bool
	}{
		// §5.2: "by condition (1) of Definition 4.1, r3 ≉B s3".
		{"r3 vs s3 branching", from(r, r3), from(s, s3), Branching, false},
		{"r3 vs s3 divbranching", from(r, r3), from(s, s3), DivBranching, false},
		// "r7 ∼B u5, so r3 ∼B u3" but "u3 ≁div r3".
		{"r3 vs u3 branching", from(r, r3), from(u, u3), Branching, true},
		{"r3 vs u3 divbranching", from(r, r3), from(u, u3), DivBranching, false},
		{"r3 vs u3 strong", from(r, r3), from(u, u3), Strong, false},
		// Not in the paper, by hand: from the very start Δ1 and Δ3 differ
		// already under branching bisimilarity, since Δ1 can return from
		// dec before inc is called and Δ3 cannot.
		{"r0 vs u0 branching", r, u, Branching, false},
		{"r0 vs r0 divbranching", r, r, DivBranching, true},
	}
	for _, tc := range cases {
		for _, alg := range []Algorithm{Fast, GV, GJ} {
			t.Run(fmt.Sprintf("%s/%v", tc.name, alg), func(t *testing.T) {
				c, err := Compare(tc.a, tc.b, tc.eq, Options{Algorithm: alg})
				require.NoError(t, err)
				assert.Equal(t, tc.equivalent, c.Equivalent)
				if !tc.equivalent {
					require.NotNil(t, c.Counterexample)
					replay(t, tc.a, tc.b, tc.eq, c)
				}
			})
		}
	}
	// The distinguishing behaviour is the one the paper names.
	c, err := Compare(from(r, r3), from(s, s3), Branching, Options{})
	require.NoError(t, err)
	assert.Equal(t, "action", c.Kind)
	assert.Equal(t, "ret1", c.Counterexample.Steps[len(c.Counterexample.Steps)-1].Label)
	c, err = Compare(from(r, r3), from(u, u3), DivBranching, Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, c.Side, "u3 diverges")
	assert.True(t, c.Counterexample.IsLasso())
	c, err = Compare(from(r, r3), from(s, s3), Branching, Options{NameA: "Δ1", NameB: "Δ2"})
	require.NoError(t, err)
	assert.Equal(t, "Δ1 and Δ2 are not branching bisimilar; a path of Δ1:", c.Counterexample.Title)
	assert.Regexp(t, `^Δ1 can do ret1 here; Δ2, in state \d+ reached by the same visible steps, cannot, after any τ steps$`, c.Counterexample.Final)
}

func TestSmallKnownAnswers(t *testing.T) {
	type T = lts.Triple
	cases := []struct {
		name  string
		a, b  []T
		na    int32
		nb    int32
		equiv [3]bool // strong, branching, divbranching
	}{
		{"tau.a vs a", []T{tri(0, "tau", 1), tri(1, "a", 2)}, []T{tri(0, "a", 1)}, 3, 2, [3]bool{false, true, true}},
		{"a.(b+c) vs a.b+a.c", []T{tri(0, "a", 1), tri(1, "b", 2), tri(1, "c", 2)},
			[]T{tri(0, "a", 1), tri(0, "a", 2), tri(1, "b", 3), tri(2, "c", 3)}, 3, 4, [3]bool{false, false, false}},
		{"tau-loop vs deadlock", []T{tri(0, "tau", 0)}, nil, 1, 1, [3]bool{false, true, false}},
		{"a+tau.b vs tau.b+a (same)", []T{tri(0, "a", 1), tri(0, "tau", 2), tri(2, "b", 1)},
			[]T{tri(0, "tau", 2), tri(2, "b", 1), tri(0, "a", 1)}, 3, 3, [3]bool{true, true, true}},
		// a + τ.b is not branching bisimilar to τ.(a + b)... nor to a + b.
		{"a+tau.b vs a+b", []T{tri(0, "a", 1), tri(0, "tau", 2), tri(2, "b", 1)},
			[]T{tri(0, "a", 1), tri(0, "b", 1)}, 3, 2, [3]bool{false, false, false}},
		// τ-cycle of two states with an exit vs one state with the exit.
		{"tau-cycle with exit", []T{tri(0, "tau", 1), tri(1, "tau", 0), tri(1, "a", 2)}, []T{tri(0, "a", 1)}, 3, 2,
			[3]bool{false, true, false}},
	}
	for _, tc := range cases {
		a := lts.FromTriples(0, tc.na, tc.a)
		b := lts.FromTriples(0, tc.nb, tc.b)
		for i, eq := range allEquivalences {
			for _, alg := range []Algorithm{Fast, GV, GJ} {
				t.Run(fmt.Sprintf("%s/%v/%v", tc.name, eq, alg), func(t *testing.T) {
					c, err := Compare(a, b, eq, Options{Algorithm: alg})
					require.NoError(t, err)
					assert.Equal(t, tc.equiv[i], c.Equivalent)
					if !c.Equivalent {
						replay(t, a, b, eq, c)
					}
				})
			}
		}
	}
}

// TestCompareRandomPairs checks Compare's verdict against the oracle on the
// disjoint union, and replays every counterexample.
func TestCompareRandomPairs(t *testing.T) {
	seeds := 3000
	if testing.Short() {
		seeds = 300
	}
	kinds := map[string]int{}
	for seed := range seeds {
		a := randomLTS(uint64(2*seed), 5)
		b := randomLTS(uint64(2*seed+1), 5)
		u, off := lts.Union(a, b)
		for _, eq := range allEquivalences {
			R := oracle(u, eq)
			c, err := Compare(a, b, eq, Options{})
			require.NoError(t, err)
			require.Equal(t, R[a.Initial][off+b.Initial], c.Equivalent, "seed %d %v", seed, eq)
			if !c.Equivalent {
				kinds[eq.String()+"/"+c.Kind]++
				if !replay(t, a, b, eq, c) {
					t.Fatalf("seed %d %v", seed, eq)
				}
			}
		}
	}
	t.Log(kinds)
	for _, k := range []string{"strong/action", "strong/branching", "branching/action", "divbranching/divergence"} {
		assert.Positive(t, kinds[k], "the random pairs should exercise %s", k)
	}
}

// replay checks a counterexample of Compare(a, b, eq) independently of the
// code that built it: both paths exist, have the same visible labels, end
// in inequivalent states (by the oracle), and the claim in Kind holds.
func replay(t *testing.T, a, b *lts.LTS, eq Equivalence, c *Comparison) bool {
	t.Helper()
	tr := c.Counterexample
	if !assert.NotNil(t, tr) {
		return false
	}
	self, other := a, b
	if c.Side == 1 {
		self, other = b, a
	}
	ok := assert.True(t, isPath(self, tr.Steps), "trace is a path of its LTS: %+v", tr)
	ok = assert.True(t, isPath(other, c.Other), "other side is a path of its LTS: %+v", c.Other) && ok
	endOf := func(l *lts.LTS, steps []lts.TraceStep) int32 {
		if len(steps) == 0 {
			return l.Initial
		}
		return steps[len(steps)-1].To
	}
	ok = assert.Equal(t, c.OtherState, endOf(other, c.Other)) && ok
	u, off := lts.Union(self, other)
	R := oracle(u, eq)
	weakFrom := func(s int32) (labels map[string]bool, diverges bool) {
		labels = map[string]bool{}
		seen := map[int32]bool{s: true}
		for stack := []int32{s}; len(stack) > 0; {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for x := other.Out[v]; x < other.Out[v+1]; x++ {
				if other.Label[x] != lts.Tau {
					labels[other.LabelName(x)] = true
				} else if d := other.Dst[x]; !seen[d] {
					seen[d] = true
					stack = append(stack, d)
				}
			}
		}
		for v := range seen { // a τ-cycle among the τ-reachable states?
			if onTauCycle(other, v) {
				diverges = true
			}
		}
		return labels, diverges
	}
	switch c.Kind {
	case "action":
		last := tr.Steps[len(tr.Steps)-1]
		ok = assert.Equal(t, tr.Visible(), append(visible(c.Other), last.Label)) && ok
		ok = assert.False(t, R[last.From][off+c.OtherState], "the states before the unmatched step are inequivalent") && ok
		labels, _ := weakFrom(c.OtherState)
		ok = assert.False(t, labels[last.Label], "the other side cannot do %s after τ steps", last.Label) && ok
	case "divergence":
		require.True(t, tr.IsLasso())
		for _, st := range tr.Steps[tr.LoopStart:] {
			ok = assert.Equal(t, lts.TauName, st.Label) && ok
		}
		ok = assert.Equal(t, tr.Visible(), visible(c.Other)) && ok
		ok = assert.Equal(t, tr.Steps[len(tr.Steps)-1].To, tr.Steps[tr.LoopStart].From, "the cycle closes") && ok
		_, div := weakFrom(c.OtherState)
		ok = assert.False(t, div, "the other side cannot diverge") && ok
	case "branching":
		// The steps before the unmatched one stay in the initial class.
		ok = assert.False(t, R[self.Initial][off+other.Initial]) && ok
		n := len(tr.Steps)
		if !tr.IsLasso() {
			n--
		}
		for _, st := range tr.Steps[:n] {
			if eq == Strong {
				break
			}
			ok = assert.True(t, st.Label == lts.TauName && R[st.To][self.Initial], "inert prefix") && ok
		}
	default:
		t.Errorf("unknown kind %q", c.Kind)
		return false
	}
	return ok
}

func visible(steps []lts.TraceStep) []string {
	tr := lts.Trace{Steps: steps}
	return tr.Visible()
}

func isPath(l *lts.LTS, steps []lts.TraceStep) bool {
	at := l.Initial
	for _, st := range steps {
		if st.From != at {
			return false
		}
		found := false
		for x := l.Out[st.From]; x < l.Out[st.From+1]; x++ {
			found = found || l.Dst[x] == st.To && l.LabelName(x) == st.Label
		}
		if !found {
			return false
		}
		at = st.To
	}
	return true
}

func onTauCycle(l *lts.LTS, s int32) bool {
	seen := map[int32]bool{}
	stack := []int32{s}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for x := l.Out[v]; x < l.Out[v+1]; x++ {
			if l.Label[x] != lts.Tau {
				continue
			}
			if d := l.Dst[x]; d == s {
				return true
			} else if !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	return false
}

// TestMinimize checks on random LTSs that the quotient is canonical (sorted
// and deduplicated), equivalent to its input (by the oracle on the union),
// minimal (its own partition is discrete), and that stateMap is the
// partition.
func TestMinimize(t *testing.T) {
	for seed := range 2000 {
		l := randomLTS(uint64(seed), 7)
		for _, eq := range allEquivalences {
			q, stateMap, err := Minimize(l, eq, Options{})
			require.NoError(t, err)
			require.NoError(t, q.Validate())
			c := lts.Canonical(q) // the quotient is built sorted and deduplicated
			assert.Equal(t, [][]int32{c.Src, c.Label, c.Dst, c.Out}, [][]int32{q.Src, q.Label, q.Dst, q.Out})
			block, nb, err := Partition(l, eq, Options{Algorithm: GV})
			require.NoError(t, err)
			assert.Equal(t, block, stateMap)
			assert.Equal(t, nb, q.NumStates)
			_, qn, err := Partition(q, eq, Options{Algorithm: GV})
			require.NoError(t, err)
			assert.Equal(t, q.NumStates, qn, "seed %d %v: quotient not minimal", seed, eq)
			u, off := lts.Union(l, q)
			R := oracle(u, eq)
			for s := int32(0); s < l.NumStates; s++ {
				if !R[s][off+stateMap[s]] {
					t.Fatalf("seed %d %v: state %d not equivalent to its class %d", seed, eq, s, stateMap[s])
				}
			}
			if eq != Strong {
				for x := range q.Src {
					assert.False(t, q.Label[x] == lts.Tau && q.Src[x] == q.Dst[x] && eq == Branching, "no τ self-loop under branching")
				}
			}
		}
	}
}

// TestBranchingWitness forces the fallback counterexample, which explains
// the branching structure at the initial states: with one pair allowed the
// search stops at the initial pair, where a + τ.b and a + τ.b + b have the
// same weak actions. They are weakly but not branching bisimilar: b of the
// second is matched by τ.b of the first only through a state that cannot do a.
func TestBranchingWitness(t *testing.T) {
	type T = lts.Triple
	a := lts.FromTriples(0, 3, []T{tri(0, "a", 1), tri(0, "tau", 2), tri(2, "b", 1)})
	b := lts.FromTriples(0, 3, []T{tri(0, "a", 1), tri(0, "tau", 2), tri(2, "b", 1), tri(0, "b", 1)})
	for _, eq := range []Equivalence{Branching, DivBranching} {
		c, err := Compare(a, b, eq, Options{MaxPairs: 1})
		require.NoError(t, err)
		require.False(t, c.Equivalent)
		assert.Equal(t, "branching", c.Kind)
		assert.Equal(t, 1, c.Side)
		assert.Equal(t, []string{"b"}, c.Counterexample.Visible())
		assert.True(t, c.PairLimitHit)
		assert.Contains(t, c.Counterexample.Final, "stopped at the limit of 1 state pairs")
		assert.True(t, replay(t, a, b, eq, c))
		c, err = Compare(a, b, eq, Options{})
		require.NoError(t, err)
		assert.Equal(t, "action", c.Kind, "without the bound the search finds A's τ step after which a is lost")
		assert.True(t, replay(t, a, b, eq, c))
	}
}

// TestBranchingWitnessDivergence forces the fallback where the only
// difference is divergence inside the initial class: both sides can reach
// a τ-loop (s1, t1), but only B loops in its initial state, and that loop
// is inert there.
func TestBranchingWitnessDivergence(t *testing.T) {
	a := lts.FromTriples(0, 3, []lts.Triple{tri(0, "a", 2), tri(0, "tau", 1), tri(1, "tau", 1), tri(1, "b", 2)})
	b := lts.FromTriples(0, 3, []lts.Triple{tri(0, "a", 2), tri(0, "tau", 1), tri(0, "tau", 0), tri(1, "tau", 1), tri(1, "b", 2)})
	c, err := Compare(a, b, Branching, Options{})
	require.NoError(t, err)
	require.True(t, c.Equivalent)
	c, err = Compare(a, b, DivBranching, Options{MaxPairs: 1})
	require.NoError(t, err)
	require.False(t, c.Equivalent)
	assert.Equal(t, "branching", c.Kind)
	assert.Equal(t, 1, c.Side)
	assert.True(t, c.Counterexample.IsLasso())
	assert.Contains(t, c.Counterexample.Final, "diverge")
	assert.True(t, replay(t, a, b, DivBranching, c))
}

func TestEmptyAndErrors(t *testing.T) {
	empty := &lts.LTS{Labels: []string{lts.TauName}, Out: []int32{0}}
	block, n, err := Partition(empty, Branching, Options{})
	require.NoError(t, err)
	assert.Empty(t, block)
	assert.Zero(t, n)
	_, _, err = Partition(empty, Equivalence(7), Options{})
	assert.Error(t, err)
	one := lts.FromTriples(0, 1, nil)
	_, _, err = Partition(one, Strong, Options{Algorithm: Algorithm(9)})
	assert.Error(t, err)
	_, err = Compare(empty, one, Strong, Options{})
	assert.Error(t, err)
	assert.True(t, slices.Equal([]int32{0}, mustPartition(t, one)))
}

func mustPartition(t *testing.T, l *lts.LTS) []int32 {
	block, _, err := Partition(l, DivBranching, Options{})
	require.NoError(t, err)
	return block
}

// TestCounterexampleKeepsMetadata checks that the steps of a counterexample
// carry the thread and source step of the transitions of the LTS they come
// from (Compare works on the disjoint union, which has no metadata).
func TestCounterexampleKeepsMetadata(t *testing.T) {
	bl := lts.NewBuilder()
	bl.SetNumStates(3)
	step := bl.AddStep(lts.SourceStep{File: "stack.lb", Line: 7, Col: 3, Text: "CAS(top, old, new)"})
	bl.AddTransitionMeta(0, bl.Label("call(1,push,1)"), 1, 1, -1)
	bl.AddTransitionMeta(1, lts.Tau, 2, 1, step)
	bl.AddTransitionMeta(2, bl.Label("ret(1,push)"), 0, 1, -1)
	impl := bl.Build()
	spec := lts.FromTriples(0, 2, []lts.Triple{tri(0, "call(1,push,1)", 1)}) // push never returns
	c, err := Compare(impl, spec, DivBranching, Options{NameA: "the implementation", NameB: "the specification"})
	require.NoError(t, err)
	require.False(t, c.Equivalent)
	require.True(t, replay(t, impl, spec, DivBranching, c))
	tr := c.Counterexample
	require.Equal(t, 0, c.Side)
	require.Len(t, tr.Steps, 3)
	assert.Equal(t, int32(1), tr.Steps[1].Thread)
	require.NotNil(t, tr.Steps[1].Source)
	assert.Equal(t, "CAS(top, old, new)", tr.Steps[1].Source.Text)
	assert.Equal(t, "ret(1,push)", tr.Steps[2].Label)
	assert.Contains(t, tr.Final, "the implementation can do ret(1,push) here; the specification")
}
