package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

func TestCompileBundledModelWritesLTSs(t *testing.T) {
	dir := t.TempDir()
	impl := filepath.Join(dir, "impl.aut")
	spec := filepath.Join(dir, "spec.aut")
	code, out, errOut := linbis("compile", "counter1", "--threads", "2", "--ops", "1", "-o", impl, "--spec-out", spec)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "threads=2 ops=1")
	assert.Regexp(t, `implementation\s+48 states\s+84 transitions`, out)
	for _, f := range []string{impl, spec} {
		l, err := lts.ReadFile(f, lts.ReadOptions{})
		require.NoError(t, err)
		assert.EqualValues(t, 48, l.NumStates)
		assert.Equal(t, 84, l.NumTransitions())
	}
}

func TestCompileJSONAndFlags(t *testing.T) {
	code, out, errOut := linbis("compile", "--json", "--threads", "1", "--ops", "2", "--values", "1,2", "treiber")
	require.Equal(t, 0, code, errOut)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, map[string]any{"threads": 1.0, "ops": 2.0, "values": []any{1.0, 2.0}}, rep["bounds"], "the shape of verify's")
	assert.Greater(t, rep["impl"].(map[string]any)["states"], 0.0)

	// Folding private-node accesses only removes states.
	_, fine, _ := linbis("compile", "--json", "--fine-grained", "treiber")
	_, folded, _ := linbis("compile", "--json", "treiber")
	var rf, rc map[string]any
	require.NoError(t, json.Unmarshal([]byte(fine), &rf))
	require.NoError(t, json.Unmarshal([]byte(folded), &rc))
	assert.Greater(t, rf["impl"].(map[string]any)["states"], rc["impl"].(map[string]any)["states"])

	code, out, _ = linbis("compile", "--list")
	require.Equal(t, 0, code)
	assert.Regexp(t, `(?m)^treiber +Treiber's`, out)
	assert.Regexp(t, `(?m)^hp-stack-revised +`, out)
}

func TestCompileFromFileAndErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "c.lin")
	require.NoError(t, os.WriteFile(good, []byte("object C {\n  shared c int = 0\n  method inc() { atomic { c = c + 1 } }\n}\nspec auto\n"), 0o644))
	code, out, errOut := linbis("compile", good, "--ops", "forever", "--threads", "1", "--max-states", "10")
	assert.Equal(t, 3, code, "a limit, not an error")
	assert.Empty(t, out)
	assert.Contains(t, errOut, "state limit reached: more than 10 states")

	bad := filepath.Join(dir, "bad.lin")
	require.NoError(t, os.WriteFile(bad, []byte("object B {\n  method m() { x = 1; y = 2 }\n}\nspec auto\n"), 0o644))
	code, _, errOut = linbis("compile", bad)
	assert.Equal(t, 2, code)
	assert.Equal(t, bad+":2:16: undefined: x\n"+bad+":2:23: undefined: y\nlinbis: "+bad+": 2 errors\n", errOut)

	one := filepath.Join(dir, "one.lin")
	require.NoError(t, os.WriteFile(one, []byte("object B {\n  method m() { x = 1 }\n}\nspec auto\n"), 0o644))
	code, _, errOut = linbis("compile", one)
	assert.Equal(t, 2, code)
	assert.Equal(t, "linbis: "+one+":2:16: undefined: x\n", errOut)

	for _, args := range [][]string{
		{"compile"},
		{"compile", "no-such-model"},
		{"compile", "treiber", "--ops", "0"},
		{"compile", "treiber", "--values", "3..1"},
		{"compile", "treiber", "--threads", "0"},
		{"compile", "treiber", "--bogus"},
		{"compile", "treiber", "extra"},
	} {
		code, _, errOut := linbis(args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Regexp(t, `^linbis: .+\n$`, errOut, "%v", args)
	}
}

func TestCompileModelErrorPrintsTrace(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.lin")
	require.NoError(t, os.WriteFile(f, []byte("object A {\n  shared c int = 0\n  method inc() { c = c + 1; assert c < 2 }\n}\nspec auto\n"), 0o644))
	code, out, _ := linbis("compile", f)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "model error: "+f+":3:29: assert c < 2: assertion failed")
	assert.Contains(t, out, "call inc()")
	assert.Contains(t, out, "thread 2")
}

func TestParseValuesAndOps(t *testing.T) {
	vs, err := parseValues("1..3")
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 3}, vs)
	vs, err = parseValues("-1, 5,2")
	require.NoError(t, err)
	assert.Equal(t, []int{-1, 5, 2}, vs)
	for _, bad := range []string{"", "a", "1..", "3..1", "1,,2", "0..100"} {
		_, err := parseValues(bad)
		assert.Error(t, err, bad)
	}
	n, err := parseOps("forever")
	require.NoError(t, err)
	assert.Equal(t, -1, n)
	_, err = parseOps("-3")
	assert.Error(t, err)
}

func TestCompileWorkersDoNotChangeTheLTS(t *testing.T) {
	dir := t.TempDir()
	var files [][]byte
	for _, w := range []string{"1", "3"} {
		path := filepath.Join(dir, "impl-"+w+".aut")
		code, _, errOut := linbis("compile", "ms-queue", "--threads", "2", "--ops", "2", "--workers", w, "-q", "-o", path)
		require.Equal(t, 0, code, errOut)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		files = append(files, data)
	}
	assert.Equal(t, files[0], files[1], "the same .aut, byte for byte, with 1 and 3 workers")
}

// TestCompileWarnsOfIdleOnly: an only clause for a thread that --threads
// leaves out is warned about on stderr, with its position; the compile
// goes on.
func TestCompileWarnsOfIdleOnly(t *testing.T) {
	file := filepath.Join(t.TempDir(), "reg.lin")
	require.NoError(t, os.WriteFile(file, []byte(`object R {
  shared c int = 0
  method set(v int) { c = v }
  method get() int { return c }
}
spec auto
client { threads 3; ops 1; values 1; only 3: get }
`), 0o644))
	code, _, errOut := linbis("compile", "--json", file)
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, errOut, "warning")
	code, _, errOut = linbis("compile", "--json", "--threads", "2", file)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "linbis: warning: "+file+":7:38: only 3: there are 2 threads")
}
