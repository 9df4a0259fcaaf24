package main

import (
	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/lts"
)

var convertCmd = &cli.Command{
	Name:      "convert",
	Usage:     "convert an LTS between .aut and .dot (formats chosen by extension)",
	ArgsUsage: "IN OUT",
	Action:    runConvert,
}

func runConvert(c *cli.Context) error {
	args, err := operands(c, 2, 2)
	if err != nil {
		return err
	}
	if err := files.CheckWritable(args[1]); err != nil {
		return err
	}
	l, err := lts.ReadFile(args[0], lts.ReadOptions{})
	if err != nil {
		return err
	}
	return lts.WriteFile(args[1], l)
}
