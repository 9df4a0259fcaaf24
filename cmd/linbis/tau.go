package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/lts"
)

// tauFlag hides actions, as mCRL2's --tau. Given, it also follows mCRL2 in
// reading a label "i" as visible unless listed: linbis otherwise reads "i"
// as τ, as CADP does, so `--tau=i` and `--tau=` give the two readings.
var tauFlag = &cli.StringFlag{Name: "tau", Usage: "hide the actions in `LABELS` (comma-separated; a label is hidden when its whole text or its action " +
	"name, before '(', is listed), as mCRL2's --tau; given, a label i is visible unless listed (without --tau, i is τ as in CADP)"}

// readInput reads an input LTS of a verb that takes --tau, applying it.
func readInput(c *cli.Context, name string) (*lts.LTS, error) {
	if !c.IsSet("tau") {
		return readLTS(name, lts.ReadOptions{})
	}
	hide := map[string]bool{}
	for _, a := range strings.Split(c.String("tau"), ",") {
		if a = strings.TrimSpace(a); a != "" {
			hide[a] = true
		}
	}
	l, err := readLTS(name, lts.ReadOptions{VisibleI: true})
	if err != nil || len(hide) == 0 {
		return l, err
	}
	return lts.Relabel(l, func(label string) string {
		action, _, _ := strings.Cut(label, "(")
		if hide[label] || hide[action] {
			return lts.TauName
		}
		return label
	}), nil
}
