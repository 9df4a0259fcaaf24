// Command linbis proves concurrent objects linearizable and lock-free by
// branching bisimulation, or shows why not. See the README for the verbs.
package main

// default.pgo in this directory is a CPU profile that guides the
// compiler's optimisation of this command (PGO); pgo.sh regenerates it.
//go:generate ./pgo.sh

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/urfave/cli/v2"
)

// commands collects the verbs; each verb's file adds its own in init, so
// that verbs live apart and do not touch one shared list.
var commands []*cli.Command

func register(c *cli.Command) { commands = append(commands, c) }

func newApp(stdout, stderr io.Writer) *cli.App {
	sort.Slice(commands, func(i, j int) bool { return commands[i].Name < commands[j].Name })
	stopProfile := func() error { return nil }
	return &cli.App{
		Name:      "linbis",
		Usage:     "prove concurrent objects linearizable and lock-free by branching bisimulation",
		Commands:  commands,
		Writer:    stdout,
		ErrWriter: stderr,
		Flags:     []cli.Flag{profileFlag},
		Before: func(c *cli.Context) error {
			stop, err := startProfile(c)
			if err == nil {
				stopProfile = stop
			}
			return err
		},
		After: func(*cli.Context) error { return stopProfile() },
		// Exit codes are ours to decide (see run), not urfave's.
		ExitErrHandler: func(*cli.Context, error) {},
	}
}

// run executes the CLI and returns the process exit code: 0 when the
// property holds (or the command succeeded), 1 when it fails, 2 on usage or
// input errors. Errors are printed as one line on stderr.
func run(args []string, stdout, stderr io.Writer) int {
	err := newApp(stdout, stderr).Run(args)
	if err == nil {
		return 0
	}
	var v *verdictError
	if errors.As(err, &v) {
		return v.code
	}
	fmt.Fprintf(stderr, "linbis: %v\n", err)
	return 2
}

// verdictError carries a non-zero verdict exit code (1: property violated)
// without an error message: the verdict has already been printed.
type verdictError struct{ code int }

func (e *verdictError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// violated is returned by a command whose property does not hold.
var violated = &verdictError{code: 1}

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}
