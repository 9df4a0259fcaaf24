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
	Name:        "compare",
	Usage:       "decide whether two LTSs are strongly, branching or divergence-preserving branching bisimilar",
	ArgsUsage:   "A.aut B.aut",
	Description: "Exit status: 0 equivalent, 1 not equivalent (a distinguishing trace is printed), 2 error.",
	Flags: append([]cli.Flag{
		bisimEquivFlag, bisimAlgorithmFlag, quietFlag,
		&cli.StringFlag{Name: "counterexample", Usage: "when not equivalent, write the distinguishing trace to `FILE` " +
			"(.txt, .json, .aut or .dot by extension; a name without extension gets all four)"},
		&cli.BoolFlag{Name: "json", Usage: "machine-readable verdict"},
		&cli.IntFlag{Name: "max-pairs", Value: bisim.DefaultMaxPairs,
			Usage: "bound on the state pairs searched for a short distinguishing trace"},
	}, limitFlags()...),
	Action: runCompare,
}

// compareResult is the --json output of compare.
type compareResult struct {
	FileA          string     `json:"a"`
	FileB          string     `json:"b"`
	Equivalence    string     `json:"equivalence"`
	Equivalent     bool       `json:"equivalent"`
	StatesA        int32      `json:"states_a"`
	StatesB        int32      `json:"states_b"`
	Classes        int32      `json:"classes"`
	Kind           string     `json:"kind,omitempty"`
	Side           string     `json:"side,omitempty"`
	Counterexample *lts.Trace `json:"counterexample,omitempty"`
}

func runCompare(c *cli.Context) error {
	args, err := operands(c, 2, 2)
	if err != nil {
		return err
	}
	if err := atLeastOne(c, "max-pairs"); err != nil {
		return err
	}
	if err := atLeastOne(c, "max-pairs"); err != nil {
		return err
	}
	eq, opts, m, err := bisimOptions(c)
	if err != nil {
		return err
	}
	defer m.Done()
	var ls [2]*lts.LTS
	for i, name := range args {
		if ls[i], err = lts.ReadFile(name, lts.ReadOptions{}); err != nil {
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
	out := compareResult{FileA: args[0], FileB: args[1], Equivalence: eq.String(), Equivalent: res.Equivalent,
		StatesA: res.StatesA, StatesB: res.StatesB, Classes: res.Classes, Kind: res.Kind, Counterexample: res.Counterexample}
	if !res.Equivalent {
		out.Side = args[res.Side]
	}
	if c.Bool("json") {
		if err := writeJSON(c, out); err != nil {
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
			if err := res.Counterexample.WriteText(w); err != nil {
				return err
			}
		}
	}
	if !res.Equivalent {
		// After the verdict: a failed write must not lose it.
		if file := c.String("counterexample"); file != "" {
			if err := writeCounterexample(file, res.Counterexample); err != nil {
				return err
			}
		}
		return violated
	}
	return nil
}

// writeCounterexample writes tr to file in the format its extension names,
// or in all four formats when it has none.
func writeCounterexample(file string, tr *lts.Trace) error {
	ext := strings.ToLower(filepath.Ext(file))
	switch ext {
	case "":
		return tr.Export(filepath.Dir(file), filepath.Base(file))
	case ".aut", ".dot", ".gv":
		return lts.WriteFile(file, tr.LTS())
	case ".txt", ".json":
		write := tr.WriteText
		if ext == ".json" {
			write = tr.WriteJSON
		}
		return files.Create(file, write)
	}
	return fmt.Errorf("%s: unknown counterexample format: expected .txt, .json, .aut, .dot or no extension", file)
}
