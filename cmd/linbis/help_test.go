package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every bad flag value is one line on stderr naming the flag and what it
// expects, exit 2, nothing on stdout.
func TestBadFlagValuesAreOneLine(t *testing.T) {
	dir := t.TempDir()
	aut := writeAut(t, dir, "in.aut", exampleAut)
	autAsDot := writeAut(t, dir, "in.dot", exampleAut)
	dotAsAut := writeAut(t, dir, "g.aut", "digraph {\n  0 -> 1 [label=\"a\"]\n}\n")
	cases := []struct {
		args []string
		line string
	}{
		{[]string{"verify", "--threads", "abc"}, `linbis: --threads "abc": expected a whole number`},
		{[]string{"verify", "treiber", "--threads", "0"}, `linbis: --threads must be between 1 and 16, got 0`},
		{[]string{"verify", "treiber", "--timeout", "5"}, `linbis: --timeout "5": expected a duration such as 90s, 10m or 1h30m`},
		{[]string{"compile", "treiber", "--timeout", "-1s"}, `linbis: --timeout must not be negative, got -1s`},
		{[]string{"compile", "treiber", "--max-memory", "banana"}, `linbis: --max-memory "banana": expected a size such as 8GiB or 512MB, or 0 for none`},
		{[]string{"history", aut, "--max-memory", "banana"}, `linbis: --max-memory "banana": expected a size such as 8GiB or 512MB, or 0 for none`},
		{[]string{"verify", "--max-nodes", "0"}, `linbis: --max-nodes must be at least 1, got 0`},
		{[]string{"verify", "--max-states", "0"}, `linbis: --max-states must be at least 1, got 0`},
		{[]string{"verify", "--ops", "0"}, `linbis: --ops must be a positive number or forever, got "0"`},
		{[]string{"verify", "--values", "x"}, `linbis: --values must be a range like 1..3 or a list like 1,2,5, got "x"`},
		{[]string{"compare", aut, aut, "--max-pairs", "0"}, `linbis: --max-pairs must be at least 1, got 0`},
		{[]string{"progress", aut, "--max-product", "-3"}, `linbis: --max-product must be at least 1, got -3`},
		{[]string{"reduce", aut, "-o", "x.aut", "--equiv", "bisimm"}, ``},
		// Issue 37 item 15: the size limit said, a folder called one, a
		// file whose text is the other format's said plainly.
		{[]string{"verify", "--values", "1..100000"}, `linbis: --values "1..100000": a range holds at most 64 values, this one 100000`},
		{[]string{"info", dir}, `linbis: ` + dir + `: is a directory, expected an LTS file (.aut or .dot)`},
		{[]string{"info", autAsDot}, `linbis: ` + autAsDot + `:1:1: expected a DOT graph (digraph …) as the name .dot says, found an .aut header (des …): rename the file to .aut`},
		{[]string{"compare", dotAsAut, aut}, `linbis: ` + dotAsAut + `:1:1: expected an .aut header (des …) as the name .aut says, found a DOT graph (digraph …): rename the file to .dot`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := linbis(c.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
			if c.line != "" {
				assert.Equal(t, c.line+"\n", errOut)
			}
		})
	}
}

// Help states each default once, never a zero default that the flag
// refuses, no placeholder on a switch, and verdict verbs their exit codes.
func TestHelpText(t *testing.T) {
	for _, cmd := range commands() {
		code, out, _ := linbis(cmd.Name, "--help")
		assert.Equal(t, 0, code)
		for _, line := range strings.Split(out, "\n") {
			assert.LessOrEqual(t, strings.Count(line, "(default"), 1, line)
			assert.NotContains(t, line, "(default: 0)", line)
			assert.NotContains(t, line, "(default: false)", line)
			assert.NotContains(t, line, " [ -", line)
		}
		assert.NotContains(t, out, "--lin lin")
		assert.NotContains(t, out, "COMMANDS:", "a verb has no sub-commands")
	}
	for _, verb := range []string{"verify", "compare", "refine", "progress"} {
		_, out, _ := linbis(verb, "--help")
		assert.Contains(t, out, "Exit status: 0", verb)
	}
}
