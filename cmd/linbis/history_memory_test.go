package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
	code := run(strings.Split(args, "\n"), os.Stdout, os.Stderr)
	// The peak of this process's own memory: getrusage's maxrss of a
	// child counts the parent's memory it shared before exec.
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		if m := regexp.MustCompile(`VmHWM:\s*(\d+) kB`).FindSubmatch(status); m != nil {
			fmt.Fprintf(os.Stderr, "%s %s\n", peakLine, m[1])
		}
	}
	os.Exit(code)
}

// peakLine starts the line on which TestHistoryChild reports its peak
// resident memory, in KiB.
const peakLine = "linbis-test-child-peak-kib"

// childPeak returns the peak resident memory that a child reported in
// out, or else the one getrusage gives.
func childPeak(cmd *exec.Cmd, out []byte) int64 {
	if m := regexp.MustCompile(peakLine + ` (\d+)`).FindSubmatch(out); m != nil {
		kib, _ := strconv.ParseInt(string(m[1]), 10, 64)
		return kib << 10
	}
	return int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10 // KiB on Linux
}

// TestHistoryMaxMemory runs histories that need far more memory than
// --max-memory allows, each in a process of its own, and checks that each
// stops for memory with the limit named and that the process's peak
// resident memory (getrusage, not an estimate) stayed under 1.1 × the
// limit: a search whose object states grow at every step; kv
// --no-partition, whose product states and step table are what fills
// the memory; and 10^6 events, whose reading is charged too. The peak
// past what the check holds is the collector's garbage, whose amount
// depends on its pace and so on the machine's load: the check leaves the
// collector room (history.liveShare), which keeps the peak near the limit
// at load 20 and more, where it passed the allowance before.
func TestHistoryMaxMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes for seconds")
	}
	// 200 concurrent appends of distinct 100-byte strings to one key and
	// a get of a value no order of them makes: the search meets a new
	// object state, up to 20 kB long, at nearly every configuration.
	var b strings.Builder
	for c := range 200 {
		fmt.Fprintf(&b, `{"client": %d, "call": 0, "return": 100, "method": "append", "key": "k", "input": "%03d%s"}`+"\n", c, c, strings.Repeat("x", 97))
	}
	b.WriteString(`{"client": 999, "call": 1, "return": 99, "method": "get", "key": "k", "output": "none"}` + "\n")
	hungry := writeFile(t, "hungry.jsonl", b.String())
	// 10^6 Jepsen events: writes and reads of a register, one per line.
	events := filepath.Join(t.TempDir(), "events.edn")
	f, err := os.Create(events)
	require.NoError(t, err)
	w := bufio.NewWriter(f)
	for i := range 500_000 {
		p := i % 8
		if i%2 == 0 {
			fmt.Fprintf(w, "{:process %d, :type :invoke, :f :write, :value %d}\n{:process %d, :type :ok, :f :write, :value %d}\n", p, i, p, i)
		} else {
			fmt.Fprintf(w, "{:process %d, :type :invoke, :f :read, :value nil}\n{:process %d, :type :ok, :f :read, :value %d}\n", p, p, i-1)
		}
	}
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())
	cases := []struct {
		name  string
		args  []string
		limit int64
		msg   string
	}{
		{"growing states", []string{hungry}, 256 << 20,
			"no verdict: memory budget of 256 MiB exhausted with 0 of 1 partitions decided (limit: --max-memory)"},
		{"kv --no-partition", []string{filepath.Join(porcupineData, "kv", "c50-ok.txt"), "--no-partition"}, 64 << 20,
			"no verdict: memory budget of 64 MiB exhausted with 0 of 1 partitions decided (limit: --max-memory)"},
		{"10^6 events", []string{events}, 128 << 20, "no verdict: memory budget of 128 MiB exhausted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.args[0], porcupineData) {
				needHistories(t)
			}
			args := append([]string{"linbis", "history", "-q", "--timeout", "5m", "--max-memory", fmt.Sprintf("%dMiB", c.limit>>20)}, c.args...)
			cmd := exec.Command(os.Args[0], "-test.run=^TestHistoryChild$")
			cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(args, "\n"))
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee, "%s", out)
			assert.Equal(t, 3, ee.ExitCode(), "%s", out)
			assert.Contains(t, string(out), c.msg)
			peak := childPeak(cmd, out)
			t.Logf("peak RSS %d MiB under a limit of %d MiB", peak>>20, c.limit>>20)
			assert.Less(t, peak, c.limit*11/10)
		})
	}
}
