package bisim

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// naiveHolds evaluates f in state s of l straight from the definitions in
// the issue, by recursion and explicit path search, with none of the
// checker's machinery (no memo, no backward passes, no fixpoint counters).
func naiveHolds(l *lts.LTS, f *Formula, s int32) bool {
	switch f.Op {
	case OpTrue:
		return true
	case OpNot:
		return !naiveHolds(l, f.Args[0], s)
	case OpAnd:
		for _, g := range f.Args {
			if !naiveHolds(l, g, s) {
				return false
			}
		}
		return true
	case OpOr:
		for _, g := range f.Args {
			if naiveHolds(l, g, s) {
				return true
			}
		}
		return false
	case OpDiamond:
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			if l.Labels[l.Label[t]] == f.Label && naiveHolds(l, f.Args[0], l.Dst[t]) {
				return true
			}
		}
		return false
	case OpUntil:
		// Some state on a τ-path through φ-states from s has an a-step to
		// ψ, or (a = τ) satisfies ψ itself.
		for _, v := range naiveTauReach(l, f.Args[0], s) {
			if f.Label == lts.TauName && naiveHolds(l, f.Args[1], v) {
				return true
			}
			for t := l.Out[v]; t < l.Out[v+1]; t++ {
				if l.Labels[l.Label[t]] == f.Label && naiveHolds(l, f.Args[1], l.Dst[t]) {
					return true
				}
			}
		}
		return false
	case OpDiverge:
		// An infinite path in a finite LTS repeats a state: some state
		// reachable through φ-states reaches itself again.
		for _, v := range naiveTauReach(l, f.Args[0], s) {
			for t := l.Out[v]; t < l.Out[v+1]; t++ {
				if l.Label[t] == lts.Tau && slices.Contains(naiveTauReach(l, f.Args[0], l.Dst[t]), v) {
					return true
				}
			}
		}
		return false
	}
	panic("unknown operator")
}

// naiveTauReach lists the states reachable from s by τ-paths all of whose
// states (s included) satisfy stay.
func naiveTauReach(l *lts.LTS, stay *Formula, s int32) []int32 {
	if !naiveHolds(l, stay, s) {
		return nil
	}
	seen := []int32{s}
	for i := 0; i < len(seen); i++ {
		v := seen[i]
		for t := l.Out[v]; t < l.Out[v+1]; t++ {
			if d := l.Dst[t]; l.Label[t] == lts.Tau && !slices.Contains(seen, d) && naiveHolds(l, stay, d) {
				seen = append(seen, d)
			}
		}
	}
	return seen
}

// mutate returns a copy of l with one random change: a transition removed,
// relabelled or redirected, or one added.
func mutate(l *lts.LTS, rng *rand.Rand) *lts.LTS {
	b := lts.NewBuilder()
	n := l.NumStates
	b.SetNumStates(n)
	b.SetInitial(l.Initial)
	labels := append([]string{"tau"}, l.Labels[1:]...)
	if len(labels) == 1 {
		labels = append(labels, "a")
	}
	m := len(l.Src)
	victim := -1
	if m > 0 {
		victim = rng.IntN(m)
	}
	kind := rng.IntN(4)
	if victim < 0 {
		kind = 3
	}
	for t := range m {
		src, lab, dst := l.Src[t], l.Labels[l.Label[t]], l.Dst[t]
		if t == victim {
			switch kind {
			case 0:
				continue
			case 1:
				lab = labels[rng.IntN(len(labels))]
			case 2:
				dst = rng.Int32N(n)
			}
		}
		b.AddTransition(src, b.Label(lab), dst)
	}
	if kind == 3 {
		b.AddTransition(rng.Int32N(n), b.Label(labels[rng.IntN(len(labels))]), rng.Int32N(n))
	}
	return b.Build()
}

// formulaOpsAllowed reports whether f uses only the operators of eq's logic:
// diamond for strong, until for branching, until and diverge for
// divbranching (a diamond under a branching equivalence would not be
// invariant, and its check on the two LTSs would prove nothing general).
func formulaOpsAllowed(f *Formula, eq Equivalence) bool {
	switch f.Op {
	case OpDiamond:
		if eq != Strong {
			return false
		}
	case OpUntil:
		if eq == Strong {
			return false
		}
	case OpDiverge:
		if eq != DivBranching {
			return false
		}
	}
	for _, g := range f.Args {
		if !formulaOpsAllowed(g, eq) {
			return false
		}
	}
	return true
}

// TestFormulasDistinguishRandomPairs produces the distinguishing formula of
// 10 000 random inequivalent pairs per equivalence (half independent LTSs,
// half an LTS and a one-step mutation of it) and evaluates it on both
// sides with the naive evaluator: true in the initial state of the side
// Compare names, false in the other's; its text parses back into the same
// tree. It logs the depth and size.
func TestFormulasDistinguishRandomPairs(t *testing.T) {
	want := testsize.Count(1000, 10000)
	for _, eq := range allEquivalences {
		t.Run(eq.String(), func(t *testing.T) {
			// by kind of pair: 0 independent, 1 mutated
			var depths, sizes [2][]int
			rng := rand.New(rand.NewPCG(uint64(eq), 23))
			for seed := uint64(0); len(depths[0])+len(depths[1]) < want; seed++ {
				a := randomLTS(2*seed, 8)
				b := randomLTS(2*seed+1, 8)
				if seed%2 == 1 {
					b = mutate(a, rng)
				}
				c, err := Compare(a, b, eq, Options{})
				require.NoError(t, err, "seed %d", seed)
				if c.Equivalent {
					require.Nil(t, c.Evidence)
					continue
				}
				require.NotNil(t, c.Evidence, "seed %d", seed)
				f, side := c.Evidence.Formula, c.Evidence.HoldsIn
				sides := [2]*lts.LTS{a, b}
				holds, fails := sides[side], sides[1-side]
				if !naiveHolds(holds, f, holds.Initial) || naiveHolds(fails, f, fails.Initial) {
					t.Fatalf("seed %d: the formula %v does not distinguish the initial states (should hold in side %d)", seed, f, side)
				}
				requireWitnessValid(t, c.Evidence, holds, fails, fmt.Sprintf("seed %d", seed))
				if seed%2 == 1 && shortTraceDiffers(a, b, 3) {
					require.True(t, c.Evidence.TraceDistinguishes, "seed %d: the traces differ but the evidence is no trace", seed)
				}
				require.True(t, formulaOpsAllowed(f, eq), "seed %d: %v", seed, f)
				requireParsesBack(t, f, eq != Strong, fmt.Sprintf("seed %d", seed))
				depths[seed%2] = append(depths[seed%2], f.Depth())
				sizes[seed%2] = append(sizes[seed%2], f.Size())
			}
			for kind, name := range []string{"independent", "mutated"} {
				d, s := depths[kind], sizes[kind]
				slices.Sort(d)
				slices.Sort(s)
				t.Logf("%v, %s pairs: %d; depth median %d max %d; size median %d max %d", eq, name, len(d),
					d[len(d)/2], d[len(d)-1], s[len(s)/2], s[len(s)-1])
			}
		})
	}
}

// TestCheckerAgreesWithNaiveEvaluator compares both model checkers (global
// and local) with the naive evaluator on random formulas over random LTSs, in every state.
func TestCheckerAgreesWithNaiveEvaluator(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 23))
	for seed := range 3000 {
		l := randomLTS(uint64(seed), 8)
		f := randomFormula(rng, 4)
		sat := newFormulaChecker(l).sat(f)
		local := newLocalChecker(l)
		for s := range l.NumStates {
			want := naiveHolds(l, f, s)
			if sat[s] != want || local.holds(f, s) != want {
				t.Fatalf("seed %d, state %d: global checker says %v, local %v, naive %v for %v", seed, s, sat[s], local.holds(f, s), want, f)
			}
		}
	}
}

// randomFormula makes a random formula of at most the given depth over the
// labels randomLTS uses.
func randomFormula(rng *rand.Rand, depth int) *Formula {
	labels := []string{"tau", "a", "b", "c", "d"} // d occurs nowhere
	if depth == 0 {
		return True()
	}
	sub := func() *Formula { return randomFormula(rng, depth-1) }
	switch rng.IntN(7) {
	case 0:
		return True()
	case 1:
		return Not(sub())
	case 2:
		return And(sub(), sub())
	case 3:
		return Or(sub(), sub())
	case 4:
		return Diamond(labels[rng.IntN(len(labels))], sub())
	case 5:
		return Until(sub(), labels[rng.IntN(len(labels))], sub())
	}
	return Diverge(sub())
}

// TestCheckDistinguishesRejects makes sure the rule fails loudly: a
// formula true (or false) on both sides, or on the wrong side, is refused.
func TestCheckDistinguishesRejects(t *testing.T) {
	b := lts.NewBuilder()
	b.SetNumStates(2)
	b.AddTransition(0, b.Label("a"), 1)
	a := b.Build()
	empty := lts.NewBuilder()
	empty.SetNumStates(1)
	z := empty.Build()
	canA := Diamond("a", True())
	assert.NoError(t, CheckDistinguishes(a, z, canA, 0))
	assert.ErrorContains(t, CheckDistinguishes(a, z, canA, 1), "internal error")
	assert.ErrorContains(t, CheckDistinguishes(a, z, True(), 0), "internal error")
}

func TestFormulaJSONRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 23))
	for range 200 {
		f := randomFormula(rng, 4)
		data, err := json.Marshal(f)
		require.NoError(t, err)
		var g Formula
		require.NoError(t, json.Unmarshal(data, &g), "%s", data)
		assert.Equal(t, f.String(), g.String())
	}
	var g Formula
	assert.ErrorContains(t, json.Unmarshal([]byte(`{"op":"until","label":"a","args":[{"op":"true"}]}`), &g), "takes 2 arguments")
	assert.ErrorContains(t, json.Unmarshal([]byte(`{"op":"box"}`), &g), `unknown formula operator "box"`)
}

// TestFormulaNotation pins the three notations on one formula.
func TestFormulaNotation(t *testing.T) {
	f := And(Until(Not(Diamond("b", True())), "a", True()), Diverge(True()))
	assert.Equal(t, "((¬⟨b⟩true)⟨a⟩true) ∧ Δtrue", f.String())
	assert.Equal(t, "((mu X1 . (!(<b>(true)) && (<a>(true) || <tau>X1))) && (nu X2 . (true && <tau>X2)))", f.MCRL2())
	data, err := json.Marshal(f)
	require.NoError(t, err)
	assert.JSONEq(t, `{"op":"and","args":[
		{"op":"until","label":"a","args":[{"op":"not","args":[{"op":"diamond","label":"b","args":[{"op":"true"}]}]},{"op":"true"}]},
		{"op":"diverge","args":[{"op":"true"}]}]}`, string(data))
	assert.Equal(t, 2, f.Depth())
	assert.Equal(t, 8, f.Size())
}

// requireWitnessValid checks the witnessing paths of e: the holder's path
// is a path of holds from its initial state, the other's a path of fails
// with the same visible labels, and TraceDistinguishes is set exactly when
// fails has no path with those labels (by a subset construction).
func requireWitnessValid(t *testing.T, e *FormulaEvidence, holds, fails *lts.LTS, what string) {
	t.Helper()
	requirePathOf(t, holds, e.Witness, what)
	visible := e.Witness.Visible()
	require.Equal(t, !weakTraceOf(fails, visible), e.TraceDistinguishes, what)
	if e.OtherPath != nil {
		requirePathOf(t, fails, e.OtherPath, what)
		require.Equal(t, visible, e.OtherPath.Visible(), what)
	}
}

// requirePathOf checks that tr is a path of l from its initial state.
func requirePathOf(t *testing.T, l *lts.LTS, tr *lts.Trace, what string) {
	t.Helper()
	s := l.Initial
	for i, st := range tr.Steps {
		require.Equal(t, s, st.From, "%s: step %d", what, i)
		found := false
		for x := l.Out[s]; x < l.Out[s+1]; x++ {
			found = found || (l.Labels[l.Label[x]] == st.Label && l.Dst[x] == st.To)
		}
		require.True(t, found, "%s: step %d %v is no transition", what, i, st)
		s = st.To
	}
	if tr.IsLasso() {
		require.Equal(t, tr.Steps[tr.LoopStart].From, s, "%s: the cycle does not close", what)
	}
}

// weakTraceOf reports whether l can do the visible labels, with τ-steps
// anywhere, by the subset construction.
func weakTraceOf(l *lts.LTS, visible []string) bool {
	closure := func(set map[int32]bool) map[int32]bool {
		stack := slices.Collect(maps.Keys(set))
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for x := l.Out[v]; x < l.Out[v+1]; x++ {
				if d := l.Dst[x]; l.Label[x] == lts.Tau && !set[d] {
					set[d] = true
					stack = append(stack, d)
				}
			}
		}
		return set
	}
	cur := closure(map[int32]bool{l.Initial: true})
	for _, name := range visible {
		next := map[int32]bool{}
		for v := range cur {
			for x := l.Out[v]; x < l.Out[v+1]; x++ {
				if l.Labels[l.Label[x]] == name {
					next[l.Dst[x]] = true
				}
			}
		}
		cur = closure(next)
	}
	return len(cur) > 0
}

// TestFormulaEnglish pins the English reading of branching formulas with
// a negated chain, a conjunction, divergence, a stay condition, returns of
// one operation said together, and of a strong formula.
func TestFormulaEnglish(t *testing.T) {
	f := Until(Until(True(), "ret(2,read,0)", True()), "tau",
		And(Not(Until(True(), "call(1,write,1)", Until(True(), "ret(2,read,1)", True()))), Diverge(True())))
	assert.Equal(t, "can take τ-steps (without leaving the states that can return 0 from read in thread 2) to reach a state that "+
		"cannot call write(1) in thread 1, then return 1 from read in thread 2, but can take τ-steps forever", f.English())
	ret := func(v string) *Formula { return Until(True(), "ret(2,pop,"+v+")", True()) }
	g := Until(True(), "call(1,push,1)", Until(And(ret("EMPTY"), ret("1"), Until(True(), "call(1,pop)", ret("1"))), "tau",
		Or(Not(ret("EMPTY")), Diverge(ret("1")))))
	assert.Equal(t, "can call push(1) in thread 1, then take τ-steps (without leaving the states that can still return EMPTY as well as 1 "+
		"from pop in thread 2, and can call pop() in thread 1, then return 1 from pop in thread 2) to reach a state that "+
		"either cannot return EMPTY from pop in thread 2 or can take τ-steps forever through states that can return 1 from pop in thread 2",
		g.English())
	h := Diamond("call(1,push,1)", And(Diamond("tau", True()), Not(Diamond("ret(1,push)", True())), Diamond("x", True())))
	assert.Equal(t, "can call push(1) in thread 1 to reach a state that can take a τ-step, cannot return from push in thread 1, and can do x",
		h.English())
	long := Until(True(), "call(1,push,1)", Until(True(), "call(2,pop)", Until(True(), "ret(1,push)",
		Until(True(), "call(1,push,2)", Until(True(), "ret(1,push)", And(ret("EMPTY"), ret("1"), Not(ret("2")),
			Until(True(), "call(1,pop)", Until(True(), "ret(1,pop,2)", True()))))))))
	assert.Equal(t, "the implementation can call push(1) in thread 1, then call pop() in thread 2, then return from push in thread 1, "+
		"then call push(2) in thread 1, then return from push in thread 1. The state it reaches that way can still return EMPTY "+
		"as well as 1 from pop in thread 2; cannot return 2 from pop in thread 2; and can call pop() in thread 1, then return 2 "+
		"from pop in thread 1.", long.Sentences("the implementation"))
	assert.Equal(t, "A can take τ-steps forever.", Diverge(True()).Sentences("A"))
	assert.Equal(t, "can do a, then take 2 τ-steps, then do b, then take a τ-step",
		Diamond("a", Diamond("tau", Diamond("tau", Diamond("b", Diamond("tau", True()))))).English())
}

// shortTraceDiffers reports whether some sequence of at most n visible
// labels is a trace of one of a and b and not of the other, by enumeration.
func shortTraceDiffers(a, b *lts.LTS, n int) bool {
	var alphabet []string
	for _, l := range [2]*lts.LTS{a, b} {
		alphabet = append(alphabet, l.Labels[1:]...)
	}
	slices.Sort(alphabet)
	alphabet = slices.Compact(alphabet)
	var try func(prefix []string) bool
	try = func(prefix []string) bool {
		if weakTraceOf(a, prefix) != weakTraceOf(b, prefix) {
			return true
		}
		if len(prefix) == n || !weakTraceOf(a, prefix) {
			return false
		}
		for _, x := range alphabet {
			if try(append(slices.Clip(prefix), x)) {
				return true
			}
		}
		return false
	}
	return try(nil)
}
