package explore

import (
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/lts"
)

// The shortcut of canonicalStep is cross-checked in every exploration of
// the package's tests, the external ones (workers_test.go) included.
func init() { semantics.CheckSkips = true }

// TestCanonicalStepSkipsOnlyIdentities explores every bundled model, both
// objects, in both heap modes, with canonicalStep checking each renumbering
// it skips (checkSkips): it panics on one that is not the identity.
func TestCanonicalStepSkipsOnlyIdentities(t *testing.T) {
	files, err := filepath.Glob("../examples/*.lin")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		prog := checkedModel(t, f)
		for _, obj := range []*check.Object{prog.Impl, prog.Spec} {
			for _, explicit := range []bool{false, true} {
				name := strings.TrimSuffix(filepath.Base(f), ".lin") + "/" + obj.Name
				if explicit {
					name += "/explicit"
				}
				t.Run(name, func(t *testing.T) {
					l, err := Explore(prog, obj, ir.Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}, semantics.Options{Explicit: explicit, Workers: 1, MaxStates: 200_000})
					var me *semantics.ModelError
					if err != nil && !assert.ErrorAs(t, err, &me) {
						return
					}
					if l != nil {
						assert.Positive(t, l.NumStates)
					}
				})
			}
		}
	}
}

// treiberPop compiles Treiber's stack for two threads in the given heap
// mode and returns it with the entry of pop and pop's reference locals.
func treiberPop(t *testing.T, explicit bool) (*ir.Program, int32, []int32) {
	t.Helper()
	prog := checkedModel(t, "../examples/treiber.lin")
	p, err := ir.Compile(prog, prog.Impl, 2, []int{1}, false, explicit)
	require.NoError(t, err)
	var popEntry int32
	for _, m := range p.Methods {
		if m.Name == "pop" {
			popEntry = m.Entry
		}
	}
	require.NotZero(t, popEntry)
	var refs []int32
	for m := p.RefMask[popEntry]; m != 0; m &= m - 1 {
		refs = append(refs, int32(bits.TrailingZeros64(m)))
	}
	require.Len(t, refs, 2, "pop's reference locals: old, nx")
	return p, popEntry, refs
}

// TestSkipNeedsEveryReferenceWrite explores, with the self-check of
// canonicalStep on, a model whose steps move references into a thread's
// locals without allocating: a = c gives the first root another private
// node (renumbered in both modes), and the step d := b.next, a declaration
// alone, makes a node a root, numbered before the other thread's nodes in
// explicit mode (breadth-first). A write of a reference that canonicalStep
// missed would skip a renumbering that is not the identity, and the
// self-check would panic.
func TestSkipNeedsEveryReferenceWrite(t *testing.T) {
	const src = `object Locals {
  heap Node { next ref Node }
  shared top ref Node = null
  shared s int = 0
  method m() {
    a := top
    b := new Node{}
    b.next = new Node{}
    c := new Node{}
    s = 1
    a = c
    s = 2
    top = b
    d := b.next
    s = 3
    if a != d && b != c { s = 4 }
  }
}
spec auto
client { threads 2; ops 1 }`
	ast, err := syntax.Parse("locals.lin", []byte(src))
	require.NoError(t, err)
	prog, err := check.Check(ast)
	require.NoError(t, err)
	for _, explicit := range []bool{false, true} {
		l, err := Explore(prog, prog.Impl, ir.Bounds{Threads: 2, Ops: 1, Values: []int{1}}, semantics.Options{Explicit: explicit, Workers: 1})
		require.NoError(t, err)
		assert.Positive(t, l.NumStates)
	}
}

// TestCanonicalStepTakesShortcut checks the breadth-first numbering of
// explicit mode and its shortcut: on Treiber's stack most steps keep the
// numbering.
func TestCanonicalStepTakesShortcut(t *testing.T) {
	p, popEntry, refs := treiberPop(t, true)
	c := semantics.NewCanonicaliser(p, 2)
	require.False(t, c.Postorder)
	lay := &p.Layout
	// Top → node 1 → node 2; thread 1 runs pop and holds nothing yet.
	cur := append([]int32(nil), p.Init...)
	cur[lay.RefShared[0]] = 1
	cur = append(cur[:lay.HeapBase], 2, 0, 7, 2, 0, 8, 0) // nodes [freed, val, next]
	base := lay.ThreadBase(0)
	cur[base+ir.TPC] = popEntry
	// old := Top; nx := old.next: the numbering stays.
	st := append([]int32(nil), cur...)
	st[base+ir.TLocals+refs[0]], st[base+ir.TLocals+refs[1]] = 1, 2
	c.Current(cur)
	got := c.CanonicalStep(cur, st, -1, semantics.MovedShared, 0)
	assert.Same(t, &st[0], &got[0], "reading Top and Top.next keeps the numbering")
	// nx := node 2 held first, Top then moved to it: renumbered.
	st2 := append([]int32(nil), st...)
	st2[lay.RefShared[0]] = 2
	c.Current(st)
	got = c.CanonicalStep(st, st2, -1, semantics.MovedShared, 0)
	assert.Equal(t, int32(1), got[lay.RefShared[0]], "the new top is node 1")
}

// TestPostorderNumbering checks the numbering of garbage-collected mode on
// Treiber's stack: a list is numbered from its null end, so popping keeps
// every number, and a node that becomes garbage is dropped.
func TestPostorderNumbering(t *testing.T) {
	p, popEntry, refs := treiberPop(t, false)
	c := semantics.NewCanonicaliser(p, 2)
	require.True(t, c.Postorder)
	lay := &p.Layout
	top := lay.RefShared[0]
	base := lay.ThreadBase(0)
	old, nx := base+ir.TLocals+refs[0], base+ir.TLocals+refs[1]
	// Top → node 1 → node 2 is not canonical: the bottom node comes first.
	st := append([]int32(nil), p.Init...)
	st[top] = 1
	st = append(st[:lay.HeapBase], 2, 7, 2, 8, 0) // nodes [val, next]
	got := c.Canonical(st, -1)
	assert.Equal(t, int32(2), got[top])
	assert.Equal(t, []int32{2, 8, 0, 7, 1}, got[lay.HeapBase:], "node 1 is the bottom (8), node 2 the top (7)")
	cur := append([]int32(nil), got...)
	cur[base+ir.TPC] = popEntry
	// old := Top; nx := old.next; cas(Top, old, nx): Top → node 1, and
	// thread 1 holds node 2, numbered after the list: the numbers stay.
	st = append([]int32(nil), cur...)
	st[old], st[nx], st[top] = 2, 1, 1
	c.Current(cur)
	got = c.CanonicalStep(cur, st, -1, semantics.MovedShared, 0)
	assert.Same(t, &st[0], &got[0], "a pop keeps the numbering")
	// The popped node, dropped by the thread, is garbage: cut off.
	st2 := append([]int32(nil), got...)
	st2[old], st2[nx] = 0, 0
	c.Current(st)
	got = c.CanonicalStep(st, st2, -1, semantics.MovedShared, 0)
	assert.Equal(t, []int32{1, 8, 0}, got[lay.HeapBase:])
	// Top null and thread 1 holding the bottom node: the top node is
	// garbage, the bottom one keeps its number.
	st3 := append([]int32(nil), cur...)
	st3[top], st3[old] = 0, 1
	c.Current(cur)
	got = c.CanonicalStep(cur, st3, -1, semantics.MovedShared, 0)
	assert.Equal(t, []int32{1, 8, 0}, got[lay.HeapBase:])
	assert.Equal(t, int32(1), got[old])
}

// TestNodeLayoutWithSeveralHeapTypes checks the node layout that keeps a
// heap-type slot: declaring an unused heap type in front of Treiber's
// Node (which becomes heap type 2, with other reference fields than the
// new one) must not change the LTS, with and without garbage collection.
func TestNodeLayoutWithSeveralHeapTypes(t *testing.T) {
	src, err := os.ReadFile("../examples/treiber-free.lin")
	require.NoError(t, err)
	const node = "object TreiberFree {\n  heap Node {"
	require.Contains(t, string(src), node)
	padded := strings.Replace(string(src), node, "object TreiberFree {\n  heap Pad { a int; b ref Pad; c ref Pad }\n  heap Node {", 1)
	for _, explicit := range []bool{false, true} {
		t.Run(map[bool]string{false: "gc", true: "explicit"}[explicit], func(t *testing.T) {
			var ltss [2]*lts.LTS
			for i, text := range []string{string(src), padded} {
				ast, err := syntax.Parse("treiber-free.lin", []byte(text))
				require.NoError(t, err)
				prog, err := check.Check(ast)
				require.NoError(t, err)
				if i == 1 {
					require.Len(t, prog.Impl.Heaps, 2)
				}
				ltss[i], err = Explore(prog, prog.Impl, ir.Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}, semantics.Options{Explicit: explicit, Workers: 1})
				require.NoError(t, err)
			}
			a, b := ltss[0], ltss[1]
			assert.Positive(t, a.NumStates)
			assert.Equal(t, a.NumStates, b.NumStates)
			assert.Equal(t, a.Labels, b.Labels)
			assert.Equal(t, a.Src, b.Src)
			assert.Equal(t, a.Label, b.Label)
			assert.Equal(t, a.Dst, b.Dst)
		})
	}
}

// checkedModel parses and checks a model file.
func checkedModel(t testing.TB, path string) *check.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	ast, err := syntax.Parse(path, src)
	require.NoError(t, err)
	prog, err := check.Check(ast)
	require.NoError(t, err)
	return prog
}
