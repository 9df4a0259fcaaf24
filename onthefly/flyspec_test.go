package onthefly

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
)

// renamedByEveryAlternative is the plain renaming that flySpec.renamed
// stands for: sub renamed by perm and by each alternative, the least
// subset id, and the first permutation that gives it.
func renamedByEveryAlternative(s *flySpec, sub int32, perm uint16, alts []uint16, perms *permTable) (int32, uint16) {
	best, _ := s.permute(sub, perm, perms, false)
	bestPerm := perm
	for _, alt := range alts {
		if other, _ := s.permute(sub, alt, perms, false); other < best {
			best, bestPerm = other, alt
		}
	}
	return best, bestPerm
}

// TestRenamedAsByEveryAlternative holds flySpec.renamed, which skips the
// alternatives that keep the threads in their classes of the renamed
// subset, to renamedByEveryAlternative, on the subsets that searches of
// symmetric bundled models and random programs interned, renamed by
// random permutations with random alternatives: some like a stabiliser's
// (g∘σ, g permuting runs of adjacent threads), some any permutation. It
// also holds swapClasses to its definition (two threads are in one class
// exactly when exchanging them gives the subset again) and checks that
// every alternative skipped does give the renamed subset.
func TestRenamedAsByEveryAlternative(t *testing.T) {
	type input struct {
		name string
		prog *check.Program
		b    ir.Bounds
	}
	var inputs []input
	for _, name := range []string{"treiber", "ms-queue", "hp-stack-sym", "elimination-stack", "lazy-list"} {
		file := "../frontend/examples/" + name + ".lin"
		inputs = append(inputs, input{name, checkedFile(t, file), ir.Bounds{Threads: 4, Ops: 1, Values: []int{1, 2}}})
	}
	for seed := range testsize.Count(20, 80) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 38)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := frontend.Parse(name, []byte(p.Source))
		require.NoError(t, err, name)
		b := m.DefaultBounds()
		b.Threads = max(b.Threads, 3)
		inputs = append(inputs, input{name, m.Program, b})
	}
	var symmetric, skipped, exchangeable int
	for i, in := range inputs {
		o := semantics.Options{MaxStates: 100_000, Workers: 1}
		impl, err := semantics.NewSystem(in.prog, in.prog.Impl, in.b, o)
		require.NoError(t, err, in.name)
		f, err := newFlySearch(in.prog, impl, in.b, Options{Options: o, Reductions: Reductions{Symmetry: true}})
		require.NoError(t, err, in.name)
		if f.spec.sym == nil {
			continue
		}
		f.startExpanders(1)
		if _, err := f.run(); err != nil {
			continue // model errors and limits: the subsets found are enough
		}
		symmetric++
		s, n := f.spec, f.spec.threads
		rng := rand.New(rand.NewPCG(uint64(i), 38))
		perm := func() []uint8 {
			p := make([]uint8, n)
			for t, u := range rng.Perm(n) {
				p[t] = uint8(u)
			}
			return p
		}
		count := int32(s.count())
		for range testsize.Count(300, 2000) {
			sub := rng.Int32N(count)
			sigma := perm()
			var alts []uint16
			for range rng.IntN(6) {
				g := perm()
				if rng.IntN(4) > 0 { // like a stabiliser's: within runs
					for t := 0; t < n; {
						end := min(n, t+1+rng.IntN(3))
						for k, u := range rng.Perm(end - t) {
							g[t+k] = uint8(t + u)
						}
						t = end
					}
				}
				alt := make([]uint8, n)
				for t := range alt {
					alt[t] = g[sigma[t]]
				}
				alts = append(alts, f.perms.intern(alt))
			}
			id := f.perms.intern(sigma)
			gotSub, gotPerm, ok := s.renamed(sub, id, alts, &f.perms, false)
			require.True(t, ok, in.name)
			wantSub, wantPerm := renamedByEveryAlternative(s, sub, id, alts, &f.perms)
			what := fmt.Sprintf("%s: subset %d by %v, alternatives %v", in.name, sub, sigma, alts)
			require.Equal(t, wantSub, gotSub, what)
			require.Equal(t, wantPerm, gotPerm, what)
			to, _ := s.permute(sub, id, &f.perms, false)
			if to == s.empty {
				continue
			}
			classes, ok := s.swapClasses(to, false)
			require.True(t, ok, what)
			for _, alt := range alts {
				if keepsClasses(classes, sigma, f.perms.get(alt)) {
					skipped++
					other, _ := s.permute(sub, alt, &f.perms, false)
					require.Equal(t, to, other, what)
				}
			}
			for u := range n {
				for v := range u {
					swap := make([]uint8, n)
					for w := range swap {
						swap[w] = uint8(w)
					}
					swap[u], swap[v] = uint8(v), uint8(u)
					swapped, _ := s.permute(to, f.perms.intern(swap), &f.perms, false)
					require.Equal(t, swapped == to, classes[u] == classes[v], "%s: threads %d and %d of subset %d", what, u, v, to)
					if swapped == to {
						exchangeable++
					}
				}
			}
		}
	}
	t.Logf("%d symmetric inputs, %d alternatives skipped, %d exchanges that fix a subset", symmetric, skipped, exchangeable)
	require.GreaterOrEqual(t, symmetric, 5)
	require.Positive(t, skipped)
	require.Positive(t, exchangeable)
}
