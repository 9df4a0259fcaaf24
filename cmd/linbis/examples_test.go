package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
)

// Every bundled model's header states a summary and at least one verdict
// with the verify command (and so the bounds) under which it holds; each
// such command is run here and must give the stated verdict. New models
// in frontend/examples are covered without changing this test.
func TestExampleHeadersAgreeWithVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("runs verify on every bundled model")
	}
	for _, name := range frontend.Examples() {
		h, err := frontend.ExampleHeader(name)
		require.NoError(t, err)
		assert.NotEmpty(t, h.Summary, "%s.lin: no Summary line", name)
		assert.NotEmpty(t, h.Verdicts, "%s.lin: no Verdict line", name)
		for _, v := range h.Verdicts {
			t.Run(v.Command(name), func(t *testing.T) {
				args := append(append([]string{"verify", name}, v.Args...), "--json", "-q", "--timeout", "5m", "--max-memory", "3GiB")
				if v.LockFree == "" && v.Linearizable == "no" && slices.Contains(v.Args, "fly") {
					// The header claims the violation alone: stop there,
					// as a bug hunter would, rather than go on to decide
					// lock-freedom over the whole implementation.
					args = append(args, "--first-violation")
				}
				code, out, errOut := linbis(args...)
				var rep struct {
					Linearizable frontend.Verdict `json:"linearizable"`
					LockFree     frontend.Verdict `json:"lock_free"`
				}
				require.NoError(t, json.Unmarshal([]byte(out), &rep), "exit %d: %s", code, errOut)
				if v.Linearizable != "" {
					assert.Equal(t, v.Linearizable, rep.Linearizable, "the header says %q", v.Text)
				}
				if v.LockFree != "" {
					assert.Equal(t, v.LockFree, rep.LockFree, "the header says %q", v.Text)
				}
				wantCode := 0
				if rep.Linearizable == "no" || rep.LockFree == "no" {
					wantCode = 1
				}
				assert.Equal(t, wantCode, code, errOut)
			})
		}
	}
}

func TestHeaderParsing(t *testing.T) {
	h, err := frontend.ParseHeader("m", []byte("// prose\n// Summary: A thing.\n// Verdict: NOT linearizable, lock-free (linbis verify m --ops 3)\nobject O {}\n// Verdict: linearizable (linbis verify m)\n"))
	require.NoError(t, err)
	assert.Equal(t, "A thing.", h.Summary)
	require.Len(t, h.Verdicts, 1, "only the leading comment is the header")
	assert.Equal(t, frontend.StatedVerdict{Linearizable: "no", LockFree: "yes", Args: []string{"--ops", "3"}, Text: "NOT linearizable, lock-free"}, h.Verdicts[0])
	for _, bad := range []string{
		"// Verdict: linearizable\n",
		"// Verdict: linearizable (linbis verify other)\n",
		"// Verdict: wait-free (linbis verify m)\n",
	} {
		_, err := frontend.ParseHeader("m", []byte(bad))
		assert.Error(t, err, bad)
	}
}

// compile --list shows every model with its summary and the bounds of
// each verdict; show prints a model with the line numbers that
// counterexamples cite.
func TestListAndShow(t *testing.T) {
	code, out, errOut := linbis("compile", "--list")
	require.Equal(t, 0, code, errOut)
	for _, name := range frontend.Examples() {
		assert.Contains(t, out, name)
	}
	assert.Contains(t, out, "NOT linearizable at threads=2 ops=3 values=1,2, explicit heap")
	// A flag with a value is one option (issue 37 item 12: it read
	// "values=1,2, method, fly").
	assert.Contains(t, out, "NOT linearizable at threads=3 ops=3 values=1,2, with --method fly\n")

	code, out, errOut = linbis("compile", "--list", "--json")
	require.Equal(t, 0, code, errOut)
	var list []struct {
		Name     string
		Verdicts []struct {
			Bounds       frontend.Bounds
			Options      []string
			Linearizable *bool
			Command      string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	assert.Len(t, list, len(frontend.Examples()))
	for _, m := range list {
		if m.Name == "treiber-free" {
			v := m.Verdicts[len(m.Verdicts)-1]
			assert.Equal(t, frontend.Bounds{Threads: 2, Ops: 3, Values: []int{1, 2}}, v.Bounds, "the same shape as verify's")
			assert.Equal(t, []string{"explicit heap"}, v.Options)
			require.NotNil(t, v.Linearizable)
			assert.False(t, *v.Linearizable)
		}
	}

	code, out, errOut = linbis("show", "shann-queue")
	require.Equal(t, 0, code, errOut)
	src, err := frontend.Example("shann-queue")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	assert.Contains(t, out, "  53  "+lines[52]+"\n", "line 53 is numbered 53")
	code, _, errOut = linbis("show", "no-such-model")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no bundled model")
}
