package frontend

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/linbis/linbis/internal/parallel"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
)

// flyRandomSeeds is the number of random programs the on-the-fly check is
// held to the full LTS on.
const flyRandomSeeds = 1200

// TestFlyAgreesOnRandomPrograms holds the on-the-fly check, under every
// reduction mode (none, symmetry, partial-order, both), to the refinement and progress checkers on
// the full LTSs of random programs (internal/randmodel), in both heap
// modes for the programs that free nodes; its counterexamples must be
// paths of the full LTS. The programs that break thread symmetry (tid
// arithmetic or order, loops over thread ids, `only` clauses) must be
// refused by the symmetry check, not reduced.
func TestFlyAgreesOnRandomPrograms(t *testing.T) {
	n := testsize.Count(200, flyRandomSeeds)
	type outcome struct {
		linearizable, lockFree, reduced, refused, modelError bool
		// ample: the partial-order reduction followed one thread only
		// at some pair (under --reduce por).
		ample bool
		// perThread: the program uses per-thread arrays, thread values or
		// loops over threads (randmodel.PerThreadForms).
		perThread bool
	}
	outcomes := make([]outcome, n)
	parallel.ForEach(runtime.GOMAXPROCS(0), n, func(seed int) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 0)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		m, err := Parse(name, []byte(p.Source))
		if !assert.NoError(t, err, name) {
			return
		}
		outcomes[seed].perThread = p.Features&randmodel.PerThreadForms != 0
		modes := []bool{false}
		if p.Features&(randmodel.Free|randmodel.ExplicitHeap) == randmodel.Free {
			modes = append(modes, true)
		}
		for _, explicit := range modes {
			what := fmt.Sprintf("%s explicit=%v", name, explicit)
			cmp := compareFlyWithFull(t, what, m, m.DefaultBounds(), Options{Explicit: explicit, MaxStates: 50_000})
			if cmp.failed {
				outcomes[seed].modelError = true
				continue
			}
			if got := cmp.byMode[1]; got != nil {
				if !p.Symmetric() {
					assert.False(t, got.Symmetric, "%s breaks thread symmetry and must be refused", what)
					assert.NotEmpty(t, got.SymmetryNote, what)
				}
				outcomes[seed].reduced = outcomes[seed].reduced || got.Symmetric
				outcomes[seed].refused = outcomes[seed].refused || !got.Symmetric
			}
			if got := cmp.byMode[2]; got != nil {
				outcomes[seed].ample = outcomes[seed].ample || got.Stats.Ample > 0
			}
			outcomes[seed].linearizable = cmp.refines
			outcomes[seed].lockFree = cmp.lockFree
		}
	})
	var lin, notLin, lf, notLF, reduced, refused, ample, perThread, perThreadReduced, perThreadAmple int
	for _, o := range outcomes {
		if o.perThread {
			perThread++
			if o.reduced {
				perThreadReduced++
			}
			if o.ample {
				perThreadAmple++
			}
		}
		switch {
		case o.modelError:
		case o.linearizable:
			lin++
		default:
			notLin++
		}
		if !o.modelError && o.linearizable {
			if o.lockFree {
				lf++
			} else {
				notLF++
			}
		}
		if o.reduced {
			reduced++
		}
		if o.refused {
			refused++
		}
		if o.ample {
			ample++
		}
	}
	t.Logf("%d programs: linearizable %d, not %d; lock-free %d, not %d; symmetry applied to %d, refused for %d; partial-order reduction took ample sets in %d; "+
		"%d with per-thread forms, symmetry applied to %d of them, ample sets in %d",
		n, lin, notLin, lf, notLF, reduced, refused, ample, perThread, perThreadReduced, perThreadAmple)
	// A cross-check that only ever sees one verdict proves little.
	for what, k := range map[string]int{"linearizable": lin, "not linearizable": notLin, "lock-free": lf,
		"not lock-free": notLF, "reduced by symmetry": reduced, "refused symmetry": refused, "with ample sets": ample,
		"with per-thread forms reduced by symmetry": perThreadReduced, "with per-thread forms and ample sets": perThreadAmple} {
		assert.Greater(t, k, n/20, "too few programs %s", what)
	}
}
