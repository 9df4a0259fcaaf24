package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/relation"
)

var reduceCmd = &cli.Command{
	Name:        "reduce",
	Usage:       "minimize an LTS modulo strong, branching or divergence-preserving branching bisimilarity",
	ArgsUsage:   "IN.aut -o OUT.aut",
	Description: exitHelp("reduced", "", "--timeout", "--max-memory"),
	Flags: append([]cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output file (.aut or .dot), required"},
		bisimEquivFlag, bisimAlgorithmFlag, bisimWorkersFlag, quietFlag, formatFlag, tauFlag, jsonFlag,
	}, limitFlags()...),
	Action: runReduce,
}

var (
	bisimEquivFlag = &cli.StringFlag{Name: "equiv", Aliases: []string{"equivalence", "e"}, Value: "divbranching",
		Usage: "equivalence: " + relation.Names(relation.Reducibles())}
	bisimAlgorithmFlag = &cli.StringFlag{Name: "algorithm", Value: "fast",
		Usage: "bisimulation algorithm: fast (default; an LTS whose only cycles are τ-cycles in one pass, any other by worklist refinement, fastest measured, O(m·n) worst case), gj (O(m log n) constellations after Groote–Jansen, always refines; about as fast as fast's refinement to a few times slower, see bisim/README.md) or gv (Groote–Vaandrager reference, O(m·n))"}
	bisimWorkersFlag = &cli.IntFlag{Name: "workers",
		Usage: "goroutines of fast's signature rounds on LTSs of about half a million transitions or more (0 or less: one per core); the quotient is the same for any number"}
)

// bisimOptions reads --algorithm and --workers and sets up progress on stderr.
func bisimOptions(c *cli.Context) (bisim.Options, *meter.Meter, error) {
	alg, err := bisim.ParseAlgorithm(c.String("algorithm"))
	if err != nil {
		return bisim.Options{}, nil, err
	}
	m := meter.ForStderr(c.Bool("quiet"))
	opts := bisim.Options{Algorithm: alg, Context: c.Context, Workers: c.Int("workers")}
	opts.Progress = reporter(m)
	return opts, m, nil
}

// reduceReport is the --json output of reduce (schema/reduce.json).
type reduceReport struct {
	Input               string `json:"input"`                // the LTS file read, as given
	Output              string `json:"output"`               // the quotient's file; "" for standard output
	Equivalence         string `json:"equivalence"`          // the equivalence reduced by, e.g. "branching"
	States              int32  `json:"states"`               // the input's states
	ReachableStates     int32  `json:"reachable_states"`     // the part reduced
	Transitions         int    `json:"transitions"`          // the input's transitions
	QuotientStates      int32  `json:"quotient_states"`      // the quotient's states
	QuotientTransitions int    `json:"quotient_transitions"` // the quotient's transitions
}

func runReduce(c *cli.Context) error {
	args, err := operands(c, 1, 1)
	if err != nil {
		return err
	}
	if c.String("output") == "" {
		return fmt.Errorf("reduce needs an output file: -o OUT.aut")
	}
	// Said before the input is read and reduced, not after.
	if _, err := outputFormat(c, c.String("output")); err != nil {
		return err
	}
	if c.Bool("json") && c.String("output") == "-" {
		return fmt.Errorf("--json and -o - both want standard output")
	}
	eq, err := relation.ParseOneOf(c.String("equiv"), relation.Reducibles())
	if err != nil {
		return err
	}
	opts, m, err := bisimOptions(c)
	if err != nil {
		return err
	}
	defer m.Done()
	l, err := readInput(c, args[0])
	if err != nil {
		return err
	}
	// As mCRL2's ltsconvert and CADP's bcg_min: the quotient of the part
	// reachable from the initial state; unreachable states are no part
	// of the behaviour.
	states, transitions := l.NumStates, l.NumTransitions()
	// Only l's sizes are used below, so it is consumed: its transitions
	// can be collected once the kernel holds them.
	opts.CollectInput = true
	q, reachable, err := relation.ReduceConsuming(bisim.Consume(l), eq, opts)
	if err != nil {
		return err
	}
	m.Done()
	if err := writeLTS(c, c.String("output"), q); err != nil {
		return err
	}
	if c.Bool("json") {
		return writeJSON(c, reduceReport{Input: args[0], Output: c.String("output"), Equivalence: eq.String(),
			States: states, ReachableStates: reachable, Transitions: transitions,
			QuotientStates: q.NumStates, QuotientTransitions: q.NumTransitions()})
	}
	if !c.Bool("quiet") {
		unreachable := ""
		if n := states - reachable; n > 0 {
			unreachable = fmt.Sprintf(" (%d unreachable, dropped)", n)
		}
		fmt.Fprintf(c.App.ErrWriter, "%d states%s, %d transitions -> %d states, %d transitions (%s)\n",
			states, unreachable, transitions, q.NumStates, q.NumTransitions(), eq)
	}
	return nil
}
