package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childArgs, when set in the environment, makes TestHistoryChild run
// linbis with these arguments (separated by newlines) and exit with its
// code: a separate process, whose peak memory the parent can measure.
const childArgs = "LINBIS_TEST_CHILD_ARGS"

func TestHistoryChild(t *testing.T) {
	args := os.Getenv(childArgs)
	if args == "" {
		t.Skip("runs only as the child of TestHistoryMaxMemory")
	}
	os.Exit(run(strings.Split(args, "\n"), os.Stdout, os.Stderr))
}

// TestHistoryMaxMemory runs a history whose search needs far more than
// 256 MiB under --max-memory 256MiB, in a process of its own, and checks
// that it stops for memory with the limit named and that the process's
// peak resident memory (getrusage, not an estimate) stayed under
// 1.1 × 256 MiB.
func TestHistoryMaxMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process for seconds")
	}
	// 200 concurrent appends of distinct 100-byte strings to one key and
	// a get of a value no order of them makes: the search meets a new
	// object state, up to 20 kB long, at nearly every configuration.
	var b strings.Builder
	for c := range 200 {
		fmt.Fprintf(&b, `{"client": %d, "call": 0, "return": 100, "method": "append", "key": "k", "input": "%03d%s"}`+"\n", c, c, strings.Repeat("x", 97))
	}
	b.WriteString(`{"client": 999, "call": 1, "return": 99, "method": "get", "key": "k", "output": "none"}` + "\n")
	file := writeFile(t, "hungry.jsonl", b.String())

	const limit = 256 << 20
	cmd := exec.Command(os.Args[0], "-test.run=^TestHistoryChild$")
	cmd.Env = append(os.Environ(), childArgs+"=linbis\nhistory\n-q\n--timeout\n5m\n--max-memory\n256MiB\n"+file)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "%s", out)
	assert.Equal(t, 3, ee.ExitCode(), "%s", out)
	assert.Contains(t, string(out), "no verdict: memory budget of 256 MiB exhausted with 0 of 1 partitions decided (limit: --max-memory)")
	peak := int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10 // KiB on Linux
	t.Logf("peak RSS %d MiB under a limit of %d MiB", peak>>20, limit>>20)
	assert.Less(t, peak, int64(limit*11/10))
}
