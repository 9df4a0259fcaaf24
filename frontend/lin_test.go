package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLinEvents checks the linearization-point mode: with Lin the
// step holding a `lin` statement is visible as lin(T,M[,VAL]); without it
// the marker is nothing and the LTS is the same as without the statement.
func TestLinEvents(t *testing.T) {
	const withLin = `object C {
  shared c int = 0
  method inc() int {
    while true {
      v := c
      if cas(c, v, v + 1) { lin(v + 1); return v + 1 }
    }
  }
}
spec auto
client { threads 2; ops 1 }
`
	m, err := Parse("lin.lin", []byte(withLin))
	require.NoError(t, err)
	opts := Options{}
	plain, err := CompileImpl(m, m.DefaultBounds(), opts)
	require.NoError(t, err)
	for _, name := range plain.Labels {
		assert.NotContains(t, name, "lin(")
	}
	opts.Lin = true
	lin, err := CompileImpl(m, m.DefaultBounds(), opts)
	require.NoError(t, err)
	assert.Equal(t, plain.NumStates, lin.NumStates)
	assert.Equal(t, plain.NumTransitions(), lin.NumTransitions())
	for _, want := range []string{"lin(1,inc,1)", "lin(1,inc,2)", "lin(2,inc,1)", "lin(2,inc,2)"} {
		assert.GreaterOrEqual(t, lin.LabelID(want), int32(0), want)
	}
	// The successful CAS is the lin step: as many lin transitions as
	// successful CAS steps, and the τ count drops by as many.
	count := func(l interface{ LabelName(int32) string }, n int, pred func(string) bool) int {
		k := 0
		for tr := 0; tr < n; tr++ {
			if pred(l.LabelName(int32(tr))) {
				k++
			}
		}
		return k
	}
	isLin := func(s string) bool { return len(s) > 4 && s[:4] == "lin(" }
	isTau := func(s string) bool { return s == "tau" }
	nLin := count(lin, lin.NumTransitions(), isLin)
	assert.Positive(t, nLin)
	assert.Equal(t, count(plain, plain.NumTransitions(), isTau)-nLin, count(lin, lin.NumTransitions(), isTau))
}

// TestOpsForever explores a model with bounded data under `ops forever`:
// the state space is finite, threads come back to idle states, and the
// number of operations is no longer part of the state.
func TestOpsForever(t *testing.T) {
	src, err := Example("kregister")
	require.NoError(t, err)
	m, err := Parse("kregister.lin", src)
	require.NoError(t, err)
	b := m.DefaultBounds()
	b.Ops = -1
	impl, spec, err := Compile(m, b, Options{})
	require.NoError(t, err)
	b.Ops = 2
	impl2, _, err := Compile(m, b, Options{})
	require.NoError(t, err)
	assert.Less(t, impl.NumStates, impl2.NumStates, "forever forgets the operation count")
	// The initial state is re-entered: every thread can always call again.
	back := false
	for tr := range impl.Dst {
		back = back || impl.Dst[tr] == impl.Initial
	}
	assert.True(t, back)
	assert.Positive(t, spec.NumTransitions())
}
