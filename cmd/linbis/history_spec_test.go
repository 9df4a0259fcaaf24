package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
