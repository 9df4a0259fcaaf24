package onthefly

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
)

// TestPermTableKeepsEveryPermutation interns all 9! = 362 880 permutations
// of 9 threads, more than 16-bit ids can name, from several goroutines at
// once (each reading back what it interned while the others intern more),
// and checks that every id still gives back its own permutation: ids that
// wrapped would give a later permutation, and rename a subset by it.
func TestPermTableKeepsEveryPermutation(t *testing.T) {
	var all [][]uint8
	forEachPermutation(9, func(p []uint8) { all = append(all, slices.Clone(p)) })
	var tab permTable
	require.Equal(t, permID(0), tab.intern(identity(9)))
	const workers = 2
	ids := make([]permID, len(all))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each goroutine interns the permutations in its own order,
			// so that they meet many that others interned first.
			rng := rand.New(rand.NewPCG(uint64(w), 38))
			for _, i := range rng.Perm(len(all)) {
				id := tab.intern(all[i])
				if got := tab.get(id); !slices.Equal(got, all[i]) {
					t.Errorf("permutation %v interned as %d reads back as %v", all[i], id, got)
					return
				}
				if w == 0 {
					ids[i] = id
				}
			}
		}()
	}
	wg.Wait()
	seen := make(map[permID]bool, len(all))
	for i, p := range all {
		require.Equal(t, p, tab.get(ids[i]), "id %d", ids[i])
		require.Equal(t, ids[i], tab.intern(p))
		require.False(t, seen[ids[i]], "id %d given twice", ids[i])
		seen[ids[i]] = true
	}
	require.Equal(t, permID(0), ids[0], "the identity keeps id 0")
	require.Equal(t, len(all), len(seen))
	require.Greater(t, len(seen), 1<<16)
}

// TestRenamedWithWideIDs renames the subsets of a search of a symmetric
// bundled model by permutations whose ids lie past 2^16 (a table padded
// with 9-thread permutations first) and holds permute and renamed to the
// plain renaming: the renamings cached by subset and id must not mix ids
// that differ past 16 bits.
func TestRenamedWithWideIDs(t *testing.T) {
	prog := checkedFile(t, "../frontend/examples/treiber.lin")
	b := ir.Bounds{Threads: 4, Ops: 1, Values: []int{1, 2}}
	o := semantics.Options{MaxStates: 100_000, Workers: 1}
	impl, err := semantics.NewSystem(prog, prog.Impl, b, o)
	require.NoError(t, err)
	f, err := newFlySearch(prog, impl, b, Options{Options: o, Reductions: Reductions{Symmetry: true}})
	require.NoError(t, err)
	require.NotNil(t, f.spec.sym)
	f.startExpanders(1)
	_, err = f.run()
	require.NoError(t, err)

	s, n := f.spec, f.spec.threads
	clear(s.permuted) // its keys are ids of f.perms
	var tab permTable
	tab.intern(identity(n))
	forEachPermutation(9, func(p []uint8) { tab.intern(p) })
	var perms [][]uint8
	forEachPermutation(n, func(p []uint8) { perms = append(perms, slices.Clone(p)) })
	rng := rand.New(rand.NewPCG(1, 38))
	count := int32(s.count())
	for range 3000 {
		sub := rng.Int32N(count)
		sigma := perms[rng.IntN(len(perms))]
		id := tab.intern(sigma)
		require.True(t, id == 0 || id >= 1<<16)
		got, ok := s.permute(sub, id, &tab, false)
		require.True(t, ok)
		require.Equal(t, renamedPlainly(s, sub, sigma), got, "subset %d by %v (id %d)", sub, sigma, id)
		alts := randomAlternatives(rng, n)
		gotSub, gotPerm, ok := s.renamed(sub, id, alts, &tab, false)
		require.True(t, ok)
		require.True(t, gotPerm == 0 || gotPerm >= 1<<16)
		wantSub, wantPerm := renamedByEveryAlternative(s, sub, id, alts, &tab)
		require.Equal(t, wantSub, gotSub)
		require.Equal(t, wantPerm, tab.get(gotPerm))
	}
}
