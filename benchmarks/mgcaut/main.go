// Command mgcaut writes the most general client of a CAS counter
// (internal/mgc) as an .aut file: the structured LTSs of
// benchmarks/RESULTS.md's MGC rows and of the bundled example of `linbis
// info`. K threads each call inc OPS times; an inc reads a counter modulo
// MOD, takes STEPS-1 more τ-steps and CASes, retrying on failure; with
// spin, thread 1 may loop forever at its read (not lock-free).
//
//	go run ./benchmarks/mgcaut 4 3 4 3 mgc.aut     # 1.99 M states, 7.63 M transitions
//	go run ./benchmarks/mgcaut 2 2 3 1 cas-counter-2x1.aut
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/linbis/linbis/internal/mgc"
	"github.com/linbis/linbis/lts"
)

const usage = "usage: mgcaut K STEPS MOD OPS OUT.aut [spin]"

func main() {
	args := os.Args[1:]
	if len(args) < 5 || len(args) > 6 || len(args) == 6 && args[5] != "spin" {
		fail(2, usage)
	}
	var n [4]int
	limits := [4]struct {
		name string
		lo   int
		hi   int
	}{{"K", 1, mgc.MaxThreads}, {"STEPS", 1, mgc.MaxSteps}, {"MOD", 1, mgc.MaxMod}, {"OPS", 0, mgc.MaxOps}}
	for i, l := range limits {
		v, err := strconv.Atoi(args[i])
		if err != nil || v < l.lo || v > l.hi {
			fail(2, fmt.Sprintf("mgcaut: %s %q: expected a whole number from %d to %d\n%s", l.name, args[i], l.lo, l.hi, usage))
		}
		n[i] = v
	}
	l := mgc.CASCounter(n[0], n[1], n[2], n[3], len(args) == 6)
	if err := lts.WriteFile(args[4], l); err != nil {
		fail(1, "mgcaut: "+err.Error())
	}
	fmt.Printf("%d states %d transitions\n", l.NumStates, l.NumTransitions())
}

func fail(code int, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(code)
}
