package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/frontend"
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
// the bounds it was compiled under.
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
		return nil, nil, reportModelError(c, m.Name, err)
	}
	return l, &b, nil
}

func runProgress(c *cli.Context) error {
	args, err := operands(c, 1, 1)
	if err != nil {
		return err
	}
	if err := atLeastOne(c, "max-product"); err != nil {
		return err
	}
	path := args[0]
	l, bounds, err := loadProgressInput(c, path)
	if err != nil {
		return err
	}
	props := progress.Supported(l)
	if names := c.StringSlice("property"); len(names) > 0 {
		props = nil
		for _, name := range names {
			for _, part := range strings.Split(name, ",") {
				p, err := progress.ParseProperty(part)
				if err != nil {
					return err
				}
				props = append(props, p)
			}
		}
	}
	m := meter.ForStderr(c.Bool("json"))
	results, err := checkProgress(l, props, progress.Options{MaxProductStates: c.Int("max-product"), Progress: reporter(m), Context: c.Context})
	m.Done()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if dir := c.String("export"); dir != "" {
		for _, r := range results {
			if r.Lasso != nil {
				if err := r.Lasso.Export(dir, "lasso-"+r.Property.String()); err != nil {
					return err
				}
			}
		}
	}
	if c.Bool("json") {
		// A model's bounds go beside the library's report, in the shape
		// every verb uses.
		report := struct {
			progress.Report
			Bounds *frontend.Bounds `json:"bounds,omitempty"`
		}{progress.Report{File: path, States: l.NumStates, Transitions: l.NumTransitions(), Results: results}, bounds}
		if err := writeJSON(c, report); err != nil {
			return err
		}
	} else if err := printProgress(c, path, l, results); err != nil {
		return err
	}
	for _, r := range results {
		if !r.Holds {
			return violated
		}
	}
	return nil
}

// checkProgress decides props on l, annotating it once.
func checkProgress(l *lts.LTS, props []progress.Property, opts progress.Options) ([]*progress.Result, error) {
	checker, err := progress.NewCheckerOptions(l, opts)
	if err != nil {
		return nil, err
	}
	var results []*progress.Result
	for _, p := range props {
		r, err := checker.Check(p)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	return results, nil
}

func printProgress(c *cli.Context, path string, l *lts.LTS, results []*progress.Result) error {
	w := c.App.Writer
	fmt.Fprintf(w, "%s: %d states, %d transitions\n", filepath.Base(path), l.NumStates, l.NumTransitions())
	for _, r := range results {
		verdict := "holds"
		if !r.Holds {
			verdict = "VIOLATED"
		}
		fmt.Fprintf(w, "%-16s %-8s %s\n", r.Property, verdict, r.Explanation)
	}
	for _, r := range results {
		if r.Lasso == nil {
			continue
		}
		fmt.Fprintln(w)
		if err := r.Lasso.WriteText(w); err != nil {
			return err
		}
	}
	if l.Meta == nil {
		fmt.Fprintln(w, "\n(waitfree, obstructionfree and starvationfree need thread attribution, which a plain .aut file lacks)")
	}
	return nil
}
