package progress

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
)

func TestParseAction(t *testing.T) {
	cases := []struct {
		label        string
		kind         Kind
		thread       int32
		method, rest string
	}{
		{"tau", Internal, 0, "", ""},
		{"call(1,push,2)", Call, 1, "push", "2"},
		{"call(12,inc)", Call, 12, "inc", ""},
		{"call(2, push, 3)", Call, 2, "push", "3"},
		{"call(1,put,(2,3))", Call, 1, "put", "(2,3)"},
		{"ret(2,pop,EMPTY)", Return, 2, "pop", "EMPTY"},
		{"ret(1,push)", Return, 1, "push", ""},
		{"ret(4096,m,v)", Return, 4096, "m", "v"},
		// Odd labels are plain visible actions.
		{"a", Visible, 0, "", ""},
		{"", Visible, 0, "", ""},
		{"i", Visible, 0, "", ""}, // the .aut reader maps CADP's i to tau before we see it
		{"call", Visible, 0, "", ""},
		{"call()", Visible, 0, "", ""},
		{"call(1)", Visible, 0, "", ""},
		{"call(1,)", Visible, 0, "", ""},
		{"call(0,push)", Visible, 0, "", ""},
		{"call(-1,push)", Visible, 0, "", ""},
		{"call(4097,push)", Visible, 0, "", ""},
		{"call(x,push)", Visible, 0, "", ""},
		{"call(1,push,2", Visible, 0, "", ""},
		{"call(1,pu sh)", Visible, 0, "", ""},
		{"CALL !PUSH !2", Visible, 0, "", ""},
		{"recall(1,push)", Visible, 0, "", ""},
		{"return(1,push)", Visible, 0, "", ""},
		{"ret(99999999999999999999,m)", Visible, 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.label, func(t *testing.T) {
			kind, thread, method, rest := ParseAction(c.label)
			assert.Equal(t, c.kind, kind)
			assert.Equal(t, c.thread, thread)
			assert.Equal(t, c.method, method)
			assert.Equal(t, c.rest, rest)
		})
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"call(1,push,2)", "ret(2,pop)", "tau", "call(,", "ret(1,a,b,c)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kind, thread, method, _ := ParseAction(s)
		if kind == Call || kind == Return {
			if thread < 1 || thread > MaxThread || method == "" {
				t.Fatalf("%q: %v thread %d method %q", s, kind, thread, method)
			}
		} else if thread != 0 || method != "" {
			t.Fatalf("%q: %v with thread %d method %q", s, kind, thread, method)
		}
	})
}

func TestProperties(t *testing.T) {
	for _, p := range AllProperties {
		q, err := ParseProperty(p.String())
		require.NoError(t, err)
		assert.Equal(t, p, q)
		q, err = ParseProperty(p.Title())
		require.NoError(t, err, "the hyphenated name parses too")
		assert.Equal(t, p, q)
		b, err := p.MarshalText()
		require.NoError(t, err)
		require.NoError(t, q.UnmarshalText(b))
		assert.Equal(t, p, q)
	}
	assert.Equal(t, "lock-free", LockFree.Title())
	assert.Equal(t, "starvation-free", StarvationFree.Title())
	_, err := ParseProperty("livefree")
	assert.ErrorContains(t, err, `unknown progress property "livefree"`)
	assert.Equal(t, "Property(9)", Property(9).String())
	_, err = Check(lts.FromTriples(0, 1, nil), Property(9))
	assert.Error(t, err)
}

// TestRejectedInputs: inputs whose call/ret actions do not describe
// operations give an error that names the state and label, with a path to
// it — never a verdict.
func TestRejectedInputs(t *testing.T) {
	cases := []struct {
		name    string
		triples []lts.Triple
		state   int32
		msg     string
	}{
		{"call twice", []lts.Triple{triple(0, "call(1,m)", 1), triple(1, "call(1,m)", 2)}, 1,
			"thread 1 calls while its previous operation is still pending"},
		{"ret without call", []lts.Triple{triple(0, "tau", 1), triple(1, "ret(2,m,0)", 2)}, 1,
			"thread 2 returns without a pending call"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := lts.FromTriples(0, 4, c.triples)
			for _, p := range Supported(l) {
				_, err := Check(l, p)
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrMalformed)
				var ie *InputError
				require.True(t, errors.As(err, &ie))
				assert.Equal(t, c.state, ie.State)
				assert.Contains(t, ie.Error(), c.msg)
				require.NotNil(t, ie.Trace)
				last := ie.Trace.Steps[len(ie.Trace.Steps)-1]
				assert.Equal(t, c.state, last.From, "the trace ends with the offending step")
			}
		})
	}

	// Thread attribution that contradicts a label.
	b := lts.NewBuilder()
	b.SetNumStates(2)
	b.AddTransitionMeta(0, b.Label("call(1,m)"), 1, 2, -1)
	_, err := Check(b.Build(), LockFree)
	assert.ErrorContains(t, err, "attributed to thread 2, but the label names thread 1")

	// (A thread number beyond lts.MaxMetaThread cannot be recorded: the
	// builder refuses it, see lts.TestBuilderMetaLimits.)

	// A structurally broken LTS is reported, not checked.
	_, err = Check(&lts.LTS{NumStates: 1, Labels: []string{"tau"}, Out: []int32{0, 5}}, LockFree)
	assert.ErrorContains(t, err, "invalid LTS")
}

// TestAmbiguousStates: when a state is reached with different pending
// sets (as after a reduction merged states), the check runs on the product
// with the pending sets and still gets the answer right, where trusting the
// first set that reaches a state would not.
func TestAmbiguousStates(t *testing.T) {
	// State 2 is first reached (by BFS) directly, with nothing pending, and
	// then through call(1,m), with thread 1 pending; its τ self-loop is a
	// lock-freedom violation only in the second case.
	l := lts.FromTriples(0, 3, []lts.Triple{triple(0, "tau", 2), triple(0, "call(1,m)", 1), triple(1, "tau", 2), triple(2, "tau", 2)})
	res, err := Check(l, LockFree)
	require.NoError(t, err)
	require.False(t, res.Holds)
	checkCounterexample(t, l, res)
	assert.Equal(t, []string{"call(1,m)", "tau", "tau"}, labels(res.Lasso))
	assert.Equal(t, int32(2), res.Lasso.Steps[2].From, "the lasso is in the input's states")
	assert.Contains(t, res.Explanation, "checked on its product with the pending sets (4 states from 3)")

	// A malformed step behind the ambiguity is reported in input states.
	l = lts.FromTriples(0, 4, []lts.Triple{triple(0, "tau", 2), triple(0, "call(1,m)", 1), triple(1, "tau", 2), triple(2, "call(1,m)", 3)})
	_, err = Check(l, LockFree)
	var ie *InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, int32(2), ie.State)
	assert.Contains(t, ie.Msg, "thread 1 calls while its previous operation is still pending")
	assert.Equal(t, []string{"call(1,m)", "tau", "call(1,m)"}, labels(ie.Trace))

	// The product is bounded.
	l = lts.FromTriples(0, 3, []lts.Triple{triple(0, "tau", 2), triple(0, "call(1,m)", 1), triple(1, "tau", 2), triple(2, "tau", 2)})
	_, err = NewCheckerOptions(l, Options{MaxProductStates: 3})
	assert.ErrorIs(t, err, ErrLimit)
	assert.ErrorContains(t, err, "exceeds 3 states")
	var le *limits.LimitError
	require.ErrorAs(t, err, &le, "the limit is typed")
	assert.Equal(t, limits.Product, le.Limit)
	assert.Equal(t, int64(3), le.Value)
}

func labels(tr *lts.Trace) []string {
	var out []string
	for _, st := range tr.Steps {
		out = append(out, st.Label)
	}
	return out
}

func TestEdgeCases(t *testing.T) {
	t.Run("no operations", func(t *testing.T) {
		l := lts.FromTriples(0, 2, []lts.Triple{triple(0, "a", 1), triple(1, "tau", 1)})
		res, err := Check(l, LockFree)
		require.NoError(t, err)
		assert.True(t, res.Holds, "a τ-cycle with nothing pending is not a lock-freedom violation")
		assert.Contains(t, res.Explanation, "no label has the form call(T,M,ARGS)")
	})
	t.Run("odd labels are pointed out", func(t *testing.T) {
		l := lts.FromTriples(0, 2, []lts.Triple{triple(0, "call(one,m)", 1), triple(1, "tau", 1)})
		res, err := Check(l, LockFree)
		require.NoError(t, err)
		assert.True(t, res.Holds)
		assert.Contains(t, res.Explanation, `"call(one,m)"`)
	})
	t.Run("empty LTS", func(t *testing.T) {
		l := lts.FromTriples(0, 0, nil)
		for _, p := range Supported(l) {
			res, err := Check(l, p)
			require.NoError(t, err)
			assert.True(t, res.Holds)
		}
	})
	t.Run("unreachable cycle", func(t *testing.T) {
		// 2 -call-> 3 -tau-> 3 is a violation, but 2 is unreachable.
		l := lts.FromTriples(0, 4, []lts.Triple{triple(0, "a", 1), triple(2, "call(1,m)", 3), triple(3, "tau", 3)})
		res, err := Check(l, LockFree)
		require.NoError(t, err)
		assert.True(t, res.Holds)
	})
	t.Run("many threads", func(t *testing.T) {
		// Around the word boundary of the pending sets (63 threads fit in
		// one word beside the reachability bit, 64 do not).
		for _, th := range []int{63, 64, 100, MaxThread} {
			call := fmt.Sprintf("call(%d,m)", th)
			l := lts.FromTriples(0, 4, []lts.Triple{triple(0, call, 1), triple(1, "call(3,m)", 2), triple(2, "tau", 2), triple(0, "tau", 3)})
			res, err := Check(l, LockFree)
			require.NoError(t, err)
			require.False(t, res.Holds)
			checkCounterexample(t, l, res)
			assert.Contains(t, res.Explanation, fmt.Sprintf("call(3,m) of thread 3, %s of thread %d are pending", call, th))
			res, err = Check(l, DeadlockFree)
			require.NoError(t, err)
			assert.True(t, res.Holds, "state 3 is stuck with nothing pending")
		}
	})
	t.Run("needs threads", func(t *testing.T) {
		l := lts.FromTriples(0, 2, []lts.Triple{triple(0, "call(1,m)", 1)})
		_, err := Check(l, WaitFree)
		assert.ErrorIs(t, err, ErrNeedsThreads)
		assert.ErrorContains(t, err, "wait-free needs thread attribution")

		// With attribution, every reachable step must have a thread.
		b := lts.NewBuilder()
		b.SetNumStates(3)
		b.AddTransitionMeta(0, b.Label("call(1,m)"), 1, 1, -1)
		b.AddTransitionMeta(1, lts.Tau, 2, 0, -1)
		l = b.Build()
		_, err = Check(l, ObstructionFree)
		assert.ErrorIs(t, err, ErrNeedsThreads)
		assert.ErrorContains(t, err, "obstruction-free needs thread attribution for every step, but step 1 -tau-> 2 has none")
		res, err := Check(l, LockFree)
		require.NoError(t, err, "lock-freedom needs no threads")
		assert.True(t, res.Holds)
	})
}

// triple is a transition for lts.FromTriples.
func triple(src int32, label string, dst int32) lts.Triple {
	return lts.Triple{Src: src, Label: label, Dst: dst}
}

func TestProgressCallback(t *testing.T) {
	var stages []string
	opts := Options{Progress: meter.Func(func(stage string, count int64, unit string) {
		stages = append(stages, fmt.Sprintf("%s %d %s", stage, count, unit))
	})}
	c, err := NewCheckerOptions(knownObjects[0].l, opts)
	require.NoError(t, err)
	_, err = c.Check(WaitFree)
	require.NoError(t, err)
	assert.Contains(t, stages, "annotate 16 states")
	assert.Contains(t, stages, "waitfree 1 threads done")
}
