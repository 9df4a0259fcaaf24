package bisim

import (
	"testing"

	"github.com/linbis/linbis/lts"
	"github.com/stretchr/testify/require"
)

// changedCopy returns l with transition t redirected to the initial state:
// a small change deep inside, as a user's edit of a model would make.
func changedCopy(l *lts.LTS, t int) *lts.LTS {
	c := *l
	c.Dst = append([]int32(nil), l.Dst...)
	c.Dst[t] = l.Initial
	c.Meta = nil
	return &c
}

// BenchmarkCompareFormula measures what the distinguishing formula adds
// to Compare on the most general client of gen_mgc_aut.py 4 3 4 3 (2 M
// states) against a copy with one τ-step redirected: "compare" is the
// whole of Compare, "formula" the formula's share alone (the union's
// quotient, the rounds, the checks on both LTSs) on the partition that
// Compare computes anyway. The target: formula < 10 % of the rest.
// Heavy (about 1 GiB); run it alone:
//
//	flock /work/heavy.lock go test ./bisim -run '^$' -bench CompareFormula -benchtime 3x
func BenchmarkCompareFormula(b *testing.B) {
	if testing.Short() {
		b.Skip("large input")
	}
	a := benchMGC(4, 3, 4, 3)
	changed := changedCopy(a, a.NumTransitions()/2)
	for _, eq := range allEquivalences {
		b.Run(eq.String()+"/compare", func(b *testing.B) {
			for b.Loop() {
				c, err := Compare(a, changed, eq, Options{})
				require.NoError(b, err)
				require.False(b, c.Equivalent)
			}
		})
		b.Run(eq.String()+"/formula", func(b *testing.B) {
			u, off := lts.Union(a, changed)
			opts := Options{}
			k, kblock, kn, err := partitionKernel(u, eq, &opts)
			require.NoError(b, err)
			class, rename, numClasses := classesOf(u, k, kblock, kn)
			var f *Formula
			for b.Loop() {
				f, _, _, err = distinguishingFormula(a, changed, u, off, k, kblock, class, rename, numClasses, eq, 0)
				require.NoError(b, err)
			}
			b.ReportMetric(float64(numClasses), "classes")
			b.ReportMetric(float64(f.Size()), "size")
			b.ReportMetric(float64(f.Depth()), "depth")
		})
	}
}
