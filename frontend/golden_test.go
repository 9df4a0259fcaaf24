package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// compileExample parses a bundled model and compiles it under b.
func compileExample(t *testing.T, name string, b Bounds) (impl, spec *lts.LTS) {
	t.Helper()
	src, err := Example(name)
	require.NoError(t, err)
	m, err := Parse(name+".lin", src)
	require.NoError(t, err)
	impl, spec, err = Compile(m, b, Options{})
	require.NoError(t, err)
	require.NoError(t, impl.Validate())
	require.NoError(t, spec.Validate())
	return impl, spec
}

// selfLoops counts τ self-loops.
func selfLoops(l *lts.LTS) int {
	n := 0
	for t := range l.Src {
		if l.Label[t] == lts.Tau && l.Src[t] == l.Dst[t] {
			n++
		}
	}
	return n
}

// TestGoldenCounters checks state and transition counts derived by hand
// for two threads doing one operation each (values are irrelevant: no
// method takes an argument).
//
// Per thread, the local phases are: N (not started), then for inc I1 (in
// the method, before its atomic step), I2 (after it, before ret), and for
// dec D1, D2 likewise, and F (finished; which method it ran is forgotten).
// A call, a τ and a ret each move one thread one phase on.
//
// Δ1: c is the sum of the threads' contributions (I2: +1, D2: −1, F: ±1
// depending on the method it ran, others 0). The 7 (phase, contribution)
// pairs per thread give 7×7 = 49 combinations; only (F+1,F−1) and
// (F−1,F+1) collapse (both are F,F,c=0), so 48 states. Out-degrees are
// N: 2 (call inc, call dec), I1, I2, D1, D2: 1, F: 0. Over the 25 pairs of
// unfinished phases, Σ deg = 5·6 + 5·6 = 60; the 10 pairs with one F
// have 2 states each, adding 2·6 + 2·6 = 24; F,F adds 0. Total 84.
// The spec (`spec auto`) has the same shape: 48 and 84.
//
// Δ2: dec is `while true { skip }`: after the call the thread sits at the
// loop head D1 and each step is a τ back to the same state. Phases N, I1,
// I2, F (+1 only), D1: 5×5 = 25 states, out-degree N 2, others 1, F 0, so
// Σ = 5·5 + 5·5 = 50 transitions, 10 of them τ self-loops (5 states with
// thread 1 in D1 and 5 with thread 2).
//
// Δ3: dec's atomic step either decrements (c > 0) and moves to D2, or
// finds c = 0 and loops back to D1 (a τ self-loop). A thread is in D2 or
// F-after-dec only if the other incremented first (it is in I2 or F+1).
// Pairs of {N, I1, I2, F+1, D1}: 25 states, Σ deg = 50; pairs with one
// thread in {D2, F−1} and the other in {I2, F+1}: 4 + 4 combinations,
// degrees (D2,I2) 2, (D2,F) 1, (F,I2) 1, (F,F) 0, i.e. 4 + 4 = 8; the
// two F,F,c=0 combinations coincide: 32 states, 58 transitions.
//
// CAS counter (Fig. 1 ii), only inc: phases N, L (loop head, t dead), Ct
// (read t = c, CAS next), R (CAS succeeded, ret next), F. c = number of
// threads in R or F. All 25 pairs over {N, L, C0, R, F} are reachable; C1
// needs the other thread in R or F: 4 more, 29 states. Out-degree 1
// except F (0): 5·4 + 5·4 = 40 over the 25, and (C1,R) 2, (C1,F) 1 twice:
// 46 transitions. Its spec runs inc atomically: phases N, A, P (ret
// pending), F, 4×4 = 16 states and 2·4·3 = 24 transitions.
func TestGoldenCounters(t *testing.T) {
	b := Bounds{Threads: 2, Ops: 1, Values: []int{1}}
	tests := []struct {
		name                               string
		states, trans, specS, specT, loops int
		divergent                          bool // the implementation has a τ-cycle
	}{
		{"counter1", 48, 84, 48, 84, 0, false},
		{"counter2", 25, 50, 48, 84, 10, true},
		{"counter3", 32, 58, 48, 84, -1, true},
		{"cas-counter", 29, 46, 16, 24, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			impl, spec := compileExample(t, tc.name, b)
			assert.EqualValues(t, tc.states, impl.NumStates)
			assert.Equal(t, tc.trans, impl.NumTransitions())
			assert.EqualValues(t, tc.specS, spec.NumStates)
			assert.Equal(t, tc.specT, spec.NumTransitions())
			if tc.loops >= 0 {
				assert.Equal(t, tc.loops, selfLoops(impl))
			}
			assert.Equal(t, tc.divergent, lts.ComputeStats(impl).DivergentStates > 0)
			st := lts.ComputeStats(spec)
			assert.Zero(t, st.DivergentStates, "a spec must have no τ-cycle")
		})
	}
}
