package progress

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"syscall"
	"testing"

	"github.com/linbis/linbis/internal/mgc"
	"github.com/linbis/linbis/lts"
)

// benchLTS generates, from a seed, an LTS shaped like a most-general
// client's: threads threads, states grouped by their pending set (the
// initial state has none pending), every state with about degree
// successors — a call of an idle thread, a ret of a pending one, or an
// internal step of a pending thread that keeps the set. Calls and internal
// steps only go to higher-numbered states, so every cycle passes a ret and
// the LTS is lock-free; with spin, the last reachable state in BFS order
// with a pending operation gets an internal self-loop, which makes it not
// lock-free, with a long lasso. Targets are random, so memory
// locality is worse than in an explorer's BFS-numbered output.
func benchLTS(seed uint64, states int32, degree, threads int, spin bool) *lts.LTS {
	rng := rand.New(rand.NewPCG(seed, 1))
	sets := 1 << threads
	pend := make([]uint8, states)
	groups := make([][]int32, sets) // states by pending set, ascending
	groups[0] = append(groups[0], 0)
	for s := int32(1); s < states; s++ {
		pend[s] = uint8(rng.IntN(sets))
		groups[pend[s]] = append(groups[pend[s]], s)
	}
	// above returns a random state of group g numbered above s, or -1.
	above := func(g int, s int32) int32 {
		list := groups[g]
		lo, hi := 0, len(list)
		for lo < hi { // first index with list[i] > s
			mid := (lo + hi) / 2
			if list[mid] <= s {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == len(list) {
			return -1
		}
		return list[lo+rng.IntN(min(len(list)-lo, 64))]
	}
	b := lts.NewBuilder()
	b.SetNumStates(states)
	b.Grow(int(states) * degree)
	calls := make([]int32, threads)
	rets := make([]int32, threads)
	for th := range threads {
		calls[th] = b.Label(fmt.Sprintf("call(%d,push,1)", th+1))
		rets[th] = b.Label(fmt.Sprintf("ret(%d,push)", th+1))
	}
	for s := int32(0); s < states; s++ {
		set := int(pend[s])
		for range degree {
			th := rng.IntN(threads)
			bit := 1 << th
			switch {
			case set&bit == 0:
				if d := above(set|bit, s); d >= 0 {
					b.AddTransitionMeta(s, calls[th], d, int32(th+1), -1)
				}
			case rng.IntN(4) == 0:
				list := groups[set&^bit]
				b.AddTransitionMeta(s, rets[th], list[rng.IntN(len(list))], int32(th+1), -1)
			default:
				if d := above(set, s); d >= 0 {
					b.AddTransitionMeta(s, lts.Tau, d, int32(th+1), -1)
				}
			}
		}
	}
	l := b.Build()
	if !spin {
		return l
	}
	_, oldToNew := lts.Reachable(l)
	deepest, depth := int32(-1), int32(-1)
	for s, bfs := range oldToNew {
		if bfs > depth && pend[s] != 0 {
			deepest, depth = int32(s), bfs
		}
	}
	b = lts.NewBuilder()
	b.SetNumStates(states)
	b.Grow(l.NumTransitions() + 1)
	for _, name := range l.Labels {
		b.Label(name)
	}
	for t := range l.Src {
		b.AddTransitionMeta(l.Src[t], l.Label[t], l.Dst[t], int32(l.Meta.Thread[t]), -1)
	}
	b.AddTransitionMeta(deepest, lts.Tau, deepest, 1, -1)
	return b.Build()
}

var benchCache struct {
	sync.Mutex
	ltss map[string]*lts.LTS
}

// cached returns the benchmark LTS called name, made once per process.
func cached(name string, make func() *lts.LTS) *lts.LTS {
	benchCache.Lock()
	defer benchCache.Unlock()
	if benchCache.ltss == nil {
		benchCache.ltss = map[string]*lts.LTS{}
	}
	if benchCache.ltss[name] == nil {
		benchCache.ltss[name] = make()
	}
	return benchCache.ltss[name]
}

// bench10M returns the 10 M-transition random benchmark LTS (2.5 M
// states, 4 threads).
func bench10M(spin bool) *lts.LTS {
	return cached(fmt.Sprint("random", spin), func() *lts.LTS { return benchLTS(10, 2_500_000, 4, 4, spin) })
}

// mgc10M returns the MGC-shaped benchmark LTS: 4 threads × 4 ops, 3 steps,
// counter modulo 3: 3.36 M states, 13.06 M transitions (mgcaut 4 3 3 4).
func mgc10M(spin bool) *lts.LTS {
	return cached(fmt.Sprint("mgc", spin), func() *lts.LTS { return mgc.CASCounter(4, 3, 3, 4, spin) })
}

// cpuSeconds returns the user+system CPU time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkMGC decides each property on the MGC-shaped LTS (BFS-numbered,
// as an explorer writes it), with and without the spin.
func BenchmarkMGC(b *testing.B) {
	for _, spin := range []bool{false, true} {
		benchProperties(b, fmt.Sprintf("spin=%v", spin), mgc10M(spin))
	}
}

// BenchmarkCheck10M decides each property on the 10 M-transition LTS, both
// the lock-free one and the one with a spin, including the annotation.
func BenchmarkCheck10M(b *testing.B) {
	for _, spin := range []bool{false, true} {
		benchProperties(b, fmt.Sprintf("spin=%v", spin), bench10M(spin))
	}
}

func benchProperties(b *testing.B, name string, l *lts.LTS) {
	for _, p := range AllProperties {
		b.Run(name+"/"+p.String(), func(b *testing.B) {
			b.ReportAllocs()
			var res *Result
			cpu0 := cpuSeconds()
			for b.Loop() {
				var err error
				if res, err = Check(l, p); err != nil {
					b.Fatal(err)
				}
			}
			// On a shared machine wall time depends on the neighbours;
			// the process's CPU time per check does less.
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(l.NumStates), "states")
			b.ReportMetric(float64(l.NumTransitions()), "transitions")
			if !res.Holds {
				b.ReportMetric(float64(len(res.Lasso.Steps)), "lasso-steps")
			}
		})
	}
}

// TestMGCWaitFree: the bounded CAS counter is wait-free (every operation
// ends: a CAS fails only when another thread's succeeded, finitely often).
func TestMGCWaitFree(t *testing.T) {
	res, err := Check(mgc.CASCounter(3, 2, 3, 2, false), WaitFree)
	if err != nil || !res.Holds {
		t.Fatalf("bounded CAS counter: %v %v", res, err)
	}
}

// TestBenchLTS checks the generator's claims on a small instance, so that
// the benchmark measures what it says.
func TestBenchLTS(t *testing.T) {
	for _, spin := range []bool{false, true} {
		l := benchLTS(3, 2000, 4, 3, spin)
		res, err := Check(l, LockFree)
		if err != nil {
			t.Fatal(err)
		}
		if res.Holds == spin {
			t.Fatalf("spin=%v: lock-free = %v: %s", spin, res.Holds, res.Explanation)
		}
		if !res.Holds {
			checkCounterexample(t, l, res)
		}
	}
}
