package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/linbis/linbis/verify"
)

// run is the outcome of one `linbis verify` process.
type run struct {
	report   *verify.Report
	peakMiB  float64 // peak resident memory of the process
	wall     float64 // seconds
	timedOut bool
	err      error
}

// stage returns the seconds a stage took, or -1 when the run has none.
func (r *run) stage(name string) float64 {
	if r.report == nil {
		return -1
	}
	for _, s := range r.report.Stages {
		if s.Name == name {
			return s.Seconds
		}
	}
	return -1
}

// runVerify runs `linbis verify` on a case with extra flags, under the
// configured timeout and state limit, and measures its peak memory from the kernel's rusage.
func runVerify(bin string, c Case, cfg Config, flags ...string) *run {
	timeout := cfg.Timeout
	args := []string{"verify", c.Model, "--threads", strconv.Itoa(c.Threads), "--ops", strconv.Itoa(c.Ops), "--json"}
	if cfg.MaxStates > 0 {
		args = append(args, "--max-states", strconv.Itoa(cfg.MaxStates))
	}
	args = append(args, c.Extra...)
	args = append(args, flags...)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := &run{wall: time.Since(start).Seconds()}
	if cmd.ProcessState == nil {
		r.err = fmt.Errorf("linbis did not start: %v", err)
		return r
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakMiB = float64(ru.Maxrss) / 1024 // Maxrss is in KiB on Linux
	}
	if ctx.Err() == context.DeadlineExceeded {
		r.timedOut = true
		r.err = fmt.Errorf("timed out after %s", timeout)
		return r
	}
	// Exit 0 and 1 are verdicts; exit 2 with a report on stdout is a run
	// that hit a limit (its notes say which); any other failure is an error.
	var exit *exec.ExitError
	verdict := err == nil || (errors.As(err, &exit) && exit.ExitCode() == 1)
	report := &verify.Report{}
	if jsonErr := json.Unmarshal(stdout.Bytes(), report); jsonErr == nil {
		r.report = report
	} else if verdict {
		r.err = fmt.Errorf("linbis %v: bad JSON: %v", args, jsonErr)
		return r
	}
	if !verdict {
		// linbis says what went wrong in one line (a limit, an error in the
		// model); the command line is only worth showing when it did not.
		if msg := strings.TrimPrefix(string(bytes.TrimSpace(stderr.Bytes())), "linbis: "); msg != "" {
			r.err = errors.New(msg)
		} else {
			r.err = fmt.Errorf("linbis %v: %v", args, err)
		}
	}
	return r
}
