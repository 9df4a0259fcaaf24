package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/history"
)

// Two threads on a stack. In the linearizable one, push(1) and push(2)
// overlap, so either order is possible, and the pops see 1 then 2 (push(2)
// first), then empty. In the other, push(1) returns before push(2) starts,
// so a later pop must see 2 first; it sees 1.
const (
	stackLinearizable = `{"client": 1, "call": 0, "return": 10, "method": "push", "input": 1}
{"client": 2, "call": 1, "return": 12, "method": "push", "input": 2}
{"client": 1, "call": 13, "return": 20, "method": "pop", "output": 1}
{"client": 2, "call": 21, "return": 22, "method": "pop", "output": 2}
{"client": 1, "call": 23, "return": 30, "method": "pop", "output": null}
`
	stackNotLinearizable = `{"client": 1, "call": 0, "return": 10, "method": "push", "input": 1}
{"client": 2, "call": 11, "return": 12, "method": "push", "input": 2}
{"client": 1, "call": 13, "return": 20, "method": "pop", "output": 1}
{"client": 2, "call": 21, "return": 22, "method": "pop", "output": 2}
`
	// A queue whose dequeues overlap: either order is fine.
	queueLinearizable = `{"client": 1, "call": 0, "return": 1, "method": "enq", "input": 1}
{"client": 1, "call": 2, "return": 3, "method": "enq", "input": 2}
{"client": 1, "call": 4, "return": 10, "method": "deq", "output": 2}
{"client": 2, "call": 5, "return": 11, "method": "deq", "output": 1}
{"client": 2, "call": 12, "return": 13, "method": "deq", "output": "EMPTY"}
`
	// The queue gives back 2 before 1 although enq(1) came first and the
	// dequeues do not overlap.
	queueNotLinearizable = `{"client": 1, "call": 0, "return": 1, "method": "enq", "input": 1}
{"client": 1, "call": 2, "return": 3, "method": "enq", "input": 2}
{"client": 1, "call": 4, "return": 10, "method": "deq", "output": 2}
{"client": 2, "call": 11, "return": 12, "method": "deq", "output": 1}
`
)

func writeHistory(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "h.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// TestHistorySpecVerdicts checks small histories known by hand against the
// specs of bundled models, and the same histories against the built-in
// sequential specs: both must agree with the hand verdict.
func TestHistorySpecVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name, history, spec, builtin string
		code                         int
	}{
		{"stack ok", stackLinearizable, "treiber", "stack", 0},
		{"stack bad", stackNotLinearizable, "treiber", "stack", 1},
		{"stack ok, explicit-memory spec", stackLinearizable, "treiber-free", "stack", 0},
		{"queue ok", queueLinearizable, "ms-queue", "queue", 0},
		{"queue bad", queueNotLinearizable, "ms-queue", "queue", 1},
		{"queue ok, spec file", queueLinearizable, "../../frontend/examples/ms-queue.lin", "queue", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeHistory(t, tc.history)
			code, out, errOut := linbis("history", path, "--spec", tc.spec, "-q")
			assert.Equal(t, tc.code, code, out+errOut)
			want := map[int]string{0: ": linearizable", 1: ": not linearizable"}[tc.code]
			assert.Contains(t, out, want)
			assert.Contains(t, out, "(spec ")
			// The built-in specs know no EMPTY: the empty result is null.
			builtinHistory := strings.ReplaceAll(tc.history, `"EMPTY"`, "null")
			code, out, errOut = linbis("history", writeHistory(t, builtinHistory), "--model", tc.builtin, "-q")
			assert.Equal(t, tc.code, code, out+errOut)
		})
	}
}

// TestHistorySpecEDN: Jepsen EDN stack histories, where an :ok push
// echoes its value and an empty pop returns nil. The pop of nil overlaps
// the push, so it may come first; a second pop of 1 has nothing to pop.
func TestHistorySpecEDN(t *testing.T) {
	const ok = `[{:process 0, :type :invoke, :f :push, :value 1}
 {:process 1, :type :invoke, :f :pop, :value nil}
 {:process 0, :type :ok, :f :push, :value 1}
 {:process 1, :type :ok, :f :pop, :value nil}
 {:process 1, :type :invoke, :f :pop, :value nil}
 {:process 1, :type :ok, :f :pop, :value 1}
`
	const again = ` {:process 1, :type :invoke, :f :pop, :value nil}
 {:process 1, :type :ok, :f :pop, :value 1}
`
	for _, tc := range []struct {
		name, edn string
		code      int
	}{
		{"linearizable", ok + "]", 0},
		{"popped twice", ok + again + "]", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "h.edn")
			require.NoError(t, os.WriteFile(path, []byte(tc.edn), 0o644))
			code, out, errOut := linbis("history", path, "--spec", "treiber", "-q")
			assert.Equal(t, tc.code, code, out+errOut)
			code, out, errOut = linbis("history", path, "--model", "stack", "-q")
			assert.Equal(t, tc.code, code, out+errOut)
		})
	}
}

func TestHistorySpecEvidence(t *testing.T) {
	code, out, _ := linbis("history", writeHistory(t, stackNotLinearizable), "--spec", "treiber", "-q")
	require.Equal(t, 1, code)
	assert.Contains(t, out, "ending in state Top=#1 #1Node{value: 2, next: #2} #2Node{value: 1, next: null}")
	assert.Contains(t, out, "cannot place: c1 pop() -> 1")
}

func TestHistorySpecErrors(t *testing.T) {
	for _, tc := range []struct {
		name, history, spec, want string
	}{
		{"unknown method", `{"client": 1, "call": 0, "return": 1, "method": "enq", "input": 1}`, "treiber",
			`h.jsonl:1:1: c1 enq(1): model treiber.lin (spec StackSpec) has no method "enq": expected one of push, pop`},
		{"arity", `{"client": 1, "call": 0, "return": 1, "method": "pop", "input": 1}`, "treiber",
			"pop of model treiber.lin (spec StackSpec) takes 0 argument(s), found 1"},
		{"bad argument", `{"client": 1, "call": 0, "return": 1, "method": "push", "input": "x"}`, "treiber",
			`argument 1: "x": expected an integer or EMPTY`},
		{"bad output", `{"client": 1, "call": 0, "return": 1, "method": "pop", "output": "x"}`, "treiber",
			`output of pop: "x": expected an integer or EMPTY`},
		{"no such model", `{"client": 1, "call": 0, "return": 1, "method": "pop"}`, "nosuch",
			`--spec nosuch: nosuch: no such file, and no bundled model "nosuch"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := linbis("history", writeHistory(t, tc.history), "--spec", tc.spec)
			assert.Equal(t, 2, code, out+errOut)
			assert.Contains(t, errOut, tc.want)
		})
	}
	code, _, errOut := linbis("history", writeHistory(t, stackLinearizable), "--spec", "treiber", "--model", "stack")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "not both")
}

// TestHistorySpecBadModels: a spec that reads tid (here `spec auto` of
// an object with per-thread slots) has no sequential meaning for a
// history, and a spec that fails while stepping (a failed assert) gives an
// error, not a verdict.
func TestHistorySpecBadModels(t *testing.T) {
	for _, tc := range []struct {
		file, model, history string
		want                 []string
	}{
		{"slots.lin", `object Slots {
  shared A [1..nthreads] int = 0
  method set(v int) { A[tid] = v }
}
spec auto
`, `{"client": 1, "call": 0, "return": 1, "method": "set", "input": 7}`, []string{"slots.lin:2:", "Slots reads tid or nthreads"}},
		{"bad.lin", `object B {
  shared x int = 0
  method put(v int) { x = v }
}
spec S {
  shared x int = 0
  method put(v int) { atomic { assert v < 5; x = v } }
}
`, `{"client": 1, "call": 0, "return": 1, "method": "put", "input": 7}`, []string{"bad.lin:7:", "assertion failed"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			model := filepath.Join(t.TempDir(), tc.file)
			require.NoError(t, os.WriteFile(model, []byte(tc.model), 0o644))
			code, out, errOut := linbis("history", writeHistory(t, tc.history+"\n"), "--spec", model)
			assert.Equal(t, 2, code, out)
			for _, w := range tc.want {
				assert.Contains(t, errOut, w)
			}
		})
	}
}

// randomHistory builds a history of n operations of a stack (lifo) or a
// queue that is linearizable by construction: each operation takes effect
// at its own point in time, 10 apart, with call and return drawn around
// it, so that operations overlap; results come from a plain slice. Some
// operations stay pending (their effect happened; the return was lost).
func randomHistory(r *rand.Rand, n int, lifo bool) *history.History {
	ins, del := "enq", "deq"
	if lifo {
		ins, del = "push", "pop"
	}
	var elems []string
	var clientFree []int64 // per client: time its last operation returned
	h := &history.History{Name: "random"}
	for i := 0; i < n; i++ {
		at := int64(10 * (i + 1))
		op := history.Op{Call: at - 1 - r.Int63n(15), Return: at + 1 + r.Int63n(15)}
		if r.Intn(2) == 0 || len(elems) == 0 && r.Intn(3) > 0 {
			v := strconv.Itoa(1 + r.Intn(3))
			op.Method, op.Args = ins, []string{v}
			elems = append(elems, v)
		} else {
			op.Method, op.Result = del, history.Nil
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
			op.Return, op.Unknown, op.Result = history.Pending, true, ""
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
func mutate(r *rand.Rand, h *history.History) bool {
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
		op.Result = []string{history.Nil, "1", "2", "3"}[r.Intn(4)]
	}
	return true
}

// TestHistorySpecProperty cross-checks the spec adapter of bundled models
// against the built-in stack and queue: on random histories linearizable
// by construction both must say linearizable, and on mutated ones both must
// give the same verdict (checked with the general search on both sides, and
// with the built-in's default algorithm too).
func TestHistorySpecProperty(t *testing.T) {
	for _, tc := range []struct {
		model, builtin string
		lifo           bool
	}{
		{"treiber", "stack", true},
		{"ms-queue", "queue", false},
	} {
		t.Run(tc.model, func(t *testing.T) {
			m, err := readModel(tc.model, nil)
			require.NoError(t, err)
			spec, err := newModelSpec(m)
			require.NoError(t, err)
			builtin, err := history.Builtin(tc.builtin)
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

// TestHistorySpecStateSets checks the subset construction that makes a
// possibly nondeterministic spec a deterministic history.Spec: a step from
// a set of states keeps the successors of every state whose outcome
// matches the recorded result.
func TestHistorySpecStateSets(t *testing.T) {
	m, err := readModel("treiber", nil)
	require.NoError(t, err)
	spec, err := newModelSpec(m)
	require.NoError(t, err)
	push1 := &history.Op{Method: "push", Args: []string{"1"}}
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
		{"1", true, spec.Init()},         // only from [1]
		{history.Nil, true, spec.Init()}, // only from []
		{"2", false, both},
	} {
		ok, next := spec.Step(both, &history.Op{Method: "pop", Result: tc.result})
		assert.Equal(t, tc.ok, ok, tc.result)
		assert.Equal(t, tc.next, next, tc.result)
	}
	// An unobserved result keeps both successors, which are the same state.
	ok, next := spec.Step(both, &history.Op{Method: "pop", Unknown: true})
	assert.True(t, ok)
	assert.Equal(t, spec.Init(), next)
	ok, next = spec.Step(both, push1)
	assert.True(t, ok)
	assert.Len(t, splitStates(next), 2, "push keeps the two states apart")
	assert.Equal(t, []string{"", "a", "bc"}, splitStates(joinStates([]string{"bc", "a", "", "a"})), "sorted, without duplicates")
}

// BenchmarkHistorySpec checks a random linearizable stack history of 2,000
// operations against Treiber's spec and against the built-in stack.
func BenchmarkHistorySpec(b *testing.B) {
	h := randomHistory(rand.New(rand.NewSource(1)), 2000, true)
	m, err := readModel("treiber", nil)
	require.NoError(b, err)
	builtin, err := history.Builtin("stack")
	require.NoError(b, err)
	for _, bc := range []struct {
		name string
		spec func() history.Spec
	}{
		{"spec-treiber", func() history.Spec {
			s, err := newModelSpec(m)
			require.NoError(b, err)
			return s
		}},
		{"builtin-stack", func() history.Spec { return builtin }},
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

// TestHistorySpecKeys: each key is its own instance of the object, checked
// apart or (--no-partition) as a product whose states show per key.
func TestHistorySpecKeys(t *testing.T) {
	h := writeHistory(t, `{"client": 1, "call": 0, "return": 1, "method": "push", "key": "a", "input": 1}
{"client": 1, "call": 2, "return": 3, "method": "pop", "key": "b", "output": 1}
`)
	code, out, _ := linbis("history", h, "--spec", "treiber", "-q")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, `smallest failing partition: key "b", 1 operations`)
	code, out, _ = linbis("history", h, "--spec", "treiber", "--no-partition", "-q")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, `ending in state {"a": Top=#1 #1Node{value: 1, next: null}, "b": Top=null}`)
}
