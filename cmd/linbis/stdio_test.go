package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// linbisIn runs the CLI with input as its standard input.
func linbisIn(input string, args ...string) (code int, stdout, stderr string) {
	saved := stdin
	stdin = strings.NewReader(input)
	defer func() { stdin = saved }()
	return linbis(args...)
}

// "-" is standard input or output wherever an LTS file is expected, with
// --format where no extension says it; a piped info reads its input
// instead of describing the bundled example.
func TestStandardInputAndOutput(t *testing.T) {
	code, out, errOut := linbisIn(exampleAut, "info", "-")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "<stdin>")
	assert.Regexp(t, `states\s+33\b`, out)

	code, out, errOut = linbisIn(exampleAut, "info")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "<stdin>", "piped input is read, not the bundled example")

	code, out, errOut = linbisIn(exampleAut, "reduce", "-", "-o", "-", "-q")
	require.Equal(t, 0, code, errOut)
	q, err := lts.ReadAut(strings.NewReader(out), "q", lts.ReadOptions{})
	require.NoError(t, err)
	assert.Less(t, q.NumStates, int32(33))

	code, dot, errOut := linbisIn(exampleAut, "convert", "-", "-", "--format", "dot")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(dot, "digraph"), dot)
	code, out, errOut = linbisIn(dot, "info", "-", "--json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"states": 33`)

	dir := t.TempDir()
	noExt := filepath.Join(dir, "lts")
	code, _, errOut = linbisIn(exampleAut, "convert", "-", noExt)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "unknown LTS format: expected a .aut or .dot file name, or --format aut|dot")
	code, _, errOut = linbisIn(exampleAut, "convert", "-", noExt, "--format", "aut")
	require.Equal(t, 0, code, errOut)
	code, out, errOut = linbis("info", noExt) // recognised by its content
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `states\s+33\b`, out)
	// A --format is checked even where the name's extension decides.
	code, _, errOut = linbisIn(exampleAut, "reduce", "-", "-o", filepath.Join(dir, "q.aut"), "--format", "xyz")
	assert.Equal(t, 2, code)
	assert.Equal(t, "linbis: --format \"xyz\": expected aut or dot\n", errOut)
	// It is for standard output: a file's extension still decides.
	code, out, errOut = linbis("compile", "treiber", "--ops", "1", "-q", "-o", "-", "--spec-out", filepath.Join(dir, "s.aut"), "--format", "dot")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "digraph"), "the implementation as DOT on stdout")
	spec, err := os.ReadFile(filepath.Join(dir, "s.aut"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(spec), "des ("), "the specification as .aut by its name")

	code, out, errOut = linbis("compile", "treiber", "--ops", "1", "-o", "-", "-q")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "des ("), "stdout carries the LTS alone")
	assert.Contains(t, errOut, "implementation")
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		code, out, _ := linbis(args...)
		assert.Equal(t, 0, code)
		assert.Regexp(t, `^linbis \S+ \(.*`+regexpQuote(runtime.Version())+`\)\n$`, out)
	}
}

func regexpQuote(s string) string { return strings.ReplaceAll(s, ".", `\.`) }

// TestVersionFromCheckout builds the command from a git checkout with VCS
// stamping asked for explicitly (this sandbox sets GOFLAGS=-buildvcs=false;
// a CI clone is a git checkout and stamps by default) and checks that
// `linbis version` names the checkout's revision. Go stamps a build only
// in a repository's main folder, not in a linked worktree (.git a file):
// there, a clone of the worktree's HEAD is built instead.
func TestVersionFromCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git on PATH: a build cannot be stamped with its revision")
	}
	topOut, err := exec.Command(git, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("this checkout has no .git (an unpacked archive?): nothing to stamp a build with")
	}
	top := strings.TrimSpace(string(topOut))
	rev, err := exec.Command(git, "rev-parse", "HEAD").Output()
	require.NoError(t, err)
	dir := "."
	if fi, err := os.Stat(filepath.Join(top, ".git")); err == nil && !fi.IsDir() {
		clone := filepath.Join(t.TempDir(), "linbis")
		out, err := exec.Command(git, "clone", "--quiet", "--no-checkout", top, clone).CombinedOutput()
		require.NoError(t, err, "%s", out)
		out, err = exec.Command(git, "-C", clone, "checkout", "--quiet", strings.TrimSpace(string(rev))).CombinedOutput()
		require.NoError(t, err, "%s", out)
		dir = filepath.Join(clone, "cmd", "linbis")
	}
	bin := filepath.Join(t.TempDir(), "linbis")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-buildvcs=true", "-o", bin, ".")
	build.Dir = dir
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build -buildvcs=true in %s: %s", dir, out)
	out, err = exec.Command(bin, "version").Output()
	require.NoError(t, err)
	assert.Regexp(t, `^linbis \S+ \(revision `+string(rev[:12])+`(\+modified)?, \d{4}-\d\d-\d\dT[^,]+, `+regexpQuote(runtime.Version())+`\)\n$`, string(out))
}

// The bash script completes verbs, a verb's flags and bundled models;
// it is run in bash when bash is installed. zsh and fish get scripts too.
func TestCompletion(t *testing.T) {
	code, script, errOut := linbis("completion", "bash")
	require.Equal(t, 0, code, errOut)
	for _, shell := range []string{"zsh", "fish"} {
		code, out, errOut := linbis("completion", shell)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, "verify")
	}
	code, _, errOut = linbis("completion", "tcsh")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `unknown shell "tcsh"`)

	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed: the script was checked as text only")
	}
	complete := func(words ...string) []string {
		f := filepath.Join(t.TempDir(), "c.sh")
		require.NoError(t, os.WriteFile(f, []byte(script), 0o644))
		prog := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _linbis; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, append([]string{"-c", prog, "bash", f}, words...)...)
		cmd.Dir = t.TempDir()
		var out bytes.Buffer
		cmd.Stdout = &out
		cmd.Stderr = &out
		require.NoError(t, cmd.Run(), out.String())
		return strings.Fields(out.String())
	}
	assert.Equal(t, []string{"verify", "version"}, complete("linbis", "ver"))
	assert.Contains(t, complete("linbis", "verify", "--ti"), "--timeout")
	assert.Contains(t, complete("linbis", "verify", "tre"), "treiber")
	assert.Contains(t, complete("linbis", "-q", "compile", "ms"), "ms-queue")
}

// A bad output name is reported before any work: compile does not explore
// (the state limit would stop it first, exit 3), reduce does not read its
// input (a damaged one would be reported instead).
func TestOutputNameCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	noExt := filepath.Join(dir, "lts")
	for _, flag := range []string{"-o", "--spec-out"} {
		code, _, errOut := linbis("compile", "treiber", "--max-states", "1", flag, noExt, "-q")
		assert.Equal(t, 2, code, errOut)
		assert.Contains(t, errOut, "unknown LTS format: expected a .aut or .dot file name")
	}
	damaged := filepath.Join(dir, "damaged.aut")
	require.NoError(t, os.WriteFile(damaged, []byte("des (0, 1, 2)\n(0, \"a\""), 0o644))
	code, _, errOut := linbis("reduce", damaged, "-o", noExt, "-q")
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, "unknown LTS format: expected a .aut or .dot file name")
	code, _, errOut = linbis("reduce", damaged, "-o", "-", "--json", "-q")
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, "--json and -o - both want standard output")
}
