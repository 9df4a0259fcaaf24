package frontend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// retStepRegister is a register whose get reads c before returning, while
// its spec's get reads c only in its return: the spec's ret step is its
// one linearization point, so the implementation's history "get reads 0,
// set(1) completes, get returns 0" has no spec counterpart.
const retStepRegister = `object R {
  shared c int = 0
  method set(v int) { c = v }
  method get() int { t := c; return t }
}
spec S {
  shared c int = 0
  method set(v int) { c = v }
  method get() int { return c }
}
client { threads 2; ops 1; values 1; only 3: get }
`

// TestWarnings: an only clause for a thread that does not run, and a spec
// method whose only shared read is its ret step while the implementation
// reads earlier, are each warned about once, with the position and the
// fix; the spec written with the read as a step of its own, or an
// implementation that also reads in its return, is not.
func TestWarnings(t *testing.T) {
	m, err := Parse("r.lin", []byte(retStepRegister))
	require.NoError(t, err)
	ws := m.Warnings(m.DefaultBounds())
	require.Len(t, ws, 2, "%q", ws)
	assert.True(t, strings.HasPrefix(ws[0], "r.lin:11:38: only 3: there are 2 threads"), ws[0])
	assert.Contains(t, ws[0], "restricts nothing")
	assert.True(t, strings.HasPrefix(ws[1], "r.lin:9:22: spec method get reads shared state only in its return"), ws[1])
	assert.Contains(t, ws[1], "R.get accesses shared state before it returns (r.lin:4:22)")
	assert.Contains(t, ws[1], "read into a local first (v := …; return v)")

	b := m.DefaultBounds()
	b.Threads = 3
	assert.Len(t, m.Warnings(b), 1, "with 3 threads, thread 3 runs")

	for name, src := range map[string]string{
		"spec reads in a step": strings.Replace(retStepRegister, "method get() int { return c }", "method get() int { v := c; return v }", 1),
		"impl reads in return": strings.Replace(retStepRegister, "method get() int { t := c; return t }", "method get() int { return c }", 1),
	} {
		m, err := Parse("r.lin", []byte(strings.Replace(src, "; only 3: get", "", 1)))
		require.NoError(t, err, name)
		assert.Empty(t, m.Warnings(m.DefaultBounds()), name)
	}
}

// TestWarnedSpecIsRight: the warning is about a real false alarm: the
// register is not linearizable against its ret-step spec, and is
// against the spec whose get reads in a step of its own.
func TestWarnedSpecIsRight(t *testing.T) {
	b := Bounds{Threads: 2, Ops: 1, Values: []int{1}}
	for _, c := range []struct {
		src  string
		want bool
	}{
		{retStepRegister, false},
		{strings.Replace(retStepRegister, "method get() int { return c }", "method get() int { v := c; return v }", 1), true},
	} {
		m, err := Parse("r.lin", []byte(c.src))
		require.NoError(t, err)
		impl, spec, err := Compile(m, b, Options{})
		require.NoError(t, err)
		assert.Equal(t, c.want, refines(impl, spec) == nil)
	}
}
