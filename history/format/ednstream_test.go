package format

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/linbis/linbis/history/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readEDNWhole reads src with a window larger than src: the reader sees
// the whole text at once, as it did before it streamed.
func readEDNWhole(src string) (*record.History, error) {
	return readEDN(strings.NewReader(src), "f", ReadOptions{}, len(src)+1)
}

// sameReading requires the reading of src through small windows (forms,
// tokens, strings and comments cut at every place) to equal the whole
// reading: the same history or the same positioned error.
func sameReading(t *testing.T, src string, windows ...int) {
	t.Helper()
	want, wantErr := readEDNWhole(src)
	for _, w := range windows {
		got, err := readEDN(strings.NewReader(src), "f", ReadOptions{}, w)
		if wantErr != nil {
			require.Error(t, err, "window %d:\n%s", w, src)
			assert.Equal(t, wantErr.Error(), err.Error(), "window %d:\n%s", w, src)
			continue
		}
		require.NoError(t, err, "window %d:\n%s", w, src)
		assert.Equal(t, want, got, "window %d:\n%s", w, src)
	}
}

// TestReadEDNStreamed reads hand-written EDN histories and errors, then
// random ones, through windows of 1 to 13 bytes and compares with the
// whole reading.
func TestReadEDNStreamed(t *testing.T) {
	windows := []int{1, 2, 3, 4, 5, 7, 8, 11, 13, 64}
	cases := []string{
		"{:process 0 :type :invoke :f :write :value 3}\n{:process 0 :type :ok :f :write :value 3}\n",
		"; comment {:not \"a form\"}\n[{:process 0, :type :invoke, :f :cas, :value [1 2]} ; more\n #_ {:x 1} {:process 0 :type :ok :f :cas :value [1 2]}]\n",
		"({:process 0 :type :invoke :f :read :value nil}\n {:process 0 :type :ok :f :read :value \"a\\u0041\\n\\\"b\"})",
		"{:process :nemesis :type :info :f :start}\n{:process 12345 :type :invoke :f :append :key \"key one\" :value #{1 \\a \\newline}}",
		"{:process 1\n :type\n :invoke\n :f :write\n :value 123456789012}\n\n\n{:process 1 :type :info :f :write :value 123456789012 :error :timeout}",
		"{:process 0 :type :invoke :f :txn :value [[:r 1 nil] [:w 2 3]] :time 1234567}\n{:process 0 :type :ok :f :txn :value [[:r 1 4] [:w 2 3]] :time 1234568}",
		// errors, some late in the text
		"{:process 0 :type :invoke :f :read}\n{:process 0 :type :invoke :f :read}",
		"{:process 0 :type :invoke :f :read}\n\n   {:a \"x\\q\"}",
		"{:process 0 :type :invoke :f :read}\n  {:a 12x}",
		"{:process 0 :type :invoke :f :read}\n {:a \"abc",
		"[{:process 0 :type :invoke :f :read}\n {:process 0 :type :ok :f :read :value 1}",
		"[{:process 0 :type :invoke :f :read}] {:process 0 :type :ok :f :read}",
		"[1 2]",
		"  {:process 0 :type :invoke :f :read :value \"\\u00",
		"{:process 0 :type}",
		"; only a comment",
		"{:process 0 :type :invoke :f :read} ]",
		// a top-level token cut by the window must not read as a shorter one
		"{:process 0 :type :invoke :f :read} 12x",
		"[{:process 0 :type :invoke :f :read} 12345x]",
		// comments longer than the windows, between and inside forms
		"{:process 0 :type :invoke :f :read}\n; a comment longer than every window here: {:process 9}\n{:process 0 :type :ok :f :read}",
		"[{:process 0 :type :invoke :f :read} ; a comment longer than every window here: {:process 9}\n {:process 0 :type :ok :f :read}]",
		"{:process 0 ; a comment longer than every window here: {:process 9}\n :type :invoke :f :read}",
	}
	for _, src := range cases {
		sameReading(t, src, windows...)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		sameReading(t, randomEDN(rng, 1+rng.IntN(30)), windows...)
	}
}

// randomEDN writes a Jepsen history of n invocations and their
// completions with varied spacing, comments, discards and values, as a
// sequence of maps or one vector.
func randomEDN(rng *rand.Rand, n int) string {
	var b strings.Builder
	vector := rng.IntN(2) == 0
	if vector {
		b.WriteString("[")
	}
	space := func() string {
		return []string{" ", ", ", "\n", "\n ; a comment ]})\n", "  #_ {:skipped [1 2]} ", "\t"}[rng.IntN(6)]
	}
	value := func() string {
		return []string{"nil", "3", "-17", "1.5", `"s t\"r"`, ":kw", "[1 2]", "#{1 2}", `\c`, "12345678901234"}[rng.IntN(10)]
	}
	for i := range n {
		p := rng.IntN(4)
		f := []string{":read", ":write", ":cas"}[rng.IntN(3)]
		v := value()
		fmt.Fprintf(&b, "{:process %d%s:type :invoke%s:f %s%s:value %s}%s", p+10*i, space(), space(), f, space(), v, space())
		typ := []string{":ok", ":info", ":fail"}[rng.IntN(3)]
		fmt.Fprintf(&b, "{:process %d :type %s :f %s :value %s :time %d}%s", p+10*i, typ, f, v, rng.IntN(1<<40), space())
	}
	if vector {
		b.WriteString("]")
	}
	return b.String()
}
