// Command benchmarks regenerates the shape of the papers' tables on linbis:
// Yang et al. Table 1 (bisimulation vs trace refinement on the Treiber and
// hazard-pointer stacks) and Liu et al. Table 1, as results.csv,
// results.md and results.png.
//
//	go run ./benchmarks [--grid smoke|yang|liu|routes|all] [--timeout 10m] [--max-states 25000000] [--out DIR]
//	go run ./benchmarks --routes [--cases REGEXP] [--timeout 10m] [--max-memory 16GiB]
//
// Each case runs `linbis verify --json` in a child process (built once from
// this module), so that a timeout can stop it and its peak memory is the
// kernel's figure. The runs per case: the on-the-fly method with every
// reduction, with none, with symmetry alone and with partial-order
// reduction alone (--reduce all|none|symmetry|por), generation alone
// (`linbis compile`, for its peak memory), bisimulation, refinement with
// antichains, refinement without. When a case's run hits the timeout or a
// limit, the larger cases of the same series are skipped for that method.
// --routes instead runs each case with the three methods of verify's
// choice of route (routes.go).
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/verify"
)

func main() {
	app := &cli.App{
		Name:  "benchmarks",
		Usage: "regenerate the papers' tables on linbis",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "grid", Value: "smoke", Usage: "smoke, yang, liu or all"},
			&cli.DurationFlag{Name: "timeout", Value: 10 * time.Minute, Usage: "per run"},
			&cli.IntFlag{Name: "max-states", Value: 25_000_000, Usage: "per LTS; a case above it is skipped (the bisimulation of 25 M states needs about 15 GiB)"},
			&cli.StringFlag{Name: "out", Value: "benchmarks/out", Usage: "output folder"},
			&cli.BoolFlag{Name: "no-refine", Usage: "skip the refinement runs"},
			&cli.BoolFlag{Name: "no-fly", Usage: "skip the on-the-fly runs (--method fly with every reduction, none, symmetry alone, partial-order alone)"},
			&cli.StringFlag{Name: "from-csv", Usage: "measure nothing: draw results.md and results.png again from this results.csv into --out"},
			&cli.BoolFlag{Name: "routes", Usage: "run each case with verify --method bisim, fly and auto, and tabulate wall and CPU time, peak memory and auto's choice (routes.md; the grid defaults to routes: every bundled model at 3×3 and 4×2 with values 1, and Treiber 3×3)"},
			&cli.StringFlag{Name: "cases", Usage: "with --routes, only the cases whose model/TxO (e.g. treiber/3x3) matches this `REGEXP`"},
			&cli.StringFlag{Name: "max-memory", Usage: "with --routes, each run's --max-memory (default: linbis's)"},
			&cli.StringSliceFlag{Name: "methods", Usage: "with --routes, run only these of bisim, fly and auto (default: all three)"},
		},
		Action: func(c *cli.Context) error {
			if path := c.String("from-csv"); path != "" {
				return redraw(path, c.String("out"))
			}
			grid := c.String("grid")
			if c.Bool("routes") && !c.IsSet("grid") {
				grid = "routes"
			}
			cases, ok := grids[grid]
			if !ok {
				return fmt.Errorf("unknown grid %q: expected one of %s", grid, strings.Join(gridNames(), ", "))
			}
			if c.Bool("routes") {
				var only *regexp.Regexp
				if s := c.String("cases"); s != "" {
					var err error
					if only, err = regexp.Compile(s); err != nil {
						return fmt.Errorf("--cases: %v", err)
					}
				}
				// linbis's own state limit unless one is asked for: the
				// routes are compared as a user meets them.
				maxStates := 0
				if c.IsSet("max-states") {
					maxStates = c.Int("max-states")
				}
				_, err := RunRoutes(cases(), only, Config{Out: c.String("out"), Timeout: c.Duration("timeout"), MaxStates: maxStates,
					MaxMemory: c.String("max-memory"), Methods: c.StringSlice("methods"), Log: os.Stderr})
				return err
			}
			_, err := Run(cases(), Config{Out: c.String("out"), Timeout: c.Duration("timeout"), MaxStates: c.Int("max-states"), Refine: !c.Bool("no-refine"), Fly: !c.Bool("no-fly"), Log: os.Stderr})
			return err
		},
	}
	if err := app.Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "benchmarks:", err)
		os.Exit(2)
	}
}

func gridNames() []string {
	var names []string
	for n := range grids {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Config controls a harness run.
type Config struct {
	Out     string        // the directory results.csv, results.md and results.png go to
	Timeout time.Duration // how long each linbis run may take before it is killed
	// MaxStates bounds each explored LTS (0: linbis's default).
	MaxStates int
	Refine    bool // run the refinement route too, with and without antichains
	// Fly adds the on-the-fly runs, reduced and unreduced.
	Fly bool
	Log *os.File // where progress lines go; nil: nowhere
	// Binary is the linbis executable; empty: build it from this module.
	Binary string
	// MaxMemory is each run's --max-memory (routes mode; empty: linbis's
	// default).
	MaxMemory string
	// Methods are the methods the routes mode runs (empty: all).
	Methods []string
}

// Machine describes where the figures were taken.
func Machine() string {
	mem := "unknown memory"
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(data), "MemTotal: %d kB", &kb); err == nil {
			mem = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
		}
	}
	return fmt.Sprintf("%d cores, %s, %s %s/%s, %s", runtime.NumCPU(), mem, runtime.Version(), runtime.GOOS, runtime.GOARCH,
		time.Now().UTC().Format("2006-01-02"))
}

// Run measures every case and writes results.csv, results.md and results.png to cfg.Out.
func Run(cases []Case, cfg Config) ([]*Row, error) {
	bin, cleanup, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	machine := Machine()
	logf("machine: %s", machine)
	var rows []*Row
	gaveUp := map[string]int{} // series (model, threads) -> smallest ops that timed out
	// The same for each on-the-fly mode, which goes further.
	var flyGaveUp [len(flyModes)]map[string]int
	for i := range flyGaveUp {
		flyGaveUp[i] = map[string]int{}
	}
	for _, c := range cases {
		row := newRow(c)
		rows = append(rows, row)
		series := fmt.Sprintf("%s/%d/%s", c.Model, c.Threads, strings.Join(c.Extra, " "))
		if limit, ok := gaveUp[series]; ok && c.Ops > limit && (!cfg.Fly || flyGaveUp[0][series] > 0) {
			row.Notes = append(row.Notes, fmt.Sprintf("skipped: %d/%d hit a limit", c.Threads, limit))
			logf("%-12s %d/%d skipped", c.Model, c.Threads, c.Ops)
			continue
		}
		if cfg.Fly {
			// On the fly, with every reduction, none, and each alone: no
			// LTS is built, so this runs where generation would not fit.
			for i, m := range flyModes {
				if _, skip := flyGaveUp[i][series]; skip {
					continue
				}
				x := runVerify(bin, c, cfg, "--method", "fly", "--reduce", m.reduce)
				row.fill(x, m.name)
				if x.report == nil {
					flyGaveUp[i][series] = c.Ops
				}
			}
		}
		gen := runCompile(bin, c, cfg)
		if gen.err != nil {
			// Verifying would explore the same LTSs and fail the same way.
			row.Notes = append(row.Notes, "generate: "+gen.err.Error())
			gaveUp[series] = c.Ops
			row.checkVerdicts()
			logf("%-12s %d/%d  fly %.2fs  %s", c.Model, c.Threads, c.Ops, row.Fly[0].Seconds, strings.Join(row.Notes, "; "))
			continue
		}
		row.GenPeakMiB = gen.peakMiB
		bis := runVerify(bin, c, cfg, "--method", "bisim")
		row.fill(bis, "bisim")
		if bis.timedOut || bis.report == nil {
			gaveUp[series] = c.Ops // a time or state limit: larger bounds will not fare better
		}
		if cfg.Refine && bis.report != nil {
			ref := runVerify(bin, c, cfg, "--method", "refine")
			row.fill(ref, "refine")
			if !ref.timedOut {
				noac := runVerify(bin, c, cfg, "--method", "refine", "--antichain=false")
				row.fill(noac, "refine-noantichain")
			}
		}
		row.checkVerdicts()
		logf("%-12s %d/%d  impl %d states  bisim %.2fs  refine %.2fs  lin=%s lf=%s %s %s", c.Model, c.Threads, c.Ops,
			row.ImplStates, row.BisimSeconds, row.RefineSeconds, row.Linearizable, row.LockFree, row.VerdictOK, strings.Join(row.Notes, "; "))
	}
	return rows, writeOutputs(cfg.Out, rows, machine, logf)
}

// writeOutputs writes results.csv, results.md and results.png to dir.
func writeOutputs(dir string, rows []*Row, machine string, logf func(string, ...any)) error {
	outputs := map[string]func(io.Writer) error{
		"results.csv": func(w io.Writer) error { return WriteCSV(w, rows) },
		"results.md":  func(w io.Writer) error { return WriteMarkdown(w, rows, machine) },
	}
	for name, write := range outputs {
		if err := files.Create(filepath.Join(dir, name), write); err != nil {
			return err
		}
	}
	if err := WritePlot(filepath.Join(dir, "results.png"), rows); err != nil {
		logf("no plot: %v", err)
	}
	return nil
}

// redraw reads a results.csv and writes it, results.md and results.png
// to dir, measuring nothing.
func redraw(csvPath, dir string) error {
	f, err := os.Open(csvPath)
	if err != nil {
		return err
	}
	rows, err := ReadCSV(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %v", csvPath, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeOutputs(dir, rows, "as recorded in "+csvPath, func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	})
}

// fill records one run's measurements in the row.
func (r *Row) fill(x *run, method string) {
	v := x.report
	if v == nil {
		r.Notes = append(r.Notes, method+": "+x.err.Error())
		return
	}
	for _, n := range v.Notes {
		r.Notes = append(r.Notes, method+": "+n)
	}
	if v.Impl != nil {
		r.ImplStates, r.ImplTransitions = v.Impl.States, v.Impl.Transitions
	}
	if v.Spec != nil {
		r.SpecStates, r.SpecTransitions = v.Spec.States, v.Spec.Transitions
	}
	if v.ImplQuotient != nil {
		r.ImplQuotient = v.ImplQuotient.States
	}
	if v.SpecQuotient != nil {
		r.SpecQuotient = v.SpecQuotient.States
	}
	if s := x.stage("compile"); s >= 0 {
		r.GenSeconds = s
	}
	// A refinement stopped by a limit has no verdict: its time is not a
	// measurement of the check (the note says which limit it hit).
	finished := v.Refines == verify.Yes || v.Refines == verify.No
	switch method {
	case "bisim":
		r.BisimSeconds, r.BisimPeakMiB = x.stage("bisimulation"), x.peakMiB
		for _, fly := range [][2]string{{r.Linearizable, string(v.Linearizable)}, {r.LockFree, string(v.LockFree)}} {
			if fly[0] != "" && fly[0] != "unknown" && fly[1] != "unknown" && fly[0] != fly[1] {
				r.Notes = append(r.Notes, "INCONSISTENT: the on-the-fly verdicts differ from the bisimulation route's")
			}
		}
		r.Bisimilar = string(v.Bisimilar)
		r.Linearizable, r.LockFree = string(v.Linearizable), string(v.LockFree)
	case "refine":
		r.Refines = string(v.Refines)
		if !finished {
			break
		}
		r.RefineSeconds, r.RefinePeakMiB, r.RefinePairs = x.stage("refinement"), x.peakMiB, v.RefinementPairs
		if r.Linearizable == "" || r.Linearizable == "unknown" {
			r.Linearizable = string(v.Linearizable)
		}
	case "fly", "fly-none", "fly-symmetry", "fly-por":
		if v.OnTheFly == nil {
			break
		}
		for i, m := range flyModes {
			if m.name == method {
				r.Fly[i] = FlyRun{Seconds: x.stage("on-the-fly"), PeakMiB: x.peakMiB, States: v.OnTheFly.States, Pairs: v.OnTheFly.Pairs}
			}
		}
		if r.Linearizable == "" || r.Linearizable == "unknown" {
			r.Linearizable = string(v.Linearizable)
		}
		if r.LockFree == "" || r.LockFree == "unknown" {
			r.LockFree = string(v.LockFree)
		}
	case "refine-noantichain":
		if finished {
			r.RefineNoACSeconds, r.RefineNoACPeakMiB, r.RefineNoACPairs = x.stage("refinement"), x.peakMiB, v.RefinementPairs
		}
	}
}
