package history

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidateAgainstSpec(t *testing.T) {
	cases := []struct{ model, src, want string }{
		{"register", `{"client": 1, "call": 1, "return": 2, "method": "cas", "input": [1, 2], "output": true}`,
			`f:1:1: model register has no method "cas": expected one of get, put, read, write`},
		{"cas-register", `{"client": 1, "call": 1, "return": 2, "method": "cas", "input": [1, 2], "output": 3}`,
			`f:1:1: cas result 3: expected true or false`},
		{"queue", `{"client": 1, "call": 1, "return": 2, "method": "enq"}`,
			`f:1:1: enq of model queue takes 1 argument(s), found 0`},
		{"counter", `{"client": 1, "call": 1, "return": 2, "method": "add", "input": "x"}`,
			`f:1:1: add argument "x": expected an integer`},
	}
	for _, c := range cases {
		t.Run(c.model, func(t *testing.T) {
			h, err := format.Read(strings.NewReader(c.src), "f", format.ReadOptions{Format: "jsonl"})
			require.NoError(t, err)
			spec, err := model.Builtin(c.model)
			require.NoError(t, err)
			_, err = Check(h, spec, Options{})
			assert.EqualError(t, err, c.want)
		})
	}
	_, err := model.Builtin("tree")
	assert.EqualError(t, err, `unknown model "tree": expected one of register, cas-register, queue, stack, set, counter, kv, mutex, multi-register, unordered-queue`)
}

// FuzzCheck reads arbitrary JSON Lines and checks them against every
// built-in model: an error or a verdict, never a panic; the general search
// and the automatic choice (bad patterns where they apply) agree.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"client": 1, "call": 0, "return": 3, "method": "enq", "input": 1}
{"client": 2, "call": 1, "return": 2, "method": "deq", "output": 1}
{"client": 3, "call": 4, "method": "push", "input": "a"}
{"client": 4, "call": 5, "return": 6, "method": "pop", "output": null, "key": 2}`))
	f.Add([]byte(`{"client": 1, "call": 0, "return": 3, "method": "cas", "input": [null, 1], "output": true}
{"client": 2, "call": 1, "return": 2, "method": "read", "output": 1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := format.ReadJSONL(strings.NewReader(string(data)), "fuzz", format.ReadOptions{})
		if err != nil || len(h.Ops) > 12 {
			return
		}
		for _, name := range model.Names {
			spec, _ := model.Builtin(name)
			auto, err := Check(h, spec, within(t, time.Second))
			if auto == nil {
				continue
			}
			opts := within(t, time.Second)
			opts.Algorithm = General
			gen, err := Check(h, spec, opts)
			if gen == nil {
				t.Fatalf("%s: the general search rejects what Auto accepted: %v", name, err)
			}
			if auto.Verdict != Unknown && gen.Verdict != Unknown && auto.Verdict != gen.Verdict {
				t.Fatalf("%s: auto says %v (%v), general says %v", name, auto.Verdict, auto.Algorithms, gen.Verdict)
			}
		}
	})
}

// TestEmptyAndNemesisOnlyHistories checks that a history without
// operations (an empty file, or only events of the nemesis) is read
// without error, with a warning, and is linearizable, in every format;
// and that a text log skips nemesis lines as EDN skips nemesis events.
func TestEmptyAndNemesisOnlyHistories(t *testing.T) {
	cases := []struct{ name, format, src, warning string }{
		{"empty JSON Lines", "jsonl", "\n# nothing\n", "f: no operations (an empty history is linearizable)"},
		{"empty EDN", "edn", "; nothing\n", "f: no operations (an empty history is linearizable)"},
		{"empty EDN vector", "edn", "[]", "f: no operations (an empty history is linearizable)"},
		{"empty log", "jepsen-log", "INFO  jepsen.core - nothing\n", "f: no operations (an empty history is linearizable)"},
		{"EDN of the nemesis", "edn", "{:process :nemesis :type :info :f :start :value nil}\n{:process :nemesis :type :info :f :stop}",
			"f:1:1: skipped 2 events of process :nemesis, which is not a client (the first is here)"},
		{"log of the nemesis", "jepsen-log", "INFO  jepsen.util - :nemesis :info :start nil\nINFO  jepsen.util - :nemesis\t:info\t:start\t[:isolated {}]",
			"f:1:21: skipped 2 events of process :nemesis, which is not a client (the first is here)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := format.Read(strings.NewReader(c.src), "f", format.ReadOptions{Format: c.format})
			require.NoError(t, err)
			assert.Empty(t, h.Ops)
			assert.Contains(t, h.Warnings, c.warning)
			name, err := model.GuessModel(h)
			require.NoError(t, err)
			spec, err := model.Builtin(name)
			require.NoError(t, err)
			res, err := Check(h, spec, Options{})
			require.NoError(t, err)
			assert.Equal(t, Linearizable, res.Verdict)
		})
	}
	// Between a client's events, a nemesis line is skipped.
	src := "INFO  jepsen.util - 0\t:invoke\t:write\t1\nINFO  jepsen.util - :nemesis :info :start nil\nINFO  jepsen.util - 0\t:ok\t:write\t1\n"
	h, err := format.Read(strings.NewReader(src), "n.log", format.ReadOptions{})
	require.NoError(t, err)
	require.Len(t, h.Ops, 1)
	assert.Equal(t, []string{"n.log:2:21: skipped 1 events of process :nemesis, which is not a client (the first is here)"}, h.Warnings)
}

// TestNilRead checks both readings of a read that returned nil, their
// defaults per format (Knossos's for Jepsen's formats, Porcupine's for
// JSON Lines) and the note that says which was applied.
func TestNilRead(t *testing.T) {
	// A write of 1, then a read of nil: not linearizable when nil means
	// "no value", linearizable when it means "not known".
	edn := "{:process 0 :type :invoke :f :write :value 1}\n{:process 0 :type :ok :f :write :value 1}\n" +
		"{:process 1 :type :invoke :f :read :value nil}\n{:process 1 :type :ok :f :read :value nil}\n"
	log := "INFO  jepsen.util - 0\t:invoke\t:write\t1\nINFO  jepsen.util - 0\t:ok\t:write\t1\n" +
		"INFO  jepsen.util - 1\t:invoke\t:read\tnil\nINFO  jepsen.util - 1\t:ok\t:read\tnil\n"
	jsonl := `{"client": 0, "call": 0, "return": 1, "method": "write", "input": 1}` + "\n" +
		`{"client": 1, "call": 2, "return": 3, "method": "read", "output": null}` + "\n"
	unknown := "f: 1 reads returned nil, taken as Knossos takes them: value not known, matching any state (--nil-read unknown; --nil-read absent: no value, as Porcupine)"
	absent := "f: 1 reads returned nil, taken as Porcupine takes them: no value (--nil-read absent; --nil-read unknown: value not known, as Knossos)"
	cases := []struct {
		format, src string
		mode        record.NilRead
		want        Verdict
		note        string
	}{
		{"edn", edn, record.NilReadAuto, Linearizable, unknown},
		{"edn", edn, record.NilReadAbsent, NotLinearizable, absent},
		{"jepsen-log", log, record.NilReadAuto, Linearizable, unknown},
		{"jepsen-log", log, record.NilReadAbsent, NotLinearizable, absent},
		{"jsonl", jsonl, record.NilReadAuto, NotLinearizable, absent},
		{"jsonl", jsonl, record.NilReadUnknown, Linearizable, unknown},
	}
	for _, c := range cases {
		t.Run(c.format+"/"+c.mode.String(), func(t *testing.T) {
			h, err := format.Read(strings.NewReader(c.src), "f", format.ReadOptions{Format: c.format, NilRead: c.mode})
			require.NoError(t, err)
			assert.Equal(t, []string{c.note}, h.Notes)
			applied := record.NilReadAbsent
			if c.note == unknown {
				applied = record.NilReadUnknown
			}
			assert.Equal(t, applied, h.NilRead, "the reading applied, as the report names it")
			spec, _ := model.Builtin("register")
			res, err := Check(h, spec, Options{})
			require.NoError(t, err)
			assert.Equal(t, c.want, res.Verdict)
		})
	}
	_, err := record.ParseNilRead("maybe")
	assert.EqualError(t, err, `--nil-read "maybe": expected one of auto, unknown, absent`)
}

// TestFailedCASOneReadingForEveryFormat checks that a :fail cas did not
// take effect, Jepsen's meaning, in EDN and in text logs alike, and that
// --cas-fail false reads it as a cas that returned false in both.
func TestFailedCASOneReadingForEveryFormat(t *testing.T) {
	// The register holds 3; a cas [3 4] fails without an error. Jepsen:
	// it did not happen (linearizable). Porcupine: it returned false,
	// impossible while the register held 3.
	edn := "{:process 0 :type :invoke :f :write :value 3}\n{:process 0 :type :ok :f :write :value 3}\n" +
		"{:process 1 :type :invoke :f :cas :value [3 4]}\n{:process 1 :type :fail :f :cas :value [3 4]}\n"
	log := "INFO  jepsen.util - 0\t:invoke\t:write\t3\nINFO  jepsen.util - 0\t:ok\t:write\t3\n" +
		"INFO  jepsen.util - 1\t:invoke\t:cas\t[3 4]\nINFO  jepsen.util - 1\t:fail\t:cas\t[3 4]\n"
	for _, c := range []struct{ format, src string }{{"edn", edn}, {"jepsen-log", log}} {
		for _, mode := range []record.CASFail{record.CASFailDrop, record.CASFailFalse} {
			h, err := format.Read(strings.NewReader(c.src), "f", format.ReadOptions{Format: c.format, CASFail: mode})
			require.NoError(t, err)
			spec, _ := model.Builtin("cas-register")
			res, err := Check(h, spec, Options{})
			require.NoError(t, err)
			want := Linearizable
			if mode == record.CASFailFalse {
				want = NotLinearizable
			}
			assert.Equal(t, want, res.Verdict, "%s, --cas-fail %s", c.format, mode)
		}
	}
}

// TestValuesComparedAsJepsenDoes checks the verdicts of histories whose
// values look alike but are not equal in Clojure (a write of the string
// "1" and a read of the number 1), and of histories whose values are
// written differently but are equal (maps and sets in any order, vectors
// and lists, 1.0 and 1.00, JSON 100 and 1e2).
func TestValuesComparedAsJepsenDoes(t *testing.T) {
	edn := func(w, r string) string {
		return fmt.Sprintf("{:process 0 :type :invoke :f :write :value %s}\n{:process 0 :type :ok :f :write :value %s}\n"+
			"{:process 1 :type :invoke :f :read :value nil}\n{:process 1 :type :ok :f :read :value %s}\n", w, w, r)
	}
	jsonl := func(w, r string) string {
		return fmt.Sprintf(`{"client": 0, "call": 0, "return": 1, "method": "write", "input": %s}`+"\n"+
			`{"client": 1, "call": 2, "return": 3, "method": "read", "output": %s}`+"\n", w, r)
	}
	cases := []struct {
		name, file, src string
		want            Verdict
	}{
		{`"1" then 1`, "h.edn", edn(`"1"`, `1`), NotLinearizable},
		{`"true" then true`, "h.edn", edn(`"true"`, `true`), NotLinearizable},
		{`foo then "foo"`, "h.edn", edn(`foo`, `"foo"`), NotLinearizable},
		{`:a then "a"`, "h.edn", edn(`:a`, `"a"`), NotLinearizable},
		{`"[1 2]" then [1 2]`, "h.edn", edn(`"[1 2]"`, `[1 2]`), NotLinearizable},
		{`1 then 1.0`, "h.edn", edn(`1`, `1.0`), NotLinearizable},
		{`\a then "a"`, "h.edn", edn(`\a`, `"a"`), NotLinearizable},
		{`#uuid "a" then "a"`, "h.edn", edn(`#uuid "a"`, `"a"`), NotLinearizable},
		{`JSON "1" then 1`, "h.jsonl", jsonl(`"1"`, `1`), NotLinearizable},
		{`maps in any order`, "h.edn", edn(`{:a 1 :b 2}`, `{:b 2, :a 1}`), Linearizable},
		{`sets in any order`, "h.edn", edn(`#{1 2}`, `#{2 1}`), Linearizable},
		{`vector and list`, "h.edn", edn(`[1 2]`, `(1 2)`), Linearizable},
		{`1.0 and 1.00`, "h.edn", edn(`1.0`, `1.00`), Linearizable},
		{`1 and 1N`, "h.edn", edn(`1`, `1N`), Linearizable},
		{`JSON 100 and 1e2`, "h.jsonl", jsonl(`100`, `1e2`), Linearizable},
		{`JSON objects in any order`, "h.jsonl", jsonl(`{"a": 1, "b": [2]}`, `{"b": [2.0], "a": 1}`), Linearizable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := format.Read(strings.NewReader(c.src), c.file, format.ReadOptions{})
			require.NoError(t, err)
			spec, _ := model.Builtin("register")
			res, err := Check(h, spec, Options{})
			require.NoError(t, err)
			assert.Equal(t, c.want, res.Verdict)
		})
	}
	// A cas compares its expected value as the register compares reads.
	src := "{:process 0 :type :invoke :f :write :value 1}\n{:process 0 :type :ok :f :write :value 1}\n" +
		"{:process 1 :type :invoke :f :cas :value [\"1\" 2]}\n{:process 1 :type :ok :f :cas :value [\"1\" 2]}\n"
	h, err := format.Read(strings.NewReader(src), "cas.edn", format.ReadOptions{})
	require.NoError(t, err)
	spec, _ := model.Builtin("cas-register")
	res, err := Check(h, spec, Options{})
	require.NoError(t, err)
	assert.Equal(t, NotLinearizable, res.Verdict, `cas ["1" 2] on the number 1`)
}

// TestJepsenSemantics checks the verdicts that follow from Jepsen's
// meaning of :fail, :info, reads and initial values, each under the
// reading that gives it (Knossos's checkers agree with every "want" of the
// default reading).
func TestJepsenSemantics(t *testing.T) {
	cases := []struct {
		name    string
		model   string
		initial string // "" keeps the model's own
		casFail record.CASFail
		src     string
		want    Verdict
	}{
		{"a cas failed by a timeout did not take effect", "cas-register", "", record.CASFailDrop, `[
{:process 0 :type :invoke :f :write :value 3}
{:process 0 :type :ok :f :write :value 3}
{:process 1 :type :invoke :f :cas :value [3 4]}
{:process 1 :type :fail :f :cas :value [3 4] :error :timeout}]`, Linearizable},
		{"the same under Porcupine's convention still drops a :fail with an error", "cas-register", "", record.CASFailFalse, `[
{:process 0 :type :invoke :f :write :value 3}
{:process 0 :type :ok :f :write :value 3}
{:process 1 :type :invoke :f :cas :value [3 4]}
{:process 1 :type :fail :f :cas :value [3 4] :error :timeout}]`, Linearizable},
		{"Porcupine's convention: a failed cas returned false", "cas-register", "", record.CASFailFalse, `[
{:process 0 :type :invoke :f :write :value 3}
{:process 0 :type :ok :f :write :value 3}
{:process 1 :type :invoke :f :cas :value [3 4]}
{:process 1 :type :fail :f :cas :value [3 4]}]`, NotLinearizable},
		{"Jepsen's reading drops the same failed cas", "cas-register", "", record.CASFailDrop, `[
{:process 0 :type :invoke :f :write :value 3}
{:process 0 :type :ok :f :write :value 3}
{:process 1 :type :invoke :f :cas :value [3 4]}
{:process 1 :type :fail :f :cas :value [3 4]}]`, Linearizable},
		{"failed reads and writes did not take effect", "register", "", record.CASFailDrop, `
{:process 0 :type :invoke :f :write :value 1}
{:process 0 :type :fail :f :write :value 1 :error :timeout}
{:process 1 :type :invoke :f :read :value nil}
{:process 1 :type :fail :f :read :value 7 :error :timeout}
{:process 1 :type :invoke :f :read :value nil}
{:process 1 :type :ok :f :read :value 1}`, NotLinearizable},
		{"an :info write may take effect later", "register", "", record.CASFailDrop, `
{:process 0 :type :invoke :f :write :value 1}
{:process 0 :type :info :f :write :value 1 :error :timeout}
{:process 1 :type :invoke :f :read :value nil}
{:process 1 :type :ok :f :read :value nil}
{:process 1 :type :invoke :f :read :value nil}
{:process 1 :type :ok :f :read :value 1}`, Linearizable},
		{"an :info write may never take effect", "register", "0", record.CASFailDrop, `
{:process 0 :type :invoke :f :write :value 1}
{:process 0 :type :info :f :write :value 1}
{:process 1 :type :invoke :f :read}
{:process 1 :type :ok :f :read :value 0}`, Linearizable},
		{"a read's invocation value is ignored", "register", "", record.CASFailDrop, `
{:process 0 :type :invoke :f :write :value 2}
{:process 0 :type :ok :f :write :value 2}
{:process 1 :type :invoke :f :read :value 5}
{:process 1 :type :ok :f :read :value 2}`, Linearizable},
		{"a read's invocation value is not its result", "register", "", record.CASFailDrop, `
{:process 0 :type :invoke :f :write :value 2}
{:process 0 :type :ok :f :write :value 2}
{:process 1 :type :invoke :f :read :value 5}
{:process 1 :type :ok :f :read :value 5}`, NotLinearizable},
		{"an :ok read of nil matches any value (Knossos)", "register", "", record.CASFailDrop, `
{:process 0 :type :invoke :f :write :value 2}
{:process 0 :type :ok :f :write :value 2}
{:process 1 :type :invoke :f :read}
{:process 1 :type :ok :f :read :value nil}`, Linearizable},
		{"--initial 0: a read of 0 before any write", "cas-register", "0", record.CASFailDrop, `
{:process 1 :type :invoke :f :read}
{:process 1 :type :ok :f :read :value 0}
{:process 1 :type :invoke :f :cas :value [0 1]}
{:process 1 :type :ok :f :cas :value [0 1]}`, Linearizable},
		{"without --initial the register starts at nil", "cas-register", "", record.CASFailDrop, `
{:process 1 :type :invoke :f :read}
{:process 1 :type :ok :f :read :value 0}`, NotLinearizable},
		{"--initial 0: a cas from nil cannot succeed", "cas-register", "0", record.CASFailDrop, `
{:process 1 :type :invoke :f :cas :value [nil 1]}
{:process 1 :type :ok :f :cas :value [nil 1]}`, NotLinearizable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := format.Read(strings.NewReader(c.src), "h.edn", format.ReadOptions{CASFail: c.casFail})
			require.NoError(t, err)
			res, err := Check(h, builtinWithInitial(t, c.model, c.initial), Options{})
			require.NoError(t, err)
			assert.Equal(t, c.want, res.Verdict)
		})
	}
}

func TestWithInitial(t *testing.T) {
	for _, c := range []struct{ model, value, init string }{
		{"register", "0", "0"}, {"cas-register", "nil", record.Nil}, {"kv", `"x"`, `"x"`}, {"kv", "nil", `""`}, {"counter", "-3", "-3"},
	} {
		spec, err := model.Builtin(c.model)
		require.NoError(t, err)
		v, err := format.ParseValue(c.value, "edn")
		require.NoError(t, err)
		spec, err = model.WithInitial(spec, v)
		require.NoError(t, err, c.model)
		assert.Equal(t, c.init, spec.Init(), c.model)
	}
	counter, _ := model.Builtin("counter")
	_, err := model.WithInitial(counter, "x")
	assert.EqualError(t, err, `initial value "x" of model counter: expected an integer`)
	queue, _ := model.Builtin("queue")
	_, err = model.WithInitial(queue, "1")
	assert.EqualError(t, err, "model queue has no settable initial value (register, cas-register, counter, kv, multi-register have)")
}
