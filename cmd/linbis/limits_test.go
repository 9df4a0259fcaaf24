package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

// runLimited runs a verb that ignores its context and blocks until the
// watch "exits" the process, and returns the exit code it asked for and
// stderr.
func runLimited(t *testing.T, args ...string) (int, string) {
	t.Helper()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	exited := make(chan int, 1)
	saved := exitProcess
	exitProcess = func(code int) { exited <- code }
	defer func() { exitProcess = saved }()
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = time.Millisecond
	code := -1
	cmd := guard(&cli.Command{Name: "spin", Flags: limitFlags(), Action: func(*cli.Context) error {
		code = <-exited // stands for a long run that the exit would end
		return nil
	}})
	var stderr bytes.Buffer
	app := &cli.App{Name: "linbis", Commands: []*cli.Command{cmd}, ErrWriter: &stderr, Writer: &stderr}
	argv, err := normalizeArgs(app, append([]string{"linbis", "spin"}, args...))
	require.NoError(t, err)
	require.NoError(t, app.Run(argv))
	return code, stderr.String()
}

func TestTimeoutStopsTheRunPlainly(t *testing.T) {
	code, stderr := runLimited(t, "--timeout", "10ms")
	assert.Equal(t, 3, code)
	// The README's form, as every other limit (issue 37 item 13).
	assert.Equal(t, "linbis: no verdict: time limit reached: still running after 10ms (limit: --timeout)\n", stderr)
}

func TestMaxMemoryStopsTheRunPlainly(t *testing.T) {
	code, stderr := runLimited(t, "MODEL", "--max-memory", "1KiB") // flags after the argument work too
	assert.Equal(t, 3, code)
	assert.True(t, strings.HasPrefix(stderr, "linbis: no verdict: memory limit reached: "), stderr)
	assert.True(t, strings.HasSuffix(stderr, " in use, limit 1.0 KiB (limit: --max-memory)\n"), stderr)
}

func TestLimitFlagsAreChecked(t *testing.T) {
	code, _, stderr := linbis("verify", "--max-memory", "lots")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--max-memory")
	assert.Contains(t, stderr, "expected a size such as 8GiB")
	code, _, stderr = linbis("compile", "treiber", "--timeout", "-1s")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--timeout must not be negative")
	// Generous limits do not disturb a run.
	code, out, stderr := linbis("verify", "--timeout", "10m", "--max-memory", "64GiB")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "LINEARIZABLE")
}

// TestLimitsExitThree: on every verb, a run that a limit stops has no
// verdict and exits 3 with one line that names the limit's flag; --json
// output made before it names the limit in stopped_by.
func TestLimitsExitThree(t *testing.T) {
	dir := t.TempDir()
	a := writeTemp(t, "a.aut", "des (0, 2, 2)\n(0, \"a\", 1)\n(1, \"b\", 0)\n")
	b := filepath.Join(dir, "b.aut")
	require.NoError(t, os.WriteFile(b, []byte("des (0, 3, 3)\n(0, \"a\", 1)\n(1, \"b\", 2)\n(2, \"a\", 1)\n"), 0o644))
	cases := []struct {
		args []string
		flag string
	}{
		{[]string{"compile", "treiber", "--max-states", "10"}, "--max-states"},
		{[]string{"verify", "treiber", "--max-states", "10"}, "--max-states"},
		{[]string{"verify", "treiber", "--method", "fly", "--max-states", "10"}, "--max-states"},
		{[]string{"verify", "treiber", "--method", "refine", "--max-pairs", "3"}, "--max-pairs"},
		{[]string{"progress", "treiber", "--max-states", "10"}, "--max-states"},
		{[]string{"refine", a, b, "--max-pairs", "1", "--quotient=false"}, "--max-pairs"},
		{[]string{"compare", a, b, "-e", "trace", "--max-pairs", "1"}, "--max-pairs"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, errOut := linbis(append(c.args, "-q")...)
			assert.Equal(t, 3, code, errOut)
			assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, "one line: %q", errOut)
			assert.True(t, strings.HasPrefix(errOut, "linbis: no verdict: "), errOut)
			assert.Contains(t, errOut, "(limit: "+c.flag+")")
		})
	}
	code, out, errOut := linbis("verify", "treiber", "--method", "refine", "--max-pairs", "3", "--json", "-q")
	require.Equal(t, 3, code, errOut)
	var r map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Equal(t, "pairs", r["stopped_by"])
	assert.Contains(t, errOut, "pair limit reached")
	// On the fly, --max-states bounds product pairs, and the line says so.
	_, _, errOut = linbis("verify", "treiber", "--method", "fly", "--max-states", "10", "-q")
	assert.Contains(t, errOut, "the on-the-fly search counts its product pairs against --max-states: ")
}

// TestTimeoutStopsVerify: --timeout on a long verify ends the run's
// context, and every stage polls it: the run stops by itself (the
// process's exit is not needed), prints its partial report with
// stopped_by "time" and the README's line, exits 3, and leaves no output
// file.
func TestTimeoutStopsVerify(t *testing.T) {
	stopByItself(t)
	dir := t.TempDir()
	// The line says what the stage stopped had stored (issue 38 item 5).
	stored := map[string]string{"bisim": exploredRE, "fly": flyStoredRE}
	for _, method := range []string{"bisim", "fly"} {
		t.Run(method, func(t *testing.T) {
			start := time.Now()
			// Treiber with 3 threads of 3 operations: minutes of work.
			code, out, errOut := linbis("verify", "treiber", "--threads", "3", "--ops", "3", "--method", method, "--timeout", "300ms",
				"--json", "-q", "--html", filepath.Join(dir, "v.html"), "--export", filepath.Join(dir, "export"))
			elapsed := time.Since(start)
			assert.Equal(t, 3, code, errOut)
			assert.Regexp(t, `^linbis: no verdict: `+stored[method]+`: time limit reached: still running after 300ms \(limit: --timeout\)\n$`, errOut)
			var r struct {
				StoppedBy string `json:"stopped_by"`
				Reason    string
				Stages    []struct{ Name, Result string }
				OnTheFly  *struct{ Pairs, States int64 } `json:"on_the_fly"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &r), out)
			assert.Equal(t, "time", r.StoppedBy)
			assert.Equal(t, "linbis: no verdict: "+r.Reason+" (limit: --timeout)\n", errOut)
			if method == "fly" {
				require.NotNil(t, r.OnTheFly, out)
				assert.Positive(t, r.OnTheFly.Pairs)
				assert.Positive(t, r.OnTheFly.States)
			}
			require.NotEmpty(t, r.Stages)
			assert.Equal(t, "limit", r.Stages[len(r.Stages)-1].Result)
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, entries, "no output file")
			t.Logf("stopped after %s", elapsed)
			assert.Less(t, elapsed, 300*time.Millisecond+stopGrace)
		})
	}
}

// TestTimeoutStopsOtherVerbs: the verbs that explore a model stop by
// their context too, with the one line, exit 3 and no output file;
// progress's --json report counts what was stored.
func TestTimeoutStopsOtherVerbs(t *testing.T) {
	stopByItself(t)
	dir := t.TempDir()
	long := []string{"treiber", "--threads", "3", "--ops", "3", "--timeout", "300ms", "-q"}
	for _, args := range [][]string{
		append([]string{"compile", "-o", filepath.Join(dir, "impl.aut")}, long...),
		append([]string{"progress", "--json"}, long...),
	} {
		t.Run(args[0], func(t *testing.T) {
			start := time.Now()
			code, out, errOut := linbis(args...)
			assert.Equal(t, 3, code, errOut)
			assert.Regexp(t, `^linbis: no verdict: `+exploredRE+`: time limit reached: still running after 300ms \(limit: --timeout\)\n$`, errOut)
			if args[0] == "progress" {
				// Its report counts what the exploration stored.
				var r struct {
					States      int
					Transitions int
					StoppedBy   string `json:"stopped_by"`
					Reason      string
				}
				require.NoError(t, json.Unmarshal([]byte(out), &r), out)
				assert.Equal(t, "time", r.StoppedBy)
				assert.Equal(t, "linbis: no verdict: "+r.Reason+" (limit: --timeout)\n", errOut)
				assert.Contains(t, r.Reason, fmt.Sprintf(" (%d stored, %d transitions)", r.States, r.Transitions))
			}
			assert.Less(t, time.Since(start), 300*time.Millisecond+stopGrace)
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, entries, "no output file")
		})
	}
}

// exploredRE and flyStoredRE match how a stopped exploration and a
// stopped on-the-fly search (of the ladder's requested bounds or of a
// smaller client) say what they had stored.
const (
	exploredRE  = `(implementation \w+: )?exploration stopped after \d+ states expanded \(\d+ stored, \d+ transitions\)`
	flyStoredRE = `(the ladder's client \d+×\d+: )?the on-the-fly search stopped after \d+ product pairs and \d+ implementation states`
)

// stopByItself makes the runs of the test fail if they have to be ended
// by the process's exit (watchLimits' fallback) instead of returning.
func stopByItself(t *testing.T) {
	t.Helper()
	limit := debug.SetMemoryLimit(-1)
	saved := exitProcess
	t.Cleanup(func() {
		exitProcess = saved
		debug.SetMemoryLimit(limit)
	})
	exitProcess = func(int) { t.Errorf("the run did not stop by itself within %s of its deadline", stopGrace) }
}
