package onthefly

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSuccCacheFindsOnlyWhatWasAdded: against a map of what was added
// last for each encoding, the cache never answers for an encoding it was
// not given, nor with an older answer, while encodings of all lengths
// (some longer than a ring's quarter) evict each other from the slots and
// the ring wraps round many times; and it does answer for most of the
// recent ones.
func TestSuccCacheFindsOnlyWhatWasAdded(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 7))
	c := newSuccCache(minCacheSlots)
	last := map[string][2]int32{}
	var recent []string
	hits, recentHits := 0, 0
	for i := range 200000 {
		enc := make([]byte, 1+r.IntN(40))
		for k := range enc {
			enc[k] = byte(r.IntN(3)) // few distinct encodings: many repeats
		}
		if r.IntN(500) == 0 {
			enc = make([]byte, len(c.ring)/4+1+r.IntN(8)) // too long to remember
		}
		h := uint32(r.IntN(1 << 12)) // hashes collide on purpose
		if to, perm, ok := c.find(enc, h); ok {
			want, seen := last[string(enc)+fmt.Sprint(h)]
			require.True(t, seen, "a hit for an encoding never added")
			require.Equal(t, want, [2]int32{to, int32(perm)}, "a stale answer")
			hits++
		}
		to, perm := int32(i), permID(r.IntN(24))
		c.add(enc, h, to, perm)
		if len(enc) <= len(c.ring)/4 {
			last[string(enc)+fmt.Sprint(h)] = [2]int32{to, int32(perm)}
			recent = append(recent, string(enc))
			if _, _, ok := c.find(enc, h); ok {
				recentHits++
			}
		}
	}
	assert.Greater(t, c.pos, uint64(10*len(c.ring)), "the ring wrapped round")
	assert.Positive(t, hits)
	assert.Equal(t, len(recent), recentHits, "what was added last is found")
}

// TestSuccCacheKeepsTheSearch: the on-the-fly search with the cache of
// recent successors stores, finds and reports exactly what it does
// without it — pairs, states, orbits, verdicts, counterexamples and
// lassos — on every bundled model (3×1, and hp-stack-sym at 4×1, treiber
// at 3×2, where it hits most), in both heap modes, with partial-order
// reduction in explicit mode and without it in garbage-collected mode;
// and the cache spares a good share of the canonicalisations.
func TestSuccCacheKeepsTheSearch(t *testing.T) {
	models := bundledModels(t, ir.Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}})
	hp, tr := "../frontend/examples/hp-stack-sym.lin", "../frontend/examples/treiber.lin"
	models = append(models, bundled{hp, checkedFile(t, hp), ir.Bounds{Threads: 4, Ops: 1, Values: []int{1}}},
		bundled{tr, checkedFile(t, tr), ir.Bounds{Threads: 3, Ops: 2, Values: []int{1}}})
	var recognised, successors int64
	for _, m := range models {
		for _, explicit := range []bool{false, true} {
			for _, por := range []bool{explicit} { // two of the four combinations: the test's time
				what := fmt.Sprintf("%v explicit=%v por=%v", m, explicit, por)
				o := Options{Options: semantics.Options{Explicit: explicit}, Reductions: Reductions{Symmetry: true, PartialOrder: por}}
				with, err := Check(m.prog, m.b, o)
				o.noSuccCache = true
				without, err2 := Check(m.prog, m.b, o)
				if err != nil || err2 != nil {
					require.Equal(t, fmt.Sprint(err2), fmt.Sprint(err), what)
					continue
				}
				recognised += with.Stats.Recognised
				successors += with.Stats.Transitions
				require.Zero(t, without.Stats.Recognised, what)
				with.Stats.Recognised = 0
				require.Equal(t, without, with, what)
			}
		}
	}
	t.Logf("%d of %d successors found in the cache", recognised, successors)
	assert.Greater(t, recognised, successors/5)
}
