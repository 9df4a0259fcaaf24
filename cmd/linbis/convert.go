package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/lts"
)

var convertCmd = &cli.Command{
	Name:      "convert",
	Usage:     "convert an LTS between .aut and .dot (formats chosen by extension)",
	ArgsUsage: "IN OUT",
	Description: "IN and OUT are .aut or .dot files, - for standard input or output. IN's format is\n" +
		"recognised by its extension or its content; OUT's is named by its extension or --format\n" +
		"(standard output: aut unless --format dot).\n" +
		exitHelp("converted", ""),
	Flags:  []cli.Flag{formatFlag, jsonFlag},
	Action: runConvert,
}

func runConvert(c *cli.Context) error {
	args, err := operands(c, 2, 2)
	if err != nil {
		return err
	}
	if err := files.CheckWritable(args[1]); err != nil {
		return err
	}
	if _, err := outputFormat(c, args[1]); err != nil {
		return err
	}
	l, err := readLTS(args[0], lts.ReadOptions{})
	if err != nil {
		return err
	}
	if err := writeLTS(c, args[1], l); err != nil {
		return err
	}
	if !c.Bool("json") {
		return nil
	}
	if args[1] == "-" {
		return fmt.Errorf("--json and OUT - both want standard output")
	}
	format, _ := outputFormat(c, args[1])
	return writeJSON(c, convertReport{Input: args[0], Output: args[1], Format: format, States: l.NumStates, Transitions: l.NumTransitions()})
}

// convertReport is the --json output of convert (schema/convert.json).
type convertReport struct {
	Input       string `json:"input"`       // the LTS file read, as given
	Output      string `json:"output"`      // the file written, as given
	Format      string `json:"format"`      // of the output: aut or dot
	States      int32  `json:"states"`      // the LTS's states
	Transitions int    `json:"transitions"` // its transitions
}
