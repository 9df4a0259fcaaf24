package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

// The one place where the command line is read before urfave/cli parses it.
//
// urfave/cli v2 stops reading flags at a verb's first argument, prints
// several kilobytes of help on stdout for an unknown flag and "No help
// topic" for an unknown verb. normalizeArgs therefore checks every flag and
// the verb against the table itself, with a one-line error and a
// suggestion, and moves the verb's flags before its arguments (and the
// app's flags before the verb), so that `linbis verify treiber --json`,
// `linbis verify --json treiber` and `linbis verify treiber --help` all
// mean what they say.

// normalizeArgs returns args (program name first) with every flag placed
// where urfave/cli reads it: app flags before the verb, the verb's flags
// after it and before its arguments, which follow a "--" so that an
// argument such as "-" (standard input) is never read as a flag.
func normalizeArgs(app *cli.App, args []string) ([]string, error) {
	if len(args) == 0 {
		return args, nil
	}
	appFlags := append([]cli.Flag{cli.HelpFlag, cli.VersionFlag}, app.Flags...)
	// Split off the verb: the first word that is neither a flag nor an app
	// flag's value.
	var global, rest []string
	verb := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !isFlag(a) {
			verb, rest = a, args[i+1:]
			break
		}
		n, err := flagTokens(a, args[i+1:], appFlags, "")
		if err != nil {
			return nil, err
		}
		global = append(global, args[i:i+n]...)
		i += n - 1
	}
	if verb == "" {
		return args, nil
	}
	if verb == "help" {
		if len(rest) > 0 && findCommand(app, rest[0]) == nil {
			return nil, unknownVerb(app, rest[0])
		}
		return append(append(append([]string{args[0]}, global...), verb), rest...), nil
	}
	cmd := findCommand(app, verb)
	if cmd == nil {
		return nil, unknownVerb(app, verb)
	}
	verbFlags := append([]cli.Flag{cli.HelpFlag}, cmd.Flags...)
	var flags, operands []string
	help := false
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			operands = append(operands, rest[i+1:]...)
			break
		}
		if !isFlag(a) {
			operands = append(operands, a)
			continue
		}
		if n, err := flagTokens(a, rest[i+1:], appFlags, ""); err == nil && n > 0 && !isHelp(a) {
			global = append(global, rest[i:i+n]...)
			i += n - 1
			continue
		}
		n, err := flagTokens(a, rest[i+1:], verbFlags, verb)
		if err != nil {
			return nil, err
		}
		flags = append(flags, rest[i:i+n]...)
		i += n - 1
		if isHelp(a) {
			help = true
		}
	}
	out := append([]string{args[0]}, global...)
	if help {
		// Help and nothing else: urfave/cli would read an argument as
		// a help topic.
		return append(out, verb, "--help"), nil
	}
	out = append(append(out, verb), flags...)
	if len(operands) > 0 {
		out = append(append(out, "--"), operands...)
	}
	return out, nil
}

// isFlag reports whether a word is a flag: "-x" or "--x", but not "-"
// (standard input or output) nor a negative number.
func isFlag(a string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	return !(a[1] >= '0' && a[1] <= '9')
}

func isHelp(a string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	return name == "help" || name == "h"
}

// flagTokens returns how many words the flag a takes among flags (1, or 2
// when its value is the next word), or an error naming it when it is not
// one of them; verb is the verb whose flags these are ("" for the app).
func flagTokens(a string, next []string, flags []cli.Flag, verb string) (int, error) {
	name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
	f := findFlag(flags, name)
	if f == nil {
		return 0, unknownFlag(a, name, flags, verb)
	}
	if hasValue || isBool(f) {
		return 1, nil
	}
	if len(next) == 0 {
		return 0, fmt.Errorf("%sflag %s needs a value", verbPrefix(verb), a)
	}
	return 2, nil
}

func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

func isBool(f cli.Flag) bool {
	_, ok := f.(*cli.BoolFlag)
	return ok
}

func findCommand(app *cli.App, name string) *cli.Command {
	for _, c := range app.Commands {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

func verbPrefix(verb string) string {
	if verb == "" {
		return ""
	}
	return verb + ": "
}

func unknownFlag(a, name string, flags []cli.Flag, verb string) error {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	msg := fmt.Sprintf("%sunknown flag %s", verbPrefix(verb), a)
	if s := closest(name, names); s != "" {
		if len(s) == 1 {
			msg += fmt.Sprintf(" (did you mean -%s?)", s)
		} else {
			msg += fmt.Sprintf(" (did you mean --%s?)", s)
		}
	}
	help := "linbis --help"
	if verb != "" {
		help = "linbis " + verb + " --help"
	}
	return fmt.Errorf("%s; see %s", msg, help)
}

func unknownVerb(app *cli.App, verb string) error {
	var names []string
	for _, c := range app.Commands {
		names = append(names, c.Names()...)
	}
	msg := fmt.Sprintf("unknown command %q", verb)
	if s := closest(verb, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return fmt.Errorf("%s; see linbis --help", msg)
}

// closest returns the candidate nearest to word when it is close enough
// to be a likely typo, else "".
func closest(word string, candidates []string) string {
	const threshold = 0.85 // Jaro–Winkler similarity; "jsno" → "json" is 0.93, "bogus" → "json" 0.48
	best, bestScore := "", threshold
	for _, c := range candidates {
		if s := smetrics.JaroWinkler(word, c, 0.7, 4); s >= bestScore {
			best, bestScore = c, s
		}
	}
	return best
}

// operands returns the verb's arguments after checking that there are
// between min and max of them (max < 0: no upper bound); the error names
// what the verb expects, from its ArgsUsage.
func operands(c *cli.Context, min, max int) ([]string, error) {
	args := c.Args().Slice()
	if len(args) >= min && (max < 0 || len(args) <= max) {
		return args, nil
	}
	var want string
	switch {
	case min == max:
		want = fmt.Sprintf("%d %s", min, plural(min, "argument"))
	case max < 0:
		want = fmt.Sprintf("at least %d %s", min, plural(min, "argument"))
	case min == 0:
		want = fmt.Sprintf("at most %d %s", max, plural(max, "argument"))
	default:
		want = fmt.Sprintf("%d to %d arguments", min, max)
	}
	got := "none"
	if len(args) > 0 {
		got = fmt.Sprintf("%d: %s", len(args), strings.Join(args, " "))
	}
	return nil, fmt.Errorf("%s needs %s (%s), got %s", c.Command.Name, want, c.Command.ArgsUsage, got)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
