package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/refine"
)

// compare's trace relations, as mCRL2's ltscompare -e trace|weak-trace and
// -p trace|weak-trace: trace equivalence and inclusion, with τ an action
// like any other (trace) or internal (weak-trace). They are decided by
// the refinement checker (refine.Check), in one direction for a preorder
// and in both for an equivalence; a counterexample is a shortest trace of
// one side that the other cannot do.

// traceRelations names the relations that compare decides by traces.
var traceRelations = map[string]bool{"trace": true, "weak-trace": true}

// visibleTau is the name τ takes when it counts as an action (trace).
const visibleTau = "τ"

// runTraceCompare decides relation between ls[0] and ls[1].
func runTraceCompare(c *cli.Context, args []string, ls [2]*lts.LTS, relation string, preorder bool) error {
	a, b := ls[0], ls[1]
	if relation == "trace" {
		expose := func(name string) string {
			if name == lts.TauName {
				return visibleTau
			}
			return name
		}
		a, b = lts.Relabel(a, expose), lts.Relabel(b, expose)
	}
	opts := refine.Options{Antichain: true, Quotient: true}
	if c.IsSet("max-pairs") {
		opts.MaxPairs = c.Int("max-pairs")
	}
	out := bisim.CompareReport{A: args[0], B: args[1], Relation: relation, Preorder: preorder, Holds: true,
		StatesA: ls[0].NumStates, StatesB: ls[1].NumStates}
	dirs := [][2]int{{0, 1}}
	if !preorder {
		dirs = append(dirs, [2]int{1, 0})
	}
	sides := [2]*lts.LTS{a, b}
	for _, d := range dirs {
		res, err := refine.Check(sides[d[0]], sides[d[1]], opts)
		if err != nil {
			return err
		}
		out.Pairs += res.Stats.Pairs
		if !res.Refines {
			out.Holds, out.Side, out.Counterexample, out.Kind = false, args[d[0]], res.Counterexample, "distinguishing-trace"
			break
		}
	}
	if c.Bool("json") {
		if err := writeJSON(c, out); err != nil {
			return err
		}
	} else {
		w := c.App.Writer
		not := ""
		if !out.Holds {
			not = "NOT "
		}
		if preorder {
			fmt.Fprintf(w, "%s is %sincluded in %s modulo %s (every %s of %s is one of %s)\n", args[0], not, args[1], relation, relation, args[0], args[1])
		} else {
			fmt.Fprintf(w, "%s and %s are %s%s equivalent\n", args[0], args[1], not, relation)
		}
		if !out.Holds {
			other := args[0]
			if out.Side == args[0] {
				other = args[1]
			}
			fmt.Fprintf(w, "%s can do this trace, %s cannot do its last action:\n", out.Side, other)
			if err := out.Counterexample.WriteText(w); err != nil {
				return err
			}
		}
	}
	if !out.Holds {
		if file := c.String("counterexample"); file != "" {
			if err := writeTraceCounterexample(file, out.Counterexample); err != nil {
				return err
			}
		}
		return violated
	}
	return nil
}

// writeTraceCounterexample writes a trace counterexample to file in the
// format its extension names (.txt, .json, .aut, .dot), or in all of them
// when it has none.
func writeTraceCounterexample(file string, tr *lts.Trace) error {
	switch ext := strings.ToLower(filepath.Ext(file)); ext {
	case "":
		return tr.Export(filepath.Dir(file), filepath.Base(file))
	case ".aut", ".dot", ".gv":
		return lts.WriteFile(file, tr.LTS())
	case ".txt":
		return files.Create(file, tr.WriteText)
	case ".json":
		return files.Create(file, tr.WriteJSON)
	}
	return fmt.Errorf("%s: unknown counterexample format for a trace: expected .txt, .json, .aut, .dot or no extension", file)
}
