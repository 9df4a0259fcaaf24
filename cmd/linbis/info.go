package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/lts"
)

// exampleAut is the bundled example shown by `linbis info` without a file:
// a most-general client of a CAS counter, two threads with one operation
// each (written by `go run ./benchmarks/mgcaut 2 2 3 1`).
//
//go:embed example/cas-counter-2x1.aut
var exampleAut string

const exampleName = "cas-counter-2x1.aut (bundled)"

var infoCmd = &cli.Command{
	Name:      "info",
	Usage:     "print statistics of an LTS (the bundled example when no file is given)",
	ArgsUsage: "[FILE.aut | FILE.dot | -]",
	Description: "Without a file, info reads standard input when it is a pipe or a file, and\n" +
		"describes the bundled example (a CAS counter) only when standard input is a terminal.\n" +
		exitHelp("described", ""),
	Flags: []cli.Flag{jsonFlag, tauFlag,
		&cli.BoolFlag{Name: "labels", Usage: "list the labels with the number of transitions of each"}},
	Action: runInfo,
}

var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "machine-readable output"}

func runInfo(c *cli.Context) error {
	args, err := operands(c, 0, 1)
	if err != nil {
		return err
	}
	var l *lts.LTS
	name := exampleName
	if len(args) == 0 && stdinHasData() {
		args = []string{"-"}
	}
	if len(args) == 0 {
		l, err = lts.ReadAut(strings.NewReader(exampleAut), name, lts.ReadOptions{})
	} else {
		name = args[0]
		if name == "-" {
			name = "<stdin>"
		}
		l, err = readInput(c, args[0])
	}
	if err != nil {
		return err
	}
	st := lts.ComputeStats(l)
	var labels []labelCount
	if c.Bool("labels") {
		labels = countLabels(l)
	}
	if c.Bool("json") {
		return writeJSON(c, struct {
			File string `json:"file"`
			lts.Stats
			LabelCounts []labelCount `json:"label_counts,omitempty"`
		}{name, st, labels})
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%s\n", name)
	rows := []struct {
		k string
		v any
	}{
		{"states", st.States}, {"transitions", st.Transitions}, {"visible labels", st.Labels},
		{"τ-transitions", st.TauTransitions}, {"reachable states", st.Reachable},
		{"deadlock states", st.DeadlockStates}, {"τ-SCCs", st.TauSCCs},
		{"largest τ-SCC", st.LargestTauSCC}, {"divergent states", st.DivergentStates},
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-18s %v\n", r.k, r.v)
	}
	if len(labels) > 0 {
		fmt.Fprintf(w, "labels (transitions)\n")
		for _, lc := range labels {
			fmt.Fprintf(w, "  %10d  %s\n", lc.Transitions, lc.Label)
		}
	}
	return nil
}

// labelCount is one row of info --labels.
type labelCount struct {
	Label       string `json:"label"`       // the label, as the .aut file writes it
	Transitions int    `json:"transitions"` // the transitions that carry it
}

// countLabels counts the transitions of each label, τ first, then the
// labels in the order of the label table (their first appearance).
func countLabels(l *lts.LTS) []labelCount {
	n := make([]int, len(l.Labels))
	for _, x := range l.Label {
		n[x]++
	}
	var out []labelCount
	for i, name := range l.Labels {
		if n[i] > 0 {
			out = append(out, labelCount{name, n[i]})
		}
	}
	return out
}

// writeJSON prints v as indented JSON on the command's stdout.
func writeJSON(c *cli.Context, v any) error { return writeJSONTo(c.App.Writer, v) }

// writeJSONTo writes v as indented JSON to w.
func writeJSONTo(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // "->" and "<stdin>" as written, not \u003e
	return enc.Encode(v)
}
