package bisim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMinimizeReleaseInput checks that releasing the input (what the
// consuming calls do) changes nothing in Minimize's result and does clear
// the input's transitions, for every equivalence (under Strong the kernel
// shares them).
func TestMinimizeReleaseInput(t *testing.T) {
	for _, eq := range allEquivalences {
		for seed := range 300 {
			l := randomLTS(uint64(seed), 12)
			want, wantMap, err := Minimize(l, eq, Options{})
			require.NoError(t, err)
			got, gotMap, err := Minimize(l, eq, Options{release: true})
			require.NoError(t, err)
			require.Equal(t, want, got, "seed %d %v", seed, eq)
			require.Equal(t, wantMap, gotMap, "seed %d %v", seed, eq)
			require.Nil(t, l.Src)
			require.Nil(t, l.Out)
		}
	}
}

// TestConsumed: a consuming call clears the LTS it was handed and gives
// the result of the call that leaves its input alone; a Consumed is taken
// once.
func TestConsumed(t *testing.T) {
	l := randomLTS(7, 12)
	want, err := Quotient(l, DivBranching, Options{alwaysRefine: true})
	require.NoError(t, err)
	require.NotNil(t, l.Src, "Quotient leaves its input alone")
	in := Consume(l)
	got, err := QuotientConsuming(in, DivBranching, Options{alwaysRefine: true})
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Nil(t, l.Src, "QuotientConsuming took its input apart")
	_, err = QuotientConsuming(in, DivBranching, Options{})
	require.ErrorContains(t, err, "already taken")
	_, _, err = MinimizeReachableConsuming(in, DivBranching, Options{})
	require.ErrorContains(t, err, "already taken")
}
