package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/internal/files"
)

// Outputs: every file is written whole or not at all (internal/files),
// every output path is checked before the work starts, so that a run of
// minutes does not end in a path error with its verdict lost, and a run
// stopped by a signal or a limit leaves no incomplete file behind.

// outputFileFlags are the flags, on any verb, whose value names a file
// the verb writes; outputDirFlags, a folder it writes files into.
var (
	outputFileFlags = []string{"output", "spec-out", "html", "counterexample"}
	outputDirFlags  = []string{"export"}
)

// checkOutputs checks the output flags the verb was given.
func checkOutputs(c *cli.Context) error {
	for _, name := range outputFileFlags {
		if findFlag(c.Command.Flags, name) != nil && c.String(name) != "" {
			if err := files.CheckWritable(c.String(name)); err != nil {
				return fmt.Errorf("--%s %w", name, err)
			}
		}
	}
	for _, name := range outputDirFlags {
		if findFlag(c.Command.Flags, name) != nil && c.String(name) != "" {
			if err := files.CheckDir(c.String(name)); err != nil {
				return fmt.Errorf("--%s %w", name, err)
			}
		}
	}
	return nil
}

// exitOnLimit ends the process when a limit was hit and the run did not
// stop by itself (watchLimits), leaving no incomplete output; tests
// replace exitProcess.
func exitOnLimit(code int) {
	files.Abandon()
	os.Exit(code)
}

// handleSignals makes SIGINT (Ctrl-C) and SIGTERM stop the process as a
// user expects: the outputs being written are abandoned (no incomplete
// file appears), one line says why on stderr, and the exit status is
// 128 + the signal's number, as a shell reports it (130, 143).
func handleSignals(stderr io.Writer) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s := (<-ch).(syscall.Signal)
		files.Abandon()
		fmt.Fprintf(stderr, "linbis: stopped by %s; no incomplete output file was left\n", signalName(s))
		os.Exit(128 + int(s))
	}()
}

func signalName(s syscall.Signal) string {
	if s == syscall.SIGINT {
		return "SIGINT (interrupt)"
	}
	return "SIGTERM"
}
