package main

import (
	"bytes"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

// runLimited runs a verb that blocks until the watchdog "exits" the
// process, and returns the exit code it asked for and stderr.
func runLimited(t *testing.T, args ...string) (int, string) {
	t.Helper()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	exited := make(chan int, 1)
	saved := exitProcess
	exitProcess = func(code int) { exited <- code }
	defer func() { exitProcess = saved }()
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
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "linbis spin: time limit reached: still running after 10ms")
}

func TestMaxMemoryStopsTheRunPlainly(t *testing.T) {
	code, stderr := runLimited(t, "MODEL", "--max-memory", "1KiB") // flags after the argument work too
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "linbis spin: memory limit reached")
	assert.Contains(t, stderr, "limit 1.0 KiB")
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
