package onthefly

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/limits/limitstest"
)

// TestStopPastTheViolation: stopped at each of its polls in turn, a
// search that has met a violation and goes on past it (for the cycle
// search) either ends as the whole run does or stops with a limit, the
// violation then undecided: it never expands a state again after the
// stop, which may have left the state store half grown (run keeps the
// violation only when the search ended, or met a model error).
func TestStopPastTheViolation(t *testing.T) {
	for _, name := range []string{"lamport-queue-2p", "shann-queue"} {
		prog := checkedFile(t, "../frontend/examples/"+name+".lin")
		b := ir.Bounds{Threads: 2, Ops: 2, Values: []int{1}}
		for _, red := range []Reductions{{}, {Symmetry: true, PartialOrder: true}} {
			what := fmt.Sprintf("%s %+v", name, red)
			o := Options{Reductions: red}
			whole, err := Check(prog, b, o)
			require.NoError(t, err, what)
			require.False(t, whole.Refines, what)
			stops := 0
			for k := 0; ; k++ {
				o.Context = limitstest.StopAt(k)
				res, err := Check(prog, b, o)
				if err == nil {
					assert.Equal(t, whole.Counterexample, res.Counterexample, what)
					break
				}
				require.ErrorAs(t, err, new(*limits.LimitError), "%s, stop %d", what, k)
				if res != nil && res.RefinesDecided {
					assert.Equal(t, whole.Counterexample, res.Counterexample, "%s, stop %d", what, k)
				}
				stops++
			}
			assert.Positive(t, stops, what)
		}
	}
}
