package verify

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A passing run's page shows what holds: the verdicts, the bounds, the
// stages and the sizes, and no empty drawing (issue 37 item 14); a failing
// run's page draws its counterexample and says the same.
func TestHTMLShowsTheRun(t *testing.T) {
	for _, c := range []struct {
		model string
		ops   int
		draws bool
	}{{"treiber", 1, false}, {"shann-queue", 0, true}} {
		out := runExample(t, c.model, c.ops, Bisim, false)
		var b bytes.Buffer
		require.NoError(t, WriteHTML(&b, out.Report))
		page := b.String()
		assert.Contains(t, page, "<h2>the run: sizes, stages and verdicts</h2>", c.model)
		for _, want := range []string{"bounds         threads=2 ops=", "bisimulation ", "implementation ", "LINEARIZABLE "} {
			assert.Contains(t, page, want, c.model)
		}
		assert.Equal(t, c.draws, bytes.Contains(b.Bytes(), []byte("<svg")), "%s: drawn", c.model)
	}
}
