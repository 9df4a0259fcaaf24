// Command randaut writes a seeded random LTS as an .aut file: the random
// families on which linbis's refinement is compared with mCRL2's
// ltsconvert (benchmarks/RESULTS.md, "`reduce` on random LTSs beside mCRL2"). States,
// transitions, visible labels and the share of τ-steps are given; the steps
// are drawn by internal/randlts, the generator of the tests' random LTSs,
// so the LTS has cycles through visible actions, τ-cycles, nondeterminism
// and deadlocks, and a seed names one LTS.
//
//	go run ./benchmarks/randaut -states 1000000 -transitions 5000000 -labels 10 -o r1m.aut
//	go run ./benchmarks/randaut -states 200000 -transitions 1000000 -labels 20000 -o r200k.aut
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/lts"
)

func main() {
	states := flag.Int("states", 1_000_000, "number of states")
	transitions := flag.Int("transitions", 5_000_000, "number of transitions")
	labels := flag.Int("labels", 10, "number of visible labels (a0, a1, …)")
	tau := flag.Float64("tau", 0.3, "share of τ-steps")
	seed := flag.Uint64("seed", 1, "the seed")
	out := flag.String("o", "", "output .aut file (required)")
	flag.Parse()
	if *out == "" || *states < 1 || *transitions < 0 || *labels < 0 || *tau < 0 || *tau > 1 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: randaut [-states N] [-transitions M] [-labels L] [-tau P] [-seed S] -o OUT.aut")
		os.Exit(2)
	}
	if err := lts.WriteFile(*out, Draw(*states, *transitions, *labels, *tau, *seed)); err != nil {
		fmt.Fprintln(os.Stderr, "randaut:", err)
		os.Exit(1)
	}
}

// Draw returns the random LTS of the family (states, transitions, labels,
// tau) named by seed: state 0 initial, every step's source and target
// uniform, τ with probability tau, else a label drawn uniformly.
func Draw(states, transitions, labels int, tau float64, seed uint64) *lts.LTS {
	names := make([]string, labels)
	for i := range names {
		names[i] = fmt.Sprintf("a%d", i)
	}
	b := lts.NewBuilder()
	b.Grow(transitions)
	randlts.Fill(rand.New(rand.NewPCG(seed, 39)), b, randlts.Config{States: states, Transitions: transitions, Labels: names, Tau: tau})
	return b.Build()
}
