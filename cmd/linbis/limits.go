package main

import (
	"fmt"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/internal/limits"
)

// exitProcess ends the process when a limit is hit; tests replace it.
var exitProcess = exitOnLimit

// limitFlags are --timeout and --max-memory, the same on every verb that
// can run long; guard enforces them with a watchdog that stops the process
// with a plain message (exit 2) when a limit is reached.
func limitFlags() []cli.Flag {
	return []cli.Flag{
		&cli.DurationFlag{Name: "timeout", Usage: "stop with an error after this long, e.g. 10m (default: 0, no limit)"},
		&cli.StringFlag{Name: "max-memory", Usage: "stop with an error when the process holds `SIZE` of memory, e.g. 8GiB; 0: no limit",
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

// limitedByLibrary holds the verbs whose library honours --timeout and
// --max-memory itself and reports what it decided before the limit, a
// report that the watchdog would cut short.
var limitedByLibrary = map[string]bool{"history": true}

// watchLimits starts the watchdog of the running verb, if it takes limits;
// stop ends it.
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
	w := limits.Watch(l, 100*time.Millisecond, func(msg string) {
		fmt.Fprintf(c.App.ErrWriter, "linbis %s: %s\n", c.Command.Name, msg)
		exitProcess(2)
	})
	return w.Stop, nil
}

// quietFlag silences progress reports; every verb that reports progress
// takes it.
var quietFlag = &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"}
