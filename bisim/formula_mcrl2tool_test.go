package bisim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/mcrl2check"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// mcrl2DataLabels turn the random LTSs' a, b, c into labels with data as
// linbis's models write them; sum is an mCRL2 keyword, so c's label must be
// renamed in the mCRL2 files (the -mcrl2-A/B.aut copies).
var mcrl2DataLabels = map[string]string{"a": "call(1,push,1)", "b": "ret(2,pop,EMPTY)", "c": "call(1,sum,-2)"}

// withDataLabels is l with a, b and c renamed by mcrl2DataLabels.
func withDataLabels(l *lts.LTS) *lts.LTS {
	return lts.Relabel(l, func(name string) string {
		if d, ok := mcrl2DataLabels[name]; ok {
			return d
		}
		return name
	})
}

// TestFormulasCheckedByMCRL2 exports the distinguishing formulas of random
// inequivalent pairs for mCRL2 (ExportMCRL2) and runs the commands written
// in the .mcf file — mCRL2's own lts2pbes and pbessolve — on both sides:
// mCRL2 must say true on the side linbis names and false on the other,
// as linbis's checker and the naive evaluator do. It needs mCRL2's tools
// on PATH or in $LINBIS_MCRL2_BIN and skips without them (CI has none);
// It checks 40 pairs per equivalence, 200 at full size (internal/testsize).
func TestFormulasCheckedByMCRL2(t *testing.T) {
	tools, err := mcrl2check.Find()
	if err != nil {
		t.Skip(err)
	}
	want := testsize.Count(40, 200)
	for _, eq := range allEquivalences {
		t.Run(eq.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(eq), 2323))
			dir := t.TempDir()
			checked, renamed := 0, 0
			for seed := uint64(0); checked < want; seed++ {
				a, b := withDataLabels(randomLTS(2*seed, 8)), withDataLabels(randomLTS(2*seed+1, 8))
				if seed%2 == 1 {
					b = withDataLabels(mutate(randomLTS(2*seed, 8), rng))
				}
				names := [2]string{filepath.Join(dir, "a.aut"), filepath.Join(dir, "b.aut")}
				for i, l := range []*lts.LTS{a, b} {
					require.NoError(t, lts.WriteAutFile(names[i], l))
				}
				c, err := Compare(a, b, eq, Options{NameA: names[0], NameB: names[1]})
				require.NoError(t, err)
				if c.Equivalent {
					continue
				}
				checked++
				require.NoError(t, c.Evidence.ExportMCRL2(dir, "f"))
				if c.Evidence.Actions.Renamed() != nil {
					renamed++
				}
				what := fmt.Sprintf("seed %d: %v", seed, c.Evidence.Formula)
				checks, err := tools.RunChecks(context.Background(), filepath.Join(dir, "f.mcf"))
				require.NoError(t, err, what)
				require.Len(t, checks, 2, what)
				for _, ch := range checks {
					require.Equal(t, ch.Want, ch.Got, "%s: mCRL2 disagrees: %s", what, ch.Command)
				}
				sides := [2]*lts.LTS{a, b}
				for i, l := range sides {
					require.Equal(t, i == c.Evidence.HoldsIn, naiveHolds(l, c.Evidence.Formula, l.Initial), what)
				}
			}
			t.Logf("%v: %d pairs, mCRL2 agreed on both sides of each (%d with renamed labels)", eq, checked, renamed)
		})
	}
}
