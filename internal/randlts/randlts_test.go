package randlts_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/lts"
)

func draw(seed uint64, c randlts.Config) *lts.LTS {
	b := lts.NewBuilder()
	randlts.Fill(rand.New(rand.NewPCG(seed, 1)), b, c)
	return b.Build()
}

// TestFillDrawsTheFamily checks the sizes, the labels, the share of τ-steps
// and the initial state of what Fill draws, and that a seed names one LTS.
func TestFillDrawsTheFamily(t *testing.T) {
	c := randlts.Config{States: 7, Transitions: 4000, Labels: []string{"a", "b", "c"}, Tau: 0.25}
	l := draw(1, c)
	require.NoError(t, l.Validate())
	assert.Equal(t, int32(7), l.NumStates)
	assert.Equal(t, 4000, l.NumTransitions())
	assert.Equal(t, int32(0), l.Initial)
	count := map[string]int{}
	sources := map[int32]bool{}
	for tr := range l.NumTransitions() {
		count[l.LabelName(int32(tr))]++
		sources[l.Src[tr]] = true
	}
	assert.Len(t, count, 4, "τ and the three labels, no other: %v", count)
	assert.InDelta(t, 1000, count[randlts.TauName], 150, "a quarter τ: %v", count)
	for _, a := range c.Labels {
		assert.InDelta(t, 1000, count[a], 150, "the visible labels uniform: %v", count)
	}
	assert.Len(t, sources, 7, "every state a source somewhere")
	assert.Equal(t, l, draw(1, c), "the same seed draws the same LTS")
	assert.NotEqual(t, l, draw(2, c))

	initials := map[int32]bool{}
	for seed := range uint64(100) {
		initials[draw(seed, randlts.Config{States: 5, Transitions: 3, Labels: c.Labels, Tau: 0.5, RandomInitial: true}).Initial] = true
	}
	assert.Len(t, initials, 5, "RandomInitial reaches every state")

	allTau := draw(3, randlts.Config{States: 3, Transitions: 50, Tau: 0})
	for tr := range allTau.NumTransitions() {
		require.Equal(t, lts.Tau, allTau.Label[tr], "no visible labels: every step τ")
	}
}

// TestFillWithAdd checks that Add is given every drawn pair, in range, and
// that Fill then adds no transition of its own.
func TestFillWithAdd(t *testing.T) {
	b := lts.NewBuilder()
	var pairs [][2]int32
	randlts.Fill(rand.New(rand.NewPCG(4, 1)), b, randlts.Config{States: 4, Transitions: 300, Add: func(src, dst int32) {
		pairs = append(pairs, [2]int32{src, dst})
	}})
	l := b.Build()
	assert.Equal(t, int32(4), l.NumStates)
	assert.Zero(t, l.NumTransitions(), "Add decides every step")
	require.Len(t, pairs, 300)
	seen := map[[2]int32]bool{}
	for _, p := range pairs {
		require.True(t, p[0] >= 0 && p[0] < 4 && p[1] >= 0 && p[1] < 4, "%v", p)
		seen[p] = true
	}
	assert.Len(t, seen, 16, "every pair of states drawn somewhere")
}
