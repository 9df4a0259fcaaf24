package verify

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/mcrl2check"
	"github.com/linbis/linbis/lts"
)

// formulaActions finds the actions of the modalities of an mCRL2 formula.
var formulaActions = regexp.MustCompile(`<([^>]*)>`)

// checkMCRL2Export exports e's formula as `verify --export` does, beside
// impl.aut and spec.aut, and checks its mCRL2 files: the declarations,
// read by mcrl2check's own parser, declare every label of the .aut files
// that the .mcf file's commands name and every action of the formula; and,
// when mCRL2's tools are installed, mCRL2 runs those commands and says
// true on the side the formula holds in and false on the other (without
// the tools the test says so in its log: CI has none).
func checkMCRL2Export(t *testing.T, impl, spec *lts.LTS, e Evidence) {
	t.Helper()
	dir := t.TempDir()
	files := [2]string{"impl.aut", "spec.aut"}
	for i, l := range []*lts.LTS{impl, spec} {
		require.NoError(t, lts.WriteAutFile(filepath.Join(dir, files[i]), l))
	}
	require.NoError(t, e.ExportFormula(dir, "1-distinguishing-formula", [2]*lts.LTS{impl, spec}, files))
	mcf := filepath.Join(dir, "1-distinguishing-formula-formula.mcf")
	d, err := mcrl2check.CheckExport(mcf)
	require.NoError(t, err)
	var actions []string
	for _, m := range formulaActions.FindAllStringSubmatch(e.Formula.MCRL2, -1) {
		actions = append(actions, m[1])
	}
	require.NotEmpty(t, actions)
	require.NoError(t, d.Declared(actions), "the formula's actions")
	mcrl2check.CheckIfInstalled(t, mcf)
}
