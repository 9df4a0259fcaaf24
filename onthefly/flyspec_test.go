package onthefly

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/reduce"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
)

// renamedByEveryAlternative is the plain renaming that flySpec.renamed
// stands for: sub renamed by perm and by each alternative g∘perm, g
// listed from the parts alts (expander.stabilizer) but the first (the
// identity), the least subset id, and the first permutation that gives it.
func renamedByEveryAlternative(s *flySpec, sub int32, perm permID, alts []uint8, perms *permTable) (int32, []uint8) {
	sigma := perms.get(perm)
	best, bestPerm := renamedPlainly(s, sub, sigma), sigma
	for _, alt := range alternatives(sigma, alts) {
		if other := renamedPlainly(s, sub, alt); other < best {
			best, bestPerm = other, alt
		}
	}
	return best, bestPerm
}

// alternatives lists the alternatives g∘sigma given by the parts alts
// (expander.stabilizer), the identity's left out.
func alternatives(sigma, alts []uint8) [][]uint8 {
	if len(alts) == 0 {
		return nil
	}
	var out [][]uint8
	runs, marked := altParts(alts)
	for g := range reduce.Product(runs, marked, make([]uint8, len(sigma))) {
		alt := make([]uint8, len(sigma))
		for t, u := range sigma {
			alt[t] = g[u]
		}
		out = append(out, alt)
	}
	return out[1:]
}

// randomAlternatives returns random parts of alternatives for n threads,
// as expander.stabilizer appends them: runs of adjacent threads and
// marked permutations, some like a stabiliser's (within runs of adjacent
// threads), some any permutation; none (empty) sometimes.
func randomAlternatives(rng *rand.Rand, n int) []uint8 {
	perm := func() []uint8 {
		p := make([]uint8, n)
		for t, u := range rng.Perm(n) {
			p[t] = uint8(u)
		}
		return p
	}
	var runs []uint8
	for t := 0; t < n; {
		end := min(n, t+1+rng.IntN(3))
		if end-t > 1 && rng.IntN(3) == 0 {
			runs = append(runs, uint8(t), uint8(end-t))
		}
		t = end
	}
	marked := identity(n)
	for range rng.IntN(4) {
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
		marked = append(marked, g...)
	}
	if len(runs) == 0 && len(marked) == n {
		return nil
	}
	return append(append([]uint8{uint8(len(runs) / 2)}, runs...), marked...)
}

// renamedPlainly is subset sub renamed by perm, member by member, without
// flySpec.permute's table.
func renamedPlainly(s *flySpec, sub int32, perm []uint8) int32 {
	if sub == s.empty {
		return sub
	}
	var out []int32
	for _, st := range s.subsets.Members(sub) {
		cur := semantics.Decode(nil, s.set.Encoding(s.offs[st]))
		out = append(out, s.state(s.sym.Apply(cur, perm, s.st.Expander.Canon)))
	}
	slices.Sort(out)
	return s.subsets.Intern(slices.Compact(out))
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
			alts := randomAlternatives(rng, n)
			id := f.perms.intern(sigma)
			if rng.IntN(2) == 0 {
				s.swapClasses(sub) // permute finds the renaming by its least alike
			}
			gotSub, gotPerm, ok := s.renamed(sub, id, alts, &f.perms, false)
			require.True(t, ok, in.name)
			wantSub, wantPerm := renamedByEveryAlternative(s, sub, id, alts, &f.perms)
			what := fmt.Sprintf("%s: subset %d by %v, alternatives %v", in.name, sub, sigma, alts)
			require.Equal(t, wantSub, gotSub, what)
			require.Equal(t, wantPerm, f.perms.get(gotPerm), what)
			to := renamedPlainly(s, sub, sigma)
			if to == s.empty {
				continue
			}
			classes, ok := s.knownClasses(to)
			if !ok {
				classes = s.swapClasses(to)
			}
			for _, alt := range alternatives(sigma, alts) {
				g := make([]uint8, n)
				for t, u := range sigma {
					g[u] = alt[t]
				}
				if keepsClasses(classes, g) {
					skipped++
					other := renamedPlainly(s, sub, alt)
					require.Equal(t, to, other, what)
				}
			}
			// The classes found or read off another subset's are those
			// of their definition.
			for _, x := range []int32{sub, to} {
				classes, ok := s.knownClasses(x)
				if !ok {
					continue
				}
				for u := range n {
					for v := range u {
						swap := make([]uint8, n)
						for w := range swap {
							swap[w] = uint8(w)
						}
						swap[u], swap[v] = uint8(v), uint8(u)
						swapped := renamedPlainly(s, x, swap)
						require.Equal(t, swapped == x, classes[u] == classes[v], "%s: threads %d and %d of subset %d", what, u, v, x)
						if swapped == x {
							exchangeable++
						}
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

// TestLeastAlike holds flySpec.leastAlike to its definition on random
// classes and permutations: the least (lexicographically) of perm∘h for
// the permutations h that keep each thread in its class, all of them
// enumerated.
func TestLeastAlike(t *testing.T) {
	var s flySpec
	rng := rand.New(rand.NewPCG(1, 38))
	for range testsize.Count(2000, 20000) {
		n := 1 + rng.IntN(6)
		classes := make([]uint8, n)
		for u := range classes {
			classes[u] = uint8(u)
			if v := rng.IntN(u + 1); v < u {
				classes[u] = classes[v]
			}
		}
		perm := make([]uint8, n)
		for u, v := range rng.Perm(n) {
			perm[u] = uint8(v)
		}
		var want []uint8
		forEachPermutation(n, func(h []uint8) {
			for u, v := range h {
				if classes[u] != classes[v] {
					return
				}
			}
			alike := make([]uint8, n)
			for u := range alike {
				alike[u] = perm[h[u]]
			}
			if want == nil || slices.Compare(alike, want) < 0 {
				want = alike
			}
		})
		require.Equal(t, want, s.leastAlike(classes, perm), "classes %v perm %v", classes, perm)
	}
}

// forEachPermutation calls f with each permutation of 0, …, n-1, in a
// slice it reuses.
func forEachPermutation(n int, f func([]uint8)) {
	p := make([]uint8, 0, n)
	used := make([]bool, n)
	var extend func()
	extend = func() {
		if len(p) == n {
			f(p)
			return
		}
		for v := range n {
			if !used[v] {
				used[v] = true
				p = append(p, uint8(v))
				extend()
				p = p[:len(p)-1]
				used[v] = false
			}
		}
	}
	extend()
}
