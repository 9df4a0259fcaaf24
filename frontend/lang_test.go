package frontend

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// autOf compiles the implementation of the model src under b and returns
// it in .aut form.
func autOf(t *testing.T, src string, b Bounds) string {
	t.Helper()
	m, err := Parse("golden.lin", []byte(src))
	require.NoError(t, err)
	impl, err := CompileImpl(m, b, Options{})
	require.NoError(t, err)
	require.NoError(t, impl.Validate())
	var buf bytes.Buffer
	require.NoError(t, lts.WriteAut(&buf, impl))
	return buf.String()
}

// TestGoldenLanguageForms pins the LTS of one small model per language
// form, each derived by hand in its comment (one thread, one operation:
// state 0 is idle, the call leads to state 1). A τ is one step: at most
// one statement that touches shared state, with the local work around it
// (LANGUAGE.md, Granularity).
func TestGoldenLanguageForms(t *testing.T) {
	one := Bounds{Threads: 1, Ops: 1, Values: []int{1}}
	tests := []struct {
		name, src, aut string
	}{{
		// choose: from 1 the step picks a block (local) and writes x
		// (shared), then stops before the return: two τ to 2 (x=1) and
		// 3 (x=2); each returns its x.
		name: "choose",
		src: `object O {
  shared x int = 0
  method m() int {
    choose { x = 1 } or { x = 2 }
    return x
  }
}
spec auto`,
		aut: `des (0, 5, 6)
(0,"call(1,m)",1)
(1,"tau",2)
(1,"tau",3)
(2,"ret(1,m,1)",4)
(3,"ret(1,m,2)",5)
`,
	}, {
		// any: v := any 1..3 is local work, so the return (which reads
		// only v) is the step itself: three rets from 1, all to the one
		// idle state 2 (the locals are cleared).
		name: "any",
		src: `object O {
  shared x int = 0
  method m() int { v := any 1..3; return v }
}
spec auto`,
		aut: `des (0, 4, 3)
(0,"call(1,m)",1)
(1,"ret(1,m,1)",2)
(1,"ret(1,m,2)",2)
(1,"ret(1,m,3)",2)
`,
	}, {
		// Labelled break and continue: at the loop head with x = k the
		// step reads x (if x == 2) and stops before x = x + 1 (1 → 2,
		// 3 → 4); the next writes x and the continue is a back edge that
		// ends the step (2 → 3 with x = 1, 4 → 5 with x = 2); at x = 2
		// break outer leaves both loops and the step stops before the
		// return (5 → 6), which is the ret step (6 → 7).
		name: "break-continue",
		src: `object O {
  shared x int = 0
  method m() {
    outer: while true {
      while true {
        if x == 2 { break outer }
        x = x + 1
        continue outer
      }
    }
  }
}
spec auto`,
		aut: `des (0, 7, 8)
(0,"call(1,m)",1)
(1,"tau",2)
(2,"tau",3)
(3,"tau",4)
(4,"tau",5)
(5,"tau",6)
(6,"ret(1,m)",7)
`,
	}, {
		// faa and swap: faa(x, 2), a statement, is a shared step of its
		// own (x = 3) that stops before the return, which touches x
		// again; the return's swap gives x's old value 3, in the ret
		// step itself.
		name: "swap-faa",
		src: `object O {
  shared x int = 1
  method m() int { faa(x, 2); return swap(x, 7) }
}
spec auto`,
		aut: `des (0, 3, 4)
(0,"call(1,m)",1)
(1,"tau",2)
(2,"ret(1,m,3)",3)
`,
	}, {
		// faa on a wrapping range: t gets the old 1, c wraps to 0; the
		// step stops before the return, which reads c.
		name: "faa-wrap",
		src: `object O {
  shared c int(0..1) wrap = 1
  method m() int { t := faa(c, 1); return t + c * 10 }
}
spec auto`,
		aut: `des (0, 3, 4)
(0,"call(1,m)",1)
(1,"tau",2)
(2,"ret(1,m,1)",3)
`,
	}, {
		// var: p starts as null and n as 2 without touching shared
		// state, so the return is the step itself: one ret.
		name: "var",
		src: `object O {
  heap Node { v int }
  shared x int = 0
  method m() bool {
    var p ref Node
    var n int = 2
    return p == null && n == 2
  }
}
spec auto`,
		aut: `des (0, 2, 3)
(0,"call(1,m)",1)
(1,"ret(1,m,true)",2)
`,
	}, {
		// A procedure is inlined: passing d is local work; from 1 the
		// step writes x (x = x + d) and stops before the return's read of
		// x, which assigns v (1 → 2); then the method's return is a step
		// boundary after that shared read (2 → 3), and the ret (3 → 4).
		name: "proc",
		src:  procModel,
		aut: `des (0, 4, 5)
(0,"call(1,m)",1)
(1,"tau",2)
(2,"tau",3)
(3,"ret(1,m,2)",4)
`,
	}, {
		// A tuple result: both values are local, so the whole call and
		// the method's return are one step: one ret with q + r = 7.
		name: "proc-tuple",
		src: `object O {
  shared x int = 0
  proc divmod(a int, b int) (int, int) { return a / b, a % b }
  method m() int { q, r := divmod(23, 4); return q + r }
}
spec auto`,
		aut: `des (0, 2, 3)
(0,"call(1,m)",1)
(1,"ret(1,m,8)",2)
`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.aut, autOf(t, tc.src, one))
		})
	}
}

// TestGoldenWrap pins a wrap-around counter under ops forever: one
// thread, c in 0..2. From idle with c = k (states 0, 3, 6 for k = 0, 1,
// 2) the call leads to the increment (1, 4, 7), whose step stores
// k+1 mod 3 and stops before the return's read of c (2, 5, 8), then the
// ret reports it: 9 states, 9 transitions, a cycle of three operations
// instead of a range error.
func TestGoldenWrap(t *testing.T) {
	src := `object O {
  shared c int(0..2) wrap = 0
  method inc() int { c = c + 1; return c }
}
spec auto`
	want := `des (0, 9, 9)
(0,"call(1,inc)",1)
(1,"tau",2)
(2,"ret(1,inc,1)",3)
(3,"call(1,inc)",4)
(4,"tau",5)
(5,"ret(1,inc,2)",6)
(6,"call(1,inc)",7)
(7,"tau",8)
(8,"ret(1,inc,0)",0)
`
	assert.Equal(t, want, autOf(t, src, Bounds{Threads: 1, Ops: -1, Values: []int{1}}))
}

// TestHeapExplicitDeclared checks that `heap explicit` in a model gives
// exactly the LTS that the explicit option gives for the model without
// it (the pinned treiber-free digests).
func TestHeapExplicitDeclared(t *testing.T) {
	src, err := Example("treiber-free")
	require.NoError(t, err)
	decl := bytes.Replace(src, []byte("heap Node"), []byte("heap explicit\n  heap Node"), 1)
	require.NotEqual(t, src, decl)
	m, err := Parse("treiber-free.lin", decl)
	require.NoError(t, err)
	impl, spec, err := Compile(m, Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}, Options{})
	require.NoError(t, err)
	assert.Equal(t, "e03e7ea73d296d99", ltsDigest(impl))
	assert.Equal(t, "aa873d9344cbb3b6", ltsDigest(spec))
}

// procModel calls a procedure that touches shared state.
const procModel = `object O {
  shared x int = 0
  proc bump(d int) int {
    x = x + d
    return x
  }
  method m() int { v := bump(2); return v }
}
spec auto`

// TestProcedureStepsKeepTheirLines checks that the steps of an inlined
// procedure point at the procedure's own source lines and name it.
func TestProcedureStepsKeepTheirLines(t *testing.T) {
	m, err := Parse("golden.lin", []byte(procModel))
	require.NoError(t, err)
	impl, err := CompileImpl(m, Bounds{Threads: 1, Ops: 1, Values: []int{1}}, Options{})
	require.NoError(t, err)
	var got []string
	for tr := range impl.Src {
		if impl.Label[tr] != lts.Tau {
			continue
		}
		st, ok := impl.StepOf(int32(tr))
		require.True(t, ok)
		got = append(got, fmt.Sprintf("%d %s: %s", st.Line, st.Procedure, st.Text))
	}
	assert.Equal(t, []string{"4 bump: x = x + d", "5 bump: return x"}, got)
}

// TestRewritesKeepTheLTS rewrites bundled models as their papers write
// them, with procedures and break, and requires the same LTS. A
// procedure called with locals adds no source step, so the pinned digest
// (which includes the source step of every transition) is unchanged; a
// rewrite that drops a statement (a flag) renumbers the source steps
// after it, so there the .aut text (states, transitions, labels) must be
// byte-identical.
func TestRewritesKeepTheLTS(t *testing.T) {
	tests := []struct {
		model      string
		old, new   string
		sameDigest bool
	}{{
		// Treiber's push with its CAS attempt as a procedure.
		model: "treiber",
		old: `    while !done {
      old := Top
      x.next = old
      done = cas(Top, old, x)
    }`,
		new: `    while !done {
      done = tryPush(x)
    }`,
		sameDigest: true,
	}, {
		// Michael and Scott's enqueue (PODC 1996, Fig. 1): the loop
		// breaks after linking the node, and Tail is swung after it.
		model: "ms-queue",
		old: `    while true {
      t := Tail
      nx := t.next
      if t == Tail {
        if nx == null {
          if cas(t.next, nx, n) {
            cas(Tail, t, n)
            return
          }
        } else {`,
		new: `    var t ref Node
    while true {
      t = Tail
      nx := t.next
      if t == Tail {
        if nx == null {
          if cas(t.next, nx, n) {
            break
          }
        } else {`,
	}}
	b := Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}
	for _, tc := range tests {
		t.Run(tc.model, func(t *testing.T) {
			src, err := Example(tc.model)
			require.NoError(t, err)
			require.Contains(t, string(src), tc.old)
			rewritten := strings.Replace(string(src), tc.old, tc.new, 1)
			switch tc.model {
			case "treiber":
				rewritten = strings.Replace(rewritten, "  method push", `  proc tryPush(x ref Node) bool {
    old := Top
    x.next = old
    return cas(Top, old, x)
  }

  method push`, 1)
			case "ms-queue":
				rewritten = strings.Replace(rewritten, `          cas(Tail, t, nx)
        }
      }
    }
  }`, `          cas(Tail, t, nx)
        }
      }
    }
    cas(Tail, t, n)
  }`, 1)
			}
			orig, err := Parse(tc.model+".lin", src)
			require.NoError(t, err)
			m, err := Parse(tc.model+".lin", []byte(rewritten))
			require.NoError(t, err, rewritten)
			want, err := CompileImpl(orig, b, Options{})
			require.NoError(t, err)
			got, err := CompileImpl(m, b, Options{})
			require.NoError(t, err)
			var wantAut, gotAut bytes.Buffer
			require.NoError(t, lts.WriteAut(&wantAut, want))
			require.NoError(t, lts.WriteAut(&gotAut, got))
			assert.Equal(t, wantAut.String(), gotAut.String())
			if tc.sameDigest {
				assert.Equal(t, ltsDigest(want), ltsDigest(got))
			}
		})
	}
}

// TestRMWModelErrors: faa's sum is checked as a store is, against the
// int bounds and the location's declared range, and so is swap's value
// against the range; each is a model error at the access.
func TestRMWModelErrors(t *testing.T) {
	for _, c := range []struct{ name, decl, stmt, msg string }{
		{"faa past the range", "shared c int(0..2) = 2", "faa(c, 1)", "value 3 out of the declared range"},
		{"faa overflow", "shared c int = 16777216", "t := faa(c, 1)", "integer overflow"},
		{"swap past the range", "shared c int(0..2) = 0", "t := swap(c, 5)", "value 5 out of the declared range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "object O {\n  " + c.decl + "\n  method m() {\n    " + c.stmt + "\n  }\n}\nspec auto"
			me := modelError(t, "r.lin", src, Bounds{Threads: 1, Ops: 1, Values: []int{1}})
			assert.Contains(t, me.Msg, c.msg)
			assert.True(t, strings.HasPrefix(me.Error(), "r.lin:4:"), me.Error())
		})
	}
}

// TestProcedureCallsInExpressions: a call of a procedure inside an
// expression is `t := p(…)` written before the statement (inside && and
// ||, only when the left side lets the right be evaluated; in a loop's
// condition, on every iteration): each model gives the same LTS as its
// hand-written expansion, at 2 threads × 2 operations.
func TestProcedureCallsInExpressions(t *testing.T) {
	const decls = `  heap Node { key int; next ref Node }
  word W { r ref Node; n int }
  shared Head ref Node = null
  shared Top W
  shared Ws [2] W
  shared x int = 0
  proc validate(p ref Node, k int) bool { return p.key == k && Head == p }
  proc inc(d int) int { v := x; x = v + d; return v }
  proc mk(p ref Node) W { return W(p, x) }
`
	for _, c := range []struct{ name, body, expanded string }{
		{"if", `n := new Node{key: k}
    Head = n
    if validate(n, k) { return 1 }
    return 0`, `n := new Node{key: k}
    Head = n
    t := validate(n, k)
    if t { return 1 }
    return 0`},
		{"short circuit", `p := Head
    if p != null && validate(p, k) { return 1 }
    if p == null || !validate(p, 2) { return 2 }
    return 0`, `p := Head
    t := p != null
    if t { t = validate(p, k) }
    if t { return 1 }
    u := p == null
    if !u { v := validate(p, 2); u = !v }
    if u { return 2 }
    return 0`},
		{"while", `while inc(1) < 2 { x = x + k }
    return x`, `while true {
      t := inc(1)
      if !(t < 2) { break }
      x = x + k
    }
    return x`},
		{"nested and returned", `return inc(inc(k) + 1) + inc(0)`, `a := inc(k)
    b := inc(a + 1)
    c := inc(0)
    return b + c`},
		{"an index of an array of words", `Ws[inc(1) % 2] = mk(null)
    return 0`, `i := inc(1)
    w := mk(null)
    Ws[i % 2] = w
    return 0`},
		{"a word", `old := Top
    if cas(Top, old, mk(null)) { return 1 }
    return 0`, `old := Top
    w := mk(null)
    if cas(Top, old, w) { return 1 }
    return 0`},
	} {
		t.Run(c.name, func(t *testing.T) {
			model := func(body string) string {
				return "object O {\n" + decls + "  method m(k int) int {\n    " + body + "\n  }\n}\nspec auto\n"
			}
			b := Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}
			want, got := autOf(t, model(c.expanded), b), autOf(t, model(c.body), b)
			// (not assert.Equal: a diff of two LTSs would drown the report)
			assert.True(t, want == got, "the LTSs differ: %s, expanded %s", strings.SplitN(got, "\n", 2)[0], strings.SplitN(want, "\n", 2)[0])
		})
	}
}

// TestMethodAndProcedureNamespaces: a method may share its name with a
// procedure (the method that does its work in it, as the papers write
// them); in code the name is the procedure's. The call reads x (a τ
// that stops before the return, as `t := scan()` would), then returns.
func TestMethodAndProcedureNamespaces(t *testing.T) {
	src := `object O {
  shared x int = 3
  proc scan() int { return x }
  method scan() int { return scan() + 1 }
}
spec auto`
	assert.Equal(t, `des (0, 3, 4)
(0,"call(1,scan)",1)
(1,"tau",2)
(2,"ret(1,scan,4)",3)
`, autOf(t, src, Bounds{Threads: 1, Ops: 1, Values: []int{1}}))
}

// TestLocalLoopsFolded: a loop doing local work only runs within the step
// that enters it. The sum over a local array costs no τ-step per
// iteration: the step that reads x goes on through the loop and stops
// before the return (call, τ, ret). A local loop that never ends is still
// a τ-cycle once its locals repeat (the thread diverges, as before
// folding), and one whose locals never repeat is a model error, not a
// hang.
func TestLocalLoopsFolded(t *testing.T) {
	one := Bounds{Threads: 1, Ops: 1, Values: []int{1}}
	assert.Equal(t, `des (0, 3, 4)
(0,"call(1,m)",1)
(1,"tau",2)
(2,"ret(1,m,6)",3)
`, autOf(t, `object O {
  shared x int = 1
  method m() int {
    var a [3] int
    a[0] = x
    a[1] = 2
    a[2] = 3
    i := 0
    s := 0
    while i < 3 { s = s + a[i]; i = i + 1 }
    return s
  }
}
spec auto`, one))

	m, err := Parse("spin.lin", []byte(`object O {
  shared x int = 0
  method spin() { i := 0; while true { i = (i + 1) % 3 } }
}
spec auto`))
	require.NoError(t, err)
	impl, err := CompileImpl(m, one, Options{})
	require.NoError(t, err)
	assert.Positive(t, lts.ComputeStats(impl).DivergentStates, "the spinning thread diverges")

	me := modelError(t, "up.lin", `object O {
  shared x int = 0
  method up() { i := 0; while true { i = i + 1 } }
}
spec auto`, one)
	assert.Contains(t, me.Msg, "a loop doing local work only (folded into one step) that never ends?")
}
