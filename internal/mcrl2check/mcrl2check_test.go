package mcrl2check

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeclaredRejects: the reader is no rubber stamp — a label whose
// action, argument pattern or constructor is not declared is named.
func TestDeclaredRejects(t *testing.T) {
	d, err := ParseDeclarations("% comment\nsort Name = struct EMPTY | pop;\nact\n  ret: Int # Name # Name;\n  a;\n")
	require.NoError(t, err)
	assert.NoError(t, d.Declared([]string{"tau", "ret(2,pop,EMPTY)", "a"}))
	for _, l := range []string{"ret(2,pop,1)", "ret(2,push,EMPTY)", "b", "ret(2,pop)", "a(1)", "SEND !1", "ret(true,pop,EMPTY)"} {
		assert.Error(t, d.Declared([]string{l}), l)
	}
	_, err = ParseDeclarations("sort Name = struct a b;\n")
	assert.Error(t, err)
	_, err = ParseDeclarations("init a;\n")
	assert.Error(t, err)
}

// TestCheckCommands reads the commands of an .mcf file as linbis writes
// them, and refuses a file without any.
func TestCheckCommands(t *testing.T) {
	dir := t.TempDir()
	mcf := filepath.Join(dir, "f.mcf")
	require.NoError(t, os.WriteFile(mcf, []byte("% holds …\n%   lts2pbes --data=d.mcrl2 --formula=f.mcf a.aut | pbessolve   # true\n"+
		"%   lts2pbes --data=d.mcrl2 --formula=f.mcf b.aut | pbessolve   # false\n<a>true\n"), 0o644))
	data, auts, err := CheckCommands(mcf)
	require.NoError(t, err)
	assert.Equal(t, "d.mcrl2", data)
	assert.Equal(t, []string{"a.aut", "b.aut"}, auts)
	require.NoError(t, os.WriteFile(mcf, []byte("<a>true\n"), 0o644))
	_, _, err = CheckCommands(mcf)
	assert.Error(t, err)
}

// TestCheckExport: a label of an .aut file that the declarations do not
// cover is an error naming the file; a malformed .aut line too.
func TestCheckExport(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("d.mcrl2", "sort Name = struct pop;\nact\n  call: Int # Name;\n")
	write("a.aut", "des (0, 2, 2)\n(0,\"call(1,pop)\",1)\n(1,\"tau\",0)\n")
	write("b.aut", "des (0, 1, 2)\n(0,\"call(1,push)\",1)\n")
	line := func(aut, want string) string {
		return "%   lts2pbes --data=" + filepath.Join(dir, "d.mcrl2") + " --formula=f.mcf " + filepath.Join(dir, aut) + " | pbessolve   # " + want + "\n"
	}
	write("ok.mcf", line("a.aut", "true")+"<tau>true\n")
	_, err := CheckExport(filepath.Join(dir, "ok.mcf"))
	assert.NoError(t, err)
	write("bad.mcf", line("a.aut", "true")+line("b.aut", "false")+"<tau>true\n")
	_, err = CheckExport(filepath.Join(dir, "bad.mcf"))
	assert.ErrorContains(t, err, "b.aut")
	write("c.aut", "des (0, 1, 2)\n(0,call(1,pop),1)\n")
	write("unquoted.mcf", line("c.aut", "true"))
	_, err = CheckExport(filepath.Join(dir, "unquoted.mcf"))
	assert.ErrorContains(t, err, "c.aut:2")
}
