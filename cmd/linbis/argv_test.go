package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// verbCase is one quick, valid invocation of a verb: its arguments and
// one flag (with its value, if any) that may go before or after them.
type verbCase struct {
	verb string
	args []string
	flag []string
	code int
}

// verbCases returns a valid run of every verb, with files in dir.
func verbCases(t *testing.T, dir string) []verbCase {
	aut := writeAut(t, dir, "in.aut", exampleAut)
	jsonl := writeAut(t, dir, "q.jsonl", badQueue)
	return []verbCase{
		{"compare", []string{aut, aut}, []string{"--json"}, 0},
		{"compile", []string{"treiber"}, []string{"--ops", "1"}, 0},
		{"convert", []string{aut, filepath.Join(dir, "out.dot")}, nil, 0},
		{"history", []string{jsonl}, []string{"--json"}, 1},
		{"info", []string{aut}, []string{"--json"}, 0},
		{"progress", []string{aut}, []string{"-p", "lockfree"}, 0},
		{"reduce", []string{aut}, []string{"-o", filepath.Join(dir, "q.aut")}, 0},
		{"refine", []string{aut, aut}, []string{"--json"}, 0},
		{"verify", []string{"treiber"}, []string{"--ops", "1"}, 0},
		{"completion", []string{"bash"}, nil, 0},
		{"version", nil, nil, 0},
		{"show", []string{"treiber"}, nil, 0},
	}
}

// The table covers every verb.
func TestVerbCasesCoverEveryVerb(t *testing.T) {
	var names []string
	for _, c := range verbCases(t, t.TempDir()) {
		names = append(names, c.verb)
	}
	for _, c := range commands() {
		assert.Contains(t, names, c.Name)
	}
}

// Flags mean the same before and after the arguments, for every verb.
func TestFlagsBeforeAndAfterArguments(t *testing.T) {
	// Timings differ from run to run.
	timing := regexp.MustCompile(`[0-9]+\.[0-9]+|(?m)^.*(states/s|"seconds"|_seconds"|time ).*$`)
	for _, c := range verbCases(t, t.TempDir()) {
		t.Run(c.verb, func(t *testing.T) {
			quiet := []string{}
			if findFlag(findCommand(newApp(nil, nil), c.verb).Flags, "quiet") != nil {
				quiet = []string{"-q"}
			}
			before := append(append(append([]string{c.verb}, quiet...), c.flag...), c.args...)
			after := append(append(append([]string{c.verb}, c.args...), c.flag...), quiet...)
			codeB, outB, errB := linbis(before...)
			codeA, outA, errA := linbis(after...)
			assert.Equal(t, c.code, codeB, errB)
			assert.Equal(t, c.code, codeA, errA)
			assert.Equal(t, errB, errA)
			assert.Equal(t, timing.ReplaceAllString(outB, ""), timing.ReplaceAllString(outA, ""))
		})
	}
}

// --help and -h, in any position, show the verb's help on stdout and do
// nothing else: no output file is written.
func TestHelpAnywhereOnlyShowsHelp(t *testing.T) {
	dir := t.TempDir()
	for _, c := range verbCases(t, dir) {
		for _, h := range []string{"--help", "-h"} {
			full := append(append([]string{}, c.args...), c.flag...)
			for pos := 0; pos <= len(full); pos++ {
				args := append(append(append([]string{c.verb}, full[:pos]...), h), full[pos:]...)
				if pos > 0 && len(c.flag) == 2 && pos == len(c.args)+1 {
					continue // between a flag and its value, -h is the value
				}
				t.Run(strings.Join(args, " "), func(t *testing.T) {
					entries, _ := os.ReadDir(dir)
					code, out, errOut := linbis(args...)
					assert.Equal(t, 0, code)
					assert.Empty(t, errOut)
					assert.Contains(t, out, "USAGE:")
					assert.Contains(t, out, "linbis "+c.verb)
					after, _ := os.ReadDir(dir)
					assert.Equal(t, len(entries), len(after), "help wrote a file")
				})
			}
		}
	}
	code, out, _ := linbis("help", "verify")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "linbis verify")
}

// Before this fix a -p after the model was applied once per flag
// reordering pass: each property was checked and printed 6 times.
func TestProgressPropertyAfterModelOnce(t *testing.T) {
	aut := writeAut(t, t.TempDir(), "in.aut", exampleAut)
	for _, args := range [][]string{
		{"progress", aut, "-p", "lockfree"},
		{"progress", "-p", "lockfree", aut},
		{"progress", aut, "-p", "lockfree", "-p", "deadlockfree"},
	} {
		code, out, errOut := linbis(args...)
		require.Equal(t, 0, code, errOut)
		want := strings.Count(strings.Join(args, " "), "-p ")
		lines := regexp.MustCompile(`(?m)^(lockfree|deadlockfree)\s+holds`).FindAllString(out, -1)
		assert.Len(t, lines, want, out)
	}
}

// An unknown verb or flag is one line on stderr, exit 2, with a
// suggestion when one is close, and nothing on stdout.
func TestUnknownVerbsAndFlags(t *testing.T) {
	cases := []struct {
		args []string
		line string
	}{
		{[]string{"verfiy"}, `linbis: unknown command "verfiy" (did you mean verify?); see linbis --help`},
		{[]string{"frobnicate"}, `linbis: unknown command "frobnicate"; see linbis --help`},
		{[]string{"help", "frobnicate"}, `linbis: unknown command "frobnicate"; see linbis --help`},
		{[]string{"--bogus", "verify"}, `linbis: unknown flag --bogus; see linbis --help`},
		{[]string{"verify", "--bogus", "treiber"}, `linbis: verify: unknown flag --bogus; see linbis verify --help`},
		{[]string{"verify", "treiber", "--jsno"}, `linbis: verify: unknown flag --jsno (did you mean --json?); see linbis verify --help`},
		{[]string{"convert", "a.aut", "b.dot", "--bogus"}, `linbis: convert: unknown flag --bogus; see linbis convert --help`},
		{[]string{"compile", "treiber", "-o"}, `linbis: compile: flag -o needs a value`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := linbis(c.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Equal(t, c.line+"\n", errOut)
		})
	}
}

// App flags may follow the verb; "--" ends the flags.
func TestAppFlagAfterVerbAndDoubleDash(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	code, _, errOut := linbis("info", "--cpuprofile", prof)
	require.Equal(t, 0, code, errOut)
	assert.FileExists(t, prof)

	code, _, errOut = linbis("info", "--", "--no-such.aut")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--no-such.aut")
}

// A file that is not a model gets a screenful of errors, not one per
// line; an LTS given as a model is one line saying what is expected.
func TestModelErrorsCapped(t *testing.T) {
	dir := t.TempDir()
	var garbage strings.Builder
	for i := 0; i < 5000; i++ {
		garbage.WriteString(`(0,"call(1,push,1)",1)` + "\n")
	}
	lin := writeAut(t, dir, "garbage.lin", garbage.String())
	code, out, errOut := linbis("verify", lin)
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.LessOrEqual(t, strings.Count(errOut, "\n"), 25, errOut)
	assert.Contains(t, errOut, "too many errors: the rest of the file is not checked")

	aut := writeAut(t, dir, "t.aut", exampleAut)
	noExt := writeAut(t, dir, "t", exampleAut)
	for _, f := range []string{aut, noExt} {
		code, _, errOut = linbis("verify", f)
		assert.Equal(t, 2, code)
		assert.Equal(t, "linbis: "+f+": this is an LTS, not a model: expected a .lin file or a bundled model's name (for an LTS use compare, reduce, refine, progress or info)\n", errOut)
	}
}
