package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/relation"
)

var compareCmd = &cli.Command{
	Name:      "compare",
	Usage:     "decide whether two LTSs are strongly, branching or divergence-preserving branching bisimilar, or trace / weak-trace equivalent",
	ArgsUsage: "A.aut B.aut",
	Description: "When A and B differ, a formula of the equivalence's modal logic, true in one and false in the other\n" +
		"(model-checked on both first), is printed in words with the paths that witness it.\n" +
		exitHelp("equivalent (or included)", "not (the distinguishing formula or trace is printed)", "--timeout", "--max-memory", "--max-pairs of a trace relation"),
	Flags: append([]cli.Flag{
		compareEquivFlag, preorderFlag, bisimAlgorithmFlag, bisimWorkersFlag, quietFlag, tauFlag,
		&cli.StringFlag{Name: "counterexample", Usage: "when not equivalent, write the distinguishing formula and its witnessing path to `FILE` " +
			"(.txt explanation, .json formula tree, .mcf mCRL2 formula with its .mcrl2 declarations, .aut or .dot path, by extension; a name without extension gets them all)"},
		&cli.BoolFlag{Name: "json", Usage: "machine-readable verdict"},
		&cli.IntFlag{Name: "max-pairs", Value: bisim.DefaultMaxPairs,
			Usage: "bound on the pairs of state sets searched for a distinguishing trace (past it, the formula is built without one)"},
	}, limitFlags()...),
	Action: runCompare,
}

var (
	compareEquivFlag = &cli.StringFlag{Name: "equiv", Aliases: []string{"equivalence", "e"}, Value: "divbranching",
		Usage: "equivalence: " + relation.Names(relation.All())}
	preorderFlag = &cli.StringFlag{Name: "preorder", Aliases: []string{"p"},
		Usage: "instead of an equivalence, decide whether A's traces are included in B's: `trace` or weak-trace (as mCRL2's ltscompare -p)"}
)

func runCompare(c *cli.Context) error {
	args, err := operands(c, 2, 2)
	if err != nil {
		return err
	}
	if err := atLeastOne(c, "max-pairs"); err != nil {
		return err
	}
	opts := relation.Options{NameA: args[0], NameB: args[1], Preorder: c.IsSet("preorder")}
	var r relation.Relation
	if opts.Preorder {
		if c.IsSet("equiv") {
			return fmt.Errorf("give --equiv or --preorder, not both")
		}
		name := c.String("preorder")
		if r, err = relation.ParseOneOf(name, relation.Preorders()); err != nil {
			return fmt.Errorf("--preorder %q: expected %s", name, relation.Names(relation.Preorders()))
		}
	} else if r, err = relation.Parse(c.String("equiv")); err != nil {
		return err
	}
	if c.IsSet("max-pairs") {
		opts.MaxPairs = c.Int("max-pairs")
	}
	var m *meter.Meter
	if _, ok := r.Bisimilarity(); ok {
		if opts.Bisim, m, err = bisimOptions(c); err != nil {
			return err
		}
		defer m.Done()
	}
	opts.Bisim.Context = c.Context
	var ls [2]*lts.LTS
	for i, name := range args {
		if ls[i], err = readInput(c, name); err != nil {
			return err
		}
	}
	res, err := relation.Compare(ls[0], ls[1], r, opts)
	if err != nil {
		return err
	}
	m.Done()
	if c.Bool("json") {
		err = writeJSON(c, res.Report)
	} else {
		err = res.WriteText(c.App.Writer)
	}
	if err != nil {
		return err
	}
	if !res.Holds {
		// After the verdict: a failed write must not lose it.
		if file := c.String("counterexample"); file != "" {
			if err := res.WriteCounterexample(file); err != nil {
				return err
			}
		}
		return violated
	}
	return nil
}
