package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/explore"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/progress"
)

var progressCmd = &cli.Command{
	Name:  "progress",
	Usage: "decide progress properties (lock-freedom, wait-freedom, …) of an object's LTS, with lasso counterexamples",
	Description: "Checks the LTS of a concurrent object under a most-general client, whose visible actions are\n" +
		"call(T,M,ARGS) and ret(T,M,VAL). Without --property it checks every property the input supports:\n" +
		"lockfree and deadlockfree need only the labels; waitfree, obstructionfree and starvationfree need\n" +
		"to know which thread took each internal step, which a plain .aut file does not record.\n" +
		exitHelp("all hold", "some property is violated (a lasso is printed), or a run-time error of the model",
			"--timeout", "--max-memory", "--max-states", "--max-product"),
	ArgsUsage: "FILE.aut | MODEL.lin | bundled model name",
	Flags: append(modelFlags(),
		&cli.StringSliceFlag{Name: "property", Aliases: []string{"p"},
			Usage: "property to check: lockfree, waitfree, obstructionfree, deadlockfree, starvationfree (repeatable; default: all the input supports)"},
		jsonFlag,
		&cli.StringFlag{Name: "export", Usage: "write each counterexample to `DIR` as .txt, .aut, .dot and .json"},
		&cli.IntFlag{Name: "max-product", Value: progress.DefaultMaxProductStates,
			Usage: "bound on the product with pending sets, built only when the states do not determine the pending operations (e.g. a reduced LTS)"},
	),
	Action: runProgress,
}

// loadProgressInput reads the LTS the progress verb checks: an .aut or .dot
// file as it is, or a model (a .lin file or a bundled model's name)
// compiled under the client-bound flags into its implementation LTS, whose
// transitions carry threads and source lines. For a model it also returns
// the bounds it was compiled under, also when a limit stopped the
// exploration (an error wrapping an *explore.StoppedError).
func loadProgressInput(c *cli.Context, path string) (*lts.LTS, *frontend.Bounds, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".aut", ".dot", ".gv":
		l, err := readLTS(path, lts.ReadOptions{})
		return l, nil, err
	}
	if path == "-" {
		l, err := readLTS(path, lts.ReadOptions{})
		return l, nil, err
	}
	m, err := loadModel(c)
	if err != nil {
		return nil, nil, err
	}
	b, err := boundsFromFlags(c, m)
	if err != nil {
		return nil, nil, err
	}
	opts, mt := optionsFromFlags(c, "exploring")
	defer mt.Done()
	l, err := frontend.CompileImpl(m, b, opts)
	if err != nil {
		return nil, &b, reportModelError(c, m.Name, err)
	}
	return l, &b, nil
}

// progressReport is progress's --json report: a model's bounds go beside
// the library's report, in the shape every verb uses.
type progressReport struct {
	progress.Report
	Bounds *frontend.Bounds `json:"bounds,omitempty"` // the model's client bounds; nil for an .aut file
}

func runProgress(c *cli.Context) error {
	args, err := operands(c, 1, 1)
	if err != nil {
		return err
	}
	if err := atLeastOne(c, "max-product"); err != nil {
		return err
	}
	props, err := propertiesFromFlags(c)
	if err != nil {
		return err
	}
	path := args[0]
	l, bounds, err := loadProgressInput(c, path)
	// A limit leaves a report of what was stored and decided before it,
	// written as a finished run's is, then the limit's line (run).
	rep := progressReport{Report: progress.Report{File: path, Results: []*progress.Result{}}, Bounds: bounds}
	var stopped error // the limit that stopped the run
	if err != nil {
		var se *explore.StoppedError
		if hit, _ := stoppedBy(err); hit == nil || !errors.As(err, &se) {
			return err // not a limit (an interrupt's cancel is none)
		}
		rep.States, rep.Transitions = int32(se.States), se.Transitions
		stopped = err
	} else {
		rep.States, rep.Transitions = l.NumStates, l.NumTransitions()
		if props == nil {
			props = progress.Supported(l)
		}
		m := meter.ForStderr(c.Bool("json"))
		results, err := checkProgress(l, props, progress.Options{MaxProductStates: c.Int("max-product"), Progress: reporter(m), Context: c.Context})
		m.Done()
		rep.Results = append(rep.Results, results...)
		if err != nil {
			if hit, _ := stoppedBy(err); hit == nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			stopped = err
		}
	}
	if stopped != nil {
		hit, msg := stoppedBy(stopped)
		rep.StoppedBy, rep.Reason = hit.name, msg
	} else if dir := c.String("export"); dir != "" {
		// Only a finished run writes files, as verify's.
		for _, r := range rep.Results {
			if r.Lasso != nil {
				if err := r.Lasso.Export(dir, "lasso-"+r.Property.String()); err != nil {
					return err
				}
			}
		}
	}
	if c.Bool("json") {
		err = writeJSON(c, rep)
	} else {
		err = printProgress(c, &rep.Report, l, props)
	}
	if err != nil {
		return err
	}
	if stopped != nil {
		return stopped
	}
	for _, r := range rep.Results {
		if !r.Holds {
			return violated
		}
	}
	return nil
}

// propertiesFromFlags returns the properties --property names, nil
// without it (all that the input supports).
func propertiesFromFlags(c *cli.Context) ([]progress.Property, error) {
	var props []progress.Property
	for _, name := range c.StringSlice("property") {
		for _, part := range strings.Split(name, ",") {
			p, err := progress.ParseProperty(part)
			if err != nil {
				return nil, err
			}
			props = append(props, p)
		}
	}
	return props, nil
}

// checkProgress decides props on l, annotating it once. At an error (a
// limit) it returns the results decided before it with the error.
func checkProgress(l *lts.LTS, props []progress.Property, opts progress.Options) ([]*progress.Result, error) {
	checker, err := progress.NewCheckerOptions(l, opts)
	if err != nil {
		return nil, err
	}
	var results []*progress.Result
	for _, p := range props {
		r, err := checker.Check(p)
		if err != nil {
			return results, err
		}
		results = append(results, r)
	}
	return results, nil
}

// printProgress writes rep for a person: the LTS's size, a line a
// property, the lassos; at a limit, the properties left undecided and the
// limit's reason. l is the LTS checked, nil when a limit stopped the
// model's exploration; props are those asked for, nil when the exploration
// stopped before they were known.
func printProgress(c *cli.Context, rep *progress.Report, l *lts.LTS, props []progress.Property) error {
	w := c.App.Writer
	stored := ""
	if l == nil {
		stored = " stored when the exploration stopped"
	}
	fmt.Fprintf(w, "%s: %d states, %d transitions%s\n", filepath.Base(rep.File), rep.States, rep.Transitions, stored)
	decided := map[progress.Property]bool{}
	for _, r := range rep.Results {
		verdict := "holds"
		if !r.Holds {
			verdict = "VIOLATED"
		}
		fmt.Fprintf(w, "%-16s %-8s %s\n", r.Property, verdict, r.Explanation)
		decided[r.Property] = true
	}
	if rep.StoppedBy != "" {
		for _, p := range props {
			if !decided[p] {
				fmt.Fprintf(w, "%-16s %-8s a limit stopped the check first\n", p, "unknown")
			}
		}
		fmt.Fprintf(w, "stopped by the %s limit: %s\n", rep.StoppedBy, rep.Reason)
	}
	for _, r := range rep.Results {
		if r.Lasso == nil {
			continue
		}
		fmt.Fprintln(w)
		if err := r.Lasso.WriteText(w); err != nil {
			return err
		}
	}
	if l != nil && l.Meta == nil {
		fmt.Fprintln(w, "\n(waitfree, obstructionfree and starvationfree need thread attribution, which a plain .aut file lacks)")
	}
	return nil
}
