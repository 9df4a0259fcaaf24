package reduce

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/internal/testsize"
)

// randomSymmetricModel writes a random model that the symmetry check must
// accept: two methods of random statements over two shared references, a
// shared int, a heap of nodes with one or two reference fields, and the
// tid-indexed arrays HP (references) and D (ints); tid appears only as
// their index. Dereferences are guarded, so that most models run without
// a model error.
func randomSymmetricModel(r *rand.Rand) string {
	var sb strings.Builder
	fields := "value int; next ref Node"
	twoRefs := r.IntN(2) == 0
	if twoRefs {
		fields += "; other ref Node"
	}
	fmt.Fprintf(&sb, "object R {\n  heap Node { %s }\n  shared Top ref Node = null\n  shared S ref Node = null\n  shared c int = 0\n", fields)
	sb.WriteString("  shared HP [1..nthreads] ref Node = null\n  shared D [1..nthreads] int = 0\n")
	sb.WriteString("  shared owner int = 0\n  shared Last [1..nthreads] int = 0\n")
	g := &randGen{r: r, sb: &sb, twoRefs: twoRefs}
	for m := range 2 {
		// The stores that never run (if false) make owner, Last and w hold
		// thread ids in every model, without steps of their own.
		// A private node (a new one) makes threads at the same point tie
		// with a marker in their keys: their orders are tried.
		first := g.pick("Top", "new Node{value: v, next: Top}")
		fmt.Fprintf(&sb, "  method m%d(v int) int {\n    a := %s\n    b := S\n    k := 0\n    me := tid\n    w := 0\n    if false { owner = me; Last[tid] = me; w = me }\n", m, first)
		for range 1 + r.IntN(4) {
			g.stmt(2, "    ")
		}
		sb.WriteString("    return k\n  }\n")
	}
	sb.WriteString("}\nspec auto\n")
	return sb.String()
}

// randGen writes random statements.
type randGen struct {
	r       *rand.Rand
	sb      *strings.Builder
	twoRefs bool
}

func (g *randGen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

// ref is a random reference expression without dereference.
func (g *randGen) ref() string { return g.pick("a", "b", "Top", "S", "HP[tid]", "null") }

// refLocal is a random reference local.
func (g *randGen) refLocal() string { return g.pick("a", "b") }

// field is a random reference field.
func (g *randGen) field() string {
	if g.twoRefs && g.r.IntN(2) == 0 {
		return "other"
	}
	return "next"
}

// data is a random int expression that stays small.
func (g *randGen) data() string { return g.pick("v", "k", "c", "D[tid]", "1 - c", "0") }

func (g *randGen) stmt(depth int, indent string) {
	w := func(format string, args ...any) {
		g.sb.WriteString(indent)
		fmt.Fprintf(g.sb, format, args...)
		g.sb.WriteByte('\n')
	}
	n := 14
	if depth == 0 {
		n = 10 // no compound statements
	}
	if g.r.IntN(4) == 0 {
		g.threadIDStmt(w)
		return
	}
	switch g.r.IntN(n) {
	case 0:
		w("%s = %s", g.refLocal(), g.pick("Top", "S", "HP[tid]", "a", "b"))
	case 1:
		w("%s = %s", g.pick("Top", "S", "HP[tid]"), g.ref())
	case 2:
		w("%s = new Node{value: %s, next: %s}", g.pick("a", "b", "Top", "S"), g.data(), g.ref())
	case 3:
		l := g.refLocal()
		w("if %s != null { %s.%s = %s }", l, l, g.field(), g.ref())
	case 4:
		l := g.refLocal()
		w("if %s != null { %s = %s.%s }", l, g.refLocal(), l, g.field())
	case 5:
		l := g.refLocal()
		if g.r.IntN(2) == 0 {
			w("if %s != null { %s.value = %s }", l, l, g.data())
		} else {
			w("if %s != null { k = %s.value }", l, l)
		}
	case 6:
		w("if cas(%s, %s, %s) { k = %s }", g.pick("Top", "S"), g.ref(), g.ref(), g.data())
	case 7:
		w("%s = %s", g.pick("c", "k", "D[tid]"), g.data())
	case 8:
		w("if %s == %s { k = %s }", g.ref(), g.ref(), g.data())
	case 9:
		w("if %s { %s = %s }", g.pick("c == 0", "k == v", "D[tid] == 1"), g.pick("c", "D[tid]"), g.data())
	case 10, 11:
		w("atomic {")
		for range 1 + g.r.IntN(3) {
			g.stmt(depth-1, indent+"  ")
		}
		w("}")
	case 12:
		w("if %s == %s {", g.ref(), g.ref())
		g.stmt(depth-1, indent+"  ")
		w("}")
	case 13:
		// A bounded loop: it ends once D[tid] is set (each iteration may
		// also read shared state).
		w("while D[tid] == 0 {")
		g.stmt(depth-1, indent+"  ")
		w("  D[tid] = 1")
		w("}")
	}
}

// threadIDStmt writes a random statement that stores, compares or indexes
// by thread ids: tid, the locals me and w, owner and Last hold them.
func (g *randGen) threadIDStmt(w func(format string, args ...any)) {
	id := func() string { return g.pick("me", "w", "owner", "Last[tid]", "tid") }
	switch g.r.IntN(6) {
	case 0:
		w("if cas(owner, %s, %s) { k = v }", g.pick("0", "me", "w"), g.pick("0", "me", "w", "tid"))
	case 1:
		w("if %s == %s { %s = 0 }", id(), id(), g.pick("owner", "w", "Last[tid]"))
	case 2:
		w("%s = %s", g.pick("w", "owner", "Last[tid]", "Last[me]"), g.pick("owner", "me", "w", "Last[tid]", "tid", "0"))
	case 3:
		w("if w != 0 { %s = HP[w] }", g.refLocal())
	case 4:
		w("if w != 0 && w != me { D[w] = %s }", g.data())
	case 5:
		w("if %s != 0 { k = 1 }", id())
	}
}

// TestSymmetryRandomModels checks canon and the claim of the static check
// (permutations map transitions to transitions) on random symmetric
// models at three threads, in both heap modes: see checkRepresentatives.
func TestSymmetryRandomModels(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 7))
	models := testsize.Count(10, 40)
	checked := 0
	var enumerated int64
	for i := range models {
		src := randomSymmetricModel(r)
		ast, err := syntax.Parse(fmt.Sprintf("random%d.lin", i), []byte(src))
		require.NoError(t, err, src)
		prog, err := check.Check(ast)
		require.NoError(t, err, src)
		b := ir.Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}
		for _, explicit := range []bool{false, true} {
			for _, obj := range []*check.Object{prog.Impl, prog.Spec} {
				x, err := tryExploreStates(prog, obj, b, explicit, 5_000)
				var me *semantics.ModelError
				if errors.As(err, &me) || errors.Is(err, semantics.ErrStateLimit) {
					continue
				}
				require.NoError(t, err, src)
				s, reason := NewSymmetry(x.p, b)
				require.NotNil(t, s, "%s\n%s", reason, src)
				ok := t.Run(fmt.Sprintf("model%d/%s/explicit=%v", i, obj.Name, explicit), func(t *testing.T) {
					checkRepresentatives(t, r, x, s)
				})
				require.True(t, ok, src)
				checked++
				enumerated += s.counts.enumerated
			}
		}
	}
	// Most random models explore without a model error within the limit.
	t.Logf("%d explorations of %d random models checked; %d canonicalisations tried tied orders", checked, models, enumerated)
	require.Greater(t, checked, models, "explorations checked")
	require.Positive(t, enumerated, "some states have tied threads whose orders are tried")
}
