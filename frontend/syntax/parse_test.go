package syntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScanSemicolons checks Go's rule for statement ends: a newline after
// an identifier, a literal, a closing bracket or one of the keywords that
// can end a statement (break, continue, return, …) is a ';'.
func TestScanSemicolons(t *testing.T) {
	src := "x := any 1..3\nbreak L\ncontinue\nchoose {\n} or {\n}\nreturn\n"
	var errs ErrorList
	f := NewFile("s.lin", []byte(src))
	s := scanner{file: f, src: []byte(src), errs: &errs}
	var got []string
	for s.next(); s.tok != EOF; s.next() {
		p := f.Position(s.pos)
		got = append(got, fmt.Sprintf("%d:%d %s", p.Line, p.Col, s.tok))
	}
	require.Empty(t, errs)
	assert.Equal(t, []string{
		"1:1 identifier", "1:3 ':='", "1:6 any", "1:10 integer", "1:11 '..'", "1:13 integer", "1:14 ';' or newline",
		"2:1 break", "2:7 identifier", "2:8 ';' or newline",
		"3:1 continue", "3:9 ';' or newline",
		"4:1 choose", "4:8 '{'", "5:1 '}'", "5:3 or", "5:6 '{'", "6:1 '}'", "6:2 ';' or newline",
		"7:1 return", "7:7 ';' or newline",
	}, got)
}

// TestParseForms parses one of each form of the language's second version
// and checks the tree.
func TestParseForms(t *testing.T) {
	src := `object O {
  heap explicit
  heap Node { v int(0..3) wrap; next ref Node }
  shared x int = 0
  proc find(k int) (bool, ref Node) { return true, null }
  method m() int {
    var p ref Node
    ok, n := find(1)
    outer: while true {
      choose { break outer } or { continue } or { skip }
    }
    return any 1..3
  }
}
spec auto`
	m, err := Parse("forms.lin", []byte(src))
	require.NoError(t, err)
	o := m.Object
	assert.True(t, o.Explicit.IsValid())
	require.Len(t, o.Heaps, 1)
	assert.True(t, o.Heaps[0].Fields[0].Type.Wrap.IsValid())
	require.Len(t, o.Procs, 1)
	assert.True(t, o.Procs[0].Proc)
	assert.Len(t, o.Procs[0].Tuple, 2)
	body := o.Methods[0].Body.Stmts
	require.Len(t, body, 4)
	v := body[0].(*VarStmt)
	assert.Equal(t, "p", v.Name.Name)
	assert.Equal(t, TRef, v.Type.Kind)
	d := body[1].(*DefineStmt)
	assert.Equal(t, "ok", d.Name.Name)
	require.Len(t, d.Rest, 1)
	assert.Equal(t, "n", d.Rest[0].Name)
	assert.Equal(t, "find", d.Value.(*CallExpr).Fun.Name)
	w := body[2].(*WhileStmt)
	require.NotNil(t, w.Label)
	assert.Equal(t, "outer", w.Label.Name)
	assert.Equal(t, w.Label.Pos, w.Start(), "a labelled loop starts at its label")
	c := w.Body.Stmts[0].(*ChooseStmt)
	require.Len(t, c.Alts, 3)
	br := c.Alts[0].Stmts[0].(*BranchStmt)
	assert.Equal(t, BREAK, br.Tok)
	assert.Equal(t, "outer", br.Label.Name)
	cont := c.Alts[1].Stmts[0].(*BranchStmt)
	assert.Equal(t, CONTINUE, cont.Tok)
	assert.Nil(t, cont.Label)
	a := body[3].(*ReturnStmt).Value.(*AnyExpr)
	assert.Equal(t, int64(1), a.Lo.(*IntLit).Value)
	assert.Equal(t, int64(3), a.Hi.(*IntLit).Value)
}

// TestParseErrors checks the first syntax error of small inputs, with its
// position.
func TestParseErrors(t *testing.T) {
	tests := []struct{ body, want string }{
		{"L: x = 1", "3:19: expected while loop after the label L, found identifier x"},
		{"choose { x = 1 }", "3:16: choose needs at least two blocks"},
		{"or { x = 1 }", "3:16: or without a preceding choose block"},
		{"x, 1 := 2", "3:19: expected identifier, found integer 1"},
		{"var p", "3:22: expected type (int, bool, ref Node, loc T or a word type), found '}'"},
		{"v := any 1 3", "3:27: expected '..', found integer 3"},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			src := "object O {\n  shared x int = 0\n  method m() { " + tc.body + " }\n}\nspec auto\n"
			_, err := Parse("e.lin", []byte(src))
			require.Error(t, err)
			first := strings.SplitN(err.Error(), "\n", 2)[0]
			assert.True(t, strings.HasPrefix(first, "e.lin:"+tc.want), "got %s", first)
		})
	}
}
