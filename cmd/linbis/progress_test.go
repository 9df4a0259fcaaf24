package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/lts"
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
