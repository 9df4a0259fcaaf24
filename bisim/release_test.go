package bisim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMinimizeReleaseInput checks that Options.ReleaseInput changes
// nothing in Minimize's result and does clear the input's transitions,
// for every equivalence (under Strong the kernel shares them).
func TestMinimizeReleaseInput(t *testing.T) {
	for _, eq := range allEquivalences {
		for seed := range 300 {
			l := randomLTS(uint64(seed), 12)
			want, wantMap, err := Minimize(l, eq, Options{})
			require.NoError(t, err)
			got, gotMap, err := Minimize(l, eq, Options{ReleaseInput: true})
			require.NoError(t, err)
			require.Equal(t, want, got, "seed %d %v", seed, eq)
			require.Equal(t, wantMap, gotMap, "seed %d %v", seed, eq)
			require.Nil(t, l.Src)
			require.Nil(t, l.Out)
		}
	}
}
