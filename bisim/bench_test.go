package bisim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/mgc"
	"github.com/linbis/linbis/lts"
)

// Benchmarks of Partition on seeded generated LTSs of doubling size, Fast and GJ
// beside the GV reference (GV only on the smaller sizes: it is O(n·m)).
//
//	go test ./bisim -run '^$' -bench . -benchtime 3x
//
// Besides ns/op and B/op they report ns and bytes per transition, so that
// the O(m log n) question — does doubling the size more than ~2.3× the
// time? — can be read off directly, and the CPU seconds (user + system,
// all goroutines, garbage collector included) per op, which on a shared
// machine is steadier than the wall time. work/trans and work/mlogn are
// the refinement's elementary steps (refineStats) per kernel transition
// and per m·log₂ n of the kernel: independent of the machine and its
// caches, they show the algorithm's growth alone. BenchmarkLinearPass
// measures what the memory hierarchy alone does to the time per
// transition on the same random family. kernel-trans is the kernel's m,
// so that work/trans × kernel-trans is the whole work. Fast on an input
// whose only cycles are τ-cycles (mgc, labelchain) is the one-pass
// classification (acyclic.go): it builds no kernel, and its figures are
// per input transition; fast-refine is Fast's refinement there.

// benchRandom makes a seeded random LTS with n states and 4n transitions,
// half of them τ, over four visible labels.
func benchRandom(n int32) *lts.LTS {
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	b := lts.NewBuilder()
	b.SetNumStates(n)
	labels := []int32{lts.Tau, lts.Tau, lts.Tau, lts.Tau, b.Label("a"), b.Label("b"), b.Label("c"), b.Label("d")}
	b.Grow(int(4 * n))
	for range 4 * n {
		b.AddTransition(rng.Int32N(n), labels[rng.IntN(len(labels))], rng.Int32N(n))
	}
	return b.Build()
}

// benchCycles makes the interleaving product of three cycles of length L
// (a multiple of 4): in cycle j, step i → i+1 is the visible a_j when i is a
// multiple of 4 and τ otherwise; in cycle 1 every state 8k+5 also has a τ
// self-loop (divergence). States are L³, transitions about 3.1·L³. Every
// τ-step is inert, so the branching quotient has one state and the
// divergence-preserving one three, while the strong partition is discrete:
// this family measures the linear parts of the pipeline and strong
// refinement; benchMGC measures deep branching refinement.
func benchCycles(L int32) *lts.LTS {
	b := lts.NewBuilder()
	n := L * L * L
	b.SetNumStates(n)
	b.Grow(int(4 * n))
	vis := []int32{b.Label("a1"), b.Label("a2"), b.Label("a3")}
	id := func(x [3]int32) int32 { return (x[0]*L+x[1])*L + x[2] }
	for s := int32(0); s < n; s++ {
		x := [3]int32{s / (L * L), s / L % L, s % L}
		for j := range 3 {
			y := x
			y[j] = (x[j] + 1) % L
			label := lts.Tau
			if x[j]%4 == 0 {
				label = vis[j]
			}
			b.AddTransition(s, label, id(y))
		}
		if x[0]%8 == 5 {
			b.AddTransition(s, lts.Tau, s)
		}
	}
	return b.Build()
}

// benchMGC makes the most general client of a CAS counter (internal/mgc):
// k threads each call inc ops times; an inc reads the counter (mod
// modulus), takes steps-1 more τ steps and then CASes, retrying on failure.
func benchMGC(k, steps, modulus, ops int) *lts.LTS {
	return mgc.CASCounter(k, steps, modulus, ops, false)
}

// benchManyLabels makes a seeded random LTS with n states and 2n
// transitions, a quarter of them τ and each of the others with a label of
// its own: data in labels, as in many mCRL2 and CADP LTSs. A refinement
// that pays per label and target block is quadratic here.
func benchManyLabels(n int32) *lts.LTS {
	rng := rand.New(rand.NewPCG(uint64(n), 11))
	b := lts.NewBuilder()
	b.SetNumStates(n)
	b.Grow(int(2 * n))
	for i := range 2 * n {
		label := lts.Tau
		if rng.IntN(4) > 0 {
			label = b.Label(fmt.Sprintf("l%d", i))
		}
		b.AddTransition(rng.Int32N(n), label, rng.Int32N(n))
	}
	return b.Build()
}

// benchLabelChain makes a chain of n states with a label of its own per
// step, the smallest input on which a per-label cost shows alone.
func benchLabelChain(n int32) *lts.LTS {
	b := lts.NewBuilder()
	b.SetNumStates(n)
	b.Grow(int(n))
	for s := range n - 1 {
		b.AddTransition(s, b.Label(fmt.Sprintf("l%d", s)), s+1)
	}
	return b.Build()
}

// benchTauChains makes 16 τ-chains of n/16 states each over three visible
// labels: every state but a chain's last has a τ-step to its successor,
// and a quarter of the states also a visible step to a random state. A
// state's branching class depends on the visible steps at and below it on
// its chain, so the chains are cut into many classes from deep inside:
// a refinement whose backward search over inert τ-steps is not bounded by
// the smaller side of a split is quadratic here.
func benchTauChains(n int32) *lts.LTS {
	rng := rand.New(rand.NewPCG(uint64(n), 13))
	b := lts.NewBuilder()
	b.SetNumStates(n)
	b.Grow(int(n + n/4))
	labels := []int32{b.Label("a"), b.Label("b"), b.Label("c")}
	length := max(n/16, 1)
	for s := range n {
		if (s+1)%length != 0 && s+1 < n {
			b.AddTransition(s, lts.Tau, s+1)
		}
		if rng.IntN(4) == 0 {
			b.AddTransition(s, labels[rng.IntN(len(labels))], rng.Int32N(n))
		}
	}
	return b.Build()
}

// benchTauSCC makes an LTS with n states and 2.5n transitions whose first
// half is one τ-cycle, a τ-SCC that contraction turns into one kernel
// state with about n transitions; every state also has two steps to
// random states, labelled τ, a, b or c, its τ-steps only to higher
// numbers (so the second half has no τ-cycle and the first half no
// τ-step in from it). The contracted state is next to nearly every split.
func benchTauSCC(n int32) *lts.LTS {
	rng := rand.New(rand.NewPCG(uint64(n), 17))
	b := lts.NewBuilder()
	b.SetNumStates(n)
	b.Grow(int(n/2 + 2*n))
	labels := []int32{lts.Tau, b.Label("a"), b.Label("b"), b.Label("c")}
	ring := max(n/2, 1)
	for s := range ring {
		b.AddTransition(s, lts.Tau, (s+1)%ring)
	}
	for s := range n {
		for range 2 {
			d, label := rng.Int32N(n), labels[rng.IntN(len(labels))]
			if label == lts.Tau && d <= s {
				continue
			}
			b.AddTransition(s, label, d)
		}
	}
	return b.Build()
}

func BenchmarkPartition(b *testing.B) {
	type input struct {
		name string
		make func() *lts.LTS
	}
	var inputs []input
	for n := int32(2500); n <= 2560000; n *= 2 {
		inputs = append(inputs, input{fmt.Sprintf("random/m=%d", 4*n), func() *lts.LTS { return benchRandom(n) }})
	}
	for _, p := range [][4]int{{3, 3, 4, 1}, {3, 3, 4, 2}, {3, 3, 4, 3}, {4, 3, 4, 1}, {4, 3, 4, 2}, {3, 3, 4, 6}, {4, 3, 4, 3}} {
		inputs = append(inputs, input{fmt.Sprintf("mgc/%d-%d-%d-%d", p[0], p[1], p[2], p[3]),
			func() *lts.LTS { return benchMGC(p[0], p[1], p[2], p[3]) }})
	}
	// L, a multiple of 8 so that every cycle wraps alike, grows by about
	// 2^(1/3) where it can: the transitions (3.1·L³) about double.
	for _, L := range []int32{16, 24, 32, 40, 48, 64, 80, 96, 128, 160} {
		inputs = append(inputs, input{fmt.Sprintf("cycles/L=%d", L), func() *lts.LTS { return benchCycles(L) }})
	}
	for n := int32(25000); n <= 1600000; n *= 2 {
		inputs = append(inputs,
			input{fmt.Sprintf("manylabels/m=%d", 2*n), func() *lts.LTS { return benchManyLabels(n) }},
			input{fmt.Sprintf("labelchain/m=%d", n), func() *lts.LTS { return benchLabelChain(n) }},
			input{fmt.Sprintf("tauchains/n=%d", n), func() *lts.LTS { return benchTauChains(n) }},
			input{fmt.Sprintf("tauscc/n=%d", n), func() *lts.LTS { return benchTauSCC(n) }})
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) { benchInput(b, in.make()) })
	}
}

// benchInput runs the sub-benchmarks of one input; inputs are made only
// when a sub-benchmark of theirs is selected.
func benchInput(b *testing.B, l *lts.LTS) {
	m := float64(l.NumTransitions())
	type variant struct {
		name string
		opts Options
	}
	for _, eq := range []Equivalence{Strong, Branching, DivBranching} {
		variants := []variant{{"fast", Options{}}, {"gj", Options{Algorithm: GJ}}}
		if _, ok := classifyAcyclic(l, eq, &Options{}); ok {
			// Fast classifies it in one pass; its refinement is measured too.
			variants = append(variants, variant{"fast-refine", Options{alwaysRefine: true}})
		}
		if m <= 25000 {
			variants = append(variants, variant{"gv", Options{Algorithm: GV}})
		}
		for _, v := range variants {
			b.Run(fmt.Sprintf("%v/%s", eq, v.name), func(b *testing.B) {
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				var blocks int32
				var stats refineStats
				cpu := limits.ProcessCPU()
				opts := v.opts
				opts.stats = &stats
				for b.Loop() {
					_, blocks, _ = Partition(l, eq, opts)
				}
				cpu = limits.ProcessCPU() - cpu
				runtime.ReadMemStats(&after)
				b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/m, "ns/trans")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/m, "B/trans")
				b.ReportMetric(float64(blocks), "classes")
				km := float64(stats.transitions)
				b.ReportMetric(float64(stats.work)/km, "work/trans")
				b.ReportMetric(float64(stats.work)/(km*math.Log2(float64(stats.states))), "work/mlogn")
				b.ReportMetric(km, "kernel-trans")
			})
		}
	}
}

// BenchmarkLinearPass times plainly linear passes over the random family
// of BenchmarkPartition, to separate what the memory hierarchy does to the
// time per transition from what the algorithms do: "random" reads, for
// every transition in a random order, a per-state word at its source and
// at its target (the access pattern of a refinement reading block[src]
// and block[dst]); "sequential" does the same in the order of the
// transitions; "sccs" is lts.SCCs over all transitions (Tarjan, linear).
// The work is the same per transition at every size, so any growth of
// ns/trans is cache and TLB misses.
func BenchmarkLinearPass(b *testing.B) {
	for n := int32(2500); n <= 2560000; n *= 2 {
		b.Run(fmt.Sprintf("random/m=%d", 4*n), func(b *testing.B) {
			l := benchRandom(n)
			m := l.NumTransitions()
			order := rand.New(rand.NewPCG(1, 2)).Perm(m)
			sequential := make([]int, m)
			for i := range sequential {
				sequential[i] = i
			}
			word := make([]int32, n)
			for _, pass := range []struct {
				name  string
				order []int
			}{{"random", order}, {"sequential", sequential}} {
				b.Run(pass.name, func(b *testing.B) {
					sum := int32(0)
					benchPass(b, float64(m), func() {
						for _, t := range pass.order {
							sum += word[l.Src[t]] + word[l.Dst[t]]
							word[l.Dst[t]]++
						}
					})
					runtime.KeepAlive(sum)
				})
			}
			b.Run("sccs", func(b *testing.B) {
				benchPass(b, float64(m), func() { lts.SCCs(l, func(int32) bool { return true }) })
			})
		})
	}
}

// benchPass runs f in a benchmark loop and reports its CPU seconds and
// nanoseconds per transition (m transitions).
func benchPass(b *testing.B, m float64, f func()) {
	cpu := limits.ProcessCPU()
	for b.Loop() {
		f()
	}
	cpu = limits.ProcessCPU() - cpu
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(cpu.Seconds()*1e9/float64(b.N)/m, "cpu-ns/trans")
}
