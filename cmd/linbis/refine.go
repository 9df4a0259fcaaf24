package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/refine"
)

var refineCmd = &cli.Command{
	Name:  "refine",
	Usage: "check trace refinement: every trace of IMPL is a trace of SPEC (linearizability when SPEC is the atomic specification)",
	Description: exitHelp("IMPL refines SPEC", "it does not (the shortest implementation trace the specification cannot do is printed)",
		"--timeout", "--max-memory", "--max-pairs"),
	ArgsUsage: "IMPL.aut SPEC.aut",
	Flags: append([]cli.Flag{
		&cli.BoolFlag{Name: "antichain", Value: true, Usage: "prune pairs subsumed by a pair with a smaller specification subset"},
		&cli.BoolFlag{Name: "quotient", Value: true, Usage: "minimise both LTSs modulo divergence-preserving branching bisimilarity first"},
		&cli.IntFlag{Name: "max-pairs", Value: refine.DefaultMaxPairs, Usage: "give up after exploring this many pairs"},
		&cli.StringFlag{Name: "visible", Usage: "only labels matching this regular expression are visible, e.g. '^lin\\(' for linearization points (Liu et al. Thm 2)"},
		jsonFlag,
		&cli.StringFlag{Name: "export", Usage: "write the counterexample to `DIR` as .txt, .aut, .dot and .json"},
		quietFlag,
	}, limitFlags()...),
	Action: runRefine,
}

func runRefine(c *cli.Context) error {
	args, err := operands(c, 2, 2)
	if err != nil {
		return err
	}
	implPath, specPath := args[0], args[1]
	impl, err := readLTS(implPath, lts.ReadOptions{})
	if err != nil {
		return err
	}
	spec, err := readLTS(specPath, lts.ReadOptions{})
	if err != nil {
		return err
	}
	if err := atLeastOne(c, "max-pairs"); err != nil {
		return err
	}
	opts := refine.Options{Antichain: c.Bool("antichain"), Quotient: c.Bool("quotient"), MaxPairs: c.Int("max-pairs"),
		Context: c.Context}
	if pat := c.String("visible"); pat != "" {
		rx, err := regexp.Compile(pat)
		if err != nil {
			return fmt.Errorf("--visible: %v", err)
		}
		opts.Alphabet = rx.MatchString
	}
	m := meter.ForStderr(c.Bool("quiet"))
	opts.Progress = reporter(m)
	res, err := refine.Check(impl, spec, opts)
	m.Done()
	if err != nil {
		return err
	}

	if c.Bool("json") {
		if err := writeJSON(c, res.Report(implPath, specPath)); err != nil {
			return err
		}
	} else if err := writeRefineText(c, implPath, specPath, res); err != nil {
		return err
	}
	if res.Refines {
		return nil
	}
	if dir := c.String("export"); dir != "" {
		const base = "refine-counterexample"
		if err := res.Counterexample.Export(dir, base); err != nil {
			return err
		}
		if !c.Bool("json") {
			fmt.Fprintf(c.App.Writer, "counterexample written to %s.{txt,aut,dot,json}\n", filepath.Join(dir, base))
		}
	}
	return violated
}

func writeRefineText(c *cli.Context, impl, spec string, res *refine.Result) error {
	w := c.App.Writer
	st := res.Stats
	if res.Refines {
		fmt.Fprintf(w, "%s refines %s: every trace of the implementation is a trace of the specification\n", impl, spec)
	} else {
		fmt.Fprintf(w, "%s does NOT refine %s\n", impl, spec)
		if err := res.Counterexample.WriteText(w); err != nil {
			return err
		}
	}
	rows := []struct {
		k string
		v any
	}{
		{"pairs explored", st.Pairs}, {"pairs subsumed", st.Subsumed}, {"spec subsets", st.SpecSubsets},
		{"impl states", fmt.Sprintf("%d (input %d)", st.ImplStates, st.InputImplStates)},
		{"spec states", fmt.Sprintf("%d (input %d)", st.SpecStates, st.InputSpecStates)},
		{"time", (st.QuotientTime + st.SearchTime + st.ReplayTime).Round(time.Millisecond)},
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-16s %v\n", r.k, r.v)
	}
	return nil
}
