package bisim

import (
	"fmt"
	"testing"

	"github.com/linbis/linbis/internal/limits"
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
// to Compare on the most general client of mgcaut K 3 4 3 (K = 3:
// 36 k states; K = 4: 2 M states, the target) against a copy with
// one τ-step redirected: "compare" is the whole of Compare, "formula" the
// formula's share alone (the union's quotient, the distinguishing-trace
// search, the rounds, the checks on both LTSs, the witnessing paths) on the
// partition Compare computes anyway (under strong bisimilarity, with the
// split history Compare has Fast record). The target: formula < 10 % of
// the rest. Both report CPU time per operation beside the wall time (the
// machine is shared). K = 4 is heavy (about 1 GiB, minutes); run it alone:
//
//	go test ./bisim -run '^$' -bench 'CompareFormula/K=4/divbranching' -benchtime 2x
func BenchmarkCompareFormula(b *testing.B) {
	if testing.Short() {
		b.Skip("large input")
	}
	for _, k := range []int{3, 4} {
		var a, changed *lts.LTS
		load := func() {
			if a == nil {
				a = benchMGC(k, 3, 4, 3)
				changed = changedCopy(a, a.NumTransitions()/2)
			}
		}
		for _, eq := range []Equivalence{DivBranching, Branching, Strong} {
			b.Run(fmt.Sprintf("K=%d/%v/compare", k, eq), func(b *testing.B) {
				load()
				cpu := limits.ProcessCPU()
				for b.Loop() {
					c, err := Compare(a, changed, eq, Options{})
					require.NoError(b, err)
					require.False(b, c.Equivalent)
				}
				b.ReportMetric(float64(limits.ProcessCPU()-cpu)/float64(b.N), "cpu-ns/op")
			})
			b.Run(fmt.Sprintf("K=%d/%v/formula", k, eq), func(b *testing.B) {
				load()
				u, off := lts.Union(a, changed)
				opts := Options{}
				if eq == Strong {
					opts.history = &splitHistory{} // as Compare asks for it
				}
				k, kblock, kn, err := partitionKernel(u, eq, &opts)
				require.NoError(b, err)
				class, rename, numClasses := classesOf(u, k, kblock, kn)
				var e *FormulaEvidence
				cpu := limits.ProcessCPU()
				for b.Loop() {
					e, err = formulaEvidence(a, changed, u, off, k, kblock, class, rename, numClasses, eq, &opts)
					require.NoError(b, err)
				}
				b.ReportMetric(float64(limits.ProcessCPU()-cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(numClasses), "classes")
				b.ReportMetric(float64(e.Formula.Size()), "size")
				b.ReportMetric(float64(e.Formula.Depth()), "depth")
			})
		}
	}
}
