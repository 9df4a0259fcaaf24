package bisim

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// TestMinimizeReachableIsMinimizeOfReachable holds MinimizeReachable to
// what it replaces, Minimize of the reachable part's renumbered copy: the
// same .aut bytes for every equivalence and algorithm, on random LTSs with
// unreachable states (whose classes alone are cut off the quotient) and
// on random renumberings of their reachable parts (every state reachable,
// numbered unlike the breadth-first order), and on
// the reachable parts themselves (numbered breadth-first, which the path
// that skips the reachable order checks); the input's collection after
// its release is asked for on every other seed.
func TestMinimizeReachableIsMinimizeOfReachable(t *testing.T) {
	seeds := testsize.Count(60, 400)
	direct, breadthFirst := 0, 0
	for seed := range uint64(seeds) {
		l := randomLTS(seed, 14)
		r, _ := lts.Reachable(l)
		shuffled := renumbered(r, rand.New(rand.NewPCG(seed, 22)))
		for _, in := range []*lts.LTS{l, shuffled, r} {
			if r.NumStates == in.NumStates {
				direct++
			}
			if lts.BreadthFirstNumbered(in) {
				breadthFirst++
			}
			for _, eq := range allEquivalences {
				for _, alg := range []Algorithm{Fast, GJ, GV} {
					want, _, err := Minimize(r, eq, Options{Algorithm: alg})
					require.NoError(t, err)
					opts := Options{Algorithm: alg, CollectInput: seed%2 == 0}
					got, reachable, err := MinimizeReachableConsuming(Consume(cloneLTS(in)), eq, opts)
					require.NoError(t, err)
					require.Equal(t, r.NumStates, reachable)
					require.Equal(t, autBytes(t, want), autBytes(t, got), "seed %d, %v, %v", seed, eq, alg)
				}
			}
		}
	}
	require.Greater(t, direct, 2*seeds, "the inputs without unreachable states")
	require.Greater(t, breadthFirst, seeds, "the inputs numbered breadth-first")
}

// renumbered returns l with its states renumbered by a random permutation.
func renumbered(l *lts.LTS, rng *rand.Rand) *lts.LTS {
	perm := rng.Perm(int(l.NumStates))
	b := lts.NewBuilder()
	for _, name := range l.Labels {
		b.Label(name)
	}
	b.SetNumStates(l.NumStates)
	b.SetInitial(int32(perm[l.Initial]))
	for t := range l.Src {
		b.AddTransition(int32(perm[l.Src[t]]), l.Label[t], int32(perm[l.Dst[t]]))
	}
	return b.Build()
}

// cloneLTS copies l's transitions, which a consuming call clears.
func cloneLTS(l *lts.LTS) *lts.LTS {
	c := *l
	c.Src, c.Label, c.Dst, c.Out = append([]int32(nil), l.Src...), append([]int32(nil), l.Label...),
		append([]int32(nil), l.Dst...), append([]int32(nil), l.Out...)
	return &c
}

// autBytes is l written as .aut.
func autBytes(t *testing.T, l *lts.LTS) []byte {
	var buf bytes.Buffer
	require.NoError(t, lts.WriteAut(&buf, l))
	return buf.Bytes()
}
