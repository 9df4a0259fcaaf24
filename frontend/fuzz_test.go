package frontend

import (
	"errors"
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
		opts := DefaultOptions()
		opts.MaxStates = 300
		_, _, _ = Compile(m, Bounds{Threads: 2, Ops: 1, Values: []int{1, 2}}, opts)
	})
}
