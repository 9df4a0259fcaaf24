package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// A bad output path is reported before any work, so that no verdict is
// computed and then lost: nothing on stdout, one line on stderr, exit 2.
func TestOutputPathsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	aut := writeAut(t, dir, "in.aut", exampleAut)
	other := writeAut(t, dir, "other.aut", "des (0, 1, 2)\n(0, \"x\", 1)\n")
	notADir := writeAut(t, dir, "notadir", "")
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"verify", "treiber", "--export", notADir}, "--export " + notADir + ": not a directory"},
		{[]string{"verify", "treiber", "--html", "/nonexistent/x.html"}, "--html /nonexistent/x.html: folder /nonexistent: no such file or directory"},
		{[]string{"compile", "treiber", "-o", "/nonexistent/x.aut"}, "--output /nonexistent/x.aut: folder /nonexistent"},
		{[]string{"compile", "treiber", "--spec-out", dir}, "--spec-out " + dir + ": is a directory"},
		{[]string{"compare", aut, other, "--counterexample", filepath.Join(dir, "cex", "x.txt")}, "--counterexample " + filepath.Join(dir, "cex", "x.txt") + ": folder"},
		{[]string{"reduce", aut, "-o", filepath.Join(notADir, "q.aut")}, "is not a folder"},
		{[]string{"convert", aut, "/nonexistent/x.dot"}, "/nonexistent/x.dot: folder /nonexistent"},
		{[]string{"progress", aut, "--export", filepath.Join(notADir, "sub")}, "is not a directory"},
		{[]string{"refine", aut, aut, "--export", notADir}, "not a directory"},
		{[]string{"history", writeAut(t, dir, "q.jsonl", badQueue), "--html", "/nonexistent/h.html"}, "--html /nonexistent/h.html"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := linbis(c.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out, "no work was done")
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
			assert.Contains(t, errOut, c.err)
		})
	}
}

// buildLinbis builds the command into a temporary folder, for the tests
// that need a real process (signals, the watchdog's exit).
func buildLinbis(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "linbis")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

// Runs stopped at random moments, by SIGINT, SIGTERM or --timeout, leave
// no output file, or only complete ones: every file that exists parses,
// and no temporary is left behind. The runs take about a second each
// (treiber with 3 operations per thread: a 2.6 MB LTS).
func TestStoppedRunsLeaveNoIncompleteFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command about ten times")
	}
	bin := buildLinbis(t)
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	type stop struct {
		signal  syscall.Signal // 0: --timeout
		code    int
		message string
	}
	stops := []stop{
		{syscall.SIGINT, 130, "linbis: stopped by SIGINT (interrupt); no incomplete output file was left"},
		{syscall.SIGTERM, 143, "linbis: stopped by SIGTERM; no incomplete output file was left"},
		{0, 3, "time limit reached"},
	}
	runs := []func(dir string) []string{
		func(dir string) []string {
			return []string{"compile", "treiber", "--ops", "4", "-o", filepath.Join(dir, "impl.aut"), "--spec-out", filepath.Join(dir, "spec.dot")}
		},
		func(dir string) []string {
			return []string{"verify", "treiber", "--ops", "3", "--export", filepath.Join(dir, "export")}
		},
	}
	// A full run of each, timed, so that the stops fall mostly in its
	// second half, where the files are written.
	var full []time.Duration
	for _, r := range runs {
		dir := t.TempDir()
		start := time.Now()
		out, err := exec.Command(bin, append(r(dir), "-q")...).CombinedOutput()
		require.NoError(t, err, string(out))
		full = append(full, time.Since(start))
		checkOutputsComplete(t, dir)
	}
	for i := 0; i < 8; i++ {
		dir := t.TempDir()
		args := append(runs[i%len(runs)](dir), "-q")
		st := stops[rng.Intn(len(stops))]
		d := full[i%len(runs)]
		after := d/2 + time.Duration(rng.Int63n(int64(d/2)))
		if st.signal == 0 {
			args = append(args, "--timeout", fmt.Sprint(after.Round(time.Millisecond)+time.Millisecond))
		}
		name := fmt.Sprintf("%d %s signal=%d after=%s", i, args[0], st.signal, after)
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(bin, args...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			if st.signal != 0 {
				time.Sleep(after)
				_ = cmd.Process.Signal(st.signal)
			}
			err := cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if err == nil {
				t.Logf("finished before the stop")
			} else {
				assert.Equal(t, st.code, code, stderr.String())
				assert.Contains(t, stderr.String(), st.message)
				assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
			}
			checkOutputsComplete(t, dir)
		})
	}
}

// checkOutputsComplete asserts that every file under dir is complete:
// LTSs parse, JSON decodes, and no temporary is left.
func checkOutputsComplete(t *testing.T, dir string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		assert.False(t, strings.HasSuffix(path, ".tmp"), "temporary left: %s", path)
		switch filepath.Ext(path) {
		case ".aut", ".dot":
			_, err := lts.ReadFile(path, lts.ReadOptions{})
			assert.NoError(t, err, "incomplete output %s", path)
		case ".json":
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.True(t, json.Valid(data), "incomplete output %s", path)
		}
		return nil
	})
	require.NoError(t, err)
	t.Logf("%d complete output files", n)
}
