package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

func TestVerifyDefaultIsTreiber(t *testing.T) {
	code, out, errOut := linbis("verify")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "model          treiber")
	assert.Contains(t, out, "threads=2 ops=2 values=1,2")
	assert.Regexp(t, `LINEARIZABLE\s+YES`, out)
	assert.Regexp(t, `LOCK-FREE\s+YES`, out)
	assert.Contains(t, out, "Thm 5.4")
}

func TestVerifyViolationsExitOne(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"shann-queue"}, []string{`LINEARIZABLE\s+NO`, "refinement-violation", "spec cannot do this"}},
		{[]string{"hp-stack-revised"}, []string{`LINEARIZABLE\s+YES`, `LOCK-FREE\s+NO`, "cycle: the steps below repeat forever"}},
		// The spin lock's lasso: the thread that takes the lock and the
		// one that spins run the same line, told apart by the cas's outcome.
		{[]string{"spinlock-stack"}, []string{`LOCK-FREE\s+NO`, `(?s)L16: while !cas\(lock, false, true\) — the cas succeeds.*cycle: the steps below repeat forever ───\n\s+4\s+L16: while !cas\(lock, false, true\) — the cas fails`}},
		{[]string{"spinlock-stack", "--method", "fly"}, []string{`LOCK-FREE\s+NO`, `(?s)— the cas succeeds.*cycle: the steps below repeat forever.*— the cas fails`}},
	}
	for _, c := range cases {
		t.Run(c.args[0], func(t *testing.T) {
			code, out, errOut := linbis(append([]string{"verify"}, c.args...)...)
			assert.Equal(t, 1, code, errOut)
			for _, w := range c.want {
				assert.Regexp(t, w, out)
			}
		})
	}
}

func TestVerifyJSONAndMethodBoth(t *testing.T) {
	code, out, errOut := linbis("verify", "treiber", "--ops", "1", "--method", "both", "--json")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Bisimilar, Refines, Linearizable any // verdicts: true, false or null
		Stages                           []struct{ Name string }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, true, rep.Bisimilar)
	assert.Equal(t, true, rep.Refines)
	assert.Equal(t, true, rep.Linearizable)
	var names []string
	for _, s := range rep.Stages {
		names = append(names, s.Name)
	}
	assert.Contains(t, names, "bisimulation")
	assert.Contains(t, names, "refinement")
}

func TestVerifyExportAndHTML(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.html")
	code, _, errOut := linbis("verify", "shann-queue", "--export", dir, "--html", page)
	require.Equal(t, 1, code, errOut)
	for _, f := range []string{"impl.aut", "spec.aut", "impl-quotient.aut", "spec-quotient.aut", "report.json",
		"1-refinement-violation.txt", "1-refinement-violation.aut", "1-refinement-violation.dot",
		"1-refinement-violation.json", "1-refinement-violation-interleaving.txt",
		"2-distinguishing-formula.aut", "2-distinguishing-formula-formula.json", "2-distinguishing-formula-formula.txt",
		"2-distinguishing-formula-formula.mcf"} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	// The formula is a trace the specification lacks: no path of it to show.
	assert.NoFileExists(t, filepath.Join(dir, "2-distinguishing-formula-other.aut"))
	// Read alone, the formula's file points at the violation by its place
	// in the report and its file, not as "above" (issue 37 item 11).
	text, err := os.ReadFile(filepath.Join(dir, "2-distinguishing-formula-formula.txt"))
	require.NoError(t, err)
	assert.NotContains(t, string(text), "above")
	assert.True(t, strings.HasPrefix(string(text), "The evidence of non-linearizability is the refinement violation, "+
		"the report's first evidence (exported as 1-refinement-violation); "), "%.200s", text)
	tr, err := lts.ReadAutFile(filepath.Join(dir, "1-refinement-violation.aut"), lts.ReadOptions{})
	require.NoError(t, err)
	assert.Positive(t, tr.NumTransitions())

	html, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(html), "deq() → 2", "the failing operation is drawn")
	assert.Contains(t, string(html), "distinguishing formula (holds in the implementation, not in the specification)")
	assert.Contains(t, string(html), "In words (every step may come after τ-steps):")
	assert.Contains(t, string(html), "a path of the implementation that takes the formula&#39;s steps:")
	checkPageInChromium(t, page, "deq() → 2")
}

// checkPageInChromium loads the page in headless Chromium, when the machine
// has it (.ci/run installs Debian's chromium), and checks that it renders
// the operations and logs no console error.
func checkPageInChromium(t *testing.T, page, want string) {
	cmd, ok := headlessChromium(t, "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+page)
	if !ok {
		t.Log("chromium not installed: the page was checked as text only")
		return
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	assert.Contains(t, string(dom), want, "the rendered DOM shows the operations")
	assert.Contains(t, string(dom), "<svg")
	for _, line := range strings.Split(stderr.String(), "\n") {
		assert.NotContains(t, line, "CONSOLE", "no console message: %s", line)
	}
}

func TestVerifyErrors(t *testing.T) {
	code, _, errOut := linbis("verify", "no-such-model")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no-such-model")
	code, _, errOut = linbis("verify", "--method", "guess")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "expected auto, bisim, refine, both or fly")
	code, _, errOut = linbis("verify", "treiber", "--max-states", "10")
	assert.Equal(t, 3, code, "a limit, not an error")
	assert.Contains(t, errOut, "implementation TreiberStack: state limit reached: more than 10 states",
		"the user's own limit stops method auto; it does not send it on the fly")
	assert.Contains(t, errOut, "(limit: --max-states)")
}

// TestVerifyOnTheFly runs --method fly as a user would: the verdicts and
// the reduction applied, the counterexamples, and the limits, which stop
// it with the same one-line messages as the other methods.
func TestVerifyOnTheFly(t *testing.T) {
	code, out, errOut := linbis("verify", "treiber", "--method", "fly")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `LINEARIZABLE\s+YES`, out)
	assert.Regexp(t, `LOCK-FREE\s+YES`, out)
	assert.Regexp(t, `reductions\s+symmetry`, out)

	code, out, errOut = linbis("verify", "hp-stack-revised", "--method", "fly", "--reduce", "none")
	assert.Equal(t, 1, code, errOut)
	assert.Regexp(t, `LOCK-FREE\s+NO`, out)
	assert.Contains(t, out, "cycle: the steps below repeat forever")

	code, out, errOut = linbis("verify", "shann-queue", "--method", "fly")
	assert.Equal(t, 1, code, errOut)
	assert.Regexp(t, `LINEARIZABLE\s+NO`, out)
	assert.Contains(t, out, "the specification cannot do this")

	code, _, errOut = linbis("verify", "treiber", "--method", "fly", "--threads", "3", "--max-states", "100")
	assert.Equal(t, 3, code)
	assert.Contains(t, errOut, "state limit reached: more than 100 product pairs")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, "one line: %q", errOut)

	code, _, errOut = linbis("verify", "treiber", "--method", "fly", "--reduce", "magic")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "expected none, symmetry, por or all")
}

// TestOnTheFlyLimits stops on-the-fly runs by --timeout and --max-memory,
// each in a process of its own (the memory limit is the runtime's), and
// checks the exit code, the partial report's stopped_by, the one plain
// line last, and for memory that the peak resident memory the process
// really reached stayed near the limit.
func TestOnTheFlyLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes for seconds")
	}
	// child returns the child's own peak resident memory (childPeak:
	// getrusage's maxrss of a child counts the parent's pages before the
	// exec), the exit code and stderr without the child's peak line;
	// stdout is the report.
	child := func(args ...string) (int64, int, string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHistoryChild$")
		cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(append([]string{"linbis"}, args...), "\n"))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, "%s", stderr.String())
		var r struct {
			StoppedBy string `json:"stopped_by"`
			Reason    string
			OnTheFly  *struct{ Pairs, States int64 } `json:"on_the_fly"`
		}
		require.NoError(t, json.Unmarshal([]byte(stdout.String()), &r), stdout.String())
		assert.Contains(t, []string{"time", "memory"}, r.StoppedBy)
		// The report counts what the search had stored at the stop, and
		// the line says it (issue 38 item 5).
		if assert.NotNil(t, r.OnTheFly, stdout.String()) {
			assert.Positive(t, r.OnTheFly.Pairs)
			assert.Positive(t, r.OnTheFly.States)
		}
		line, _, _ := strings.Cut(stderr.String(), "\n"+peakLine)
		line = strings.TrimSpace(line)
		assert.True(t, strings.HasPrefix(line, "linbis: no verdict: "+r.Reason+" (limit: "), line)
		return childPeak(cmd, []byte(stderr.String())), ee.ExitCode(), line
	}
	_, code, out := child("verify", "treiber", "--method", "fly", "--threads", "6", "-q", "--json", "--timeout", "1s")
	assert.Equal(t, 3, code, out)
	assert.Regexp(t, `^linbis: no verdict: `+flyStoredRE+`: time limit reached: still running after 1s \(limit: --timeout\)$`, out)

	const limit = 64 << 20
	peak, code, out := child("verify", "treiber", "--method", "fly", "--threads", "6", "-q", "--json", "--max-memory", "64MiB")
	assert.Equal(t, 3, code, out)
	assert.Regexp(t, `^linbis: no verdict: `+flyStoredRE+`: memory limit reached: \d+ MiB in use, limit 64 MiB \(limit: --max-memory\)$`, out)
	assert.NotContains(t, out, "\n")
	// The watch samples every 100 ms and the search's tables grow by
	// doubling, so the peak may pass the limit by one growth step; without
	// the limit the run would need about 800 MB.
	t.Logf("peak RSS %d MiB under a limit of %d MiB", peak>>20, limit>>20)
	assert.Less(t, peak, int64(3*limit))
}
