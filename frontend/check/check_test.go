package check

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/syntax"
)

func checkSource(t *testing.T, src string) (*Program, error) {
	t.Helper()
	m, err := syntax.Parse("c.lin", []byte(src))
	require.NoError(t, err)
	return Check(m)
}

// TestResolve checks what the checker records for the compiler: the loop
// of each break and continue, the procedure of each call, the types of
// locals declared by var and by a tuple definition, wrap ranges, the heap
// mode.
func TestResolve(t *testing.T) {
	src := `object O {
  heap explicit
  heap Node { v int; next ref Node }
  shared c int(0..3) wrap = 0
  proc pair(k int) (int, ref Node) { return k, null }
  method m() int {
    var p ref Node
    a, n := pair(2)
    outer: while true {
      while true { if a == 1 { break outer }; continue outer }
    }
    return a
  }
}
spec auto`
	prog, err := checkSource(t, src)
	require.NoError(t, err)
	assert.True(t, prog.Explicit)
	assert.Equal(t, "int(0..3) wrap", prog.Impl.Shared[0].Type.String())
	require.Len(t, prog.Impl.Procs, 1)
	pair := prog.Impl.Procs[0]
	assert.Equal(t, "(int, ref Node)", pair.resultString())
	m := prog.Impl.Methods[0]
	var names []string
	for _, l := range m.Locals {
		names = append(names, l.Name+" "+l.Type.String())
	}
	assert.Equal(t, []string{"p ref Node", "a int", "n ref Node"}, names)

	body := m.Decl.Body.Stmts
	outer := body[2].(*syntax.WhileStmt)
	inner := outer.Body.Stmts[0].(*syntax.WhileStmt)
	brk := inner.Body.Stmts[0].(*syntax.IfStmt).Then.Stmts[0].(*syntax.BranchStmt)
	cont := inner.Body.Stmts[1].(*syntax.BranchStmt)
	assert.Same(t, outer, prog.Info.Loops[brk])
	assert.Same(t, outer, prog.Info.Loops[cont])
	assert.True(t, prog.Info.Breaks[outer])
	assert.False(t, prog.Info.Breaks[inner])
	call := body[1].(*syntax.DefineStmt).Value.(*syntax.CallExpr)
	assert.Same(t, pair, prog.Info.Calls[call])
}

// TestCheckErrors checks errors that only the checker can find, each with
// its position, all reported in one run.
func TestCheckErrors(t *testing.T) {
	src := `object O {
  shared x int = 0
  proc p() int { v := q(); return v }
  proc q() int { v := p(); return v }
  method m() int {
    while true { break }
    continue
  }
  method n() bool { return any 1..2 }
}
spec auto`
	_, err := checkSource(t, src)
	require.Error(t, err)
	assert.Equal(t, strings.Join([]string{
		"c.lin:4:23: recursive call: p → q → p; procedures are inlined, so their calls may not form a cycle",
		"c.lin:7:5: continue is not inside a loop",
		"c.lin:8:3: missing return at the end of method m (it returns int)",
		"c.lin:9:28: cannot return int from method n (it returns bool)",
	}, "\n"), err.Error())
}
