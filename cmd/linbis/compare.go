package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/lts"
)

var compareCmd = &cli.Command{
	Name:      "compare",
	Usage:     "decide whether two LTSs are strongly, branching or divergence-preserving branching bisimilar, or trace / weak-trace equivalent",
	ArgsUsage: "A.aut B.aut",
	Description: "When A and B differ, a formula of the equivalence's modal logic, true in one and false in the other\n" +
		"(model-checked on both first), is printed in words with the paths that witness it.\n" +
		exitHelp("equivalent (or included)", "not (the distinguishing formula or trace is printed)", "--timeout", "--max-memory", "--max-pairs of a trace relation"),
	Flags: append([]cli.Flag{
		compareEquivFlag, preorderFlag, bisimAlgorithmFlag, quietFlag, tauFlag,
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
		Usage: "equivalence: strong, branching, divbranching (mCRL2's bisim, branching-bisim, dpbranching-bisim), trace or weak-trace"}
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
	relation, preorder := c.String("equiv"), false
	if c.IsSet("preorder") {
		if c.IsSet("equiv") {
			return fmt.Errorf("give --equiv or --preorder, not both")
		}
		relation, preorder = c.String("preorder"), true
		if !traceRelations[relation] {
			return fmt.Errorf("--preorder %q: expected trace or weak-trace", relation)
		}
	}
	if traceRelations[relation] {
		var ls [2]*lts.LTS
		for i, name := range args {
			if ls[i], err = readInput(c, name); err != nil {
				return err
			}
		}
		return runTraceCompare(c, args, ls, relation, preorder)
	}
	eq, opts, m, err := bisimOptions(c)
	if err != nil {
		return err
	}
	defer m.Done()
	var ls [2]*lts.LTS
	for i, name := range args {
		if ls[i], err = readInput(c, name); err != nil {
			return err
		}
	}
	opts.NameA, opts.NameB = args[0], args[1]
	opts.MaxPairs = c.Int("max-pairs")
	res, err := bisim.Compare(ls[0], ls[1], eq, opts)
	if err != nil {
		return err
	}
	m.Done()
	ev := res.Evidence
	if c.Bool("json") {
		if err := writeJSON(c, res.Report(args[0], args[1], eq)); err != nil {
			return err
		}
	} else {
		w := c.App.Writer
		verdict := "equivalent"
		if !res.Equivalent {
			verdict = "NOT equivalent"
		}
		fmt.Fprintf(w, "%s and %s are %s modulo %s bisimilarity (%d + %d states, %d classes)\n",
			args[0], args[1], verdict, eq, res.StatesA, res.StatesB, res.Classes)
		if !res.Equivalent {
			if err := ev.WriteText(w); err != nil {
				return err
			}
		}
	}
	if !res.Equivalent {
		// After the verdict: a failed write must not lose it.
		if file := c.String("counterexample"); file != "" {
			if err := writeCounterexample(file, ev); err != nil {
				return err
			}
		}
		return violated
	}
	return nil
}

// writeCounterexample writes the evidence to file in the format its
// extension names, or in all of them when it has none.
func writeCounterexample(file string, ev *bisim.FormulaEvidence) error {
	ext := strings.ToLower(filepath.Ext(file))
	switch ext {
	case "":
		return ev.Export(filepath.Dir(file), filepath.Base(file))
	case ".aut", ".dot", ".gv":
		return lts.WriteFile(file, ev.Witness.LTS())
	case ".txt":
		return files.Create(file, ev.WriteText)
	case ".json":
		return files.Create(file, ev.WriteJSON)
	case ".mcf": // with the .mcrl2 declarations mCRL2 needs beside it
		return ev.ExportMCRL2(filepath.Dir(file), strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)))
	}
	return fmt.Errorf("%s: unknown counterexample format: expected .txt, .json, .mcf, .aut, .dot or no extension", file)
}
