package verify

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// TestBundledQuotientsAgreeAcrossAlgorithms minimises the implementation
// and the specification of every bundled model, at its own bounds, with
// the default algorithm — which classifies an LTS whose only cycles are
// τ-cycles in one pass, and refines any other — and with GJ, which always
// refines: the quotients must be the same, byte for byte, under every
// equivalence. (A model too big for a unit test at its bounds is skipped:
// the state limit stops it.)
func TestBundledQuotientsAgreeAcrossAlgorithms(t *testing.T) {
	for _, name := range frontend.Examples() {
		t.Run(name, func(t *testing.T) {
			m, err := frontend.ParseExample(name)
			require.NoError(t, err)
			impl, spec, err := frontend.Compile(m, m.DefaultBounds(), frontend.Options{MaxStates: 200_000})
			if frontend.IsStateLimit(err) {
				t.Skip("larger than a unit test's bound at its own bounds")
			}
			require.NoError(t, err)
			requireSameQuotients(t, name, impl, spec)
		})
	}
}

// TestRandomProgramQuotientsAgreeAcrossAlgorithms is the same on the
// LTSs of random programs (internal/randmodel).
func TestRandomProgramQuotientsAgreeAcrossAlgorithms(t *testing.T) {
	seeds := testsize.Count(50, 250)
	compared := 0
	for seed := range seeds {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 22)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := frontend.Parse(name, []byte(p.Source))
		require.NoError(t, err, name)
		impl, spec, err := frontend.Compile(m, m.DefaultBounds(), frontend.Options{MaxStates: 50_000})
		if err != nil {
			continue // a model error or the state limit: no LTS to minimise
		}
		requireSameQuotients(t, name, impl, spec)
		compared++
	}
	require.Greater(t, compared, seeds/2, "most random programs should compile")
}

// requireSameQuotients requires the default algorithm and GJ to give the
// same quotients of impl and spec under every equivalence.
func requireSameQuotients(t *testing.T, what string, impl, spec *lts.LTS) {
	t.Helper()
	for _, eq := range []bisim.Equivalence{bisim.Strong, bisim.Branching, bisim.DivBranching} {
		for side, l := range map[string]*lts.LTS{"implementation": impl, "specification": spec} {
			fast, err := bisim.Quotient(l, eq, bisim.Options{})
			require.NoError(t, err)
			gj, err := bisim.Quotient(l, eq, bisim.Options{Algorithm: bisim.GJ})
			require.NoError(t, err)
			require.Equal(t, gj, fast, "%s: %s, %v", what, side, eq)
		}
	}
}
