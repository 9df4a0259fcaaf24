package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
)

// How flags read in --help, and how a bad flag value is reported: one
// line naming the flag and what it expects, never urfave/cli's "Incorrect
// Usage" with the whole help.

func init() {
	// urfave/cli formats every flag through this hook; the program has
	// one style, so it is set once for the process.
	cli.FlagStringer = flagHelp
}

// flagHelp formats one flag for --help: its names with a placeholder for
// its value, the usage, and the default when the usage does not already
// say it and it is not the zero value.
func flagHelp(f cli.Flag) string {
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return ""
	}
	placeholder, usage := placeholderOf(df)
	var names []string
	for _, n := range df.Names() {
		if len(n) == 1 {
			names = append(names, "-"+n)
		} else {
			names = append(names, "--"+n)
		}
	}
	head := strings.Join(names, ", ")
	if placeholder != "" {
		head += " " + placeholder
	}
	if s, ok := f.(cli.DocGenerationSliceFlag); ok && s.IsSliceFlag() && !strings.Contains(usage, "repeatable") {
		usage += " (repeatable)"
	}
	if b, ok := f.(*cli.BoolFlag); ok && b.Value {
		usage += fmt.Sprintf(" (default: on; --%s=false turns it off)", b.Name)
	}
	if def := df.GetDefaultText(); df.TakesValue() && !strings.Contains(usage, "default") && !zeroText(def) {
		usage += fmt.Sprintf(" (default: %s)", strings.Trim(def, `"`))
	}
	return head + "\t" + usage
}

// placeholderOf returns the placeholder of a flag's value (the usage's
// `QUOTED` word, else one named by the value's type; none for a boolean)
// and the usage without the quotes.
func placeholderOf(df cli.DocGenerationFlag) (string, string) {
	usage := df.GetUsage()
	if !df.TakesValue() {
		return "", strings.ReplaceAll(usage, "`", "")
	}
	if i := strings.IndexByte(usage, '`'); i >= 0 {
		if j := strings.IndexByte(usage[i+1:], '`'); j >= 0 {
			name := usage[i+1 : i+1+j]
			return name, usage[:i] + name + usage[i+2+j:]
		}
	}
	return typeWord(df), usage
}

// typeWord names what a flag's value is, for placeholders and messages.
func typeWord(f cli.Flag) string {
	switch f.(type) {
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		return "N"
	case *cli.DurationFlag:
		return "DURATION"
	case *cli.Float64Flag:
		return "X"
	case *cli.BoolFlag:
		return ""
	}
	return "VALUE"
}

func zeroText(s string) bool {
	switch s {
	case "", "0", `""`, "false", "[]", "0s":
		return true
	}
	return false
}

// expectation says what a flag's value must look like, for errors.
func expectation(f cli.Flag) string {
	switch f.(type) {
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		return "a whole number"
	case *cli.DurationFlag:
		return "a duration such as 90s, 10m or 1h30m"
	case *cli.Float64Flag:
		return "a number"
	case *cli.BoolFlag:
		return "true or false"
	}
	return "a value"
}

var flagValueError = regexp.MustCompile(`^invalid value "(.*)" for flag -([^:]+): `)

// usageError turns urfave/cli's report of a flag value it could not parse
// into one plain line; other errors pass unchanged.
func usageError(c *cli.Context, err error, _ bool) error {
	m := flagValueError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	var flags []cli.Flag
	if c.Command != nil {
		flags = c.Command.Flags
	}
	if len(flags) == 0 && c.App != nil {
		flags = c.App.Flags
	}
	name := "--" + m[2]
	if len(m[2]) == 1 {
		name = "-" + m[2]
	}
	want := "a value"
	if f := findFlag(flags, m[2]); f != nil {
		want = expectation(f)
	}
	return fmt.Errorf("%s %q: expected %s", name, m[1], want)
}
