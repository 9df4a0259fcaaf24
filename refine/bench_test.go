package refine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/linbis/linbis/lts"
)

// interleave returns the interleaving (asynchronous product) of k copies of
// c, the labels of copy i suffixed with i.
func interleave(c *lts.LTS, k int) *lts.LTS {
	n := int(c.NumStates)
	total := 1
	for range k {
		total *= n
	}
	b := lts.NewBuilder()
	b.SetNumStates(int32(total))
	init, w := 0, 1
	for range k {
		init += int(c.Initial) * w
		w *= n
	}
	b.SetInitial(int32(init))
	for s := range total {
		w := 1
		for i := range k {
			local := (s / w) % n
			for t := c.Out[local]; t < c.Out[local+1]; t++ {
				name := c.LabelName(t)
				if name != lts.TauName {
					name = fmt.Sprintf("%s%d", name, i)
				}
				b.AddTransition(int32(s), b.Label(name), int32(s+(int(c.Dst[t])-local)*w))
			}
			w *= n
		}
	}
	return b.Build()
}

// benchCycles is an interleaving of k processes. Each impl process does
// a, some internal steps (one of which may loop), then b or c; each spec
// process guesses at a which of b or c will follow, so its normalised states
// are sets, and it may also skip to b.
func benchCycles(k int) (impl, spec *lts.LTS) {
	implC := fromEdges(5, "0 a 1", "1 tau 2", "2 tau 2", "2 tau 3", "3 b 0", "2 tau 4", "4 c 0")
	specC := fromEdges(4, "0 a 1", "0 a 2", "1 b 0", "2 c 0", "2 tau 3", "3 b 0")
	return interleave(implC, k), interleave(specC, k)
}

// fromEdges builds an LTS with n states, initial state 0, from edges
// written "src label dst".
func fromEdges(n int32, edges ...string) *lts.LTS {
	var ts []lts.Triple
	for _, e := range edges {
		var t lts.Triple
		if _, err := fmt.Sscan(e, &t.Src, &t.Label, &t.Dst); err != nil {
			panic(err)
		}
		ts = append(ts, t)
	}
	return lts.FromTriples(0, n, ts)
}

// benchRandom is a random nondeterministic specification and an
// implementation made of about two thirds of its transitions with each visible step
// preceded by a τ step through a fresh state, so that it refines the spec.
func benchRandom(n int, seed uint64) (impl, spec *lts.LTS) {
	r := rand.New(rand.NewPCG(seed, 1))
	labels := []string{"a", "b", "c", "d"}
	spec = randomLTS(r, n, 4*n, labels, 0.2)
	b := lts.NewBuilder()
	b.SetNumStates(spec.NumStates)
	for t := range spec.Src {
		if int32(t) != spec.Out[spec.Src[t]] && r.IntN(3) == 0 {
			continue // drop a third of the transitions, never a state's first
		}
		mid := b.AddState()
		b.AddTransition(spec.Src[t], lts.Tau, mid)
		b.AddTransition(mid, b.Label(spec.LabelName(int32(t))), spec.Dst[t])
	}
	return b.Build(), spec
}

func BenchmarkCheck(b *testing.B) {
	cycImpl, cycSpec := benchCycles(6)
	rndImpl, rndSpec := benchRandom(160, 7)
	models := []struct {
		name       string
		impl, spec *lts.LTS
		alphabet   func(string) bool
	}{
		{"cycles6", cycImpl, cycSpec, nil},
		{"random160", rndImpl, rndSpec, nil},
		{"counterCAS3x2", counter(counterCAS, 3, 2), counter(counterSpec, 3, 2), callRet},
		{"counterCAS3x2-lin", counter(counterCAS, 3, 2), counter(counterSpec, 3, 2), linOnly},
		{"register3x2v2", register(true, 3, 2, 2), register(false, 3, 2, 2), nil},
	}
	for _, m := range models {
		for _, c := range configs {
			b.Run(m.name+"/"+strings.ReplaceAll(c.name, "+", "-"), func(b *testing.B) {
				opts := c.opts
				opts.Alphabet = m.alphabet
				b.ReportAllocs()
				var res *Result
				for b.Loop() {
					var err error
					if res, err = Check(m.impl, m.spec, opts); err != nil {
						b.Fatal(err)
					}
				}
				if !res.Refines {
					b.Fatal("expected refinement to hold")
				}
				b.ReportMetric(float64(res.Stats.Pairs), "pairs")
				b.ReportMetric(float64(res.Stats.SpecSubsets), "subsets")
				b.ReportMetric(float64(m.impl.NumStates), "impl-states")
			})
		}
	}
}
