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
	cpu      float64 // seconds of user and system time
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

// caseArgs are the arguments that give linbis a case's model and bounds.
func caseArgs(verb string, c Case, cfg Config) []string {
	args := []string{verb, c.Model, "--threads", strconv.Itoa(c.Threads), "--ops", strconv.Itoa(c.Ops)}
	if cfg.MaxStates > 0 {
		args = append(args, "--max-states", strconv.Itoa(cfg.MaxStates))
	}
	for _, f := range c.Extra {
		if verb == "compile" && f == "--lin-points" {
			f = "--lin" // what verify --lin-points generates: lin events made visible
		}
		args = append(args, f)
	}
	return args
}

// runCompile runs `linbis compile` on a case: the generation alone, for
// its peak memory.
func runCompile(bin string, c Case, cfg Config) *run {
	r, _, err := execLinbis(bin, caseArgs("compile", c, cfg), cfg.Timeout)
	if r.err == nil && err != nil {
		r.err = err
	}
	return r
}

// runVerify runs `linbis verify --json` on a case with extra flags and
// reads its report.
func runVerify(bin string, c Case, cfg Config, flags ...string) *run {
	args := append(caseArgs("verify", c, cfg), "--json")
	args = append(args, flags...)
	r, stdout, err := execLinbis(bin, args, cfg.Timeout)
	if r.err != nil {
		return r
	}
	// Exit 0 and 1 are verdicts; exit 3 is a run that hit a limit (with
	// the report of what it decided on stdout, its stopped_by naming the
	// limit); any other failure is an error.
	var exit *exec.ExitError
	verdict := err == nil || (errors.As(err, &exit) && exit.ExitCode() == 1)
	report := &verify.Report{}
	if jsonErr := json.Unmarshal(stdout, report); jsonErr == nil {
		r.report = report
	} else if verdict {
		r.err = fmt.Errorf("linbis %v: bad JSON: %v", args, jsonErr)
		return r
	}
	if !verdict {
		r.err = err
	}
	return r
}

// execLinbis runs linbis with args under a timeout and measures its wall
// time and its peak memory (the kernel's rusage). r.err is set when it
// did not start or timed out; otherwise err is its failure, if any, as
// linbis's one-line message (a limit, an error in the model).
func execLinbis(bin string, args []string, timeout time.Duration) (r *run, stdout []byte, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	start := time.Now()
	runErr := cmd.Run()
	r = &run{wall: time.Since(start).Seconds()}
	if cmd.ProcessState == nil {
		r.err = fmt.Errorf("linbis did not start: %v", runErr)
		return r, nil, nil
	}
	r.cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakMiB = float64(ru.Maxrss) / 1024 // Maxrss is in KiB on Linux
	}
	if ctx.Err() == context.DeadlineExceeded {
		r.timedOut = true
		r.err = fmt.Errorf("timed out after %s", timeout)
		return r, nil, nil
	}
	if runErr == nil {
		return r, out.Bytes(), nil
	}
	// The command line is only worth showing when linbis said nothing.
	if msg := strings.TrimPrefix(string(bytes.TrimSpace(stderr.Bytes())), "linbis: "); msg != "" {
		return r, out.Bytes(), &exitError{runErr, msg}
	}
	return r, out.Bytes(), &exitError{runErr, fmt.Sprintf("linbis %v: %v", args, runErr)}
}

// exitError is a failed linbis run: its exit status (for errors.As) and
// its message.
type exitError struct {
	err error
	msg string
}

func (e *exitError) Error() string { return e.msg }
func (e *exitError) Unwrap() error { return e.err }
