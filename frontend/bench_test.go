package frontend

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/onthefly"
)

// BenchmarkExplore measures the explorer on the sizes of Yang, Katoen, Lin
// and Wu, Table 1 (threads/ops), with one value (as the benchmarks grid)
// unless noted. It reports
// states, transitions, states/s and the heap in use after exploring (a
// lower bound of the peak; see the report for /usr/bin/time figures).
// The explorer expands states on GOMAXPROCS goroutines: -cpu 1,2 measures
// the sequential search and the parallel one.
//
// On a machine whose speed drifts (a shared virtual machine), compare
// instruction counts rather than seconds; they do not move from run to run
// (valgrind now and then aborts on a Go binary: run it again):
//
//	go test -c -o fe.test . && valgrind --tool=callgrind --branch-sim=yes \
//	  ./fe.test -test.run '^$' -test.bench 'Explore/treiber/5-1' -test.benchtime 1x -test.cpu 1
func BenchmarkExplore(b *testing.B) {
	cases := []struct {
		model        string
		threads, ops int
		values       []int
	}{
		{"treiber", 2, 8, []int{1}},
		{"treiber", 3, 4, []int{1}},
		{"treiber", 4, 2, []int{1}},
		{"treiber", 5, 1, []int{1}},
		{"treiber", 6, 1, []int{1}},
		{"treiber", 2, 4, []int{1, 2}},
		{"hp-stack", 2, 4, []int{1}},
		{"hp-stack", 2, 5, []int{1}},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s/%d-%d/values=%d", c.model, c.threads, c.ops, len(c.values)), func(b *testing.B) {
			m := parseExample(b, c.model)
			bounds := Bounds{Threads: c.threads, Ops: c.ops, Values: c.values}
			b.ReportAllocs()
			var states, trans int64
			var elapsed time.Duration
			var heap uint64
			for b.Loop() {
				start := time.Now()
				impl, err := CompileImpl(m, bounds, Options{})
				if err != nil {
					b.Fatal(err)
				}
				elapsed += time.Since(start)
				states, trans = int64(impl.NumStates), int64(impl.NumTransitions())
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				heap = max(heap, ms.HeapInuse)
				runtime.KeepAlive(impl)
			}
			b.ReportMetric(float64(states), "states")
			b.ReportMetric(float64(trans), "transitions")
			b.ReportMetric(float64(states)*float64(b.N)/elapsed.Seconds(), "states/s")
			b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
		})
	}
}

// BenchmarkFly measures the on-the-fly check (symmetry and partial-order
// reduction on) at the requested bounds alone, as `linbis verify --method
// fly --shortest` would without the ladder. Beside the time it reports the
// work: implementation states and product pairs stored, successors
// computed, and the largest heap in use per stored state (sampled, a lower
// bound of the peak; /usr/bin/time gives that for the command). Compare the
// counters, which do not drift, before the seconds:
//
//	go test ./frontend -run '^$' -bench 'Fly/hp-stack-sym/3-2' -benchtime 1x -cpuprofile cpu.out
func BenchmarkFly(b *testing.B) {
	cases := []struct {
		model        string
		threads, ops int
	}{
		{"hp-stack-sym", 3, 2},
		{"hp-stack-sym", 4, 1},
		{"treiber", 4, 2},
		{"ms-queue", 3, 2},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s/%d-%d", c.model, c.threads, c.ops), func(b *testing.B) {
			m := parseExample(b, c.model)
			bounds := Bounds{Threads: c.threads, Ops: c.ops, Values: []int{1}}
			var res *onthefly.Result
			var err error
			var heap uint64
			for b.Loop() {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				base := ms.HeapInuse
				// The peak: sampled as the search reports progress, and at
				// its end.
				sample := meter.Func(func(string, int64, string) {
					runtime.ReadMemStats(&ms)
					heap = max(heap, ms.HeapInuse-min(ms.HeapInuse, base))
				})
				res, err = onthefly.Check(m.Program, bounds, onthefly.Options{Options: Options{Progress: sample}, Reductions: onthefly.Reductions{Symmetry: true, PartialOrder: true}})
				if err != nil {
					b.Fatal(err)
				}
			}
			st := res.Stats
			b.ReportMetric(float64(st.States), "states")
			b.ReportMetric(float64(st.Pairs), "pairs")
			b.ReportMetric(float64(st.Transitions), "successors")
			b.ReportMetric(float64(heap)/float64(st.States), "heap-B/state")
		})
	}
}

// parseExample parses a bundled model.
func parseExample(tb testing.TB, name string) *Model {
	tb.Helper()
	src, err := Example(name)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := Parse(name+".lin", src)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}
