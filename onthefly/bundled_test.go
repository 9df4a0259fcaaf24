package onthefly

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/internal/testsize"
)

// bundled is a bundled model, checked, at the bounds a test searches it.
type bundled struct {
	file string
	prog *check.Program
	b    ir.Bounds
}

func (m bundled) String() string { return fmt.Sprintf("%s %v", filepath.Base(m.file), m.b) }

// bundledModels is every bundled model (frontend/examples/*.lin) at each
// of bounds, the bounds varying fastest; each file is checked once.
func bundledModels(t *testing.T, bounds ...ir.Bounds) []bundled {
	t.Helper()
	files, err := filepath.Glob("../frontend/examples/*.lin")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var models []bundled
	for _, file := range files {
		prog := checkedFile(t, file)
		for _, b := range bounds {
			models = append(models, bundled{file, prog, b})
		}
	}
	return models
}

// searchMode is a heap mode and the reductions searched with it.
type searchMode struct {
	explicit bool
	red      Reductions
}

// searchModes is both heap modes, each unreduced and with both
// reductions; without LINBIS_FULL=1 and unless all, only two of the four,
// unreduced in garbage-collected mode and reduced in explicit mode.
func searchModes(all bool) []searchMode {
	var modes []searchMode
	for _, explicit := range []bool{false, true} {
		for _, red := range []Reductions{{}, {Symmetry: true, PartialOrder: true}} {
			if all || testsize.Full() || explicit == red.Symmetry {
				modes = append(modes, searchMode{explicit, red})
			}
		}
	}
	return modes
}
