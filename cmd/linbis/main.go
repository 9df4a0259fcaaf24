// Command linbis proves concurrent objects linearizable and lock-free by
// branching bisimulation, or shows why not. See the README for the verbs.
//
// Each verb is a package-level `var xxxCmd = &cli.Command{…, Action:
// runXxx}` in its own file, listed in commands below. What every verb shares
// is done once, here and in argv.go: flags are accepted before or after the
// arguments (normalizeArgs), --help or -h anywhere shows help and does
// nothing else, an unknown verb or flag is one line with a suggestion, and
// every run is guarded by its limits (guard). The --json outputs of the
// checks are the libraries' report types (verify.Report,
// relation.Report, refine.Report, progress.Report, history.Report,
// frontend.CompileReport), which carry their JSON tags; the CLI marshals
// them and declares only the reports of its file verbs (info, reduce,
// convert, compile --list) and that of a model error (modelErrorReport).
// Each output has its JSON Schema in schema/ (verify's in verify/).
package main

// default.pgo in this directory is a CPU profile that guides the
// compiler's optimisation of this command (PGO); pgo.sh regenerates it.
//go:generate ./pgo.sh

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
)

// commands is the table of verbs, in the order help lists them.
func commands() []*cli.Command {
	return []*cli.Command{
		compareCmd,
		compileCmd,
		completionCmd,
		convertCmd,
		historyCmd,
		infoCmd,
		progressCmd,
		reduceCmd,
		refineCmd,
		showCmd,
		verifyCmd,
		versionCmd,
	}
}

func newApp(stdout, stderr io.Writer) *cli.App {
	stopProfile := func() error { return nil }
	var cmds []*cli.Command
	for _, c := range commands() {
		cmds = append(cmds, guard(c))
	}
	return &cli.App{
		Name:      "linbis",
		Usage:     "prove concurrent objects linearizable and lock-free by branching bisimulation",
		Version:   versionLine(),
		Commands:  cmds,
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
		OnUsageError:   usageError,
	}
}

// guard returns a copy of cmd whose action runs once its output paths are
// checked (checkOutputs), under the limits the verb declares (limitFlags). The copy keeps the table itself unchanged, so that
// tests can run the CLI many times in one process.
func guard(cmd *cli.Command) *cli.Command {
	c := *cmd
	c.OnUsageError = usageError
	c.HideHelpCommand = true
	action := cmd.Action
	c.Action = func(ctx *cli.Context) error {
		if err := checkOutputs(ctx); err != nil {
			return err
		}
		stop, err := watchLimits(ctx)
		if err != nil {
			return err
		}
		defer stop()
		return action(ctx)
	}
	return &c
}

// The exit statuses, the same on every verb (the README's table); a
// signal ends the process with 128 + its number (handleSignals).
const (
	exitHolds = 0 // the property holds, or the command did its job
	exitNot   = 1 // the property fails, or the model has a run-time error
	exitError = 2 // bad input, usage or another error
	exitLimit = 3 // a limit (time, memory, states, pairs, product) stopped the run before its verdict
)

// run executes the CLI and returns the process exit code (see exitHolds).
// Errors are printed as one line on stderr.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	args, err := normalizeArgs(app, args)
	if err == nil {
		err = app.Run(args)
	}
	if err == nil {
		return exitHolds
	}
	var v *verdictError
	if errors.As(err, &v) {
		return v.code
	}
	if l, msg := stoppedBy(err); l != nil {
		fmt.Fprintf(stderr, "linbis: no verdict: %s (limit: %s)\n", msg, l.flag)
		return exitLimit
	}
	fmt.Fprintf(stderr, "linbis: %v\n", err)
	return exitError
}

// exitHelp is the exit-status paragraph of a verb's help: what 0 and 1
// mean for it (not empty when it never exits 1), and which limits can end
// it with exitLimit.
func exitHelp(holds, not string, limits ...string) string {
	s := "Exit status: 0 " + holds
	if not != "" {
		s += ", 1 " + not
	}
	s += ", 2 error (bad input or usage)"
	if len(limits) > 0 {
		s += ",\n3 a limit (" + strings.Join(limits, ", ") + ") stopped the run before its verdict; one line on stderr names it"
	}
	return s + "."
}

// verdictError carries a non-zero exit code without an error message: the
// verdict, or what a limit left undecided, has already been printed.
type verdictError struct{ code int }

func (e *verdictError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// violated is returned by a command whose property does not hold.
var violated = &verdictError{code: exitNot}

func main() {
	handleSignals(os.Stderr)
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}
