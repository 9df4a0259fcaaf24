package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// porcupineData is Porcupine's test data, beside the repository (see
// shared/histories/README.md).
const porcupineData = "../../../shared/histories/porcupine"

func needHistories(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(porcupineData); err != nil {
		t.Skipf("Porcupine histories not found at %s: %v", porcupineData, err)
	}
}

// writeFile writes content into a fresh temporary file called name.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// A queue history with the bad pattern BP2: enq(1) precedes enq(2), but
// 2 is dequeued first and 1 never.
const badQueue = `{"client": 1, "call": 0, "return": 1, "method": "enq", "input": 1}
{"client": 1, "call": 2, "return": 3, "method": "enq", "input": 2}
{"client": 2, "call": 4, "return": 5, "method": "deq", "output": 2}
`

// A stack history breaking LIFO in real time (pattern SP5).
const badStack = `{"client": 1, "call": 0, "return": 1, "method": "push", "input": 1}
{"client": 1, "call": 2, "return": 3, "method": "push", "input": 2}
{"client": 2, "call": 4, "return": 5, "method": "pop", "output": 1}
{"client": 2, "call": 6, "return": 7, "method": "pop", "output": 2}
`

// Jepsen histories: a cas that failed with a timeout (Jepsen: did not
// take effect), the same without an error, and a first read of 0.
const (
	timedOutCAS = `[{:process 0 :type :invoke :f :write :value 3}
 {:process 0 :type :ok :f :write :value 3}
 {:process 1 :type :invoke :f :cas :value [3 4]}
 {:process 1 :type :fail :f :cas :value [3 4] :error :timeout}]`
	failedCAS = `[{:process 0 :type :invoke :f :write :value 3}
 {:process 0 :type :ok :f :write :value 3}
 {:process 1 :type :invoke :f :cas :value [3 4]}
 {:process 1 :type :fail :f :cas :value [3 4]}]`
	readZero = `{:process 0 :type :invoke :f :read :value nil}
{:process 0 :type :ok :f :read :value 0}`
	failedCASLog = "INFO  jepsen.util - 0\t:invoke\t:write\t3\nINFO  jepsen.util - 0\t:ok\t:write\t3\n" +
		"INFO  jepsen.util - 1\t:invoke\t:cas\t[3 4]\nINFO  jepsen.util - 1\t:fail\t:cas\t[3 4]\n"
	knossosTxns = `{:process 0 :type :invoke :f :txn :value [[:read :x nil] [:write :y 2]]}
{:process 0 :type :ok :f :txn :value [[:read :x 0] [:write :y 2]]}`
	nilRead = `{:process 0 :type :invoke :f :write :value 1}
{:process 0 :type :ok :f :write :value 1}
{:process 1 :type :invoke :f :read :value nil}
{:process 1 :type :ok :f :read :value nil}`
)

func TestHistoryVerdicts(t *testing.T) {
	needHistories(t)
	etcd := func(n string) string { return filepath.Join(porcupineData, "jepsen", "etcd_"+n+".log") }
	kv := func(n string) string { return filepath.Join(porcupineData, "kv", n+".txt") }
	cases := []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"etcd linearizable", []string{etcd("002")}, 0, "etcd_002.log: linearizable"},
		{"etcd not", []string{etcd("000"), "--model", "cas-register"}, 1, "cannot place: c11 read() -> 2"},
		{"kv flags before file", []string{"--model", "kv", kv("c50-bad")}, 1, `smallest failing partition: key "1"`},
		{"kv unpartitioned", []string{kv("c10-ok"), "--no-partition"}, 0, "1 partition(s)"},
		{"timeout is no verdict", []string{kv("c10-bad"), "--no-partition", "--timeout", "1ns"}, 3, "time budget of 1ns exhausted"},
		{"queue bad pattern", []string{writeFile(t, "q.jsonl", badQueue)}, 1, "bad pattern BP2: c1 enq(1) precedes c1 enq(2), which is dequeued by c2 deq() -> 2, but 1 is never dequeued"},
		{"stack pattern", []string{writeFile(t, "s.jsonl", badStack)}, 1, "bad pattern SP5: c1 push(1) < c1 push(2) < c2 pop() -> 1 < c2 pop() -> 2 breaks LIFO"},
		{"queue general search", []string{writeFile(t, "q.jsonl", badQueue), "--general"}, 1, "cannot place: c2 deq() -> 2"},
		{"a cas failed by a timeout", []string{writeFile(t, "t.edn", timedOutCAS)}, 0, "t.edn: linearizable"},
		{"--cas-fail false", []string{writeFile(t, "t.edn", timedOutCAS), "--cas-fail", "false"}, 0, "t.edn: linearizable"},
		{"--cas-fail false, no error", []string{writeFile(t, "f.edn", failedCAS), "--cas-fail", "false"}, 1, "not linearizable"},
		{"--initial", []string{writeFile(t, "r.edn", readZero), "--initial", "0"}, 0, "r.edn: linearizable"},
		{"no --initial", []string{writeFile(t, "r.edn", readZero)}, 1, "r.edn: not linearizable"},
		{"a log's failed cas did not happen", []string{writeFile(t, "c.log", failedCASLog)}, 0, "c.log: linearizable"},
		{"a log's failed cas returned false", []string{writeFile(t, "c.log", failedCASLog), "--cas-fail", "false"}, 1, "c.log: not linearizable"},
		{"a nemesis line", []string{writeFile(t, "n.log", "INFO  jepsen.util - :nemesis :info :start nil\n")}, 0, "n.log: linearizable"},
		{"Knossos's multi-register from nil", []string{writeFile(t, "m.edn", knossosTxns)}, 1, "m.edn: not linearizable"},
		{"Knossos's multi-register from 0", []string{writeFile(t, "m.edn", knossosTxns), "--initial", "{:x 0 :y 0}"}, 0, "m.edn: linearizable"},
		{"an empty history", []string{writeFile(t, "e.jsonl", "")}, 0, "e.jsonl: linearizable\n  model register, 0 operations, 0 partition(s) (0 decided), 0 configurations"},
		{"a read of nil, Knossos", []string{writeFile(t, "n.edn", nilRead)}, 0, "n.edn: linearizable"},
		{"a read of nil, Porcupine", []string{writeFile(t, "n.edn", nilRead), "--nil-read", "absent"}, 1, "n.edn: not linearizable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := linbis(append([]string{"history", "-q"}, c.args...)...)
			assert.Equal(t, c.code, code, errOut)
			assert.Contains(t, out, c.out)
		})
	}
}

func TestHistoryJSONAndHTML(t *testing.T) {
	needHistories(t)
	page := filepath.Join(t.TempDir(), "h.html")
	code, out, errOut := linbis("history", filepath.Join(porcupineData, "jepsen", "etcd_000.log"), "--json", "--html", page)
	require.Equal(t, 1, code, errOut)
	var res struct {
		Linearizable *bool
		Failure      struct {
			Operations  int
			Prefix      []struct{ Line int }
			CannotPlace struct{ Line int } `json:"cannot_place"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotNil(t, res.Linearizable)
	assert.False(t, *res.Linearizable)
	assert.Equal(t, 65, res.Failure.Operations, "85 events less the 20 failed cas, which did not happen")
	assert.NotEmpty(t, res.Failure.Prefix)
	assert.Equal(t, 85, res.Failure.CannotPlace.Line)
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(html), "<svg")
	assert.Contains(t, string(html), `class="stuck"`)
	assert.NotContains(t, string(html), "<script")
}

func TestHistoryErrors(t *testing.T) {
	bad := writeFile(t, "bad.jsonl", `{"client": 1, "call": 0, "return": 1, "method": "enq", "input": 1}`+"\n"+`{"client": 1, "call": 2}`+"\n")
	cases := []struct {
		name string
		args []string
		err  string
	}{
		{"malformed", []string{bad}, "linbis: " + bad + `:2:1: field "method": expected a non-empty string` + "\n"},
		{"wrong model", []string{writeFile(t, "q.jsonl", badQueue), "--model", "stack"}, `q.jsonl:1:1: model stack has no method "enq": expected one of pop, push`},
		{"unknown model", []string{writeFile(t, "q.jsonl", badQueue), "--model", "tree"}, `unknown model "tree"`},
		{"spec model missing", []string{writeFile(t, "q.jsonl", badQueue), "--spec", "m.lin"}, "--spec m.lin: m.lin: no such file"},
		{"no file", nil, "history needs 1 argument (FILE), got none"},
		{"missing file", []string{"no-such-file.jsonl"}, "no-such-file.jsonl"},
		{"bad flag after file", []string{writeFile(t, "q.jsonl", badQueue), "--colour"}, "linbis: history: unknown flag --colour; see linbis history --help\n"},
		{"bad --cas-fail", []string{writeFile(t, "t.edn", timedOutCAS), "--cas-fail", "maybe"}, `--cas-fail "maybe": expected one of drop, false`},
		{"--initial of a queue", []string{writeFile(t, "q.jsonl", badQueue), "--initial", "1"}, "model queue has no settable initial value"},
		{"--initial of a multi-register", []string{writeFile(t, "m.edn", knossosTxns), "--initial", "0"}, "initial value 0 of model multi-register: expected a map of registers to values, such as {:x 0 :y 0}"},
		{"--initial not a value", []string{writeFile(t, "m.edn", knossosTxns), "--initial", "{:x"}, `--initial: value "{:x": expected one EDN value (a string in quotes)`},
		{"a string not in UTF-8", []string{writeFile(t, "u.edn", "{:process 0 :type :invoke :f :write :value \"a\xe9\"}")}, `u.edn:1:46: byte 0xe9 is not UTF-8: expected text in UTF-8`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := linbis(append([]string{"history"}, c.args...)...)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, c.err)
		})
	}
}

// TestHistoryJSONWhenReadingTimesOut: a time limit met while the file is
// still being read gives the same JSON as one met by the search (no
// verdict, stopped_by time, valid against the schema) and exit 3.
func TestHistoryJSONWhenReadingTimesOut(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, `{"client": %d, "call": %d, "return": %d, "method": "write", "input": %d}`+"\n", i%7, 2*i, 2*i+1, i)
	}
	file := writeFile(t, "long.jsonl", b.String())
	code, out, errOut := linbis("history", file, "--json", "-q", "--timeout", "1ns")
	require.Equal(t, 3, code, errOut)
	assert.Contains(t, errOut, "exhausted while reading")
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	require.NoError(t, err, out)
	assert.NoError(t, compileSchema(t, "history.json").Validate(inst))
	var res struct {
		Linearizable *bool  `json:"linearizable"`
		StoppedBy    string `json:"stopped_by"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.Nil(t, res.Linearizable)
	assert.Equal(t, "time", res.StoppedBy)
}
