package lts

import (
	"bufio"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

// The benchmark LTS: 1 M states, 10 M transitions, 20 labels, seeded.
const (
	benchStates      = 1_000_000
	benchTransitions = 10_000_000
)

var (
	benchOnce sync.Once
	benchLTS  *LTS
	benchFile string
)

func benchInput(b *testing.B) (*LTS, string) {
	benchOnce.Do(func() {
		benchLTS = randomLTS(rand.New(rand.NewPCG(7, 7)), benchStates, benchTransitions, 20)
		dir, err := os.MkdirTemp("", "linbis-bench")
		if err != nil {
			b.Fatal(err)
		}
		benchFile = filepath.Join(dir, "bench.aut")
		if err := WriteAutFile(benchFile, benchLTS); err != nil {
			b.Fatal(err)
		}
	})
	return benchLTS, benchFile
}

// BenchmarkReadAut reads the 10 M-transition file; it reports transitions
// per second and the heap retained per transition once loaded.
func BenchmarkReadAut(b *testing.B) {
	_, path := benchInput(b)
	b.ReportAllocs()
	var l *LTS
	for b.Loop() {
		var err error
		l, err = ReadAutFile(path, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchTransitions)*float64(b.N)/b.Elapsed().Seconds(), "trans/s")
	var before, after runtime.MemStats
	l = nil
	runtime.GC()
	runtime.ReadMemStats(&before)
	l, _ = ReadAutFile(path, ReadOptions{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(l.NumTransitions()), "heapB/trans")
	runtime.KeepAlive(l)
}

// BenchmarkReadAutFile reads the .aut file named by $LTS_BENCH_FILE
// (skipped when unset), a model checker's output, whose lines the random
// benchmark file's do not resemble: mostly τ, sorted by source. For
// example the MGC file of issue 22 (benchmarks/RESULTS.md):
//
//	LTS_BENCH_FILE=mgc.aut go test ./lts -run '^$' -bench ReadAutFile
func BenchmarkReadAutFile(b *testing.B) {
	path := os.Getenv("LTS_BENCH_FILE")
	if path == "" {
		b.Skip("set LTS_BENCH_FILE to an .aut file")
	}
	var transitions int
	for b.Loop() {
		l, err := ReadAutFile(path, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		transitions = l.NumTransitions()
	}
	b.ReportMetric(float64(transitions)*float64(b.N)/b.Elapsed().Seconds(), "trans/s")
}

func BenchmarkWriteAut(b *testing.B) {
	l, _ := benchInput(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteAut(bufio.NewWriter(io.Discard), l); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchTransitions)*float64(b.N)/b.Elapsed().Seconds(), "trans/s")
}

func BenchmarkTauSCCs(b *testing.B) {
	l, _ := benchInput(b)
	b.ReportAllocs()
	for b.Loop() {
		TauSCCs(l)
	}
}

// BenchmarkTauSCCsGonum runs gonum's topo.TarjanSCC on the τ-graph of a
// 100 k-state slice of the benchmark's shape (the full LTS does not fit its
// map-based graphs in reasonable memory), beside BenchmarkTauSCCsSmall, our
// Tarjan on the same graph. This is the measurement behind writing SCCs by
// hand: see the figures in the README.
func BenchmarkTauSCCsGonum(b *testing.B) {
	l := randomLTS(rand.New(rand.NewPCG(3, 3)), 100_000, 1_000_000, 20)
	g := simple.NewDirectedGraph()
	for s := int32(0); s < l.NumStates; s++ {
		g.AddNode(simple.Node(s))
	}
	for t := range l.Src {
		if l.Label[t] == Tau && l.Src[t] != l.Dst[t] {
			g.SetEdge(g.NewEdge(simple.Node(l.Src[t]), simple.Node(l.Dst[t])))
		}
	}
	var _ graph.Directed = g
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		topo.TarjanSCC(g)
	}
}

func BenchmarkTauSCCsSmall(b *testing.B) {
	l := randomLTS(rand.New(rand.NewPCG(3, 3)), 100_000, 1_000_000, 20)
	b.ReportAllocs()
	for b.Loop() {
		TauSCCs(l)
	}
}

// BenchmarkTauSCCsFile runs the τ-SCC search on the .aut file named by
// $LTS_BENCH_FILE (skipped when unset): a model checker's LTS, whose
// shape a random one does not have. For example, Treiber's stack at six
// threads, one operation each (20 M states, 100 M transitions):
//
//	linbis compile treiber --threads 6 --ops 1 --values 1 -o t61.aut
//	LTS_BENCH_FILE=t61.aut go test ./lts -run '^$' -bench TauSCCsFile
func BenchmarkTauSCCsFile(b *testing.B) {
	path := os.Getenv("LTS_BENCH_FILE")
	if path == "" {
		b.Skip("set LTS_BENCH_FILE to an .aut file")
	}
	l, err := ReadAutFile(path, ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		TauSCCs(l)
	}
}
