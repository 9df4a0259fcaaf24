package main

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/frontend"
)

// The bundled models as a catalogue: `compile --list` shows what each
// header states (frontend.Header), `show` prints a model's source with the
// line numbers that counterexamples cite.

var showCmd = &cli.Command{
	Name:      "show",
	Usage:     "print a bundled model's source (or a .lin file, or the model a Go package's type is translated to, with --type) with line numbers, as counterexamples cite them",
	ArgsUsage: "MODEL",
	Flags:     goFlags(),
	Action:    runShow,
}

func runShow(c *cli.Context) error {
	args, err := operands(c, 1, 1)
	if err != nil {
		return err
	}
	if err := checkGoFlags(c); err != nil {
		return err
	}
	name, src, err := modelSource(args[0])
	if c.IsSet("type") {
		// A Go package: the model it is translated to, whose origin
		// directives name the Go lines that traces cite.
		name, src, err = goModel(c, args[0])
	}
	if err != nil {
		return err
	}
	w := c.App.Writer
	fmt.Fprintf(w, "// %s\n", name)
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		fmt.Fprintf(w, "%4d  %s\n", line, sc.Text())
	}
	return sc.Err()
}

// listedModel is one entry of `compile --list --json`.
type listedModel struct {
	Name     string          `json:"name"`     // the bundled model's name, as verbs take it
	Summary  string          `json:"summary"`  // its header's one-line summary
	Verdicts []listedVerdict `json:"verdicts"` // the verdicts its header states, with their sources
}

type listedVerdict struct {
	frontend.StatedVerdict
	Bounds frontend.Bounds `json:"bounds"` // the client bounds of its command
	// Options are the other flags of its command that change the
	// semantics, e.g. "explicit heap".
	Options []string `json:"options,omitempty"`
	Command string   `json:"command"` // the verify command that checks it
}

// listModels prints the bundled models with their summaries, verdicts and
// the bounds at which each verdict holds.
func listModels(c *cli.Context) error {
	var all []listedModel
	for _, name := range frontend.Examples() {
		h, err := frontend.ExampleHeader(name)
		if err != nil {
			return err
		}
		lm := listedModel{Name: name, Summary: h.Summary, Verdicts: []listedVerdict{}}
		for _, v := range h.Verdicts {
			b, options, err := statedBounds(name, v.Args)
			if err != nil {
				return err
			}
			lm.Verdicts = append(lm.Verdicts, listedVerdict{StatedVerdict: v, Bounds: b, Options: options, Command: v.Command(name)})
		}
		all = append(all, lm)
	}
	if c.Bool("json") {
		return writeJSON(c, all)
	}
	w := c.App.Writer
	for _, m := range all {
		fmt.Fprintf(w, "%-17s %s\n", m.Name, m.Summary)
		for _, v := range m.Verdicts {
			fmt.Fprintf(w, "%-17s   %s at %s\n", "", v.Text, strings.Join(append([]string{v.Bounds.String()}, v.Options...), ", "))
		}
	}
	return nil
}

// statedBounds returns the client bounds under which a Verdict line's
// verify arguments run the bundled model name: its client block with the
// bound flags applied, and the flags that change the semantics (heap,
// lin points) named.
func statedBounds(name string, args []string) (b frontend.Bounds, extra []string, err error) {
	src, err := frontend.Example(name)
	if err != nil {
		return b, nil, err
	}
	m, err := frontend.Parse(name+".lin", src)
	if err != nil {
		return b, nil, err
	}
	b = m.DefaultBounds()
	for i := 0; i < len(args); i++ {
		flag, val := args[i], ""
		if i+1 < len(args) {
			val = args[i+1]
		}
		switch flag {
		case "--threads":
			if b.Threads, err = strconv.Atoi(val); err != nil {
				return b, nil, fmt.Errorf("%s.lin: Verdict line: --threads %q", name, val)
			}
			i++
		case "--ops":
			if b.Ops, err = parseOps(val); err != nil {
				return b, nil, err
			}
			i++
		case "--values":
			if b.Values, err = parseValues(val); err != nil {
				return b, nil, err
			}
			i++
		case "--explicit":
			extra = append(extra, "explicit heap")
		default:
			// Another flag of verify, with its value when it takes one:
			// "with --method fly", not "method, fly".
			option := "with " + flag
			if f := findFlag(verifyCmd.Flags, strings.TrimLeft(flag, "-")); f != nil && !isBool(f) && i+1 < len(args) {
				option += " " + val
				i++
			}
			extra = append(extra, option)
		}
	}
	return b, extra, nil
}
