package format

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/linbis/linbis/history/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadJSONL(t *testing.T) {
	src := `# a comment
{"client": 1, "call": 10, "return": 25, "method": "write", "key": "x", "input": 3}
{"client": "bob", "call": 12, "return": 30, "method": "read", "key": 7, "output": null}

{"client": 3, "call": 14, "return": 40, "method": "cas", "input": [3, "4"], "output": true}
{"client": 4, "call": 20, "method": "write", "input": {"a": [1, 2]}}
{"client": 5, "call": 21, "return": 22, "method": "read", "unknown": true}
`
	h, err := ReadJSONL(strings.NewReader(src), "h.jsonl", ReadOptions{})
	require.NoError(t, err)
	require.Len(t, h.Ops, 5)
	assert.Equal(t, record.Op{Client: 1, Call: 10, Return: 25, Method: "write", Key: `"x"`, Args: []string{"3"}, Pos: record.Pos{Line: 2, Col: 1}}, h.Ops[0])
	assert.Equal(t, record.Nil, h.Ops[1].Result)
	assert.Equal(t, "7", h.Ops[1].Key)
	assert.Equal(t, clientNumber("bob"), h.Ops[1].Client)
	assert.Equal(t, []string{"3", `"4"`}, h.Ops[2].Args)
	assert.Equal(t, "true", h.Ops[2].Result)
	assert.True(t, h.Ops[3].IsPending())
	assert.True(t, h.Ops[3].Unknown)
	assert.Equal(t, []string{`{"a" [1 2]}`}, h.Ops[3].Args)
	assert.True(t, h.Ops[4].Unknown)
	assert.False(t, h.Ops[4].IsPending())
	require.NoError(t, h.Validate())
}

// TestReadJSONLValuesAgainstEncodingJSON writes random values with
// encoding/json (which escapes <, > and & and may indent) and reads them
// back: each value is the canonical text of what encoding/json decodes,
// on every line.
func TestReadJSONLValuesAgainstEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 25))
	var value func(depth int) any
	value = func(depth int) any {
		switch k := rng.IntN(7); {
		case k == 0 || depth > 2 && k >= 4:
			return []any{nil, true, false}[rng.IntN(3)]
		case k == 1:
			return rng.IntN(2000) - 1000
		case k == 2:
			return rng.Float64() * 1e6
		case k == 3:
			return string([]rune("aé<>&\"\\\n\tb€")[:rng.IntN(11)])
		case k == 4:
			arr := make([]any, rng.IntN(3))
			for i := range arr {
				arr[i] = value(depth + 1)
			}
			return arr
		default:
			obj := map[string]any{}
			for range rng.IntN(3) {
				obj[fmt.Sprint("k\"<", rng.IntN(5))] = value(depth + 1)
			}
			return obj
		}
	}
	// canonical is the canonical text (value.go) of a value as
	// encoding/json decodes it: numbers by their exact value.
	var canonical func(v any) string
	canonical = func(v any) string {
		switch v := v.(type) {
		case nil:
			return record.Nil
		case string:
			return QuoteString(v)
		case bool:
			return strconv.FormatBool(v)
		case int:
			return strconv.Itoa(v)
		case float64:
			s, ok := exactDecimal(strconv.FormatFloat(v, 'g', -1, 64))
			require.True(t, ok)
			return s
		case []any:
			parts := make([]string, len(v))
			for i, x := range v {
				parts[i] = strings.Replace(canonical(x), record.Nil, "nil", 1)
			}
			return "[" + strings.Join(parts, " ") + "]"
		}
		var parts []string
		for k, x := range v.(map[string]any) {
			parts = append(parts, QuoteString(k)+" "+strings.Replace(canonical(x), record.Nil, "nil", 1))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	var src strings.Builder
	var want [][2]string
	for i := range 2000 {
		in, out := value(0), value(0)
		line := map[string]any{"client": i % 7, "call": i, "return": i + 1, "method": "m", "input": []any{in}, "output": out}
		raw, err := json.Marshal(line)
		if i%3 == 0 {
			raw, err = json.MarshalIndent(line, "", " ")
			raw = bytes.ReplaceAll(raw, []byte("\n"), nil)
		}
		require.NoError(t, err)
		src.Write(raw)
		src.WriteByte('\n')
		want = append(want, [2]string{canonical(in), canonical(out)})
	}
	h, err := ReadJSONL(strings.NewReader(src.String()), "values.jsonl", ReadOptions{})
	require.NoError(t, err)
	require.Len(t, h.Ops, len(want))
	for i, op := range h.Ops {
		require.Equal(t, []string{want[i][0]}, op.Args, "line %d", i+1)
		require.Equal(t, want[i][1], op.Result, "line %d", i+1)
	}
}

// TestReadFileSizesOperations checks that ReadFile, which counts the lines
// first to size the operations, reads what Read reads from a stream, with
// and without a final newline, and holds the operations in an array of
// the counted size.
func TestReadFileSizesOperations(t *testing.T) {
	lines := []string{`# a comment`, `{"client": 1, "call": 1, "return": 2, "method": "write", "input": 1}`, ``,
		`{"client": 2, "call": 3, "return": 4, "method": "read", "output": 1}`}
	for _, end := range []string{"", "\n"} {
		src := strings.Join(lines, "\n") + end
		path := filepath.Join(t.TempDir(), "h.jsonl")
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
		fromFile, err := ReadFile(path, ReadOptions{})
		require.NoError(t, err)
		fromStream, err := Read(strings.NewReader(src), path, ReadOptions{})
		require.NoError(t, err)
		assert.Equal(t, fromStream.Ops, fromFile.Ops)
		assert.Equal(t, len(lines), cap(fromFile.Ops), "one slot a line, allocated once")
		n, err := countLines(strings.NewReader(src))
		require.NoError(t, err)
		assert.Equal(t, len(lines), n)
	}
	n, err := countLines(strings.NewReader(""))
	require.NoError(t, err)
	assert.Zero(t, n)
}

func TestReadEDN(t *testing.T) {
	lines := `; a Jepsen history, one map per line
{:process 0, :type :invoke, :f :write, :value 3}
{:process 1, :type :invoke, :f :read, :value nil}
{:process :nemesis, :type :info, :f :start, :value nil}
{:process 0, :type :ok, :f :write, :value 3}
{:process 1, :type :ok, :f :read, :value 3}
{:process 2, :type :invoke, :f :cas, :value [3 4]}
{:process 3, :type :invoke, :f :write, :value 5}
{:process 2, :type :fail, :f :cas, :value [3 4]}
{:process 3, :type :info, :f :write, :value 5}
{:process 4, :type :invoke, :f :write, :value 6}
{:process 4, :type :fail, :f :write, :value 6}
{:process 5, :type :invoke, :f :append, :key "k" :value "x \"y\"\n"}
`
	vector := "[" + strings.ReplaceAll(lines, "}\n{", "}\n #_ignored {") + "]"
	for name, src := range map[string]string{"lines": lines, "vector": vector} {
		t.Run(name, func(t *testing.T) {
			h, err := ReadEDN(strings.NewReader(src), "h.edn", ReadOptions{})
			require.NoError(t, err)
			require.Len(t, h.Ops, 4, "the failed write and cas are dropped, the nemesis skipped")
			w, r, info, app := h.Ops[0], h.Ops[1], h.Ops[2], h.Ops[3]
			assert.Equal(t, []string{"3"}, w.Args)
			assert.Equal(t, "3", r.Result)
			assert.Less(t, r.Call, w.Return)
			assert.True(t, info.IsPending() && info.Unknown, ":info stays pending")
			assert.True(t, app.IsPending(), "an invocation never completed stays pending")
			assert.Equal(t, `"k"`, app.Key)
			assert.Equal(t, []string{`"x \"y\"\n"`}, app.Args)
			require.NoError(t, h.Validate())

			h, err = ReadEDN(strings.NewReader(src), "h.edn", ReadOptions{CASFail: record.CASFailFalse})
			require.NoError(t, err)
			require.Len(t, h.Ops, 5, "Porcupine's convention keeps the failed cas")
			cas := h.Ops[2]
			assert.Equal(t, []string{"3", "4"}, cas.Args)
			assert.Equal(t, "false", cas.Result, "a failed cas is a cas that returned false")
			assert.Equal(t, []string{"h.edn: 1 :fail cas completions read as a cas that returned false (Porcupine's convention, --cas-fail false; by default they did not take effect, as in Jepsen)"}, h.Notes)
		})
	}
}

func TestReadJepsenLog(t *testing.T) {
	src := `INFO  jepsen.core - starting
INFO  jepsen.util - 0	:invoke	:read	nil
INFO  jepsen.util - 1   :invoke :cas    [1 2]
INFO  jepsen.util - 0	:fail	:read	:timed-out
INFO  jepsen.util - 1   :ok     :cas    [1 2]
INFO  jepsen.util - 2	:invoke	:write	4
INFO  jepsen.util - 2	:info	:write	:timed-out
`
	h, err := ReadJepsenLog(strings.NewReader(src), "e.log", ReadOptions{})
	require.NoError(t, err)
	require.Len(t, h.Ops, 2, "a timed-out read is dropped: it constrains nothing")
	assert.Equal(t, record.Op{Client: 1, Call: 1, Return: 3, Method: "cas", Args: []string{"1", "2"}, Result: "true", Pos: record.Pos{Line: 3, Col: 21}}, h.Ops[0])
	assert.True(t, h.Ops[1].IsPending())
}

func TestReadErrors(t *testing.T) {
	cases := []struct {
		format, src, want string
	}{
		{"jsonl", `{"client": 1, "call": 1, "method": "read"` + "\n", `f:1:1: expected a JSON object: unexpected EOF`},
		{"jsonl", `{"client": 1, "call": 1, "method": "read"} x`, `f:1:1: expected one JSON object per line, found more after it`},
		{"jsonl", `[1]`, `f:1:1: expected a JSON object per line, found array`},
		{"jsonl", "\n" + `{"call": 1, "method": "read"}`, `f:2:1: missing field "client": expected the client (thread) of the operation`},
		{"jsonl", `{"client": 1, "call": "x", "method": "read"}`, `f:1:15: field "call": expected an integer timestamp`},
		{"jsonl", `{"client": 1, "call": 5, "return": 4, "method": "read"}`, `f:1:26: field "return": 4 is before the call at 5`},
		{"jsonl", `{"client": 1, "call": 5, "return": 9223372036854775807, "method": "r"}`, `f:1:26: field "return": 9223372036854775807 is reserved for pending operations: omit the field instead`},
		{"jsonl", `{"client": 1, "call": 5, "method": ""}`, `f:1:26: field "method": expected a non-empty string`},
		{"jsonl", `{"client": 1, "call": 5}`, `f:1:1: field "method": expected a non-empty string`},
		{"jsonl", `{"client": 1, "call": 01, "method": "r"}`, `f:1:24: expected a JSON object: invalid character '1' after object key:value pair`},
		{"jsonl", `{"client": 1, "call": 5, "method": "r", "key": null}`, `f:1:41: field "key": expected a string or a number`},
		{"jsonl", `{"client": 1, "call": 5, "method": "r", "colour": 1}`, `f:1:41: unknown field "colour": expected client, call, return, method, key, input, output or unknown`},
		{"jsonl", `{"client": 1, "call": 5, "method": "r", "key": [1]}`, `f:1:41: field "key": expected a string or a number`},
		{"jsonl", `{"client": 1.5, "call": 5, "method": "r"}`, `f:1:2: field "client": expected an integer or a string, found 1.5`},
		{"jsonl", `{"client": null, "call": 5, "method": "r"}`, `f:1:2: field "client": expected an integer or a string, found null`},
		{"edn", `{:process 1.5 :type :invoke :f :read}`, `f:1:11: :process: expected an integer (a client) or a name such as :nemesis`},
		{"edn", `{:process nil :type :invoke :f :read}`, `f:1:11: :process: expected an integer (a client) or a name such as :nemesis`},
		{"edn", `{:process 0 :type :invoke :f :read`, `f:1:1: unclosed collection: expected '}' before the end of input`},
		{"edn", "{:process 0 :type :invoke :f :read}\n{:process 0 :type :invoke :f :read}", `f:2:1: process 0 invokes read before its read of line 1 completed`},
		{"edn", `{:process 0 :type :ok :f :read}`, `f:1:1: ok of read by process 0 without an invocation`},
		{"edn", `{:process 0 :type :begin :f :read}`, `f:1:19: :type: expected :invoke, :ok, :fail or :info`},
		{"edn", `{:process 0 :f :read}`, `f:1:1: operation map without :type`},
		{"edn", `{:process 0 :type}`, `f:1:1: map with an odd number of forms: expected key-value pairs`},
		{"edn", `[1 2]`, `f:1:2: expected an operation map {:process … :type … :f …}`},
		{"edn", `{:a "x\q"}`, `f:1:7: unknown escape \q in string`},
		{"edn", `{:a "abc`, `f:1:5: unterminated string: expected '"'`},
		{"edn", `{:a 12x}`, `f:1:5: malformed number "12x"`},
		{"edn", "{:a \"ab\xffc\"}", `f:1:8: byte 0xff is not UTF-8: expected text in UTF-8`},
		{"edn", "{:a\n \"\xc3\"}", `f:2:3: byte 0xc3 is not UTF-8: expected text in UTF-8`},
		{"edn", "{:a :b\xffc}", `f:1:7: byte 0xff is not UTF-8: expected text in UTF-8`},
		{"jsonl", "{\"client\": 1, \"call\": 1, \"method\": \"w\xfe\"}", `f:1:26: field "method": a string that is not UTF-8: expected text in UTF-8`},
		{"edn", `{:a "\ud800"}`, `f:1:6: lone UTF-16 surrogate \ud800: expected a pair \ud800-\udbff \udc00-\udfff`},
		{"jsonl", "{\"client\": 1, \"call\": 1, \"method\": \"w\", \"input\": \"\xfe\"}", `f:1:41: field "input": a string that is not UTF-8: expected text in UTF-8`},
		{"jsonl", "{\"client\": 1, \"call\": 1, \"return\": 2, \"method\": \"r\", \"output\": [{\"\xfe\": 1}]}", `f:1:54: field "output": a string that is not UTF-8: expected text in UTF-8`},
		{"jepsen-log", "INFO  jepsen.util - 1\t:invoke\t:write\t\"\x80\"", `f:1:39: byte 0x80 is not UTF-8: expected text in UTF-8`},
		{"edn", `{:a ]}`, `f:1:5: unexpected ']': expected a value`},
		{"edn", "{:process 0 :type :invoke :f :read}\n{:process 0 :type :ok :f :write}", `f:2:1: completion of write "" by process 0 does not match its invocation read "" on line 1`},
		{"jepsen-log", "INFO  jepsen.util - 1.5\t:invoke\t:read\tnil", `f:1:21: expected a process number or a name such as :nemesis`},
		{"jepsen-log", "\nINFO  jepsen.util - 1\t:start\t:read\tnil", `f:2:23: expected an operation type (:invoke, :ok, :fail or :info)`},
		{"jepsen-log", "INFO  jepsen.util - 1\t:invoke\t:read\tnil 5", `f:1:41: unexpected text after the value`},
		{"jepsen-log", "INFO  jepsen.util - 1\t:invoke", `f:1:30: expected an operation name such as :read`},
		{"jepsen-log", "INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2", `f:1:36: unclosed collection: expected ']' before the end of input`},
	}
	for _, c := range cases {
		t.Run(c.format+"/"+c.want, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.src), "f", ReadOptions{Format: c.format})
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}

func TestReadAutoFormat(t *testing.T) {
	cases := map[string]string{
		`{"client": 1, "call": 1, "return": 2, "method": "read"}`:    "read",
		`{:process 0, :type :invoke, :f :get, :key "1", :value nil}`: "get",
		"INFO  jepsen.util - 0\t:invoke\t:write\t1":                  "write",
	}
	for src, method := range cases {
		h, err := Read(strings.NewReader(src), "noext", ReadOptions{Format: "auto"})
		require.NoError(t, err, src)
		require.Len(t, h.Ops, 1)
		assert.Equal(t, method, h.Ops[0].Method)
	}
	_, err := Read(strings.NewReader(""), "x", ReadOptions{Format: "xml"})
	assert.EqualError(t, err, `unknown history format "xml": expected one of auto, jsonl, edn, jepsen-log`)
}

// FuzzRead feeds arbitrary bytes to every reader: they must return a
// history or an error, never panic or hang, and what they return must
// satisfy the history invariants; the EDN reader, streaming through small
// windows, must read what it reads from the whole text.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"client": 1, "call": 1, "return": 2, "method": "read", "output": [1, {"a": null}]}`))
	f.Add([]byte("[{:process 0, :type :invoke, :f :cas, :value [1 2]} {:process 0 :type :ok :f :cas}] ; c"))
	f.Add([]byte("INFO  jepsen.util - 0\t:invoke\t:read\tnil\nINFO  jepsen.util - 0\t:ok\t:read\t#{1 \\a}"))
	f.Add([]byte(`#_ #inst "x" {:process 1 :type :info :f "w" :value (1 2.5 -3N)}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []string{"jsonl", "edn", "jepsen-log"} {
			h, err := Read(strings.NewReader(string(data)), "fuzz", ReadOptions{Format: format})
			if err != nil {
				continue
			}
			if err := h.Validate(); err != nil {
				t.Fatalf("%s reader returned an invalid history: %v", format, err)
			}
		}
		// The EDN reader streams: through 3-byte windows it reads what it
		// reads from the whole text.
		sameReading(t, string(data), 3)
	})
}

// TestReadWarnings checks that doubtful input is named, with its
// position, rather than silently read.
func TestReadWarnings(t *testing.T) {
	cases := []struct {
		format, src string
		warnings    []string
	}{
		{"jsonl", `{"client": 1, "call": 0, "return": 5, "method": "read", "output": 1}
{"client": 1, "call": 3, "return": 6, "method": "write", "input": 1}
{"client": 2, "call": 0, "method": "write", "input": 2}
{"client": 2, "call": 9, "return": 10, "method": "read", "output": 2}`, []string{
			"f:2:1: client 1 calls write at 3, but its read of line 1 returns at 5: a client's operations should not overlap (they are checked as concurrent)",
			"f:4:1: client 2 calls read at 9, but its write of line 3 never returns: a client's operations should not overlap (they are checked as concurrent)",
		}},
		{"edn", `{:process :nemesis :type :info :f :start}
{:process 0 :type :invoke :f :read}
{:process :nemesis :type :info :f :stop}
{:process 0 :type :ok :f :read :value 1}`, []string{
			"f:1:1: skipped 2 events of process :nemesis, which is not a client (the first is here)",
		}},
	}
	for _, c := range cases {
		h, err := Read(strings.NewReader(c.src), "f", ReadOptions{Format: c.format})
		require.NoError(t, err)
		assert.Equal(t, c.warnings, h.Warnings)
	}
}

// TestReadDeadline checks that a time limit stops every reader, so that
// --timeout covers reading.
func TestReadDeadline(t *testing.T) {
	var jsonl, edn, log strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&jsonl, `{"client": %d, "call": %d, "return": %d, "method": "read", "output": 1}`+"\n", i, 2*i, 2*i+1)
		fmt.Fprintf(&edn, "{:process %d :type :invoke :f :read}\n", i)
		fmt.Fprintf(&log, "INFO  jepsen.util - %d\t:invoke\t:read\tnil\n", i)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	for format, src := range map[string]string{"jsonl": jsonl.String(), "edn": edn.String(), "jepsen-log": log.String()} {
		_, err := Read(strings.NewReader(src), "f", ReadOptions{Format: format, Context: ctx})
		assert.ErrorIs(t, err, ErrDeadline, format)
		assert.ErrorIs(t, err, context.DeadlineExceeded, format)
	}
}
