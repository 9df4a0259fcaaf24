package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linbis runs the CLI in-process and returns its exit code, stdout and stderr.
func linbis(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(append([]string{"linbis"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestInfoBundledExample(t *testing.T) {
	code, out, _ := linbis("info")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "cas-counter-2x1.aut")
	assert.Regexp(t, `states\s+\d+`, out)

	code, out, _ = linbis("info", "--json")
	require.Equal(t, 0, code)
	var st map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	assert.Greater(t, st["states"], 0.0)
	assert.Greater(t, st["tau_transitions"], 0.0)
}

func TestConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	aut := filepath.Join(dir, "a.aut")
	require.NoError(t, os.WriteFile(aut, []byte(exampleAut), 0o644))
	dot := filepath.Join(dir, "a.dot")
	code, _, errOut := linbis("convert", aut, dot)
	require.Equal(t, 0, code, errOut)
	back := filepath.Join(dir, "b.aut")
	code, _, errOut = linbis("convert", dot, back)
	require.Equal(t, 0, code, errOut)
	_, a, _ := linbis("info", "--json", aut)
	_, b, _ := linbis("info", "--json", back)
	var sa, sb map[string]any
	require.NoError(t, json.Unmarshal([]byte(a), &sa))
	require.NoError(t, json.Unmarshal([]byte(b), &sb))
	delete(sa, "file")
	delete(sb, "file")
	assert.Equal(t, sa, sb)
}

func TestInputErrorsExitTwoWithOneLine(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.aut")
	require.NoError(t, os.WriteFile(bad, []byte("des (0, 1, 2)\n(0, \"a\", 5)\n"), 0o644))
	code, _, errOut := linbis("info", bad)
	assert.Equal(t, 2, code)
	assert.Equal(t, "linbis: "+bad+":2:10: target state 5 out of range: the header declares 2 states\n", errOut)

	code, _, errOut = linbis("convert", "only-one.aut")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "linbis: convert needs 2 arguments (IN OUT), got 1: only-one.aut\n")

	code, _, _ = linbis("no-such-verb")
	assert.Equal(t, 2, code)
}

// TestMalformedInputs: the malformed files a user writes — LTSs, histories,
// models — each give exit code 2 and one line on stderr at the position of
// the fault (file:line:col), nothing on stdout, and never a panic.
func TestMalformedInputs(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ verb, file, content, want string }{
		{"info", "short.aut", "des (0, 2, 2)\n(0, \"a\", 1)\n", "short.aut:3:1: the header (line 1) declares 2 transitions, but the file has 1"},
		{"info", "extra.aut", "des (0, 1, 2)\n(0, \"a\", 1)\n(1, \"b\", 0)\n", "extra.aut:3:1: more transitions than the 1 declared"},
		{"info", "header.aut", "des 0 1 2\n", `header.aut:1:5: expected '(' after "des", found '0'`},
		{"info", "quote.aut", "des (0, 1, 2)\n(0, \"a, 1)\n", "quote.aut:2:5: unterminated quote"},
		{"info", "negative.aut", "des (0, -1, 2)\n", "negative.aut:1:9: expected transition count (a non-negative integer), found '-'"},
		{"info", "huge.aut", "des (0, 1, 99999999999999999999)\n(0, \"a\", 1)\n", "huge.aut:1:12: state count 99999999999999999999 is out of range"},
		{"info", "initial.aut", "des (5, 1, 2)\n(0, \"a\", 1)\n", "initial.aut:1:6: initial state 5 out of range"},
		{"info", "empty-label.aut", "des (0, 1, 1)\n(0, \"\", 0)\n", "empty-label.aut:2:6: expected a label, found an empty one"},
		{"progress", "garbage.aut", "garbage\n", `garbage.aut:1:1: expected header "des (INITIAL, TRANSITIONS, STATES)"`},
		{"info", "bad.dot", "digraph {\n a -> }\n", `bad.dot:2:7: expected one of "{", subgraph or id, found "}"`},
		{"history", "cut.jsonl", "{\"client\": 0, \"call\": 1\n", "cut.jsonl:1:1: expected a JSON object"},
		{"history", "field.jsonl", "{\"client\": 0, \"call\": \"x\", \"return\": 1, \"method\": \"read\"}\n", `field.jsonl:1:15: field "call": expected an integer timestamp`},
		{"history", "order.jsonl", "{\"client\": 0, \"call\": 5, \"return\": 2, \"method\": \"read\"}\n", `order.jsonl:1:26: field "return": 2 is before the call at 5`},
		{"history", "cut.edn", "{:process 0 :type :invoke :f :read\n", "cut.edn:1:1: unclosed collection"},
		{"history", "vector.edn", "[:a :b]\n", "vector.edn:1:2: expected an operation map"},
		{"history", "orphan.edn", "{:type :invoke :f :read :process 0}\n{:type :ok :f :read :process 1 :value 1}\n", "orphan.edn:2:1: ok of read by process 1 without an invocation"},
		{"verify", "empty.lin", "", "empty.lin:1:1: expected an object declaration"},
		{"verify", "undefined.lin", "object O {\n  shared x int = 0\n  method m() int { return y }\n}\nspec auto\n", "undefined.lin:3:27: undefined: y"},
	} {
		path := filepath.Join(dir, c.file)
		require.NoError(t, os.WriteFile(path, []byte(c.content), 0o644))
		code, out, errOut := linbis(c.verb, path)
		assert.Equal(t, 2, code, c.file)
		assert.Empty(t, out, c.file)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%s: %q", c.file, errOut)
		assert.True(t, strings.HasPrefix(errOut, "linbis: "+filepath.Join(dir, c.want)), "%s: %q", c.file, errOut)
	}
	// A model with two errors: one line each, then the count, for verify as
	// for history's --spec.
	lin := filepath.Join(dir, "two.lin")
	require.NoError(t, os.WriteFile(lin, []byte("object O {\n  var x int\n  method m() { x = = 1 }\n}\n"), 0o644))
	jsonl := filepath.Join(dir, "h.jsonl")
	require.NoError(t, os.WriteFile(jsonl, []byte("{\"client\": 0, \"call\": 1, \"return\": 2, \"method\": \"read\", \"output\": 0}\n"), 0o644))
	errs := lin + ":2:3: expected heap, word, shared, method, proc or init declaration, found keyword var\n" +
		lin + ":3:20: expected expression, found '='\n"
	for _, args := range [][]string{{"verify", lin}, {"history", jsonl, "--spec", lin}} {
		code, _, errOut := linbis(args...)
		assert.Equal(t, 2, code, args[0])
		prefix := "linbis: "
		if args[0] == "history" {
			prefix += "--spec " + lin + ": "
		}
		assert.Equal(t, errs+prefix+lin+": 2 errors\n", errOut, args[0])
	}
}
