package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/mcrl2check"
	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/lts"
)

// randomLTS is a small random LTS over a, b and τ, for cross-checks. It is
// a randlts.Builder: newRandomLTS draws it.
type randomLTS struct {
	n, initial int
	trans      [][3]int // src, label (0 τ, 1 a, 2 b), dst
}

var randomLabels = []string{randlts.TauName, "a", "b"}

// newRandomLTS draws up to five states and fewer than three transitions
// per state, τ, a and b equally likely.
func newRandomLTS(rng *rand.Rand) *randomLTS {
	r := &randomLTS{}
	n := 1 + rng.IntN(5)
	randlts.Fill(rng, r, randlts.Config{States: n, Transitions: rng.IntN(3 * n), Labels: randomLabels[1:], Tau: 1.0 / 3})
	return r
}

func (r *randomLTS) SetNumStates(n int32) { r.n = int(n) }
func (r *randomLTS) SetInitial(s int32)   { r.initial = int(s) }
func (r *randomLTS) Label(name string) int32 {
	return int32(slices.Index(randomLabels, name))
}
func (r *randomLTS) AddTransition(src, label, dst int32) {
	r.trans = append(r.trans, [3]int{int(src), int(label), int(dst)})
}

func (r *randomLTS) aut() string {
	var b strings.Builder
	fmt.Fprintf(&b, "des (%d, %d, %d)\n", r.initial, len(r.trans), r.n)
	for _, t := range r.trans {
		fmt.Fprintf(&b, "(%d,%q,%d)\n", t[0], randomLabels[t[1]], t[2])
	}
	return b.String()
}

// step returns the states reached from set by label x, closed under τ
// when weak (a naive subset construction: the oracle).
func (r *randomLTS) step(set uint32, x int, weak bool) uint32 {
	var next uint32
	for _, t := range r.trans {
		if set&(1<<t[0]) != 0 && t[1] == x {
			next |= 1 << t[2]
		}
	}
	if weak {
		next = r.closure(next)
	}
	return next
}

func (r *randomLTS) closure(set uint32) uint32 {
	for changed := true; changed; {
		changed = false
		for _, t := range r.trans {
			if t[1] == 0 && set&(1<<t[0]) != 0 && set&(1<<t[2]) == 0 {
				set |= 1 << t[2]
				changed = true
			}
		}
	}
	return set
}

// tracesIncluded is the oracle for traces(a) ⊆ traces(b): no pair of
// subsets reached by one trace where a can do an action that b cannot.
func tracesIncluded(a, b *randomLTS, weak bool) bool {
	start := [2]uint32{1 << a.initial, 1 << b.initial}
	labels := []int{0, 1, 2}
	if weak {
		start = [2]uint32{a.closure(start[0]), b.closure(start[1])}
		labels = []int{1, 2}
	}
	seen := map[[2]uint32]bool{start: true}
	for queue := [][2]uint32{start}; len(queue) > 0; queue = queue[1:] {
		p := queue[0]
		for _, x := range labels {
			na := a.step(p[0], x, weak)
			if na == 0 {
				continue
			}
			nb := b.step(p[1], x, weak)
			if nb == 0 {
				return false
			}
			if q := [2]uint32{na, nb}; !seen[q] {
				seen[q] = true
				queue = append(queue, q)
			}
		}
	}
	return true
}

// compare's mCRL2 names agree with linbis's own, and its trace relations
// with a naive subset-construction oracle, on random pairs of LTSs.
func TestCompareMCRL2NamesAndTraceRelations(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 24))
	dir := t.TempDir()
	aliases := map[string]string{"strong": "bisim", "branching": "branching-bisim", "divbranching": "dpbranching-bisim"}
	for i := 0; i < 80; i++ {
		a, b := newRandomLTS(rng), newRandomLTS(rng)
		fa := writeAut(t, dir, fmt.Sprintf("a%d.aut", i), a.aut())
		fb := writeAut(t, dir, fmt.Sprintf("b%d.aut", i), b.aut())
		exit := func(args ...string) int {
			code, _, errOut := linbis(append([]string{"compare", "-q", fa, fb}, args...)...)
			require.Contains(t, []int{0, 1}, code, errOut)
			return code
		}
		for own, mcrl2 := range aliases {
			assert.Equal(t, exit("--equiv", own), exit("-e", mcrl2), "pair %d: %s", i, own)
			assert.Equal(t, exit("--equiv", own), exit("--equivalence", mcrl2), "pair %d: %s", i, own)
		}
		for _, weak := range []bool{false, true} {
			rel := "trace"
			if weak {
				rel = "weak-trace"
			}
			ab, ba := tracesIncluded(a, b, weak), tracesIncluded(b, a, weak)
			assert.Equal(t, ab && ba, exit("-e", rel) == 0, "pair %d: %s equivalence\n%s\n%s", i, rel, a.aut(), b.aut())
			assert.Equal(t, ab, exit("--preorder", rel) == 0, "pair %d: %s preorder\n%s\n%s", i, rel, a.aut(), b.aut())
		}
		// Bisimilarity implies the trace equivalence of its kind.
		if exit("-e", "strong") == 0 {
			assert.Equal(t, 0, exit("-e", "trace"), "pair %d", i)
		}
		if exit("-e", "divbranching") == 0 {
			assert.Equal(t, 0, exit("-e", "weak-trace"), "pair %d", i)
		}
	}
}

// --tau hides actions in compare, reduce and info; given, it makes a
// label i visible unless listed, as mCRL2 reads it.
func TestTauOption(t *testing.T) {
	dir := t.TempDir()
	m := writeAut(t, dir, "m.aut", "des (0, 3, 3)\n(0,\"a\",1)\n(1,i,2)\n(2,\"b\",0)\n")
	states := func(args ...string) string {
		code, out, errOut := linbis(append([]string{"reduce", m, "-o", "-", "-q", "-e", "branching-bisim"}, args...)...)
		require.Equal(t, 0, code, errOut)
		return strings.SplitN(out, "\n", 2)[0]
	}
	assert.Equal(t, "des (0, 2, 2)", states(), "linbis (CADP): i is τ")
	assert.Equal(t, "des (0, 3, 3)", states("--tau="), "mCRL2: i is visible")
	assert.Equal(t, "des (0, 2, 2)", states("--tau=i"))
	assert.Equal(t, "des (0, 1, 1)", states("--tau=i,a"), "(0 -a-> 1 -i-> 2 -b-> 0) with a, i hidden is a b-loop")

	// The same LTS as .dot: the same readings.
	dot := filepath.Join(dir, "m.dot")
	require.NoError(t, os.WriteFile(dot, []byte("digraph {\n  0 -> 1 [label=\"a\"];\n  1 -> 2 [label=\"i\"];\n  2 -> 0 [label=\"b\"];\n}\n"), 0o644))
	m = dot
	assert.Equal(t, "des (0, 2, 2)", states(), ".dot, linbis (CADP): i is τ")
	assert.Equal(t, "des (0, 3, 3)", states("--tau="), ".dot, mCRL2: i is visible")
	assert.Equal(t, "des (0, 1, 1)", states("--tau=i,a"))
	m = filepath.Join(dir, "m.aut")

	code, out, errOut := linbis("info", m, "--labels", "--tau=b")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `τ-transitions\s+1\b`, out, "b hidden; i visible")
	assert.Regexp(t, `(?m)^\s+1  i$`, out)

	n := writeAut(t, dir, "n.aut", "des (0, 2, 3)\n(0,\"a\",1)\n(1,\"c\",2)\n")
	code, _, errOut = linbis("compare", n, filepath.Join(dir, "m.aut"), "-p", "weak-trace", "--tau", "c,b")
	assert.Equal(t, 0, code, errOut)
}

// TestCompareCounterexampleForMCRL2: `--counterexample F.mcf` writes the
// formula with its declarations F.mcrl2, and, for labels mCRL2 cannot read
// (CADP's "SEND !1", the keyword sum), copies of both LTSs with the labels
// renamed as the .mcf comments say; every label of those copies is
// declared. When mCRL2's tools are installed it runs the .mcf's commands.
func TestCompareCounterexampleForMCRL2(t *testing.T) {
	dir := t.TempDir()
	fa := writeAut(t, dir, "a.aut", "des (0, 2, 2)\n(0,\"SEND !1\",1)\n(1,\"call(1,sum,1)\",0)\n")
	fb := writeAut(t, dir, "b.aut", "des (0, 2, 2)\n(0,\"SEND !1\",1)\n(1,\"call(1,sum,1)\",1)\n")
	mcf := filepath.Join(dir, "f.mcf")
	code, _, errOut := linbis("compare", "-q", fa, fb, "--equiv", "strong", "--counterexample", mcf)
	require.Equal(t, 1, code, errOut)
	text, err := os.ReadFile(mcf)
	require.NoError(t, err)
	assert.Contains(t, string(text), `"SEND !1" -> SEND__1`)
	_, auts, err := mcrl2check.CheckCommands(mcf)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, "f-mcrl2-A.aut"), filepath.Join(dir, "f-mcrl2-B.aut")}, auts)
	for _, aut := range auts {
		l, err := lts.ReadAutFile(aut, lts.ReadOptions{})
		require.NoError(t, err)
		assert.Equal(t, []string{"tau", "SEND__1", "call(1,sum_,1)"}, l.Labels)
	}
	_, err = mcrl2check.CheckExport(mcf)
	require.NoError(t, err)
	mcrl2check.CheckIfInstalled(t, mcf)
}
