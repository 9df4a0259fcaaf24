package history

import (
	"strings"
	"testing"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJepsenModels checks the models of Jepsen's workloads on histories in
// Jepsen's own shapes, each chosen by --model auto from its methods.
func TestJepsenModels(t *testing.T) {
	cases := []struct {
		name, model, src string
		want             Verdict
		initial          string // --initial, if any
	}{
		{"mutex held twice", "mutex", `
{:process 0 :type :invoke :f :acquire}
{:process 0 :type :ok :f :acquire}
{:process 1 :type :invoke :f :acquire}
{:process 1 :type :ok :f :acquire}`, NotLinearizable, ""},
		{"mutex handed over", "mutex", `
{:process 0 :type :invoke :f :acquire}
{:process 0 :type :ok :f :acquire}
{:process 1 :type :invoke :f :acquire}
{:process 0 :type :invoke :f :release}
{:process 0 :type :ok :f :release}
{:process 1 :type :ok :f :acquire}`, Linearizable, ""},
		{"txn reads its own write", "multi-register", `
{:process 0 :type :invoke :f :txn :value [[:w :x 1] [:r :x nil]]}
{:process 0 :type :ok :f :txn :value [[:w :x 1] [:r :x 1]]}
{:process 1 :type :invoke :f :txn :value [[:r :x nil] [:r :y nil]]}
{:process 1 :type :ok :f :txn :value [[:r :x 1] [:r :y nil]]}`, Linearizable, ""},
		{"txns are atomic", "multi-register", `
{:process 0 :type :invoke :f :txn :value [[:w :x 1] [:w :y 1]]}
{:process 1 :type :invoke :f :txn :value [[:r :x nil] [:r :y nil]]}
{:process 1 :type :ok :f :txn :value [[:r :x 1] [:r :y 0]]}
{:process 0 :type :ok :f :txn :value [[:w :x 1] [:w :y 1]]}`, NotLinearizable, ""},
		{"an :info txn may have taken effect", "multi-register", `
{:process 0 :type :invoke :f :txn :value [[:w :x 1]]}
{:process 0 :type :info :f :txn :value [[:w :x 1]]}
{:process 1 :type :invoke :f :txn :value [[:r :x nil]]}
{:process 1 :type :ok :f :txn :value [[:r :x 1]]}`, Linearizable, ""},
		{"Knossos's spelling: :read and :write", "multi-register", knossosTxns, NotLinearizable, ""},
		{"Knossos's spelling, registers from 0", "multi-register", knossosTxns, Linearizable, "{:x 0 :y 0}"},
		{"registers from 0, a read of 1 before any write", "multi-register", `
{:process 0 :type :invoke :f :txn :value [[:read :x nil]]}
{:process 0 :type :ok :f :txn :value [[:read :x 1]]}`, NotLinearizable, "{:x 0, :y 0}"},
		{"set: a final read sees every add", "set", `
{:process 0 :type :invoke :f :add :value 1}
{:process 0 :type :ok :f :add :value 1}
{:process 1 :type :invoke :f :add :value 2}
{:process 1 :type :info :f :add :value 2}
{:process 0 :type :invoke :f :read :value nil}
{:process 0 :type :ok :f :read :value #{1 2}}`, Linearizable, ""},
		{"set: a read lost an add", "set", `
{:process 0 :type :invoke :f :add :value 1}
{:process 0 :type :ok :f :add :value 1}
{:process 0 :type :invoke :f :read :value nil}
{:process 0 :type :ok :f :read :value #{}}`, NotLinearizable, ""},
		{"unordered queue: any order", "unordered-queue", `
{:process 0 :type :invoke :f :enqueue :value 1}
{:process 0 :type :ok :f :enqueue :value 1}
{:process 0 :type :invoke :f :enqueue :value 2}
{:process 0 :type :ok :f :enqueue :value 2}
{:process 1 :type :invoke :f :dequeue}
{:process 1 :type :ok :f :dequeue :value 2}
{:process 1 :type :invoke :f :dequeue}
{:process 1 :type :ok :f :dequeue :value 1}`, Linearizable, ""},
		{"unordered queue: a value dequeued twice", "unordered-queue", `
{:process 0 :type :invoke :f :enqueue :value 1}
{:process 0 :type :ok :f :enqueue :value 1}
{:process 1 :type :invoke :f :dequeue}
{:process 1 :type :ok :f :dequeue :value 1}
{:process 1 :type :invoke :f :dequeue}
{:process 1 :type :ok :f :dequeue :value 1}`, NotLinearizable, ""},
		{"unordered queue: an :info dequeue took some value", "unordered-queue", `
{:process 0 :type :invoke :f :enqueue :value 1}
{:process 0 :type :ok :f :enqueue :value 1}
{:process 0 :type :invoke :f :enqueue :value 2}
{:process 0 :type :ok :f :enqueue :value 2}
{:process 1 :type :invoke :f :dequeue}
{:process 1 :type :info :f :dequeue}
{:process 2 :type :invoke :f :dequeue}
{:process 2 :type :ok :f :dequeue :value 1}
{:process 2 :type :invoke :f :dequeue}
{:process 2 :type :ok :f :dequeue :value nil}`, Linearizable, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := format.Read(strings.NewReader(c.src), "h.edn", format.ReadOptions{})
			require.NoError(t, err)
			guess, err := model.GuessModel(h)
			require.NoError(t, err)
			assert.Equal(t, c.model, guess)
			res, err := Check(h, builtinWithInitial(t, c.model, c.initial), Options{})
			require.NoError(t, err)
			assert.Equal(t, c.want, res.Verdict)
		})
	}
}

// knossosTxns is a multi-register history in Knossos's spelling: a read
// of x and y sees 0 before anything is written, which holds only when the
// registers start at 0.
const knossosTxns = `
{:process 0 :type :invoke :f :txn :value [[:read :x nil] [:read :y nil]]}
{:process 0 :type :ok :f :txn :value [[:read :x 0] [:read :y 0]]}
{:process 1 :type :invoke :f :txn :value [[:write :x 1] [:write :y 2]]}
{:process 1 :type :ok :f :txn :value [[:write :x 1] [:write :y 2]]}
{:process 0 :type :invoke :f :txn :value [[:read :y nil]]}
{:process 0 :type :ok :f :txn :value [[:read :y 2]]}`

func TestMultiRegisterRejectsMalformedTxns(t *testing.T) {
	spec, _ := model.Builtin("multi-register")
	for src, want := range map[string]string{
		`{"client": 1, "call": 1, "return": 2, "method": "txn", "input": [["x", "k", 1]], "output": [["x", "k", 1]]}`: `f:1:1: txn [["x" "k" 1]]: micro-operation "x": expected :r or :w (Knossos: :read or :write)`,
		`{"client": 1, "call": 1, "return": 2, "method": "txn", "input": [["r", "k"]], "output": [["r", "k"]]}`:       `f:1:1: txn [["r" "k"]]: expected [f k v] micro-operations, found ["r" "k"]`,
		`{"client": 1, "call": 1, "return": 2, "method": "txn", "input": [["r", "k", null]], "output": []}`:           `f:1:1: txn result [] has 0 micro-operations, its invocation 1`,
	} {
		h, err := format.Read(strings.NewReader(src), "f", format.ReadOptions{Format: "jsonl"})
		require.NoError(t, err)
		_, err = Check(h, spec, Options{})
		assert.EqualError(t, err, want)
	}
}

// builtinWithInitial returns the built-in model name, starting from
// initial (EDN) unless it is "".
func builtinWithInitial(t *testing.T, name, initial string) model.Spec {
	t.Helper()
	spec, err := model.Builtin(name)
	require.NoError(t, err)
	if initial != "" {
		v, err := format.ParseValue(initial, "edn")
		require.NoError(t, err)
		spec, err = model.WithInitial(spec, v)
		require.NoError(t, err)
	}
	return spec
}
