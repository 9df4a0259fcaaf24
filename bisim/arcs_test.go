package bisim

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestArcLayouts checks Fast's arcs by target (buildArcs) in both layouts,
// packed and wide: each target's arcs are exactly the kernel's transitions
// into it, τ-steps first and in order of source within a label, the τ
// range is what tauInto gives (τ first under branching only), and refining from either layout
// gives the same blocks after the same work.
func TestArcLayouts(t *testing.T) {
	for _, eq := range allEquivalences {
		for seed := range 600 {
			l := randomLTS(uint64(seed), 12)
			k := newKernel(l, eq)
			require.True(t, packable(k))
			var blocks [2][]int32
			var work [2]int64
			for i, wide := range []bool{false, true} {
				what := fmt.Sprintf("seed %d %v wide %v", seed, eq, wide)
				r := newRefinerArcs(k, wide)
				// The kernel's transitions by target, as label<<32 | source,
				// τ (label 0) first.
				want := make([][]uint64, k.n)
				for s := range k.n {
					for t := k.out[s]; t < k.out[s+1]; t++ {
						want[k.dst[t]] = append(want[k.dst[t]], uint64(k.lab[t])<<32|uint64(s))
					}
				}
				for d := range k.n {
					var got []uint64
					for j := r.into[d].from; j < r.into[d].live; j++ {
						a, src := r.arc(j)
						got = append(got, uint64(a)<<32|uint64(src))
					}
					slices.Sort(want[d])
					require.Equal(t, want[d], sortedWithinLabels(got, k.inert), "%s: arcs into %d", what, d)
					if !k.inert {
						continue
					}
					var tau []int32
					for _, key := range want[d] {
						if key>>32 == 0 {
							tau = append(tau, int32(uint32(key)))
						}
					}
					require.Equal(t, tau, append([]int32(nil), r.tauInto(d)...), "%s: τ-sources into %d", what, d)
				}
				r.refine(&Options{})
				blocks[i], work[i] = r.block, r.work
			}
			require.Equal(t, blocks[0], blocks[1], "seed %d %v", seed, eq)
			require.Equal(t, work[0], work[1], "seed %d %v", seed, eq)
		}
	}
}

// sortedWithinLabels returns arcs (label<<32 | source) sorted if they are
// in increasing order of source within each label and, when tauFirst, τ
// first; otherwise arcs themselves, which then differ from any sorted
// list.
func sortedWithinLabels(arcs []uint64, tauFirst bool) []uint64 {
	for i := 1; i < len(arcs); i++ {
		prev, cur := arcs[i-1], arcs[i]
		if tauFirst && prev>>32 != 0 && cur>>32 == 0 {
			return arcs // a τ-step after another label
		}
		if prev>>32 == cur>>32 && prev > cur {
			return arcs // a label's sources out of order
		}
	}
	return slices.Sorted(slices.Values(arcs))
}
