package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/verify"
)

// The routes mode (--routes) holds method auto to the two routes it
// chooses between: each case runs `linbis verify` with --method bisim,
// fly and auto, one after the other, and the table gives each run's wall
// and CPU time, peak memory and the load average when it ended, the route
// auto took and why, and auto's wall time over the faster route's.

// routesGrid is the routes grid: every bundled model at 3×3 and 4×2 with
// values 1, and Treiber 3×3 with its own values (1..2).
func routesGrid() []Case {
	var cases []Case
	for _, tb := range [][2]int{{3, 3}, {4, 2}} {
		for _, m := range frontend.Examples() {
			cases = append(cases, Case{Grid: "routes", Model: m, Label: m, Threads: tb[0], Ops: tb[1], Extra: oneValue})
		}
	}
	return append(cases, Case{Grid: "routes", Model: "treiber", Label: "treiber (values 1..2)", Threads: 3, Ops: 3})
}

// routeMethods are the runs of a case, in the order they run.
var routeMethods = [...]string{"bisim", "fly", "auto"}

// RouteRun is one run of a case.
type RouteRun struct {
	Wall, CPU, PeakMiB float64 // seconds, seconds (user + system), MiB
	Load               float64 // 1-minute load average when it ended
	// Verdicts are the run's linearizable/lock-free ("yes/no"), or what
	// stopped it.
	Verdicts string
	Finished bool // the run gave verdicts (or a model error): its times are a measurement
	// Route and Reason are method auto's choice (auto's run only).
	Route, Reason string
}

// RouteRow is a case with its three runs, in routeMethods' order.
type RouteRow struct {
	Case
	Runs [len(routeMethods)]RouteRun // the runs of bisim, fly and auto, in that order
}

// Ratio returns auto's wall time over the faster route's, and its CPU
// time over the smaller of theirs; false when either route did not
// finish (or auto did not).
func (r *RouteRow) Ratio() (wall, cpu float64, ok bool) {
	b, f, a := r.Runs[0], r.Runs[1], r.Runs[2]
	if !b.Finished || !f.Finished || !a.Finished {
		return 0, 0, false
	}
	return a.Wall / min(b.Wall, f.Wall), a.CPU / min(b.CPU, f.CPU), true
}

// RunRoutes runs every case whose "model/TxO" matches only (all when nil)
// with each method of cfg.Methods (all when empty) and writes routes.md
// to cfg.Out, again after each case, so that a run stopped half-way
// leaves the cases it finished.
func RunRoutes(cases []Case, only *regexp.Regexp, cfg Config) ([]*RouteRow, error) {
	bin, cleanup, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	var rows []*RouteRow
	for _, c := range cases {
		if only != nil && !only.MatchString(caseName(c)) {
			continue
		}
		row := &RouteRow{Case: c}
		for i, method := range routeMethods {
			if len(cfg.Methods) > 0 && !slices.Contains(cfg.Methods, method) {
				row.Runs[i].Verdicts = "not run"
				continue
			}
			row.Runs[i] = runRoute(bin, c, cfg, method)
		}
		rows = append(rows, row)
		if err := files.Create(filepath.Join(cfg.Out, "routes.md"), func(w io.Writer) error { return WriteRoutes(w, rows, Machine()) }); err != nil {
			return rows, err
		}
		if cfg.Log != nil {
			wall, cpu, ok := row.Ratio()
			fmt.Fprintf(cfg.Log, "%-28s bisim %6.1fs fly %6.1fs auto %6.1fs (%s) auto/best wall %.2f CPU %.2f %v\n", caseName(c),
				row.Runs[0].Wall, row.Runs[1].Wall, row.Runs[2].Wall, row.Runs[2].Route, wall, cpu, ok)
		}
	}
	return rows, nil
}

// caseName names a case for --cases and the log: model/TxO, and its
// values when not 1.
func caseName(c Case) string {
	name := fmt.Sprintf("%s/%dx%d", c.Model, c.Threads, c.Ops)
	if len(c.Extra) == 0 {
		name += "/values-default"
	}
	return name
}

// runRoute runs one method on a case and measures it.
func runRoute(bin string, c Case, cfg Config, method string) RouteRun {
	args := append(caseArgs("verify", c, cfg), "--json", "-q", "--method", method)
	if cfg.MaxMemory != "" {
		args = append(args, "--max-memory", cfg.MaxMemory)
	}
	r, stdout, err := execLinbis(bin, args, cfg.Timeout)
	run := RouteRun{Wall: r.wall, CPU: r.cpu, PeakMiB: r.peakMiB, Load: loadAverage()}
	if r.err != nil {
		run.Verdicts = r.err.Error()
		return run
	}
	classifyRoute(&run, stdout, err)
	return run
}

// violationAndModelError is the verdicts of a run that found a
// linearizability violation and met a model error: the bisimulation route
// reports the model error with the violation the on-the-fly search met
// before it, the on-the-fly route the violation with lock-freedom
// undecided because its search of the implementation met the model
// error. Both say the same: not linearizable, a model error reachable,
// lock-freedom not decided.
const violationAndModelError = "no/? and a model error"

// classifyRoute sets run's verdicts from the output of verify --json and
// its exit error.
func classifyRoute(run *RouteRun, stdout []byte, err error) {
	var exit *exec.ExitError
	verdict := err == nil || (errors.As(err, &exit) && exit.ExitCode() == 1)
	var modelErr struct {
		ModelError *struct{ Message string } `json:"model_error"`
		Violation  json.RawMessage           `json:"violation"`
	}
	if json.Unmarshal(stdout, &modelErr) == nil && modelErr.ModelError != nil {
		run.Verdicts, run.Finished = "model error", true
		if len(modelErr.Violation) > 0 && string(modelErr.Violation) != "null" {
			run.Verdicts = violationAndModelError
		}
		return
	}
	rep := &verify.Report{}
	if json.Unmarshal(stdout, rep) != nil || rep.Model == "" {
		run.Verdicts = "no report"
		if err != nil {
			run.Verdicts = err.Error()
		}
		return
	}
	if rep.Auto != nil {
		run.Route, run.Reason = rep.Auto.Route, rep.Auto.Reason
	}
	switch {
	case rep.StoppedBy != "":
		run.Verdicts = "stopped by " + rep.StoppedBy
	case !verdict:
		run.Verdicts = err.Error()
	default:
		run.Verdicts = fmt.Sprintf("%s/%s", word(rep.Linearizable), word(rep.LockFree))
		run.Finished = true
		if fr := rep.OnTheFly; fr != nil && len(fr.Ladder) > 0 && rep.Linearizable == verify.No && rep.LockFree == verify.Unknown &&
			fr.Ladder[len(fr.Ladder)-1].Result == "model error" {
			run.Verdicts = violationAndModelError
		}
	}
}

func word(v verify.Verdict) string {
	switch v {
	case verify.Yes:
		return "yes"
	case verify.No:
		return "no"
	}
	return "?"
}

// loadAverage returns the 1-minute load average (0 when unknown).
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(data))[0], 64)
	return f
}

// WriteRoutes writes the routes table as Markdown.
func WriteRoutes(w io.Writer, rows []*RouteRow, machine string) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Machine: %s. Each cell: wall s / CPU s / peak MiB (load average at the end); auto/best: auto's wall time over the faster route's, and its CPU time over the smaller of theirs.\n\n", machine)
	sb.WriteString("| case | bisim | fly | auto | auto took | auto/best wall, CPU | verdicts | why |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		cells := make([]string, len(routeMethods))
		for i, run := range r.Runs {
			if run.Finished {
				cells[i] = fmt.Sprintf("%.2f / %.2f / %.0f (%.0f)", run.Wall, run.CPU, run.PeakMiB, run.Load)
			} else {
				cells[i] = fmt.Sprintf("%s after %.0f s", run.Verdicts, run.Wall)
			}
		}
		ratio := "–"
		if wall, cpu, ok := r.Ratio(); ok {
			ratio = fmt.Sprintf("%.2f, %.2f", wall, cpu)
		}
		verdicts := r.Runs[0].Verdicts
		for _, run := range r.Runs[1:] {
			if run.Finished && (verdicts == "" || !r.Runs[0].Finished) {
				verdicts = run.Verdicts
			}
		}
		for _, run := range r.Runs {
			if run.Finished && r.Runs[0].Finished && run.Verdicts != r.Runs[0].Verdicts {
				verdicts = "DIFFER: " + r.Runs[0].Verdicts + " / " + run.Verdicts
			}
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", caseName(r.Case), cells[0], cells[1], cells[2],
			r.Runs[2].Route, ratio, verdicts, strings.ReplaceAll(r.Runs[2].Reason, "|", "/"))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// prepare makes the output folder and returns cfg.Binary, or a linbis
// built from this module into a temporary folder (outside the output
// folder, which holds results only) that cleanup removes.
func prepare(cfg Config) (bin string, cleanup func(), err error) {
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return "", nil, err
	}
	if cfg.Binary != "" {
		return cfg.Binary, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "linbis-bench-")
	if err != nil {
		return "", nil, err
	}
	bin = filepath.Join(tmp, "linbis")
	build := exec.Command("go", "build", "-o", bin, "github.com/linbis/linbis/cmd/linbis")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(tmp)
		return "", nil, fmt.Errorf("building linbis: %w", err)
	}
	return bin, func() { os.RemoveAll(tmp) }, nil
}
