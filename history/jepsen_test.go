package history

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJepsenSemantics checks the verdicts that follow from Jepsen's
// meaning of :fail, :info, reads and initial values, each under the
// reading that gives it (Knossos's checkers agree with every "want" of the
// default reading).
func TestJepsenSemantics(t *testing.T) {
	cases := []struct {
		name    string
		model   string
		initial string // "" keeps the model's own
		casFail CASFail
		src     string
		want    Verdict
	}{
		{"a cas failed by a timeout did not take effect", "cas-register", "", CASFailDrop, `[
{:process 0 :type :invoke :f :write :value 3}
{:process 0 :type :ok :f :write :value 3}
{:process 1 :type :invoke :f :cas :value [3 4]}
{:process 1 :type :fail :f :cas :value [3 4] :error :timeout}]`, Linearizable},
		{"the same under Porcupine's convention still drops a :fail with an error", "cas-register", "", CASFailFalse, `[
{:process 0 :type :invoke :f :write :value 3}
{:process 0 :type :ok :f :write :value 3}
{:process 1 :type :invoke :f :cas :value [3 4]}
{:process 1 :type :fail :f :cas :value [3 4] :error :timeout}]`, Linearizable},
		{"Porcupine's convention: a failed cas returned false", "cas-register", "", CASFailFalse, `[
{:process 0 :type :invoke :f :write :value 3}
{:process 0 :type :ok :f :write :value 3}
{:process 1 :type :invoke :f :cas :value [3 4]}
{:process 1 :type :fail :f :cas :value [3 4]}]`, NotLinearizable},
		{"Jepsen's reading drops the same failed cas", "cas-register", "", CASFailDrop, `[
{:process 0 :type :invoke :f :write :value 3}
{:process 0 :type :ok :f :write :value 3}
{:process 1 :type :invoke :f :cas :value [3 4]}
{:process 1 :type :fail :f :cas :value [3 4]}]`, Linearizable},
		{"failed reads and writes did not take effect", "register", "", CASFailDrop, `
{:process 0 :type :invoke :f :write :value 1}
{:process 0 :type :fail :f :write :value 1 :error :timeout}
{:process 1 :type :invoke :f :read :value nil}
{:process 1 :type :fail :f :read :value 7 :error :timeout}
{:process 1 :type :invoke :f :read :value nil}
{:process 1 :type :ok :f :read :value 1}`, NotLinearizable},
		{"an :info write may take effect later", "register", "", CASFailDrop, `
{:process 0 :type :invoke :f :write :value 1}
{:process 0 :type :info :f :write :value 1 :error :timeout}
{:process 1 :type :invoke :f :read :value nil}
{:process 1 :type :ok :f :read :value nil}
{:process 1 :type :invoke :f :read :value nil}
{:process 1 :type :ok :f :read :value 1}`, Linearizable},
		{"an :info write may never take effect", "register", "0", CASFailDrop, `
{:process 0 :type :invoke :f :write :value 1}
{:process 0 :type :info :f :write :value 1}
{:process 1 :type :invoke :f :read}
{:process 1 :type :ok :f :read :value 0}`, Linearizable},
		{"a read's invocation value is ignored", "register", "", CASFailDrop, `
{:process 0 :type :invoke :f :write :value 2}
{:process 0 :type :ok :f :write :value 2}
{:process 1 :type :invoke :f :read :value 5}
{:process 1 :type :ok :f :read :value 2}`, Linearizable},
		{"a read's invocation value is not its result", "register", "", CASFailDrop, `
{:process 0 :type :invoke :f :write :value 2}
{:process 0 :type :ok :f :write :value 2}
{:process 1 :type :invoke :f :read :value 5}
{:process 1 :type :ok :f :read :value 5}`, NotLinearizable},
		{"an :ok read of nil matches any value (Knossos)", "register", "", CASFailDrop, `
{:process 0 :type :invoke :f :write :value 2}
{:process 0 :type :ok :f :write :value 2}
{:process 1 :type :invoke :f :read}
{:process 1 :type :ok :f :read :value nil}`, Linearizable},
		{"--initial 0: a read of 0 before any write", "cas-register", "0", CASFailDrop, `
{:process 1 :type :invoke :f :read}
{:process 1 :type :ok :f :read :value 0}
{:process 1 :type :invoke :f :cas :value [0 1]}
{:process 1 :type :ok :f :cas :value [0 1]}`, Linearizable},
		{"without --initial the register starts at nil", "cas-register", "", CASFailDrop, `
{:process 1 :type :invoke :f :read}
{:process 1 :type :ok :f :read :value 0}`, NotLinearizable},
		{"--initial 0: a cas from nil cannot succeed", "cas-register", "0", CASFailDrop, `
{:process 1 :type :invoke :f :cas :value [nil 1]}
{:process 1 :type :ok :f :cas :value [nil 1]}`, NotLinearizable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := Read(strings.NewReader(c.src), "h.edn", ReadOptions{CASFail: c.casFail})
			require.NoError(t, err)
			spec, err := Builtin(c.model)
			require.NoError(t, err)
			if c.initial != "" {
				v, err := ParseValue(c.initial, "edn")
				require.NoError(t, err)
				spec, err = WithInitial(spec, v)
				require.NoError(t, err)
			}
			res, err := Check(h, spec, Options{})
			require.NoError(t, err)
			assert.Equal(t, c.want, res.Verdict)
		})
	}
}

func TestWithInitial(t *testing.T) {
	for _, c := range []struct{ model, value, init string }{
		{"register", "0", "0"}, {"cas-register", "nil", Nil}, {"kv", `"x"`, `"x"`}, {"kv", "nil", `""`}, {"counter", "-3", "-3"},
	} {
		spec, err := Builtin(c.model)
		require.NoError(t, err)
		v, err := ParseValue(c.value, "edn")
		require.NoError(t, err)
		spec, err = WithInitial(spec, v)
		require.NoError(t, err, c.model)
		assert.Equal(t, c.init, spec.Init(), c.model)
	}
	counter, _ := Builtin("counter")
	_, err := WithInitial(counter, "x")
	assert.EqualError(t, err, `initial value "x" of model counter: expected an integer`)
	queue, _ := Builtin("queue")
	_, err = WithInitial(queue, "1")
	assert.EqualError(t, err, "model queue has no settable initial value (register, cas-register, counter, kv, multi-register have)")
}

func TestParseCASFail(t *testing.T) {
	for i, m := range CASFailModes {
		got, err := ParseCASFail(m)
		require.NoError(t, err)
		assert.Equal(t, CASFail(i), got)
		assert.Equal(t, m, got.String())
	}
	_, err := ParseCASFail("maybe")
	assert.EqualError(t, err, `--cas-fail "maybe": expected one of drop, false`)
}
