package bisim

import (
	"os"
	"runtime"
	"slices"
	"testing"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lts"
	"github.com/stretchr/testify/require"
)

// BenchmarkMinimizeFile minimizes the LTS in the file named by
// $BISIM_BENCH_FILE (any format lts.ReadFile reads) under divbranching, or
// the equivalence named by $BISIM_BENCH_EQUIV, with Fast and with GJ, for
// profiling on the large LTSs the model checker produces, e.g.
//
//	BISIM_BENCH_FILE=/tmp/t42.aut go test ./bisim -run '^$' -bench MinimizeFile/gj -benchtime 1x -cpuprofile cpu.out
//
// It is skipped when BISIM_BENCH_FILE is not set.
func BenchmarkMinimizeFile(b *testing.B) {
	l, eq := benchFile(b)
	m := float64(l.NumTransitions())
	for _, alg := range []Algorithm{Fast, GJ} {
		b.Run(alg.String(), func(b *testing.B) {
			b.ReportAllocs()
			cpu := limits.ProcessCPU()
			var q *lts.LTS
			var stats refineStats
			var err error
			for b.Loop() {
				q, _, err = Minimize(l, eq, Options{Algorithm: alg, stats: &stats})
				require.NoError(b, err)
			}
			cpu = limits.ProcessCPU() - cpu
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/m, "ns/trans")
			b.ReportMetric(float64(q.NumStates), "classes")
			b.ReportMetric(float64(stats.work)/m, "work/trans")
		})
	}
}

// BenchmarkKernelFile builds the kernel of the LTS in the file named by
// $BISIM_BENCH_FILE (as BenchmarkMinimizeFile): the τ-SCC search with the
// gathering of the components' transitions, and their compaction, the
// sequential part of verify's bisimulation stage that comes before the
// refinement.
func BenchmarkKernelFile(b *testing.B) {
	l, eq := benchFile(b)
	cpu := limits.ProcessCPU()
	for b.Loop() {
		newKernel(l, eq)
	}
	cpu = limits.ProcessCPU() - cpu
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(l.NumTransitions()), "ns/trans")
}

// BenchmarkMemoryByPhase reports what Fast keeps live per input transition
// at each phase of Minimize on the file named by $BISIM_BENCH_FILE (under
// $BISIM_BENCH_EQUIV, default divbranching): the kernel (kernel-B/trans),
// the refiner's arrays before refining (refiner-B/trans) and what refining
// adds (refine-B/trans), each the live heap after a collection, so that
// memory per transition can be compared without the garbage collector's
// timing, e.g.
//
//	BISIM_BENCH_FILE=/tmp/t51.aut go test ./bisim -run '^$' -bench MemoryByPhase -benchtime 1x
func BenchmarkMemoryByPhase(b *testing.B) {
	l, eq := benchFile(b)
	m := float64(l.NumTransitions())
	live := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc)
	}
	for b.Loop() {
		base := live()
		k := newKernel(l, eq)
		withKernel := live()
		r := newRefiner(k)
		withRefiner := live()
		r.refine(&Options{})
		refined := live()
		runtime.KeepAlive(r)
		b.ReportMetric((withKernel-base)/m, "kernel-B/trans")
		b.ReportMetric((withRefiner-withKernel)/m, "refiner-B/trans")
		b.ReportMetric((refined-withRefiner)/m, "refine-B/trans")
	}
}

// benchFile reads the LTS named by $BISIM_BENCH_FILE and the equivalence
// named by $BISIM_BENCH_EQUIV (divbranching when unset), skipping the
// benchmark when no file is named.
func benchFile(b *testing.B) (*lts.LTS, Equivalence) {
	path := os.Getenv("BISIM_BENCH_FILE")
	if path == "" {
		b.Skip("BISIM_BENCH_FILE not set")
	}
	eq := DivBranching
	if name := os.Getenv("BISIM_BENCH_EQUIV"); name != "" {
		i := slices.IndexFunc(allEquivalences, func(e Equivalence) bool { return e.String() == name })
		require.GreaterOrEqual(b, i, 0, "BISIM_BENCH_EQUIV: expected strong, branching or divbranching")
		eq = allEquivalences[i]
	}
	l, err := lts.ReadFile(path, lts.ReadOptions{})
	require.NoError(b, err)
	return l, eq
}
