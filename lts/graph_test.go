package lts

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/internal/testsize"
)

// randomLTS returns a seeded random LTS with n states, m transitions and
// the given number of visible labels, all in its label table whether used
// or not: a step is τ with probability 1/3 and else drawn uniformly among
// τ and the labels.
func randomLTS(rng *rand.Rand, n, m, labels int) *LTS {
	names := make([]string, labels)
	b := NewBuilder()
	for i := range names {
		names[i] = string(rune('a' + i))
		b.Label(names[i])
	}
	randlts.Fill(rng, b, randlts.Config{States: n, Transitions: m, Labels: names, Tau: 1.0/3 + 2.0/3/float64(labels+1)})
	return b.Build()
}

// tauReach computes τ-reachability by a fixpoint, the oracle for SCCs.
func tauReach(l *LTS) [][]bool {
	n := int(l.NumStates)
	r := make([][]bool, n)
	for s := range r {
		r[s] = make([]bool, n)
		r[s][s] = true
	}
	for changed := true; changed; {
		changed = false
		for t := range l.Src {
			if l.Label[t] != Tau {
				continue
			}
			s, d := l.Src[t], l.Dst[t]
			for x := 0; x < n; x++ {
				if r[d][x] && !r[s][x] {
					r[s][x] = true
					changed = true
				}
			}
		}
	}
	return r
}

func TestTauSCCsAgainstReachability(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range testsize.Count(500, 5000) {
		l := randomLTS(rng, 1+rng.IntN(12), rng.IntN(30), 2)
		comp, count := TauSCCs(l)
		reach := tauReach(l)
		for s := int32(0); s < l.NumStates; s++ {
			require.Less(t, comp[s], count)
			for d := int32(0); d < l.NumStates; d++ {
				same := reach[s][d] && reach[d][s]
				require.Equal(t, same, comp[s] == comp[d], "states %d,%d", s, d)
				if reach[s][d] && comp[s] != comp[d] {
					require.Greater(t, comp[s], comp[d], "reverse topological order")
				}
			}
		}
	}
}

// tarjanSCCs is Tarjan's algorithm in its textbook form, with three arrays
// per state, as SCCs was before it took Pearce's form: the reference that
// SCCs must agree with number for number.
func tarjanSCCs(l *LTS, keep func(t int32) bool) (comp []int32, count int32) {
	n := l.NumStates
	const unvisited = -1
	// index[s] is the DFS number of s, low[s] its low-link; comp[s] is
	// unvisited until s is assigned to a component.
	index := make([]int32, n)
	low := make([]int32, n)
	comp = make([]int32, n)
	for i := range index {
		index[i] = unvisited
		comp[i] = unvisited
	}
	var stack []int32 // Tarjan's stack of states not yet in a component
	type frame struct{ state, next int32 }
	var calls []frame // the explicit DFS call stack
	var counter int32
	for root := int32(0); root < n; root++ {
		if index[root] != unvisited {
			continue
		}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		calls = append(calls, frame{root, l.Out[root]})
		for len(calls) > 0 {
			top := &calls[len(calls)-1]
			s := top.state
			descended := false
			for top.next < l.Out[s+1] {
				t := top.next
				top.next++
				if !keep(t) {
					continue
				}
				d := l.Dst[t]
				if index[d] == unvisited {
					index[d], low[d] = counter, counter
					counter++
					stack = append(stack, d)
					calls = append(calls, frame{d, l.Out[d]})
					descended = true
					break
				}
				if comp[d] == unvisited && index[d] < low[s] {
					low[s] = index[d] // d is on the stack
				}
			}
			if descended {
				continue
			}
			calls = calls[:len(calls)-1]
			if low[s] == index[s] {
				for {
					v := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[v] = count
					if v == s {
						break
					}
				}
				count++
			}
			if len(calls) > 0 {
				parent := calls[len(calls)-1].state
				if low[s] < low[parent] {
					low[parent] = low[s]
				}
			}
		}
	}
	return comp, count
}

func TestSCCsNumberAsTarjan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for i := range testsize.Count(3000, 30_000) {
		l := randomLTS(rng, 1+rng.IntN(40), rng.IntN(120), 1+rng.IntN(3))
		preds := map[string]func(int32) bool{
			"tau": func(t int32) bool { return l.Label[t] == Tau },
			"all": func(int32) bool { return true },
			"odd": func(t int32) bool { return t%2 == 1 },
		}
		for name, keep := range preds {
			want, wantCount := tarjanSCCs(l, keep)
			got, gotCount := SCCs(l, keep)
			require.Equal(t, wantCount, gotCount, "LTS %d, %s", i, name)
			require.Equal(t, want, got, "LTS %d, %s", i, name)
		}
	}
}

// TestTauSCCsEachReportsComponents checks that TauSCCsEach hands each
// component's states to done exactly once, in the order of the
// components' numbers, and numbers them as TauSCCs does; and that
// componentOf gives there the final number of every member and of every
// target of a member's τ-step.
func TestTauSCCsEachReportsComponents(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 5))
	for i := range testsize.Count(3000, 30_000) {
		l := randomLTS(rng, 1+rng.IntN(40), rng.IntN(120), 1+rng.IntN(3))
		want, wantCount := TauSCCs(l)
		var reported [][]int32
		got, gotCount := TauSCCsEach(l, func(members []int32, componentOf func(int32) int32) {
			reported = append(reported, slices.Sorted(slices.Values(members)))
			for _, s := range members {
				require.Equal(t, want[s], componentOf(s), "LTS %d, member %d", i, s)
				for tr := l.Out[s]; tr < l.Out[s+1]; tr++ {
					if d := l.Dst[tr]; l.Label[tr] == Tau {
						require.Equal(t, want[d], componentOf(d), "LTS %d, τ-target %d", i, d)
					}
				}
			}
		})
		require.Equal(t, want, got, "LTS %d", i)
		require.Equal(t, wantCount, gotCount, "LTS %d", i)
		byComp := make([][]int32, wantCount)
		for s, c := range want {
			byComp[c] = append(byComp[c], int32(s))
		}
		require.Equal(t, byComp, reported, "LTS %d", i)
	}
}

// TestTauComponentsListsMembers checks that TauComponents numbers the
// components as TauSCCs does, for any number of workers, with the search
// on a copy of the τ-steps (at most half of the transitions) and on the
// LTS itself, and lists each component's states exactly once, under its
// number.
func TestTauComponentsListsMembers(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 6))
	copied := 0
	for i := range testsize.Count(3000, 30_000) {
		l := randomLTS(rng, 1+rng.IntN(40), rng.IntN(120), 1+rng.IntN(4))
		want, wantCount := TauSCCs(l)
		byComp := make([][]int32, wantCount)
		for s, c := range want {
			byComp[c] = append(byComp[c], int32(s))
		}
		if tauGraph(l, 1) != nil {
			copied++
		}
		for _, workers := range []int{1, 2, 3} {
			comp, count, members, first := TauComponents(l, workers)
			require.Equal(t, want, comp, "LTS %d, %d workers", i, workers)
			require.Equal(t, wantCount, count, "LTS %d, %d workers", i, workers)
			require.Len(t, first, int(count)+1, "LTS %d, %d workers", i, workers)
			listed := make([][]int32, count)
			for c := range count {
				listed[c] = slices.Sorted(slices.Values(members[first[c]:first[c+1]]))
			}
			require.Equal(t, byComp, listed, "LTS %d, %d workers", i, workers)
		}
	}
	// Both ways of searching were taken, each often.
	n := testsize.Count(3000, 30_000)
	assert.Greater(t, copied, n/10)
	assert.Less(t, copied, n-n/10)
}

func TestTauSCCsDeepPathNoRecursion(t *testing.T) {
	// A τ-path of 2 M states closed into one cycle: one SCC, no stack overflow.
	const n = 2_000_000
	b := NewBuilder()
	b.SetNumStates(n)
	b.Grow(n)
	for s := int32(0); s < n; s++ {
		b.AddTransition(s, Tau, (s+1)%n)
	}
	_, count := TauSCCs(b.Build())
	assert.Equal(t, int32(1), count)
}

func TestContractTauSCCs(t *testing.T) {
	// 0 -τ-> 1 -τ-> 0 (a τ-cycle), 1 -a-> 2, 2 -τ-> 3, 3 -b-> 3.
	l := FromTriples(0, 4, []Triple{{0, "tau", 1}, {1, "tau", 0}, {1, "a", 2}, {0, "a", 2}, {2, "tau", 3}, {3, "b", 3}})
	for _, mark := range []bool{false, true} {
		c, comp := ContractTauSCCs(l, mark)
		require.NoError(t, c.Validate())
		assert.Equal(t, int32(3), c.NumStates)
		assert.Equal(t, comp[0], comp[1])
		assert.Equal(t, comp[0], c.Initial)
		want := []string{
			sprint(comp[0], "a", comp[2]), sprint(comp[2], "tau", comp[3]), sprint(comp[3], "b", comp[3]),
		}
		if mark {
			want = append(want, sprint(comp[0], "tau", comp[0]))
		}
		assert.ElementsMatch(t, want, triples(c), "duplicates merged, inner τ dropped")
	}
}

func sprint(s int32, label string, d int32) string {
	return triples(FromTriples(0, max(s, d)+1, []Triple{{s, label, d}}))[0]
}

func TestCanonicalSortsAndDedupes(t *testing.T) {
	l := FromTriples(0, 3, []Triple{{2, "b", 0}, {0, "b", 1}, {0, "a", 2}, {0, "b", 1}, {0, "a", 1}})
	c := Canonical(l)
	require.NoError(t, c.Validate())
	var got []Triple
	for i := range c.Src {
		got = append(got, Triple{c.Src[i], c.LabelName(int32(i)), c.Dst[i]})
	}
	assert.Equal(t, []Triple{{0, "b", 1}, {0, "a", 1}, {0, "a", 2}, {2, "b", 0}}, got,
		"sorted by source, then label id (b was interned first), then target")
}

func TestReachable(t *testing.T) {
	l := FromTriples(2, 5, []Triple{{2, "a", 4}, {4, "tau", 2}, {0, "b", 1}, {4, "c", 3}})
	r, m := Reachable(l)
	require.NoError(t, r.Validate())
	assert.Equal(t, int32(3), r.NumStates)
	assert.Equal(t, int32(0), r.Initial)
	assert.Equal(t, []int32{-1, -1, 0, 2, 1}, m)
	assert.Equal(t, 3, r.NumTransitions())
}

func TestUnion(t *testing.T) {
	a := FromTriples(0, 2, []Triple{{0, "a", 1}})
	b := FromTriples(1, 2, []Triple{{1, "b", 0}, {0, "a", 1}})
	u, off := Union(a, b)
	require.NoError(t, u.Validate())
	assert.Equal(t, int32(2), off)
	assert.Equal(t, int32(4), u.NumStates)
	assert.Equal(t, []string{"0 a 1", "2 a 3", "3 b 2"}, triples(u))
}

func TestBuilderKeepsMetaThroughSorting(t *testing.T) {
	b := NewBuilder()
	b.SetNumStates(3)
	step := b.AddStep(SourceStep{File: "m.lin", Line: 4, Col: 2, Text: "x := Top"})
	b.AddTransitionMeta(2, b.Label("ret(1,pop,1)"), 0, 1, -1)
	b.AddTransitionMeta(0, Tau, 1, 2, step)
	l := b.Build()
	require.NoError(t, l.Validate())
	assert.Equal(t, int32(2), l.ThreadOf(0))
	src, ok := l.StepOf(0)
	require.True(t, ok)
	assert.Equal(t, "m.lin:4:2: x := Top", src.String())
	_, ok = l.StepOf(1)
	assert.False(t, ok)
}

// TestBuilderMetaLimits: Meta records threads up to MaxMetaThread and up to
// MaxMetaSteps source steps; the builder refuses more rather than wrap.
func TestBuilderMetaLimits(t *testing.T) {
	b := NewBuilder()
	b.SetNumStates(2)
	b.AddTransitionMeta(0, Tau, 1, MaxMetaThread, -1)
	assert.PanicsWithValue(t, "lts: thread 256 out of 0..255", func() { b.AddTransitionMeta(0, Tau, 1, MaxMetaThread+1, -1) })
	l := b.Build()
	assert.Equal(t, int32(MaxMetaThread), l.ThreadOf(0))

	b = NewBuilder()
	for range MaxMetaSteps {
		b.AddStep(SourceStep{Text: "s"})
	}
	b.SetNumStates(1)
	b.AddTransitionMeta(0, Tau, 0, 1, MaxMetaSteps-1)
	assert.Panics(t, func() { b.AddStep(SourceStep{Text: "one too many"}) })
	l = b.Build()
	require.NoError(t, l.Validate())
	_, ok := l.StepOf(0)
	assert.True(t, ok)
}

func TestTraceExport(t *testing.T) {
	tr := &Trace{
		Title: "lock-freedom violated",
		Steps: []TraceStep{
			{From: 0, Label: "call(1,inc)", To: 1, Thread: 1},
			{From: 1, Label: "tau", To: 2, Thread: 1, Source: &SourceStep{Line: 3, Col: 5, Text: "while true {}"}},
			{From: 2, Label: "tau", To: 1, Thread: 1},
		},
		LoopStart: 1,
	}
	l := tr.LTS()
	require.NoError(t, l.Validate())
	assert.Equal(t, int32(3), l.NumStates, "a lasso closes back on the loop start")
	assert.Equal(t, []string{"call(1,inc)"}, tr.Visible())

	var text bytes.Buffer
	require.NoError(t, tr.WriteText(&text))
	assert.Contains(t, text.String(), "cycle")
	assert.Contains(t, text.String(), "3:5: while true {}")

	dir := t.TempDir()
	require.NoError(t, tr.Export(dir, "lasso"))
	for _, ext := range []string{".txt", ".aut", ".dot", ".json"} {
		_, err := os.Stat(filepath.Join(dir, "lasso"+ext))
		assert.NoError(t, err, ext)
	}
	back, err := ReadAutFile(filepath.Join(dir, "lasso.aut"), ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, triples(l), triples(back))
}

func TestStats(t *testing.T) {
	l, err := ReadAutFile("testdata/good/counter.aut", ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, Stats{
		States: 5, Transitions: 6, Labels: 3, TauTransitions: 3, DeadlockStates: 0,
		Reachable: 5, TauSCCs: 5, LargestTauSCC: 1, DivergentStates: 1,
	}, ComputeStats(l))
}

func TestReachableCountAgainstReachOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 4))
	for i := range testsize.Count(2000, 20_000) {
		l := randomLTS(rng, 1+rng.IntN(100), rng.IntN(150), 2)
		l.Initial = rng.Int32N(l.NumStates)
		order, _ := reachOrder(l)
		require.Equal(t, int32(len(order)), reachableCount(l), "LTS %d", i)
	}
}

// TestBreadthFirstNumbered holds BreadthFirstNumbered to ReachableOrder
// on random LTSs, some with every state reachable, and on their
// reachable parts, which Reachable numbers breadth-first (so that it must
// say yes there: the test is not vacuous).
func TestBreadthFirstNumbered(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 5))
	yes := 0
	for i := range testsize.Count(3000, 30_000) {
		n := 1 + rng.IntN(60)
		l := randomLTS(rng, n, rng.IntN(4*n), 2)
		if rng.IntN(2) == 0 {
			l.Initial = rng.Int32N(l.NumStates)
		}
		for _, x := range []*LTS{l, func() *LTS { r, _ := Reachable(l); return r }()} {
			order := ReachableOrder(x)
			identity := int32(len(order)) == x.NumStates
			for j, s := range order {
				identity = identity && s == int32(j)
			}
			require.Equal(t, identity, BreadthFirstNumbered(x), "LTS %d", i)
			if identity {
				yes++
			}
		}
	}
	assert.Greater(t, yes, 3000)
}

// referenceStats computes Stats the direct way: a breadth-first search for
// the reachable states, the SCCs for the τ-components.
func referenceStats(l *LTS) Stats {
	st := Stats{States: l.NumStates, Transitions: len(l.Src), Labels: len(l.Labels) - 1}
	for t := range l.Src {
		if l.Label[t] == Tau {
			st.TauTransitions++
		}
	}
	for s := range l.NumStates {
		if l.Out[s] == l.Out[s+1] {
			st.DeadlockStates++
		}
	}
	order, _ := reachOrder(l)
	st.Reachable = int32(len(order))
	comp, count := tarjanSCCs(l, func(t int32) bool { return l.Label[t] == Tau })
	st.TauSCCs = count
	size := make([]int32, count)
	for _, c := range comp {
		size[c]++
		st.LargestTauSCC = max(st.LargestTauSCC, size[c])
	}
	div := DivergentComponents(l, comp, count)
	for _, c := range comp {
		if div[c] {
			st.DivergentStates++
		}
	}
	return st
}

// TestStatsAgainstReference checks ComputeStats on random LTSs, half of
// them without τ-cycles by construction (τ only to higher states), with
// random initial states.
func TestStatsAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	for i := range testsize.Count(3000, 30_000) {
		l := randomLTS(rng, 1+rng.IntN(60), rng.IntN(150), 2)
		if i%2 == 0 {
			b := NewBuilder()
			b.SetNumStates(l.NumStates)
			for _, name := range l.Labels[1:] {
				b.Label(name)
			}
			for tr := range l.Src {
				src, lab, dst := l.Src[tr], l.Label[tr], l.Dst[tr]
				if lab == Tau && src >= dst {
					if src == dst {
						continue
					}
					src, dst = dst, src
				}
				b.AddTransition(src, lab, dst)
			}
			l = b.Build()
		}
		l.Initial = rng.Int32N(l.NumStates)
		require.Equal(t, referenceStats(l), ComputeStats(l), "LTS %d", i)
	}
}

// TestSCCsEachWhile checks the search over every transition: completed, it
// numbers as SCCs with every transition kept and reports each component
// once, in order, with componentOf right for every member's target; it
// reports to onCycle exactly transitions that lie on a cycle (both ends in
// one component), at least one of every component that has a cycle; and
// it stops, with completed false, where onCycle or done asks.
func TestSCCsEachWhile(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	all := func(int32) bool { return true }
	for i := range testsize.Count(3000, 30_000) {
		l := randomLTS(rng, 1+rng.IntN(40), rng.IntN(90), 1+rng.IntN(3))
		want, wantCount := SCCs(l, all)
		cyclic := make([]bool, wantCount) // components with an edge inside
		for tr := range l.Dst {
			if want[l.Src[tr]] == want[l.Dst[tr]] {
				cyclic[want[l.Src[tr]]] = true
			}
		}
		seen := make([]bool, wantCount)
		next := int32(0)
		got, gotCount, completed := SCCsEachWhile(l,
			func(tr int32) bool {
				c := want[l.Src[tr]]
				require.Equal(t, c, want[l.Dst[tr]], "LTS %d: transition %d is on no cycle", i, tr)
				seen[c] = true
				return false
			},
			func(members []int32, componentOf func(int32) int32) bool {
				for _, s := range members {
					require.Equal(t, next, want[s], "LTS %d, member %d", i, s)
					require.Equal(t, want[s], componentOf(s), "LTS %d, member %d", i, s)
					for tr := l.Out[s]; tr < l.Out[s+1]; tr++ {
						require.Equal(t, want[l.Dst[tr]], componentOf(l.Dst[tr]), "LTS %d, target of %d", i, tr)
					}
				}
				next++
				return true
			})
		require.True(t, completed, "LTS %d", i)
		require.Equal(t, want, got, "LTS %d", i)
		require.Equal(t, wantCount, gotCount, "LTS %d", i)
		require.Equal(t, wantCount, next, "LTS %d", i)
		require.Equal(t, cyclic, seen, "LTS %d: a cycle whose transitions onCycle never saw", i)

		// Stopped by done at a random component, or by onCycle at the first
		// transition on a cycle.
		stopAt, calls := rng.Int32N(wantCount), int32(0)
		got, _, completed = SCCsEachWhile(l, nil, func([]int32, func(int32) int32) bool {
			calls++
			return calls <= stopAt
		})
		require.False(t, completed, "LTS %d", i)
		require.Nil(t, got)
		require.Equal(t, stopAt+1, calls, "LTS %d", i)
		_, _, completed = SCCsEachWhile(l, func(int32) bool { return true }, nil)
		require.Equal(t, !slices.Contains(cyclic, true), completed, "LTS %d", i)
	}
}
