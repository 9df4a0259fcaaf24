package main

import (
	"fmt"
	"os"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/internal/limits"
)

// exitProcess ends the process when a limit is hit; tests replace it.
var exitProcess = os.Exit

// withLimits gives a verb that can run long the --timeout and --max-memory
// flags, and runs its action under a watchdog that stops the process with
// a plain message (exit 2) when a limit is reached.
func withLimits(cmd *cli.Command) *cli.Command {
	def := "0"
	if m := limits.DefaultMemory(); m > 0 {
		def = humanize.IBytes(uint64(m))
	}
	cmd.Flags = append(cmd.Flags,
		&cli.DurationFlag{Name: "timeout", Usage: "stop with an error after this long, e.g. 10m (0: no limit)"},
		&cli.StringFlag{Name: "max-memory", Value: def,
			Usage: "stop with an error when the process holds this much memory, e.g. 8GiB (default: 90% of RAM; 0: no limit)"},
	)
	action := cmd.Action
	cmd.Action = func(c *cli.Context) error {
		// Flags may follow the model or file argument; apply them first.
		if _, err := positionalArgs(c); err != nil {
			return err
		}
		mem, err := humanize.ParseBytes(c.String("max-memory"))
		if err != nil {
			return fmt.Errorf("--max-memory: %v (expected a size such as 8GiB, or 0 for none)", err)
		}
		if c.Duration("timeout") < 0 {
			return fmt.Errorf("--timeout must not be negative, got %s", c.Duration("timeout"))
		}
		w := limits.Watch(limits.Limits{Time: c.Duration("timeout"), Memory: int64(mem)}, 100*time.Millisecond, func(msg string) {
			fmt.Fprintf(c.App.ErrWriter, "linbis %s: %s\n", c.Command.Name, msg)
			exitProcess(2)
		})
		defer w.Stop()
		return action(c)
	}
	return cmd
}
