package frontend

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/linbis/linbis/frontend/syntax"
)

// FuzzParse feeds arbitrary bytes to the parser and checker: they must
// never panic, and every failure must be a positioned ErrorList. Inputs
// that parse are also compiled under tiny bounds, which must not panic.
func FuzzParse(f *testing.F) {
	for _, name := range Examples() {
		src, _ := Example(name)
		f.Add(src)
	}
	f.Add([]byte("object O { shared c int = 0 method inc() { c = c + 1 } }\nspec auto"))
	f.Add([]byte("object O {\n method m() int { while true { atomic { return 1 } } }\n}\nspec auto\n"))
	// The forms of the language's second version.
	f.Add([]byte("object O {\n heap explicit\n heap N { v int }\n shared x int = 0\n method m() int {\n  var p ref N\n  L: while true {\n   choose { x = 1 } or { continue L } or { break }\n   if p == null { break L }\n  }\n  return any 1..3\n }\n}\nspec auto\n"))
	// Words: declaration, construction, whole reads, field reads, cas.
	f.Add([]byte("object O {\n word M { ref ref N; mark bool }\n heap N { k int; next M }\n shared H M = M(null, false)\n shared A [2] M\n method m() bool {\n  h := H\n  var w M\n  w = A[1]\n  n := new N{k: 1, next: h}\n  if h.ref != null && h.ref.next.mark { return w == h }\n  return cas(H, h, M(n, !h.mark))\n }\n}\nspec auto\n"))
	// The per-thread forms: [thread] dimensions, thread values, loops over threads.
	f.Add([]byte("object O {\n shared A [thread][2] int = 0\n shared P [thread][thread] thread\n shared w thread\n method m() {\n  var me thread = tid\n  for j in others { P[me][j] = w; A[j][1] = 1 }\n  atomic { for k in threads { if P[k][tid] == me { w = k } } }\n }\n}\nspec auto\n"))
	// A method with a tuple result.
	f.Add([]byte("object O {\n shared x int(0..3) = 1\n method r() (int(0..3), bool) {\n  a := x\n  atomic { if a > 1 { return a, true } }\n  return x, false\n }\n}\nspec auto\n"))
	// Local arrays, of scalars and of words.
	f.Add([]byte("object O {\n word W { v int; s int }\n shared R [1..2] W\n method m(k int) int {\n  var a [1..2] W\n  var b [3] int\n  i := 1\n  while i <= 2 { a[i] = R[i]; b[i] = a[i].s; i = i + 1 }\n  return a[k].v + b[k]\n }\n}\nspec auto\n"))
	// The error files: every syntax and type error path.
	errs, _ := filepath.Glob("testdata/errors/*.lin")
	for _, file := range errs {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		m, err := Parse("fuzz.lin", src)
		if err != nil {
			var list syntax.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a non-empty ErrorList: %v", err)
			}
			for _, e := range list {
				if e.Pos.Line < 1 || e.Pos.Col < 1 {
					t.Fatalf("error without position: %v", e)
				}
			}
			return
		}
		opts := Options{}
		opts.MaxStates = 300
		_, _, _ = Compile(m, Bounds{Threads: 2, Ops: 1, Values: []int{1, 2}}, opts)
	})
}
