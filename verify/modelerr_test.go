package verify

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/onthefly"
)

// bothFound has a shallow linearizability violation (inc's read and write
// are two steps, its spec's one) and a deeper model error (bad frees its
// node twice once two incs have completed).
const bothFound = `object Both {
  heap explicit
  heap Node { v int }
  shared c int = 0
  method inc() int { t := c; c = t + 1; return t }
  method bad() {
    n := new Node{v: 1}
    free(n)
    if c == 2 { free(n) }
  }
}
spec S {
  shared c int = 0
  method inc() int { atomic { t := c; c = t + 1; return t } }
  method bad() { skip }
}
client { threads 2; ops 2; values 1 }
`

// TestModelErrorAndViolation: both routes report a violation that the
// breadth-first search meets before a model error. The bisimulation
// route's exploration stops at the model error, and then reports the
// violation with it; the on-the-fly route goes on past the violation and
// reports the model error as what left lock-freedom undecided (with
// FirstViolation it stops at the violation, and says that deeper model
// errors were not looked for). A model error met
// first (here: bad frees twice at once) is reported alone. Method auto
// takes the bisimulation route under bounds this small (too small to
// measure a growth).
func TestModelErrorAndViolation(t *testing.T) {
	m, err := frontend.Parse("both.lin", []byte(bothFound))
	require.NoError(t, err)
	b := m.DefaultBounds()
	for _, method := range []Method{Bisim, Auto} {
		_, err = Run(context.Background(), "both.lin", m, b, Options{Method: method, Reductions: onthefly.Reductions{Symmetry: true, PartialOrder: true}})
		var both *ModelErrorAndViolation
		require.True(t, errors.As(err, &both), "%s: %v", method, err)
		var me *frontend.ModelError
		require.True(t, errors.As(err, &me), "the model error is still found by errors.As")
		assert.Contains(t, me.Error(), "both.lin:9:17: free(n): double free")
		assert.Equal(t, "refinement-violation", both.Violation.Kind)
		assert.Contains(t, both.Violation.Explanation, "[t1:inc() → 0, t2:inc() → 0]")
	}

	// The on-the-fly route goes on past the violation to decide
	// lock-freedom, meets the double free, and says so; with
	// FirstViolation it stops at the violation and says that deeper
	// model errors were not looked for.
	out, err := Run(context.Background(), "both.lin", m, b, Options{Method: Fly, Reductions: onthefly.Reductions{Symmetry: true, PartialOrder: true}})
	require.NoError(t, err)
	assert.Equal(t, No, out.Report.Linearizable)
	assert.Equal(t, Unknown, out.Report.LockFree)
	assert.True(t, slicesContain(out.Report.Notes, "past the violation the search of the implementation met a model error"), "%q", out.Report.Notes)
	assert.True(t, slicesContain(out.Report.Notes, "double free"), "%q", out.Report.Notes)
	out, err = Run(context.Background(), "both.lin", m, b, Options{Method: Fly, FirstViolation: true, Reductions: onthefly.Reductions{Symmetry: true, PartialOrder: true}})
	require.NoError(t, err)
	assert.Equal(t, No, out.Report.Linearizable)
	assert.True(t, slicesContain(out.Report.Notes, "nor a model error deeper than the violation looked for"), "%q", out.Report.Notes)

	first, err := frontend.Parse("first.lin", []byte(strings.Replace(bothFound, "if c == 2 { free(n) }", "free(n)", 1)))
	require.NoError(t, err)
	_, err = Run(context.Background(), "first.lin", first, b, Options{Method: Bisim})
	var me *frontend.ModelError
	require.True(t, errors.As(err, &me), "%v", err)
	var both *ModelErrorAndViolation
	assert.False(t, errors.As(err, &both), "the search meets the double free first")
}

// slicesContain reports whether some string of ss contains sub.
func slicesContain(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
