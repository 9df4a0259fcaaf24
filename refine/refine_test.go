package refine

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
)

// callRet hides the linearization events: the full check on call/ret
// (Liu et al., Thm 1). linOnly keeps only them (Thm 2).
func callRet(label string) bool { return !strings.HasPrefix(label, "lin(") }
func linOnly(label string) bool { return strings.HasPrefix(label, "lin(") }

// visibleUnder returns the labels of tr that alphabet keeps visible.
func visibleUnder(tr *lts.Trace, alphabet func(string) bool) []string {
	var visible []string
	for _, l := range tr.Visible() {
		if alphabet == nil || alphabet(l) {
			visible = append(visible, l)
		}
	}
	return visible
}

// TestHandBuiltModels checks objects whose verdicts are known by hand, in
// every configuration. want is nil when refinement holds, otherwise the
// shortest counterexample's visible labels as patterns (thread numbers may
// differ with the exploration order, so they are matched by regexp).
func TestHandBuiltModels(t *testing.T) {
	tests := []struct {
		name       string
		impl, spec *lts.LTS
		alphabet   func(string) bool
		want       []string
	}{
		{"CAS counter 2x1", counter(counterCAS, 2, 1), counter(counterSpec, 2, 1), callRet, nil},
		{"CAS counter 2x2", counter(counterCAS, 2, 2), counter(counterSpec, 2, 2), callRet, nil},
		{"CAS counter 2x2, lin points", counter(counterCAS, 2, 2), counter(counterSpec, 2, 2), linOnly, nil},
		{"CAS counter 3x1", counter(counterCAS, 3, 1), counter(counterSpec, 3, 1), callRet, nil},
		// Lost update: both threads read 0 and both return 0; the spec can
		// return 0 to only one of them, and only once both have called.
		{"racy counter 2x1", counter(counterBuggy, 2, 1), counter(counterSpec, 2, 1), callRet,
			[]string{`call\(\d,inc\)`, `call\(\d,inc\)`, `ret\(\d,inc,0\)`, `ret\(\d,inc,0\)`}},
		{"racy counter 2x1, lin points", counter(counterBuggy, 2, 1), counter(counterSpec, 2, 1), linOnly,
			[]string{`lin\(\d,inc,0\)`, `lin\(\d,inc,0\)`}},
		// The CAS counter is linearizable, but its read is not a
		// linearization point: the lin-point check fails although the full
		// check holds, which is why such failures are not conclusive.
		{"CAS counter, wrong lin points, full check", counter(counterWrongLin, 2, 1), counter(counterSpec, 2, 1), callRet, nil},
		{"CAS counter, wrong lin points", counter(counterWrongLin, 2, 1), counter(counterSpec, 2, 1), linOnly,
			[]string{`lin\(\d,inc,0\)`, `lin\(\d,inc,0\)`}},
		// A label the specification does not know fails at once.
		{"2 threads against a 1-thread spec", counter(counterCAS, 2, 1), counter(counterSpec, 1, 1), callRet,
			[]string{`call\(2,inc\)`}},
		{"register 2x2, 2 values", register(true, 2, 2, 2), register(false, 2, 2, 2), nil, nil},
		{"register spec refines impl", register(false, 2, 2, 2), register(true, 2, 2, 2), nil, nil},
		{"register 1x3, 3 values", register(true, 1, 3, 3), register(false, 1, 3, 3), nil, nil},
		// Two writers of 1 and 2 against a one-value spec: writing 2 fails.
		{"register with a value the spec lacks", register(true, 1, 1, 2), register(false, 1, 1, 1), nil,
			[]string{`call\(1,write,1\)`}},
	}
	for _, tc := range tests {
		for _, c := range configs {
			t.Run(tc.name+"/"+c.name, func(t *testing.T) {
				opts := c.opts
				opts.Alphabet = tc.alphabet
				res, err := Check(tc.impl, tc.spec, opts)
				require.NoError(t, err)
				if tc.want == nil {
					assert.True(t, res.Refines)
					assert.Nil(t, res.Counterexample)
					return
				}
				require.False(t, res.Refines)
				visible := visibleUnder(res.Counterexample, tc.alphabet)
				require.Len(t, visible, len(tc.want), "%v", visible)
				for i, pat := range tc.want {
					assert.Regexp(t, "^"+pat+"$", visible[i])
				}
			})
		}
	}
}

// TestRacyCounterEvidence checks the counterexample of the racy counter
// on the quotient: it is a path of the original implementation, keeps the
// threads and source lines of every step, and marks the last.
func TestRacyCounterEvidence(t *testing.T) {
	impl, spec := counter(counterBuggy, 2, 1), counter(counterSpec, 2, 1)
	res, err := Check(impl, spec, Options{Antichain: true, Quotient: true, Alphabet: callRet})
	require.NoError(t, err)
	require.False(t, res.Refines)
	tr := res.Counterexample
	var text strings.Builder
	require.NoError(t, tr.WriteText(&text))
	t.Logf("%s", text.String())

	at := impl.Initial
	for i, st := range tr.Steps {
		assert.Equal(t, at, st.From, "step %d", i)
		at = st.To
		assert.NotZero(t, st.Thread, "step %d has no thread", i)
		require.NotNil(t, st.Source, "step %d has no source line", i)
	}
	// Both threads read 0 before either writes: the interleaving shows
	// the two reads (line 2) and the two writes (line 3, lin events).
	lines := map[int32]int{}
	for _, st := range tr.Steps {
		lines[st.Source.Line]++
	}
	assert.Equal(t, map[int32]int{1: 2, 2: 2, 3: 2, 5: 2}, lines)
	assert.Equal(t, "spec cannot do this", tr.Steps[len(tr.Steps)-1].Note)
	assert.Regexp(t, regexp.MustCompile(`^ret\(\d,inc,0\)$`), tr.Steps[len(tr.Steps)-1].Label)
	assert.Contains(t, tr.Final, "cannot do ret(")
}

func TestPairLimit(t *testing.T) {
	impl, spec := counter(counterCAS, 2, 2), counter(counterSpec, 2, 2)
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			opts := c.opts
			opts.MaxPairs = 10
			opts.Alphabet = callRet
			res, err := Check(impl, spec, opts)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrPairLimit))
			assert.Contains(t, err.Error(), "explored 10 pairs")
			assert.Equal(t, int64(10), res.Stats.Pairs)
		})
	}
}

func TestProgressIsReported(t *testing.T) {
	impl, spec := counter(counterCAS, 3, 2), counter(counterSpec, 3, 2)
	var calls int
	var last int64
	res, err := Check(impl, spec, Options{Alphabet: callRet, Progress: meter.Func(func(stage string, p int64, unit string) {
		calls++
		last = p
		assert.Equal(t, "refinement pairs", stage)
		assert.Equal(t, "pairs", unit)
	})})
	require.NoError(t, err)
	require.True(t, res.Refines)
	require.Greater(t, res.Stats.Pairs, int64(antichain.ProgressEvery), "the model is too small to test progress")
	assert.Positive(t, calls)
	assert.LessOrEqual(t, last, res.Stats.Pairs)
}

func TestBadInput(t *testing.T) {
	good := lts.FromTriples(0, 2, []lts.Triple{{Src: 0, Label: "a", Dst: 1}})
	empty := &lts.LTS{Labels: []string{lts.TauName}, Out: []int32{0}}
	broken := *good
	broken.Dst = []int32{7}
	tests := []struct {
		name       string
		impl, spec *lts.LTS
		opts       Options
		want       string
	}{
		{"nil impl", nil, good, Options{}, "implementation LTS has no states"},
		{"empty spec", good, empty, Options{}, "specification LTS has no states"},
		{"malformed impl", &broken, good, Options{}, "implementation LTS is malformed: transition 0: target 7 out of range"},
		{"negative limit", good, good, Options{MaxPairs: -1}, "pair limit must be positive"},
		{"nothing visible", good, good, Options{Alphabet: linOnly}, "refinement would hold vacuously"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check(tc.impl, tc.spec, tc.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestQuotientShrinksAndAgrees checks that minimising first changes neither
// the verdict nor the length of the counterexample, and that it shrinks
// models with inert τ steps.
func TestQuotientShrinksAndAgrees(t *testing.T) {
	tests := []struct {
		name       string
		impl, spec *lts.LTS
		alphabet   func(string) bool
		shrinks    bool
	}{
		{"register 2x2", register(true, 2, 2, 2), register(false, 2, 2, 2), nil, true},
		{"CAS counter 2x2", counter(counterCAS, 2, 2), counter(counterSpec, 2, 2), callRet, true},
		{"racy counter 2x2", counter(counterBuggy, 2, 2), counter(counterSpec, 2, 2), callRet, true},
		{"racy counter 2x2, lin points", counter(counterBuggy, 2, 2), counter(counterSpec, 2, 2), linOnly, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plain, err := Check(tc.impl, tc.spec, Options{Antichain: true, Alphabet: tc.alphabet})
			require.NoError(t, err)
			quot, err := Check(tc.impl, tc.spec, Options{Antichain: true, Quotient: true, Alphabet: tc.alphabet})
			require.NoError(t, err)
			assert.Equal(t, plain.Refines, quot.Refines)
			if !plain.Refines {
				assert.Len(t, visibleUnder(quot.Counterexample, tc.alphabet), len(visibleUnder(plain.Counterexample, tc.alphabet)))
			}
			assert.Equal(t, tc.impl.NumStates, plain.Stats.ImplStates)
			if tc.shrinks {
				assert.Less(t, quot.Stats.ImplStates, quot.Stats.InputImplStates)
				assert.LessOrEqual(t, quot.Stats.Pairs, plain.Stats.Pairs)
			}
			t.Logf("impl %d → %d states, spec %d → %d; pairs %d → %d",
				quot.Stats.InputImplStates, quot.Stats.ImplStates, quot.Stats.InputSpecStates, quot.Stats.SpecStates,
				plain.Stats.Pairs, quot.Stats.Pairs)
		})
	}
}

// TestGivenQuotients checks that quotients computed by the caller are used
// as they are, with the same verdicts and counterexamples mapped back to the
// implementation.
func TestGivenQuotients(t *testing.T) {
	tests := []struct {
		name       string
		impl, spec *lts.LTS
		refines    bool
	}{
		{"register 2x2", register(true, 2, 2, 2), register(false, 2, 2, 2), true},
		{"racy counter 2x1", hide(counter(counterBuggy, 2, 1), callRet), hide(counter(counterSpec, 2, 1), callRet), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			iq, err := quotient(nil, tc.impl)
			require.NoError(t, err)
			sq, err := quotient(nil, tc.spec)
			require.NoError(t, err)
			res, err := Check(tc.impl, tc.spec, Options{Antichain: true, Quotient: true, ImplQuotient: iq, SpecQuotient: sq})
			require.NoError(t, err)
			assert.Equal(t, tc.refines, res.Refines)
			assert.Zero(t, res.Stats.QuotientTime, "nothing should be minimised again")
			assert.Equal(t, iq.NumStates, res.Stats.ImplStates)
			if !tc.refines {
				want := naiveShortestViolation(tc.impl, tc.spec)
				checkCounterexample(t, tc.impl, tc.spec, res.Counterexample, want, tc.name)
			}
		})
	}
}
