package main

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/internal/limits"
)

// A run stopped by a limit has no verdict, whichever verb it was: it exits
// with exitLimit and one line that names the limit, and its --json output,
// when it made one, names it in "stopped_by". Hitting a limit is not a
// finding about the input: --max-nodes, a bound of the model's heap, is
// part of the model's semantics and exceeding it is a model error (exit 1).

// limit is a limit that can stop a run: its name in "stopped_by" and the
// flag that sets it.
type limit struct{ name, flag string }

// The limits.
var (
	timeLimit    = limit{"time", "--timeout"}
	memoryLimit  = limit{"memory", "--max-memory"}
	stateLimit   = limit{"states", "--max-states"}
	pairLimit    = limit{"pairs", "--max-pairs"}
	productLimit = limit{"product", "--max-product"}
)

// libraryLimits are the errors the libraries wrap when a limit stops them
// without a *limits.LimitError.
var libraryLimits = []struct {
	err   error
	limit limit
}{
	{frontend.ErrStateLimit, stateLimit},
	{format.ErrDeadline, timeLimit},
}

// limitOf maps the kinds of limits.LimitError to the CLI's limits.
var limitOf = map[limits.Kind]limit{limits.Time: timeLimit, limits.Memory: memoryLimit,
	limits.States: stateLimit, limits.Pairs: pairLimit, limits.Product: productLimit}

// stoppedError is a run stopped by l after it reported what it had (a
// report whose verdicts are left undecided); msg says what was hit.
type stoppedError struct {
	l   limit
	msg string
}

func (e *stoppedError) Error() string { return e.msg }

// stoppedBy returns the limit that err says stopped the run, or nil, and
// the message of the line that names it: err's, which says how far the
// stage that the limit stopped came (what it had stored), then the
// limit.
func stoppedBy(err error) (*limit, string) {
	var s *stoppedError
	if errors.As(err, &s) {
		return &s.l, s.msg
	}
	var le *limits.LimitError
	if errors.As(err, &le) {
		l := limitOf[le.Limit]
		return &l, err.Error()
	}
	for _, ll := range libraryLimits {
		if errors.Is(err, ll.err) {
			return &ll.limit, err.Error()
		}
	}
	return nil, ""
}

// exitProcess ends the process when a limit is hit and the run did not
// stop by itself; tests replace it.
var exitProcess = exitOnLimit

// stopGrace is how much CPU time the process may spend after the run's
// context has ended before the process is ended instead: a stage that does
// not poll the context (reading an input, writing an output) goes on until
// then. It is CPU time, not wall time: a run niced on a loaded machine
// gets a few per cent of a core, and 2 s of wall time were too short for
// the on-the-fly search of a 30-minute run to reach its next poll, which
// lost its report. 5 s: the stages that can run long all poll (the
// on-the-fly search's sort of a level's pairs too, piece by piece: 0.9 s
// of CPU time for 10 M pairs in one piece), and a few seconds more are
// nothing beside a lost report. A stage blocked without spending CPU time (reading a pipe) is
// ended after stopWallFactor times stopGrace of wall time.
var stopGrace = 5 * time.Second

// stopWallFactor bounds the wait in wall time, a multiple of stopGrace: 2
// minutes.
const stopWallFactor = 24

// graceOver returns a function that reports whether the grace, counted
// from now, is over: stopGrace of the process's CPU time spent, or
// stopWallFactor times it of wall time gone by (wall time alone where the
// system does not tell CPU time).
func graceOver() func() bool {
	start, cpu0 := time.Now(), limits.ProcessCPU()
	return func() bool {
		return limits.ProcessCPU()-cpu0 >= stopGrace || time.Since(start) >= stopWallFactor*stopGrace
	}
}

// limitFlags are --timeout and --max-memory, the same on every verb that
// can run long; guard enforces them through the verb's context
// (watchLimits).
func limitFlags() []cli.Flag {
	return []cli.Flag{
		&cli.DurationFlag{Name: "timeout", Usage: "stop with no verdict (exit 3) after this long, e.g. 10m (default: 0, no limit)"},
		&cli.StringFlag{Name: "max-memory", Usage: "stop with no verdict (exit 3) when the process holds `SIZE` of memory, e.g. 8GiB; 0: no limit",
			DefaultText: defaultMemoryText()},
	}
}

func defaultMemoryText() string {
	if m := limits.DefaultMemory(); m > 0 {
		return "90% of RAM, " + humanize.IBytes(uint64(m))
	}
	return "0, no limit"
}

// limitsFromFlags reads --timeout and --max-memory.
func limitsFromFlags(c *cli.Context) (limits.Limits, error) {
	l := limits.Limits{Time: c.Duration("timeout"), Memory: limits.DefaultMemory()}
	if l.Time < 0 {
		return l, fmt.Errorf("--timeout must not be negative, got %s", l.Time)
	}
	if c.IsSet("max-memory") {
		s := c.String("max-memory")
		mem, err := humanize.ParseBytes(s)
		if err != nil {
			return l, fmt.Errorf("--max-memory %q: expected a size such as 8GiB or 512MB, or 0 for none", s)
		}
		l.Memory = int64(mem)
	}
	return l, nil
}

// hasLimits reports whether a verb takes limitFlags.
func hasLimits(cmd *cli.Command) bool { return findFlag(cmd.Flags, "timeout") != nil }

// limitedByLibrary holds the verbs that bound themselves and report what
// they decided before the limit: history's check keeps its own memory
// budget, and the verb makes the context of --timeout, counted from
// before the file is read.
var limitedByLibrary = map[string]bool{"history": true}

// watchLimits bounds the running verb by its limits, if it takes them:
// c.Context becomes a context that --timeout and --max-memory end
// (limits.Watch), which the verb hands to the libraries, whose loops poll
// it and return an error wrapping a *limits.LimitError; run prints the
// line. A run that has not returned within stopGrace after the context
// ended (graceOver) is ended with that line. stop ends the watch.
func watchLimits(c *cli.Context) (stop func(), err error) {
	if !hasLimits(c.Command) {
		return func() {}, nil
	}
	l, err := limitsFromFlags(c)
	if err != nil {
		return nil, err
	}
	if limitedByLibrary[c.Command.Name] {
		return func() {}, nil
	}
	ctx, stopWatch := limits.Watch(c.Context, l, 100*time.Millisecond)
	c.Context = ctx
	var mu sync.Mutex
	returned := false
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-done:
			return
		}
		over := graceOver()
		tick := time.NewTicker(min(stopGrace, 100*time.Millisecond))
		defer tick.Stop()
		for !over() {
			select {
			case <-tick.C:
			case <-done:
				return
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if returned {
			return
		}
		hit, msg := stoppedBy(limits.Err(ctx))
		if hit == nil {
			return
		}
		// The line of every other limit (run), from another goroutine.
		fmt.Fprintf(c.App.ErrWriter, "linbis: no verdict: %s (limit: %s)\n", msg, hit.flag)
		exitProcess(exitLimit)
	}()
	return func() {
		mu.Lock()
		returned = true
		mu.Unlock()
		close(done)
		stopWatch()
	}, nil
}

// quietFlag silences progress reports; every verb that reports progress
// takes it.
var quietFlag = &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"}
