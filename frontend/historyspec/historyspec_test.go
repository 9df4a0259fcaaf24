package historyspec

import (
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/history"
	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
)

// bundled parses a bundled model.
func bundled(t testing.TB, name string) *frontend.Model {
	t.Helper()
	m, err := frontend.ParseExample(name)
	require.NoError(t, err)
	return m
}

// randomHistory builds a history of n operations of a stack (lifo) or a
// queue that is linearizable by construction: each operation takes effect
// at its own point in time, 10 apart, with call and return drawn around
// it, so that operations overlap; results come from a plain slice. Some
// operations stay pending (their effect happened; the return was lost).
func randomHistory(r *rand.Rand, n int, lifo bool) *record.History {
	ins, del := "enq", "deq"
	if lifo {
		ins, del = "push", "pop"
	}
	var elems []string
	var clientFree []int64 // per client: time its last operation returned
	h := &record.History{Name: "random"}
	for i := 0; i < n; i++ {
		at := int64(10 * (i + 1))
		op := record.Op{Call: at - 1 - r.Int63n(15), Return: at + 1 + r.Int63n(15)}
		if r.Intn(2) == 0 || len(elems) == 0 && r.Intn(3) > 0 {
			v := strconv.Itoa(1 + r.Intn(3))
			op.Method, op.Args = ins, []string{v}
			elems = append(elems, v)
		} else {
			op.Method, op.Result = del, record.Nil
			if len(elems) > 0 {
				k := 0
				if lifo {
					k = len(elems) - 1
				}
				op.Result = elems[k]
				elems = append(elems[:k], elems[k+1:]...)
			}
		}
		if r.Intn(10) == 0 {
			op.Return, op.Unknown, op.Result = record.Pending, true, ""
		}
		op.Client = -1
		for c, free := range clientFree {
			if free < op.Call {
				op.Client = c + 1
				clientFree[c] = op.Return
				break
			}
		}
		if op.Client < 0 {
			clientFree = append(clientFree, op.Return)
			op.Client = len(clientFree)
		}
		h.Ops = append(h.Ops, op)
	}
	return h
}

// mutate changes one known result of h to another value or to null.
func mutate(r *rand.Rand, h *record.History) bool {
	var known []int
	for i, op := range h.Ops {
		if !op.Unknown && op.Result != "" {
			known = append(known, i)
		}
	}
	if len(known) == 0 {
		return false
	}
	op := &h.Ops[known[r.Intn(len(known))]]
	old := op.Result
	for op.Result == old {
		op.Result = []string{record.Nil, "1", "2", "3"}[r.Intn(4)]
	}
	return true
}

// TestProperty cross-checks the spec adapter of bundled models
// against the built-in stack and queue: on random histories linearizable
// by construction both must say linearizable, and on mutated ones both must
// give the same verdict (checked with the general search on both sides, and
// with the built-in's default algorithm too).
func TestProperty(t *testing.T) {
	for _, tc := range []struct {
		model, builtin string
		lifo           bool
	}{
		{"treiber", "stack", true},
		{"ms-queue", "queue", false},
	} {
		t.Run(tc.model, func(t *testing.T) {
			spec, err := New(bundled(t, tc.model))
			require.NoError(t, err)
			builtin, err := model.Builtin(tc.builtin)
			require.NoError(t, err)
			r := rand.New(rand.NewSource(9))
			counts := map[string]int{}
			for iter := 0; iter < 300; iter++ {
				h := randomHistory(r, 1+r.Intn(9), tc.lifo)
				mutated := iter%2 == 1 && mutate(r, h)
				got, err := history.Check(h, spec, history.Options{})
				require.NoError(t, err)
				require.NoError(t, spec.Err())
				general, err := history.Check(h, builtin, history.Options{Algorithm: history.General})
				require.NoError(t, err)
				auto, err := history.Check(h, builtin, history.Options{})
				require.NoError(t, err)
				desc := fmt.Sprint(h.Ops)
				if !mutated {
					require.Equal(t, history.Linearizable, got.Verdict, desc)
				}
				require.Equal(t, general.Verdict, got.Verdict, desc)
				require.Equal(t, auto.Verdict, got.Verdict, desc)
				counts[fmt.Sprint(mutated, got.Verdict)]++
			}
			// The mutations must produce both verdicts, or the test proves little.
			assert.Positive(t, counts["true linearizable"], counts)
			assert.Positive(t, counts["true not linearizable"], counts)
			t.Log(counts)
		})
	}
}

// TestStateSets checks the subset construction that makes a
// possibly nondeterministic spec a deterministic model.Spec: a step from
// a set of states keeps the successors of every state whose outcome
// matches the recorded result.
func TestStateSets(t *testing.T) {
	spec, err := New(bundled(t, "treiber"))
	require.NoError(t, err)
	push1 := &record.Op{Method: "push", Args: []string{"1"}}
	ok, one := spec.Step(spec.Init(), push1)
	require.True(t, ok)
	both := joinStates([]string{splitStates(spec.Init())[0], splitStates(one)[0]})
	require.Len(t, splitStates(both), 2)
	assert.Equal(t, "one of {Top=null | Top=#1 #1Node{value: 1, next: null}}", spec.ShowState(both))

	for _, tc := range []struct {
		result string
		ok     bool
		next   string
	}{
		{"1", true, spec.Init()},        // only from [1]
		{record.Nil, true, spec.Init()}, // only from []
		{"2", false, both},
	} {
		ok, next := spec.Step(both, &record.Op{Method: "pop", Result: tc.result})
		assert.Equal(t, tc.ok, ok, tc.result)
		assert.Equal(t, tc.next, next, tc.result)
	}
	// An unobserved result keeps both successors, which are the same state.
	ok, next := spec.Step(both, &record.Op{Method: "pop", Unknown: true})
	assert.True(t, ok)
	assert.Equal(t, spec.Init(), next)
	ok, next = spec.Step(both, push1)
	assert.True(t, ok)
	assert.Len(t, splitStates(next), 2, "push keeps the two states apart")
	assert.Equal(t, []string{"", "a", "bc"}, splitStates(joinStates([]string{"bc", "a", "", "a"})), "sorted, without duplicates")
}

// BenchmarkSpec checks a random linearizable stack history of 2,000
// operations against Treiber's spec and against the built-in stack.
func BenchmarkSpec(b *testing.B) {
	h := randomHistory(rand.New(rand.NewSource(1)), 2000, true)
	m := bundled(b, "treiber")
	builtin, err := model.Builtin("stack")
	require.NoError(b, err)
	for _, bc := range []struct {
		name string
		spec func() model.Spec
	}{
		{"spec-treiber", func() model.Spec {
			s, err := New(m)
			require.NoError(b, err)
			return s
		}},
		{"builtin-stack", func() model.Spec { return builtin }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				res, err := history.Check(h, bc.spec(), history.Options{Algorithm: history.General})
				require.NoError(b, err)
				require.Equal(b, history.Linearizable, res.Verdict)
			}
		})
	}
}
