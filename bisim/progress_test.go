package bisim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/meter"
)

// TestProgressNamesUnits: every stage that Options.Progress receives comes
// with the unit of its count, for every algorithm and equivalence.
func TestProgressNamesUnits(t *testing.T) {
	l := randomLTS(7, 400)
	for _, alg := range []Algorithm{Fast, GJ, GV} {
		for _, eq := range []Equivalence{Strong, Branching, DivBranching} {
			stages := map[string]string{}
			opts := Options{Algorithm: alg, Progress: meter.Func(func(stage string, _ int64, unit string) {
				stages[stage] = unit
			})}
			_, _, err := Minimize(l, eq, opts)
			require.NoError(t, err)
			assert.NotEmpty(t, stages, "%s %s reports", alg, eq)
			for stage, unit := range stages {
				assert.NotEmpty(t, unit, "%s %s: the unit of %q", alg, eq, stage)
			}
		}
	}
}
