package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/history"
	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
	"github.com/linbis/linbis/history/timeline"
	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
)

var historyCmd = &cli.Command{
	Name:      "history",
	Usage:     "decide whether a recorded history is linearizable",
	ArgsUsage: "FILE",
	Description: "FILE is JSON Lines of operations, a Jepsen EDN history or a Jepsen text log (see --format).\n" +
		"Operations with a key are checked per key (P-compositionality) unless --no-partition.\n" +
		"Models (--model):\n" + model.Help() +
		exitHelp("linearizable", "not linearizable (the operation that cannot be placed is printed)", "--timeout", "--max-memory"),
	Flags: append([]cli.Flag{
		&cli.StringFlag{Name: "model", Value: "auto", Usage: "sequential specification: auto (guess from the methods), " + strings.Join(model.Names, ", ")},
		&cli.StringFlag{Name: "spec", Usage: "check against the spec object of a linbis model `M.lin` (a file or a bundled model name, e.g. treiber)"},
		&cli.StringFlag{Name: "format", Value: "auto", Usage: "input format: " + strings.Join(format.Formats, ", ")},
		&cli.StringFlag{Name: "cas-fail", Value: "drop", Usage: "meaning of a :fail cas in Jepsen input: drop (Jepsen: did not take effect), false (Porcupine: returned false)"},
		&cli.StringFlag{Name: "nil-read", Value: "auto", Usage: "meaning of a read that returned nil: unknown (Knossos: value not known), absent (Porcupine: no value), auto (unknown for EDN and text logs, absent for JSON Lines)"},
		&cli.StringFlag{Name: "initial", Usage: "initial `VALUE` of the models that have one (see above), in the file's data model: 0, nil, '\"abc\"', '{:x 0 :y 0}'"},
		&cli.BoolFlag{Name: "no-partition", Usage: "check all keys together instead of one partition per key"},
		&cli.BoolFlag{Name: "general", Usage: "always use the general search (no polynomial bad-pattern check)"},
		&cli.IntFlag{Name: "workers", Usage: "partitions checked at once (0 or less: one per core)"},
		&cli.StringFlag{Name: "html", Usage: "write the history and the evidence as a self-contained HTML page to `FILE`"},
		quietFlag,
		jsonFlag,
	}, limitFlags()...),
	Action: runHistory,
}

func runHistory(c *cli.Context) error {
	args, err := operands(c, 1, 1)
	if err != nil {
		return err
	}
	casFail, err := record.ParseCASFail(c.String("cas-fail"))
	if err != nil {
		return err
	}
	nilRead, err := record.ParseNilRead(c.String("nil-read"))
	if err != nil {
		return err
	}
	lim, err := limitsFromFlags(c)
	if err != nil {
		return err
	}
	// The limits cover reading the file too. The memory limit is
	// --max-memory or its default (0: none), told to the runtime too, so
	// that garbage does not carry the heap past it.
	// The time limit is the deadline of the context that reading and the
	// check share; the memory limit is theirs to keep (the check's own
	// budget).
	ctx := c.Context
	if lim.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, lim.Time, &limits.LimitError{Limit: limits.Time, Value: int64(lim.Time),
			Err: fmt.Errorf("time limit reached: still running after %s", lim.Time)})
		defer cancel()
	}
	mem := lim.Memory
	if mem > 0 {
		// The runtime's share: the binary's resident pages are outside it.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limits.RuntimeShare(mem)))
	}
	h, err := format.ReadFile(args[0], format.ReadOptions{Format: c.String("format"), CASFail: casFail, NilRead: nilRead, Context: ctx, MaxMemory: mem})
	if errors.Is(err, format.ErrDeadline) || errors.Is(err, format.ErrMemory) {
		stop := &stoppedError{timeLimit, fmt.Sprintf("time budget of %v exhausted while reading %s", lim.Time, args[0])}
		res := &history.Result{Verdict: history.Unknown, Limit: history.TimeLimit, Reason: stop.msg, Algorithms: []model.Procedure{}}
		if errors.Is(err, format.ErrMemory) {
			stop = &stoppedError{memoryLimit, fmt.Sprintf("memory budget of %d MiB exhausted while reading %s", mem>>20, args[0])}
			res.Limit, res.Reason = history.MemoryLimit, stop.msg
		}
		if c.Bool("json") {
			// The same object as a limit met by the search: no verdict, the limit named.
			if err := writeJSON(c, history.NewReport(&record.History{Name: args[0]}, res)); err != nil {
				return err
			}
		}
		return stop
	}
	if err != nil {
		return err
	}
	if !c.Bool("json") {
		for _, n := range h.Warnings {
			fmt.Fprintf(c.App.ErrWriter, "linbis history: warning: %s\n", n)
		}
		for _, n := range h.Notes {
			fmt.Fprintf(c.App.ErrWriter, "linbis history: note: %s\n", n)
		}
	}
	spec, err := historySpec(c, h)
	if err != nil {
		return err
	}
	if mem == 0 {
		mem = math.MaxInt64 // no limit
	}
	opts := history.Options{Context: ctx, NoPartition: c.Bool("no-partition"), Workers: c.Int("workers"), MaxMemory: mem}
	if c.Bool("general") {
		opts.Algorithm = history.General
	}
	m := meter.ForStderr(c.Bool("quiet") || c.Bool("json"))
	opts.Progress = reporter(m)
	res, err := history.Check(h, spec, opts)
	if m != nil {
		m.Done()
	}
	if res == nil {
		return err
	}
	// err is now the limit that left the verdict Unknown, if one did: the
	// report is written first.
	// A model's spec can fail while stepping (a failed assert); then no
	// verdict holds.
	if e, ok := spec.(interface{ Err() error }); ok && e.Err() != nil {
		return e.Err()
	}
	if path := c.String("html"); path != "" {
		if err := writeTimeline(path, history.Timeline(h, res)); err != nil {
			return err
		}
	}
	if c.Bool("json") {
		if err := writeJSON(c, history.NewReport(h, res)); err != nil {
			return err
		}
	} else {
		printHistoryResult(c, h, res)
	}
	if err != nil {
		return err
	}
	if res.Verdict == history.NotLinearizable {
		return violated
	}
	return nil
}

// historySpec resolves --spec and --model.
func historySpec(c *cli.Context, h *record.History) (model.Spec, error) {
	if path := c.String("spec"); path != "" {
		if c.IsSet("model") {
			return nil, errors.New("give --model or --spec, not both")
		}
		if c.IsSet("initial") {
			return nil, errors.New("--initial sets a built-in model's initial value; a --spec model starts from its init block")
		}
		return loadSpec(path, c.App.ErrWriter)
	}
	name := c.String("model")
	if name == "auto" {
		var err error
		if name, err = model.GuessModel(h); err != nil {
			return nil, err
		}
	}
	spec, err := model.Builtin(name)
	if err != nil || !c.IsSet("initial") {
		return spec, err
	}
	v, err := format.ParseValue(c.String("initial"), h.Format)
	if err != nil {
		return nil, fmt.Errorf("--initial: %w", err)
	}
	return model.WithInitial(spec, v)
}

func writeTimeline(path string, t *timeline.Timeline) error {
	return files.Create(path, func(w io.Writer) error { return timeline.WriteHTML(w, t) })
}

// prefixShown is how many operations of the longest prefix the text shows.
const prefixShown = 8

func printHistoryResult(c *cli.Context, h *record.History, res *history.Result) {
	w := c.App.Writer
	fmt.Fprintf(w, "%s: %s\n", h.Name, res.Verdict)
	procs := joinProcedures(res.Algorithms)
	if procs != "" { // none ran on a history without operations
		procs += ", "
	}
	fmt.Fprintf(w, "  model %s, %d operations, %d partition(s) (%d decided), %s%d configurations, %.3fs\n",
		res.Model, res.Ops, res.Partitions, res.Decided, procs, res.Configurations, res.Elapsed.Seconds())
	if res.Reason != "" {
		fmt.Fprintf(w, "  %s\n", res.Reason)
	}
	f := res.Failure
	if f == nil {
		return
	}
	if len(f.Ops) < res.Ops {
		fmt.Fprintf(w, "  smallest failing partition: key %s, %d operations\n", record.ShowValue(f.Key), len(f.Ops))
	}
	if f.Pattern != "" {
		fmt.Fprintf(w, "  bad pattern %s\n", f.Pattern)
	}
	if f.Stuck < 0 {
		return
	}
	fmt.Fprintf(w, "  longest linearizable prefix found: %d operations, ending in state %s\n", len(f.Prefix), f.State)
	from := max(0, len(f.Prefix)-prefixShown)
	if from > 0 {
		fmt.Fprintf(w, "    … %d earlier operations\n", from)
	}
	for k := from; k < len(f.Prefix); k++ {
		fmt.Fprintf(w, "    %3d. %s\n", k+1, history.Describe(h, f.Prefix[k]))
	}
	fmt.Fprintf(w, "  cannot place: %s\n", history.Describe(h, f.Stuck))
}

// joinProcedures names the procedures as "search+stack-peel".
func joinProcedures(ps []model.Procedure) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.String()
	}
	return strings.Join(names, "+")
}
