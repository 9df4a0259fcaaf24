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
