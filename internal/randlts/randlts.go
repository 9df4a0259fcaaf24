// Package randlts draws random LTSs for the tests' sweeps: the one
// generator behind the random LTSs that lts, bisim, refine, progress and
// cmd/linbis check against their oracles. Each caller says the family it
// draws from (sizes, labels, the share of τ-steps) in a Config; the draws
// are uniform, so τ-cycles, self-loops, nondeterminism, deadlocks and
// unreachable states all arise. A caller whose labels follow its states'
// own data (progress: the pending operations of each state) labels the
// drawn steps itself (Config.Add).
//
// It fills a Builder rather than returning an *lts.LTS so that the tests
// inside package lts can use it too (they cannot import a package that
// imports lts).
package randlts

import "math/rand/v2"

// TauName is the name of the internal action, as package lts spells it.
const TauName = "tau"

// Builder receives the drawn LTS; *lts.Builder is one.
type Builder interface {
	SetNumStates(n int32)
	SetInitial(s int32)
	Label(name string) int32
	AddTransition(src, label, dst int32)
}

// Config is the family an LTS is drawn from.
type Config struct {
	States      int      // number of states, at least 1
	Transitions int      // number of steps drawn, each between two states drawn uniformly
	Labels      []string // the visible labels; a visible step's label is drawn uniformly
	Tau         float64  // the probability that a step is τ (1 when Labels is empty)
	// RandomInitial draws the initial state uniformly; else it is state 0.
	RandomInitial bool
	// Add, when not nil, is given each drawn pair of states instead of a
	// transition labelled by Tau and Labels: it labels the step from src
	// to dst and adds it to the builder, or leaves it out.
	Add func(src, dst int32)
}

// Fill draws an LTS of family c into b. Labels are added to b as they are
// first drawn. The order of the draws is fixed (the initial state, then per
// transition: τ or not, the label, the source, the target; with Add, the
// source, the target and Add's own), so that a seed names one LTS.
func Fill(rng *rand.Rand, b Builder, c Config) {
	n := c.States
	b.SetNumStates(int32(n))
	if c.RandomInitial {
		b.SetInitial(int32(rng.IntN(n)))
	}
	for range c.Transitions {
		if c.Add != nil {
			src := int32(rng.IntN(n))
			c.Add(src, int32(rng.IntN(n)))
			continue
		}
		label := TauName
		if rng.Float64() >= c.Tau && len(c.Labels) > 0 {
			label = c.Labels[rng.IntN(len(c.Labels))]
		}
		src := int32(rng.IntN(n))
		b.AddTransition(src, b.Label(label), int32(rng.IntN(n)))
	}
}
