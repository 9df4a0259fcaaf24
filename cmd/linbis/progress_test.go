package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/limits/limitstest"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/progress"
)

// spinAut is the CAS counter of mgcaut 2 2 2 1 spin, with thread 1 able
// to spin forever: not lock-free.
const spinAut = "../../progress/testdata/mgc-2-2-2-1-spin.aut"

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func TestProgressHolds(t *testing.T) {
	aut := writeTemp(t, "cas.aut", exampleAut)
	code, out, errOut := linbis("progress", aut)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `lockfree\s+holds`, out)
	assert.Regexp(t, `deadlockfree\s+holds`, out)
	assert.NotContains(t, out, "waitfree ", "a plain .aut supports only the label-based properties")
	assert.Contains(t, out, "need thread attribution")
}

func TestProgressViolated(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := linbis("progress", "--export", dir, spinAut)
	require.Equal(t, 1, code, errOut)
	assert.Regexp(t, `lockfree\s+VIOLATED\s+not lock-free`, out)
	assert.Regexp(t, `deadlockfree\s+holds`, out)
	assert.Contains(t, out, "-- cycle: the following steps repeat forever --")

	for _, ext := range []string{".txt", ".aut", ".dot", ".json"} {
		assert.FileExists(t, filepath.Join(dir, "lasso-lockfree"+ext))
	}
	lasso, err := lts.ReadAutFile(filepath.Join(dir, "lasso-lockfree.aut"), lts.ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, lasso.NumStates, int32(lasso.NumTransitions()), "a lasso has as many transitions as states")

	code, out, _ = linbis("progress", "--json", "--property", "lockfree", spinAut)
	require.Equal(t, 1, code)
	var rep struct {
		File    string
		States  int
		Results []struct {
			Property string
			Holds    bool
			Lasso    *lts.Trace
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Len(t, rep.Results, 1)
	assert.Equal(t, "lockfree", rep.Results[0].Property)
	assert.False(t, rep.Results[0].Holds)
	require.NotNil(t, rep.Results[0].Lasso)
	assert.True(t, rep.Results[0].Lasso.IsLasso())
	assert.Equal(t, 33, rep.States)

	// A model's report names the bounds it was compiled under; a file's
	// has none.
	var withBounds struct{ Bounds *frontend.Bounds }
	require.NoError(t, json.Unmarshal([]byte(out), &withBounds))
	assert.Nil(t, withBounds.Bounds)
	code, out, _ = linbis("progress", "treiber", "--threads", "3", "--ops", "1", "-p", "lockfree", "--json", "-q")
	require.Equal(t, 0, code)
	require.NoError(t, json.Unmarshal([]byte(out), &withBounds))
	require.NotNil(t, withBounds.Bounds)
	assert.Equal(t, 3, withBounds.Bounds.Threads)
	assert.Equal(t, 1, withBounds.Bounds.Ops)
}

// ambiguousAut reaches state 2 with nothing pending and with thread 1
// pending, as a reduced LTS might; the spin at 2 matters only in the second.
const ambiguousAut = "des (0, 4, 3)\n(0, \"tau\", 2)\n(0, \"call(1,m)\", 1)\n(1, \"tau\", 2)\n(2, \"tau\", 2)\n"

func TestProgressAmbiguous(t *testing.T) {
	code, out, errOut := linbis("progress", writeTemp(t, "reduced.aut", ambiguousAut))
	require.Equal(t, 1, code, errOut)
	assert.Regexp(t, `lockfree\s+VIOLATED`, out)
	assert.Contains(t, out, "checked on its product with the pending sets")
}

func TestProgressErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"no file", []string{"progress"}, "progress needs 1 argument (FILE.aut"},
		{"needs threads", []string{"progress", "-p", "waitfree", spinAut}, "wait-free needs thread attribution"},
		{"unknown property", []string{"progress", "-p", "fastfree", spinAut}, `unknown progress property "fastfree"`},
		{"missing file", []string{"progress", "no-such.aut"}, "no-such.aut"},
		{"missing model", []string{"progress", "model.lin"}, "model.lin: no such file"},
		{"product limit", []string{"progress", "--max-product", "3", writeTemp(t, "reduced.aut", ambiguousAut)}, "exceeds 3 states (limit reached): check the unreduced LTS or raise the limit (limit: --max-product)"},
		{"malformed", []string{"progress", writeTemp(t, "bad.aut", "des (0, 1, 2)\n(0, \"ret(1,pop,3)\", 1)\n")},
			"state 0, ret(1,pop,3): thread 1 returns without a pending call"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := linbis(c.args...)
			want := 2
			if strings.Contains(c.name, "limit") {
				want = 3 // no verdict, not an error
			}
			assert.Equal(t, want, code)
			assert.Contains(t, errOut, c.msg)
		})
	}
}

// TestProgressOnModel is Yang et al. §6.3: the revised hazard-pointer
// stack of Fu et al. is not lock-free; the lasso's cycle is one thread
// reading the other's hazard pointer in retireNode, forever.
func TestProgressOnModel(t *testing.T) {
	code, out, errOut := linbis("progress", "hp-stack-revised", "-p", "lockfree", "-p", "deadlockfree")
	require.Equal(t, 1, code, errOut)
	assert.Regexp(t, `lockfree\s+VIOLATED`, out)
	assert.Regexp(t, `deadlockfree\s+holds`, out)
	cycle := out[strings.Index(out, "cycle"):]
	assert.Contains(t, cycle, "h := HP[i]", "the cycle is the retireNode spin")

	code, out, errOut = linbis("progress", "spinlock-stack", "--ops", "1", "-p", "lockfree,deadlockfree")
	require.Equal(t, 1, code, errOut)
	assert.Regexp(t, `lockfree\s+VIOLATED`, out, "a thread spins while another holds the lock")
	assert.Regexp(t, `deadlockfree\s+holds`, out)
}

// TestProgressCASCounterForever is Yang et al. Example 1: with threads
// calling forever, the CAS counter is lock-free but not wait-free.
func TestProgressCASCounterForever(t *testing.T) {
	code, out, errOut := linbis("progress", "cas-counter-mod", "-p", "lockfree,waitfree")
	require.Equal(t, 1, code, errOut)
	assert.Regexp(t, `lockfree\s+holds`, out)
	assert.Regexp(t, `waitfree\s+VIOLATED`, out)
}

// TestProgressLimitReport: a limit stops progress with a report of what
// it had, as verify's: its --json names the limit, its reason is the
// stderr line's, its states and transitions are those the exploration had
// stored (the counts the reason words) and no property is decided; after
// the LTS was built (the product limit) the text report gives its size,
// marks the properties not decided unknown and ends with the reason.
func TestProgressLimitReport(t *testing.T) {
	code, out, errOut := linbis("progress", "treiber", "--max-states", "10", "--json", "-q")
	require.Equal(t, 3, code, errOut)
	var r struct {
		States      int32
		Transitions int
		Results     []json.RawMessage
		StoppedBy   string `json:"stopped_by"`
		Reason      string
	}
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	assert.Equal(t, "states", r.StoppedBy)
	assert.Equal(t, "linbis: no verdict: "+r.Reason+" (limit: --max-states)\n", errOut)
	assert.Equal(t, int32(11), r.States, "one state past the limit")
	assert.Contains(t, r.Reason, fmt.Sprintf("(%d transitions so far;", r.Transitions))
	assert.NotNil(t, r.Results, "an empty list, not null")
	assert.Empty(t, r.Results)

	code, out, errOut = linbis("progress", "--max-product", "3", "-p", "lockfree,deadlockfree", writeTemp(t, "reduced.aut", ambiguousAut))
	require.Equal(t, 3, code, errOut)
	reason := strings.TrimSuffix(strings.TrimPrefix(errOut, "linbis: no verdict: "), " (limit: --max-product)\n")
	assert.Equal(t, "reduced.aut: 3 states, 4 transitions\n"+
		"lockfree         unknown  a limit stopped the check first\n"+
		"deadlockfree     unknown  a limit stopped the check first\n"+
		"stopped by the product limit: "+reason+"\n"+
		"\n(waitfree, obstructionfree and starvationfree need thread attribution, which a plain .aut file lacks)\n", out)
}

// TestCheckProgressKeepsDecided: stopped at each of its polls in turn,
// checkProgress returns, with the limit, the properties decided before
// the stop, decided as the uninterrupted run decides them.
func TestCheckProgressKeepsDecided(t *testing.T) {
	m, err := frontend.ParseExample("cas-counter-mod") // lock-free, not wait-free
	require.NoError(t, err)
	b := m.DefaultBounds()
	l, err := frontend.CompileImpl(m, b, frontend.Options{})
	require.NoError(t, err)
	props := progress.Supported(l)
	whole, err := checkProgress(l, props, progress.Options{})
	require.NoError(t, err)
	require.Len(t, whole, len(props))
	partial := 0
	for k := 0; ; k++ {
		require.Less(t, k, 10_000, "the run ends once its polls run out")
		results, err := checkProgress(l, props, progress.Options{Context: limitstest.StopAt(k)})
		if err == nil {
			assert.Equal(t, whole, results)
			break
		}
		require.ErrorAs(t, err, new(*limits.LimitError), "stop %d", k)
		require.LessOrEqual(t, len(results), len(whole))
		for i, r := range results {
			assert.Equal(t, whole[i], r, "stop %d", k)
		}
		if len(results) > 0 {
			partial++
		}
	}
	assert.Positive(t, partial, "a stop after a property was decided")
}
