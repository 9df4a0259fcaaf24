package refine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// configs are the option combinations every cross-check runs.
var configs = []struct {
	name string
	opts Options
}{
	{"plain", Options{}},
	{"antichain", Options{Antichain: true}},
	{"quotient", Options{Quotient: true}},
	{"antichain+quotient", Options{Antichain: true, Quotient: true}},
}

// randomPair draws a small implementation/specification pair: either two
// independent random LTSs or a specification and a perturbed copy of it.
func randomPair(r *rand.Rand) (impl, spec *lts.LTS) {
	labels := []string{"a", "b", "c"}[:1+r.IntN(3)]
	n := 1 + r.IntN(5)
	spec = randomLTS(r, n, r.IntN(3*n+2), labels, 0.3)
	if r.IntN(2) == 0 {
		return perturb(r, spec, labels), spec
	}
	m := 1 + r.IntN(5)
	return randomLTS(r, m, r.IntN(3*m+1), labels, 0.3), spec
}

// checkCounterexample asserts that tr is a path of impl from its initial
// state whose visible trace has want actions, which spec cannot do although
// it can do all but the last action.
func checkCounterexample(t *testing.T, impl, spec *lts.LTS, tr *lts.Trace, want int, msg string) {
	t.Helper()
	require.NotNil(t, tr, msg)
	require.NotEmpty(t, tr.Steps, msg)
	at := impl.Initial
	for i, st := range tr.Steps {
		require.Equal(t, at, st.From, "%s: step %d does not start where the previous ended", msg, i)
		found := false
		for u := impl.Out[at]; u < impl.Out[at+1]; u++ {
			found = found || (impl.LabelName(u) == st.Label && impl.Dst[u] == st.To)
		}
		require.True(t, found, "%s: step %d %v is not an implementation transition", msg, i, st)
		at = st.To
	}
	last := tr.Steps[len(tr.Steps)-1]
	require.NotEqual(t, lts.TauName, last.Label, msg)
	assert.Equal(t, "spec cannot do this", last.Note, msg)
	w := tr.Visible()
	assert.Len(t, w, want, "%s: not a shortest counterexample: %v", msg, w)
	assert.False(t, isTrace(spec, w), "%s: the spec can do %v", msg, w)
	assert.True(t, isTrace(spec, w[:len(w)-1]), "%s: the spec cannot even do the prefix of %v", msg, w)
}

// TestAgainstOracles cross-checks Check, in every configuration, against
// the exact naive determinisation and the brute-force bounded trace
// enumerator on thousands of seeded random small LTS pairs.
func TestAgainstOracles(t *testing.T) {
	const bound = 6
	seeds := testsize.Count(3000, 30_000)
	counts := map[string]int{}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		impl, spec := randomPair(r)
		want := naiveShortestViolation(impl, spec)
		brute := bruteShortestViolation(impl, spec, bound)
		switch {
		case want < 0:
			counts["refines"]++
			require.Equal(t, -1, brute, "seed %d: brute force finds a violation the naive check misses", seed)
		case want <= bound:
			counts["fails within the bound"]++
			require.Equal(t, want, brute, "seed %d: brute force and naive check disagree", seed)
		default:
			counts["fails beyond the bound"]++
			require.Equal(t, -1, brute, "seed %d", seed)
		}
		for _, c := range configs {
			msg := fmt.Sprintf("seed %d, %s", seed, c.name)
			res, err := Check(impl, spec, c.opts)
			require.NoError(t, err, msg)
			if want < 0 {
				require.True(t, res.Refines, msg)
				assert.Nil(t, res.Counterexample, msg)
				continue
			}
			require.False(t, res.Refines, msg)
			checkCounterexample(t, impl, spec, res.Counterexample, want, msg)
		}
	}
	t.Logf("verdicts over %d seeds: %v", seeds, counts)
	// The generator must exercise both verdicts, not just one.
	assert.Greater(t, counts["refines"], seeds/10)
	assert.Greater(t, counts["fails within the bound"], seeds/10)
}
