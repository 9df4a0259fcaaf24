package bisim

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/testsize"
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
					require.NotNil(t, c.Evidence)
					replay(t, tc.a, tc.b, tc.eq, c)
				}
			})
		}
	}
	// The distinguishing behaviour is the one the paper names.
	c, err := Compare(from(r, r3), from(s, s3), Branching, Options{NameA: "Δ1", NameB: "Δ2"})
	require.NoError(t, err)
	e := c.Evidence
	assert.Equal(t, 0, e.HoldsIn)
	assert.Equal(t, "a path of Δ1 that takes the formula's steps:", e.Witness.Title)
	assert.Equal(t, "ret1", e.Witness.Steps[len(e.Witness.Steps)-1].Label)
	assert.Contains(t, e.Explanation, "Δ1 and Δ2 are not branching bisimilar")
	c, err = Compare(from(r, r3), from(u, u3), DivBranching, Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, c.Evidence.HoldsIn, "u3 diverges")
	assert.True(t, hasOp(c.Evidence.Formula, OpDiverge), "%v", c.Evidence.Formula)
	assert.True(t, c.Evidence.Witness.IsLasso())
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
	seeds := testsize.Count(300, 3000)
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
				kind := "formula"
				if c.Evidence.TraceDistinguishes {
					kind = "trace"
				}
				if hasOp(c.Evidence.Formula, OpDiverge) {
					kind = "divergence"
				}
				kinds[eq.String()+"/"+kind]++
				if !replay(t, a, b, eq, c) {
					t.Fatalf("seed %d %v", seed, eq)
				}
			}
		}
	}
	t.Log(kinds)
	for _, k := range []string{"strong/trace", "strong/formula", "branching/trace", "branching/formula", "divbranching/divergence"} {
		assert.Positive(t, kinds[k], "the random pairs should exercise %s", k)
	}
}

// replay checks the evidence of Compare(a, b, eq) independently of the
// code that built it: the naive evaluator finds the formula true in the
// initial state of its side and false in the other's, the formula uses only
// the operators of eq's logic, and its paths are paths of their LTSs with
// the same visible labels (requireWitnessValid).
func replay(t *testing.T, a, b *lts.LTS, eq Equivalence, c *Comparison) bool {
	t.Helper()
	e := c.Evidence
	if !assert.NotNil(t, e) {
		return false
	}
	sides := [2]*lts.LTS{a, b}
	holds, fails := sides[e.HoldsIn], sides[1-e.HoldsIn]
	ok := assert.True(t, naiveHolds(holds, e.Formula, holds.Initial), "%v", e.Formula)
	ok = assert.False(t, naiveHolds(fails, e.Formula, fails.Initial), "%v", e.Formula) && ok
	ok = assert.True(t, formulaOpsAllowed(e.Formula, eq), "%v", e.Formula) && ok
	requireWitnessValid(t, e, holds, fails, "replay")
	return ok
}

// hasOp reports whether f has a node with operator op.
func hasOp(f *Formula, op Op) bool {
	return f.Op == op || slices.ContainsFunc(f.Args, func(g *Formula) bool { return hasOp(g, op) })
}

// TestMinimize checks on random LTSs that the quotient is canonical (sorted
// and deduplicated), equivalent to its input (by the oracle on the union),
// minimal (its own partition is discrete), and that stateMap is the
// partition; and that Quotient returns the same quotient.
func TestMinimize(t *testing.T) {
	for seed := range 2000 {
		l := randomLTS(uint64(seed), 7)
		for _, eq := range allEquivalences {
			q, stateMap, err := Minimize(l, eq, Options{})
			require.NoError(t, err)
			alone, err := Quotient(l, eq, Options{})
			require.NoError(t, err)
			require.Equal(t, q, alone)
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

// TestBranchingWitness: a + τ.b and a + τ.b + b have the same traces and
// are weakly but not branching bisimilar (b of the second is matched by
// τ.b of the first only through a state that cannot do a), so the evidence
// is a formula, not a trace. With the trace search cut off at one pair of
// state sets the explanation says the traces were not compared in full.
func TestBranchingWitness(t *testing.T) {
	type T = lts.Triple
	a := lts.FromTriples(0, 3, []T{tri(0, "a", 1), tri(0, "tau", 2), tri(2, "b", 1)})
	b := lts.FromTriples(0, 3, []T{tri(0, "a", 1), tri(0, "tau", 2), tri(2, "b", 1), tri(0, "b", 1)})
	for _, eq := range []Equivalence{Branching, DivBranching} {
		c, err := Compare(a, b, eq, Options{})
		require.NoError(t, err)
		require.False(t, c.Equivalent)
		assert.True(t, replay(t, a, b, eq, c))
		assert.False(t, c.Evidence.TraceDistinguishes)
		assert.Contains(t, c.Evidence.Explanation, "the two have the same traces")
		c, err = Compare(a, b, eq, Options{MaxPairs: 1})
		require.NoError(t, err)
		assert.True(t, replay(t, a, b, eq, c))
		assert.Contains(t, c.Evidence.Explanation, "stopped at its limit of 1 pairs of state sets")
	}
}

// TestBranchingWitnessDivergence: the only difference is divergence inside
// the initial class: both sides can reach a τ-loop (s1, t1), but only B
// loops in its initial state, and that loop is inert there.
func TestBranchingWitnessDivergence(t *testing.T) {
	a := lts.FromTriples(0, 3, []lts.Triple{tri(0, "a", 2), tri(0, "tau", 1), tri(1, "tau", 1), tri(1, "b", 2)})
	b := lts.FromTriples(0, 3, []lts.Triple{tri(0, "a", 2), tri(0, "tau", 1), tri(0, "tau", 0), tri(1, "tau", 1), tri(1, "b", 2)})
	c, err := Compare(a, b, Branching, Options{})
	require.NoError(t, err)
	require.True(t, c.Equivalent)
	c, err = Compare(a, b, DivBranching, Options{})
	require.NoError(t, err)
	require.False(t, c.Equivalent)
	assert.True(t, replay(t, a, b, DivBranching, c))
	assert.Equal(t, 1, c.Evidence.HoldsIn)
	assert.True(t, hasOp(c.Evidence.Formula, OpDiverge), "%v", c.Evidence.Formula)
	assert.True(t, c.Evidence.Witness.IsLasso())
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
	tr := c.Evidence.Witness
	require.Equal(t, 0, c.Evidence.HoldsIn)
	require.Len(t, tr.Steps, 3)
	assert.Equal(t, int32(1), tr.Steps[1].Thread)
	require.NotNil(t, tr.Steps[1].Source)
	assert.Equal(t, "CAS(top, old, new)", tr.Steps[1].Source.Text)
	assert.Equal(t, "ret(1,push)", tr.Steps[2].Label)
	assert.Contains(t, c.Evidence.Explanation, "the specification has no path with the visible steps of the path of the implementation below: it is a distinguishing trace")
}
