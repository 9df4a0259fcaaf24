package frontend

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/syntax"
)

// counterModel wraps method bodies into a one-variable object.
func counterModel(decls string) string {
	return "object O {\n  shared c int = 0\n" + decls + "\n}\nspec auto\n"
}

// TestModelErrors checks run-time errors of models: each is reported with
// its source position and the shortest trace leading to it.
func TestModelErrors(t *testing.T) {
	tests := []struct {
		name, src string
		pos       string // line:col of the failing step
		msg       string
		steps     int // trace length, the failing step included
	}{
		{"assert", counterModel("  method inc() { c = c + 1; assert c < 2 }"), "3:29", "assertion failed", 5},
		{"null", "object O {\n  heap N { v int }\n  shared p ref N = null\n  method get() int { return p.v }\n}\nspec auto\n", "4:22", "null dereference", 2},
		{"range", "object O {\n  shared c int(0..1) = 0\n  method inc() { atomic { c = c + 1 } }\n}\nspec auto\n", "3:27", "out of the declared range int(0..1)", 4},
		{"index", "object O {\n  shared a [0..1] int = 0\n  method set(i int) { a[i] = 1 }\n}\nspec auto\nclient { values 1..2 }\n", "3:23", "index 2 out of range [0..1] of a", 2},
		{"endless atomic", counterModel("  method inc() { atomic { while true { c = 1 } } }"), "3:27", "never ends", 2},
		{"heap", "object O {\n  heap N { v int; next ref N }\n  shared p ref N = null\n  method push() { atomic { p = new N{next: p} } }\n}\nspec auto\nclient { threads 1; ops 3 }\n", "4:28", "heap exhausted", 8},
		{"null loc", counterModel("  method set() { var l loc int; *l = 1 }"), "3:33", "null dereference: *l through a null loc", 2},
		{"range through a loc", "object O {\n  shared c int(0..1) = 0\n  method inc() { l := &c; *l = *l + 1 }\n}\nspec auto\n", "3:27", "out of the declared range int(0..1) of *l", 4},
		{"index of an address", "object O {\n  shared a [0..1] int = 0\n  method set(i int) { l := &a[i]; *l = 1 }\n}\nspec auto\nclient { values 1..2 }\n", "3:23", "index 2 out of range [0..1] of a", 2},
		{"index of an array field", "object O {\n  heap N { a [2] int }\n  shared p ref N = null\n  init { p = new N }\n  method set(i int) { p.a[i] = 1 }\n}\nspec auto\nclient { values 1..2 }\n", "5:23", "index 2 out of range [0..1] of a", 2},
		{"init", "object O {\n  shared c int(0..1) = 0\n  init { c = 2 }\n  method get() int { return c }\n}\nspec auto\n", "3:10", "in the init block", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse("m.lin", []byte(tc.src))
			require.NoError(t, err)
			b := m.DefaultBounds()
			opts := Options{}
			opts.MaxNodes = 2
			_, _, err = Compile(m, b, opts)
			require.Error(t, err)
			var me *AssertionError
			require.True(t, errors.As(err, &me), "not a model error: %v", err)
			assert.Contains(t, me.Msg, tc.msg)
			assert.Equal(t, "m.lin:"+tc.pos, strings.SplitN(me.Error(), ": ", 2)[0])
			require.NotNil(t, me.Trace)
			assert.Len(t, me.Trace.Steps, tc.steps)
			if tc.steps > 0 {
				last := me.Trace.Steps[len(me.Trace.Steps)-1]
				assert.Positive(t, last.Thread)
				require.NotNil(t, last.Source)
				assert.Equal(t, tc.msg != "", strings.Contains(last.Note, tc.msg))
			}
		})
	}
}

// TestCompileErrors checks errors found only once the bounds are known.
func TestCompileErrors(t *testing.T) {
	src := "object O {\n  shared a [1..nthreads-1] int = 0\n  method get() int { return a[1] }\n}\nspec auto\n"
	m, err := Parse("a.lin", []byte(src))
	require.NoError(t, err)
	_, _, err = Compile(m, Bounds{Threads: 1, Ops: 1, Values: []int{1}}, Options{})
	var list syntax.ErrorList
	require.True(t, errors.As(err, &list), "%v", err)
	assert.Contains(t, err.Error(), "a.lin:2:16: array a has 0 elements")

	_, _, err = Compile(m, Bounds{Threads: 0, Ops: 1, Values: []int{1}}, Options{})
	assert.ErrorContains(t, err, "between 1 and 64 threads")
	_, _, err = Compile(m, Bounds{Threads: 1, Ops: 0, Values: []int{1}}, Options{})
	assert.ErrorContains(t, err, "ops")
	_, _, err = Compile(m, Bounds{Threads: 1, Ops: 1}, Options{})
	assert.ErrorContains(t, err, "value domain is empty")
}

// TestStateLimit checks that hitting MaxStates says how far it got.
func TestStateLimit(t *testing.T) {
	src, err := Example("treiber")
	require.NoError(t, err)
	m, err := Parse("treiber.lin", src)
	require.NoError(t, err)
	opts := Options{}
	opts.MaxStates = 100
	_, _, err = Compile(m, m.DefaultBounds(), opts)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrStateLimit))
	assert.True(t, IsStateLimit(err))
	assert.Regexp(t, `more than 100 states \(\d+ transitions so far; \d+ states fully expanded`, err.Error())
}

// TestSpecDivergenceRejected checks that a specification with a τ-cycle
// (here counter Δ2's spinning dec used as the spec) is refused.
func TestSpecDivergenceRejected(t *testing.T) {
	src := `object O {
  shared c int = 0
  method dec() { atomic { c = c - 1 } }
}
spec S {
  shared c int = 0
  method dec() { while true { skip } }
}
client { threads 1; ops 1 }
`
	m, err := Parse("s.lin", []byte(src))
	require.NoError(t, err)
	_, _, err = Compile(m, m.DefaultBounds(), Options{})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrSpecDivergent))
	assert.Contains(t, err.Error(), "s.lin:7:18: while true")
}
