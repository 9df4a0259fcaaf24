package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/onthefly"
	"github.com/linbis/linbis/verify"
)

// defaultModel is what `linbis verify` checks without arguments.
const defaultModel = "treiber"

var verifyCmd = &cli.Command{
	Name:      "verify",
	Usage:     "decide whether a model is linearizable and lock-free (the bundled Treiber stack when no model is given)",
	ArgsUsage: "[MODEL.lin | bundled model name]",
	Description: "MODEL is a .lin file or the name of a bundled model (linbis compile --list).\n" +
		exitHelp("linearizable and lock-free", "not linearizable or not lock-free (the counterexample is printed),\nor a run-time error of the model",
			"--timeout", "--max-memory", "--max-states", "--max-pairs"),
	Flags:  verifyFlags(),
	Action: runVerify,
}

func verifyFlags() []cli.Flag {
	return append(modelFlags(),
		&cli.StringFlag{Name: "method", Value: "auto", Usage: "auto (measures smaller clients and takes the route it estimates faster within --max-memory, saying why), bisim (bisimulation, falling back to refinement), refine, both (timings side by side), or fly (on the fly, without building the LTSs)"},
		&cli.StringFlag{Name: "reduce", Value: "all", Usage: "reductions of the on-the-fly method: none, symmetry, por (partial-order) or all"},
		&cli.BoolFlag{Name: "first-violation", Usage: "on the fly, stop at the first linearizability violation, leaving lock-freedom unchecked (by default the search goes on over the implementation alone to decide it too)"},
		&cli.BoolFlag{Name: "shortest", Usage: "on the fly, search the requested bounds alone, not first the ladder of smaller clients: a counterexample is then a shortest one under them (partial-order reduction is then off)"},
		&cli.BoolFlag{Name: "antichain", Value: true, Usage: "antichain pruning in the refinement check"},
		&cli.IntFlag{Name: "max-pairs", Usage: "stop the refinement check after this many pairs (0: its default)"},
		bisimAlgorithmFlag,
		&cli.BoolFlag{Name: "lin-points", Usage: "check refinement over the model's lin events only (Liu et al. Thm 2)"},
		jsonFlag,
		&cli.StringFlag{Name: "export", Usage: "write impl.aut, spec.aut, the quotients, report.json and every counterexample (.txt .aut .dot .json; a distinguishing formula also as -formula.json, -formula.txt, and -formula.mcf with its mCRL2 declarations -formula.mcrl2 and the commands that check it) to `DIR`"},
		&cli.StringFlag{Name: "html", Usage: "write a self-contained page drawing the counterexample's history to `FILE`"},
	)
}

func runVerify(c *cli.Context) error {
	args, err := operands(c, 0, 1)
	if err != nil {
		return err
	}
	if err := checkGoFlags(c); err != nil {
		return err
	}
	var m *frontend.Model
	name := defaultModel
	if len(args) == 0 {
		src, err := frontend.Example(defaultModel)
		if err != nil {
			return err
		}
		if m, err = frontend.Parse(defaultModel+".lin (bundled)", src); err != nil {
			return err
		}
	} else {
		if m, err = loadModel(c); err != nil {
			return err
		}
		name = args[0]
	}
	b, err := boundsFromFlags(c, m)
	if err != nil {
		return err
	}
	method, err := verify.ParseMethod(c.String("method"))
	if err != nil {
		return err
	}
	reductions, err := parseReductions(c.String("reduce"))
	if err != nil {
		return err
	}
	alg, err := bisim.ParseAlgorithm(c.String("algorithm"))
	if err != nil {
		return err
	}
	lim, err := limitsFromFlags(c)
	if err != nil {
		return err
	}
	copts, mt := optionsFromFlags(c, "exploring")
	defer mt.Done()
	opts := verify.Options{
		Method: method, Compile: copts, Antichain: c.Bool("antichain"), MaxPairs: c.Int("max-pairs"),
		Algorithm: alg, LinPoints: c.Bool("lin-points"), Reductions: reductions, Shortest: c.Bool("shortest"), FirstViolation: c.Bool("first-violation"),
		ReleaseImpl: c.String("export") == "", // only --export reads out.Impl
		MaxMemory:   lim.Memory,
	}
	opts.Progress = reporter(mt)
	out, err := verify.Run(c.Context, name, m, b, opts)
	mt.Done()
	var stopped *verify.LimitError
	if err != nil && (out == nil || !errors.As(err, &stopped)) {
		return reportModelError(c, name, err)
	}
	r := out.Report
	switch {
	case !c.IsSet("type"):
	case r.Linearizable == verify.No || r.LockFree == verify.No:
		// A violation's run is an interleaving, an execution of the Go
		// program with or without races; but the search stopped there.
		r.Notes = append(r.Notes, "a Go package: the violation's run is one of the Go program's executions (an interleaving, which Go's memory model allows with or without data races); the search stopped at it, so no data race beyond it is ruled out")
	default:
		// DRF-SC: the interleavings explored are the Go program's
		// executions because it has no data race (a race is reported
		// instead of verdicts).
		r.Notes = append(r.Notes, "a Go package: no data race is reachable under these bounds, so Go's memory model guarantees these interleavings are its executions (sequential consistency for data-race-free programs), and the verdicts speak of the Go program")
	}
	// The verdict first: a failed write afterwards must not lose it.
	if c.Bool("json") {
		err = writeJSON(c, r)
	} else {
		err = verify.WriteText(c.App.Writer, r)
	}
	if err != nil {
		return err
	}
	if !out.Finished {
		// Stopped half-way by a limit: the report says what was decided,
		// and no output file is written from a partial run.
		return stopped
	}
	if dir := c.String("export"); dir != "" {
		if err := exportOutcome(dir, out); err != nil {
			return err
		}
	}
	if path := c.String("html"); path != "" {
		if err := files.Create(path, func(w io.Writer) error { return verify.WriteHTML(w, r) }); err != nil {
			return err
		}
	}
	switch {
	case r.Linearizable == verify.Yes && r.LockFree == verify.Yes:
		return nil
	case r.Linearizable == verify.No || r.LockFree == verify.No || r.Refines == verify.No:
		// Refines alone fails with --lin-points: the object or its marked
		// points are wrong, a finding either way.
		return violated
	case stopped != nil:
		return stopped
	}
	return fmt.Errorf("internal error: no verdict, and no limit was hit (notes: %s)", strings.Join(r.Notes, "; "))
}

// exportOutcome writes the LTSs, the report and the counterexamples to dir.
func exportOutcome(dir string, out *verify.Outcome) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ltss := map[string]*lts.LTS{"impl.aut": out.Impl, "spec.aut": out.Spec,
		"impl-quotient.aut": out.ImplQuotient, "spec-quotient.aut": out.SpecQuotient}
	for file, l := range ltss {
		if l == nil {
			continue
		}
		if err := lts.WriteAutFile(filepath.Join(dir, file), l); err != nil {
			return err
		}
	}
	for i, e := range out.Report.Evidence {
		base := fmt.Sprintf("%d-%s", i+1, e.Kind)
		if err := e.Trace.Export(dir, base); err != nil {
			return err
		}
		if err := e.ExportFormula(dir, base, [2]*lts.LTS{out.Impl, out.Spec}, [2]string{"impl.aut", "spec.aut"}); err != nil {
			return err
		}
		text := e.Explanation + "\n\n" + e.Interleaving
		if err := files.Create(filepath.Join(dir, base+"-interleaving.txt"), func(w io.Writer) error {
			_, err := io.WriteString(w, text)
			return err
		}); err != nil {
			return err
		}
	}
	return files.Create(filepath.Join(dir, "report.json"), func(w io.Writer) error { return writeJSONTo(w, out.Report) })
}

// parseReductions parses a --reduce value.
func parseReductions(s string) (onthefly.Reductions, error) {
	for _, m := range onthefly.ReductionModes {
		if m.Name == s {
			return m.Reductions, nil
		}
	}
	return onthefly.Reductions{}, fmt.Errorf("--reduce: unknown reduction %q: expected none, symmetry, por or all", s)
}
