package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/lts"
)

func init() {
	register(&cli.Command{
		Name:      "convert",
		Usage:     "convert an LTS between .aut and .dot (formats chosen by extension)",
		ArgsUsage: "IN OUT",
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return fmt.Errorf("convert needs IN and OUT, got %d arguments", c.NArg())
			}
			l, err := lts.ReadFile(c.Args().Get(0), lts.ReadOptions{})
			if err != nil {
				return err
			}
			return lts.WriteFile(c.Args().Get(1), l)
		},
	})
}
