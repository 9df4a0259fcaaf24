package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/golang"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/verify"
)

// Shared by the verbs that read a model (compile, verify, …): the
// client-bound flags, the exploration limits, and model loading. A model
// argument is a .lin file or the name of a bundled example (see
// `linbis compile --list`), e.g. `treiber`.

// modelFlags returns the flags that override the model's client block and
// tune exploration, with --quiet and the run's limits.
func modelFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.IntFlag{Name: "threads", Usage: "number of client threads (default: the model's client block, else 2)"},
		&cli.StringFlag{Name: "ops", Usage: "operations per thread: a number `N` ≥ 1, or forever (default: the model's, else 2)"},
		&cli.StringFlag{Name: "values", Usage: "argument domain, as a range 1..3 or a `LIST` 1,2,5 (default: the model's, else 1..2)"},
		&cli.IntFlag{Name: "max-states", Value: frontend.DefaultMaxStates, Usage: "stop exploring an LTS after this many states, or the on-the-fly search after this many product pairs (at least 1; reaching it is a limit: no verdict, exit 3; by default an LTS's states stop at 50 M and the on-the-fly search at --max-memory)"},
		&cli.IntFlag{Name: "max-nodes", Value: frontend.DefaultMaxNodes, Usage: "bound on live heap nodes (at least 1; part of the model: exceeding it is a model error, exit 1)"},
		&cli.BoolFlag{Name: "explicit", Usage: "explicit memory: no garbage collection; freed nodes may be reused while referenced (ABA)"},
		&cli.BoolFlag{Name: "fine-grained", Usage: "make accesses to thread-private heap nodes steps of their own (default: folded into the neighbouring step)"},
		&cli.BoolFlag{Name: "lin", Usage: "make lin statements visible as lin(T,M,VAL) events (linearization-point mode)"},
		&cli.IntFlag{Name: "workers", Usage: "goroutines that expand states, on the fly too (0 or less: one per core); the LTS and the on-the-fly outcome are the same for any number"},
		quietFlag,
	}, append(goFlags(), limitFlags()...)...)
}

// goFlags are the flags that read a Go package as the model (frontend/GO.md).
func goFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "type", Usage: "the model is a Go package (a directory or an import path): verify its type `T` (Stack[int] instantiates a generic type; default type argument int)"},
		&cli.StringFlag{Name: "methods", Usage: "with --type: the client's methods, a `LIST` Push,Pop (default: the exported methods of *T with integer, bool or any parameters)"},
		&cli.StringFlag{Name: "new", Usage: "with --type: the constructor `CALL`, with constant arguments, NewRing(2) (default: NewT() or New() returning *T, else the zero value)"},
		&cli.StringFlag{Name: "spec", Usage: "with --type: the specification is the sequential reference type `R` of the package (same methods), each method one atomic step (default: T's own methods so)"},
		&cli.StringFlag{Name: "only", Usage: "with --type: restrict threads to some methods, `T:M,N[;T:M]` (1:pushHead,popHead;2:steal), as the modeling language's only clause"},
	}
}

// goOnlyFlags are the flags of goFlags that mean something only with
// --type.
var goOnlyFlags = []string{"methods", "new", "spec", "only"}

// checkGoFlags rejects a flag of goOnlyFlags given without --type, which
// would otherwise be ignored: one line naming it and what it needs.
func checkGoFlags(c *cli.Context) error {
	if c.IsSet("type") {
		return nil
	}
	for _, f := range goOnlyFlags {
		if c.IsSet(f) {
			return fmt.Errorf("--%s is for a Go package's type: give --type T with MODEL the package's directory or import path (a .lin model says this in its source)", f)
		}
	}
	return nil
}

// parseOnly reads --only: thread:method,method clauses separated by ';'.
func parseOnly(s string) (map[int][]string, error) {
	only := map[int][]string{}
	for _, clause := range strings.Split(s, ";") {
		th, methods, ok := strings.Cut(strings.TrimSpace(clause), ":")
		n, err := strconv.Atoi(strings.TrimSpace(th))
		if !ok || err != nil || n < 1 || strings.TrimSpace(methods) == "" {
			return nil, fmt.Errorf("--only %q: expected THREAD:METHOD,METHOD clauses separated by ';' (1:pushHead,popHead;2:steal), threads from 1", s)
		}
		for _, m := range strings.Split(methods, ",") {
			only[n] = append(only[n], strings.TrimSpace(m))
		}
	}
	return only, nil
}

// loadModel reads and checks the model named by the first argument: a file,
// or else a bundled example by name. A model with several errors has them
// printed on stderr, one per line, and a one-line summary returned.
func loadModel(c *cli.Context) (*frontend.Model, error) {
	args, err := operands(c, 1, 1)
	if err != nil {
		return nil, err
	}
	if err := checkGoFlags(c); err != nil {
		return nil, err
	}
	if c.IsSet("type") {
		return readGoModel(c, args[0])
	}
	if fi, err := os.Stat(args[0]); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s: a directory: name the type of this Go package to verify with --type", args[0])
	}
	return readModel(args[0], c.App.ErrWriter)
}

// goModel translates the Go package pkg's type named by --type into a
// model: its name and source.
func goModel(c *cli.Context, pkg string) (string, []byte, error) {
	cfg := golang.Config{Type: c.String("type"), New: c.String("new"), Spec: c.String("spec")}
	if c.IsSet("methods") {
		cfg.Methods = strings.Split(c.String("methods"), ",")
	}
	if c.IsSet("only") {
		only, err := parseOnly(c.String("only"))
		if err != nil {
			return "", nil, err
		}
		cfg.Only = only
	}
	t, err := golang.Load(pkg, cfg)
	if err == nil {
		var name string
		var src []byte
		if name, src, err = t.Model(); err == nil {
			return name, src, nil
		}
	}
	var list syntax.ErrorList
	if errors.As(err, &list) && len(list) > 1 {
		for _, e := range list {
			fmt.Fprintln(c.App.ErrWriter, e)
		}
		return "", nil, fmt.Errorf("%s: %d errors", pkg, len(list))
	}
	return "", nil, err
}

// readGoModel reads a Go package's type as a model (frontend/GO.md).
func readGoModel(c *cli.Context, pkg string) (*frontend.Model, error) {
	name, src, err := goModel(c, pkg)
	if err != nil {
		return nil, err
	}
	return frontend.Parse(name, src)
}

// readModel reads and checks a model: a file, or else a bundled example
// by name. A model with several errors has them written to errw, one per
// line, and a one-line summary returned.
func readModel(name string, errw io.Writer) (*frontend.Model, error) {
	name, src, err := modelSource(name)
	if err != nil {
		return nil, err
	}
	if isLTS(name, src) {
		return nil, fmt.Errorf("%s: this is an LTS, not a model: expected a .lin file or a bundled model's name (for an LTS use compare, reduce, refine, progress or info)", name)
	}
	m, err := frontend.Parse(name, src)
	var list syntax.ErrorList
	if errors.As(err, &list) && len(list) > 1 {
		for _, e := range list {
			fmt.Fprintln(errw, e)
		}
		return nil, fmt.Errorf("%s: %d errors", name, len(list))
	}
	return m, err
}

// modelSource reads a model's source: a file, or else a bundled model by
// name; the name returned says which.
func modelSource(name string) (string, []byte, error) {
	src, err := os.ReadFile(name)
	if err == nil {
		return name, src, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return name, nil, err
	}
	ex, exErr := frontend.Example(strings.TrimSuffix(name, ".lin"))
	if exErr != nil {
		return name, nil, fmt.Errorf("%s: no such file, and %v", name, exErr)
	}
	return strings.TrimSuffix(name, ".lin") + ".lin (bundled)", ex, nil
}

// isLTS reports whether a file given as a model is an LTS instead: by its
// extension, or by the header of an .aut file.
func isLTS(name string, src []byte) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".aut", ".dot", ".gv":
		return true
	}
	return bytes.HasPrefix(bytes.TrimSpace(src), []byte("des "))
}

// boundsFromFlags starts from the model's client block and applies the
// flags; it prints the model's warnings under the bounds (Model.Warnings).
func boundsFromFlags(c *cli.Context, m *frontend.Model) (frontend.Bounds, error) {
	b := m.DefaultBounds()
	if err := atLeastOne(c, "max-states", "max-nodes"); err != nil {
		return b, err
	}
	if c.IsSet("threads") {
		b.Threads = c.Int("threads")
		if b.Threads < 1 || b.Threads > 16 {
			return b, fmt.Errorf("--threads must be between 1 and 16, got %d", b.Threads)
		}
	}
	if c.IsSet("ops") {
		ops, err := parseOps(c.String("ops"))
		if err != nil {
			return b, err
		}
		b.Ops = ops
	}
	if c.IsSet("values") {
		vs, err := parseValues(c.String("values"))
		if err != nil {
			return b, err
		}
		b.Values = vs
	}
	for _, w := range m.Warnings(b) {
		fmt.Fprintf(c.App.ErrWriter, "linbis: warning: %s\n", w)
	}
	return b, nil
}

// atLeastOne checks that the named integer flags are at least 1.
func atLeastOne(c *cli.Context, names ...string) error {
	for _, n := range names {
		if v := c.Int(n); v < 1 {
			return fmt.Errorf("--%s must be at least 1, got %d", n, v)
		}
	}
	return nil
}

// parseOps reads a positive count or "forever" (-1).
func parseOps(s string) (int, error) {
	if s == "forever" {
		return -1, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("--ops must be a positive number or forever, got %q", s)
	}
	return n, nil
}

// parseValues reads "lo..hi" or a comma-separated list of integers.
func parseValues(s string) ([]int, error) {
	bad := fmt.Errorf("--values must be a range like 1..3 or a list like 1,2,5, got %q", s)
	if lo, hi, ok := strings.Cut(s, ".."); ok {
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		z, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if err1 != nil || err2 != nil || z < a {
			return nil, bad
		}
		if z-a >= syntax.MaxValues {
			return nil, fmt.Errorf("--values %q: a range holds at most %d values, this one %d", s, syntax.MaxValues, z-a+1)
		}
		var vs []int
		for v := a; v <= z; v++ {
			vs = append(vs, v)
		}
		return vs, nil
	}
	var vs []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, bad
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// optionsFromFlags builds exploration options, reporting on a progress
// line that names the LTS explored (progressLine; stage is kept for the
// callers and not shown); the returned meter must be closed with Done.
func optionsFromFlags(c *cli.Context, stage string) (frontend.Options, *meter.Meter) {
	var o frontend.Options
	o.Context = c.Context
	// Unset, the explorer applies its default count; the on-the-fly
	// search, which stores pairs, is bounded by memory alone.
	if c.IsSet("max-states") {
		o.MaxStates = c.Int("max-states")
	}
	o.MaxNodes = c.Int("max-nodes")
	o.Explicit = c.Bool("explicit")
	o.Lin = c.Bool("lin")
	o.FineGrained = c.Bool("fine-grained")
	o.Workers = c.Int("workers")
	mt := meter.ForStderr(c.Bool("quiet"))
	o.Progress = reporter(mt)
	return o, mt
}

// modelErrorReport is the --json output of a verb stopped by a run-time
// error of the model.
type modelErrorReport struct {
	Model      string      `json:"model"`                 // the model's name or file, as given
	ModelError *modelError `json:"model_error,omitempty"` // the run-time error and the run that leads to it
	// DataRace, in place of ModelError, is a data race of a Go package.
	DataRace *modelError `json:"data_race,omitempty"`
	// Violation: a refinement violation that the on-the-fly search found
	// before reaching the model error (verify's bisimulation route).
	Violation *verify.Evidence `json:"violation,omitempty"`
}

type modelError struct {
	Message  string     `json:"message"`            // file:line:col: what went wrong
	Trace    *lts.Trace `json:"trace,omitempty"`    // the shortest run leading to it
	Schedule string     `json:"schedule,omitempty"` // the same run as a table of source lines per thread
}

// reportModelError applies the one rule for run-time errors of a model (a
// failed assert, a null dereference, a value out of range, more live nodes
// than --max-nodes): they are findings about the model, like a violated
// property, so the error and the shortest run leading to it go to stdout
// (as JSON with --json) and the exit status is 1. Other errors pass
// through unchanged.
func reportModelError(c *cli.Context, model string, err error) error {
	var me *frontend.ModelError
	if !errors.As(err, &me) {
		return err
	}
	// me, not err: the position comes first, whichever verb wrapped it.
	found := &modelError{Message: me.Error(), Trace: me.Trace}
	if me.Trace != nil {
		found.Schedule = verify.Interleaving(me.Trace)
	}
	rep, what := modelErrorReport{Model: model, ModelError: found}, "model error"
	if me.Race {
		rep, what = modelErrorReport{Model: model, DataRace: found}, "data race"
	}
	var both *verify.ModelErrorAndViolation
	if errors.As(err, &both) {
		rep.Violation = &both.Violation
	}
	if c.Bool("json") {
		if werr := writeJSON(c, rep); werr != nil {
			return werr
		}
		return violated
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%s: %s\n", what, found.Message)
	if found.Schedule != "" {
		fmt.Fprintf(w, "\n%s\n", found.Schedule)
	}
	if v := rep.Violation; v != nil {
		fmt.Fprintf(w, "\nNOT linearizable as well: the on-the-fly search found this violation before the %s: %s\n\n%s\n", what, v.Explanation, v.Interleaving)
	}
	return violated
}
