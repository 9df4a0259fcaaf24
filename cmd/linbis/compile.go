package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/lts"
)

var compileCmd = &cli.Command{
	Name:  "compile",
	Usage: "explore a model (.lin file or bundled example name) into implementation and specification LTSs",
	Description: "MODEL is a .lin file or the name of a bundled example (--list shows them).\n" +
		"The client bounds default to the model's client block. A failed assert or other\n" +
		"run-time error of the model prints its trace and exits with status 1.\n" +
		exitHelp("compiled", "a run-time error of the model", "--timeout", "--max-memory", "--max-states"),
	ArgsUsage: "MODEL",
	Flags: append(modelFlags(),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the implementation LTS here (.aut or .dot)"},
		&cli.StringFlag{Name: "spec-out", Usage: "write the specification LTS here (.aut or .dot)"},
		&cli.BoolFlag{Name: "list", Usage: "list the bundled models, each with its summary, its verdicts and the bounds at which they hold, and exit"},
		&cli.BoolFlag{Name: "steps", Usage: "print each method's instructions, where its steps end and which locals are dead, and exit"},
		jsonFlag, formatFlag,
	),
	Action: runCompile,
}

func runCompile(c *cli.Context) error {
	w := c.App.Writer
	if c.String("output") == "-" || c.String("spec-out") == "-" {
		if c.String("output") == c.String("spec-out") {
			return fmt.Errorf("-o and --spec-out cannot both be standard output (-)")
		}
		w = c.App.ErrWriter // stdout carries the LTS
	}
	if c.Bool("list") {
		return listModels(c)
	}
	// A bad output name is said before the exploration, not after it.
	for _, out := range []string{c.String("output"), c.String("spec-out")} {
		if out != "" {
			if _, err := outputFormat(c, out); err != nil {
				return err
			}
		}
	}
	m, err := loadModel(c)
	if err != nil {
		return err
	}
	b, err := boundsFromFlags(c, m)
	if err != nil {
		return err
	}
	if c.Bool("steps") {
		opts, mt := optionsFromFlags(c, "")
		mt.Done()
		return frontend.Listing(w, m, b, opts)
	}
	opts, mt := optionsFromFlags(c, "exploring")
	start := time.Now()
	impl, spec, err := frontend.Compile(m, b, opts)
	mt.Done()
	elapsed := time.Since(start).Seconds()
	if err != nil {
		return reportModelError(c, m.Name, err)
	}
	if out := c.String("output"); out != "" {
		if err := writeLTS(c, out, impl); err != nil {
			return err
		}
	}
	if out := c.String("spec-out"); out != "" {
		if err := writeLTS(c, out, spec); err != nil {
			return err
		}
	}
	heap := "garbage-collected"
	if opts.Explicit || m.Program.Explicit {
		heap = "explicit"
	}
	rep := frontend.CompileReport{Model: m.File, Bounds: b, Heap: heap,
		Impl: lts.ComputeStats(impl), Spec: lts.ComputeStats(spec), Seconds: elapsed}
	if c.Bool("json") {
		return writeJSON(c, rep)
	}
	fmt.Fprintf(w, "%s (%s): %s, %s heap\n", m.Name, m.File, b, heap)
	for _, r := range []struct {
		name string
		st   lts.Stats
	}{{"implementation", rep.Impl}, {"specification", rep.Spec}} {
		fmt.Fprintf(w, "  %-15s %10d states %11d transitions %11d τ  %d divergent states\n",
			r.name, r.st.States, r.st.Transitions, r.st.TauTransitions, r.st.DivergentStates)
	}
	total := rep.Impl.States + rep.Spec.States
	fmt.Fprintf(w, "  time            %.2fs (%.0f states/s)\n", elapsed, float64(total)/max(elapsed, 1e-9))
	return nil
}
