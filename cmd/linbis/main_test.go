package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linbis runs the CLI in-process and returns its exit code, stdout and stderr.
func linbis(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(append([]string{"linbis"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestInfoBundledExample(t *testing.T) {
	code, out, _ := linbis("info")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "cas-counter-2x1.aut")
	assert.Regexp(t, `states\s+\d+`, out)

	code, out, _ = linbis("info", "--json")
	require.Equal(t, 0, code)
	var st map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	assert.Greater(t, st["states"], 0.0)
	assert.Greater(t, st["tau_transitions"], 0.0)
}

func TestConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	aut := filepath.Join(dir, "a.aut")
	require.NoError(t, os.WriteFile(aut, []byte(exampleAut), 0o644))
	dot := filepath.Join(dir, "a.dot")
	code, _, errOut := linbis("convert", aut, dot)
	require.Equal(t, 0, code, errOut)
	back := filepath.Join(dir, "b.aut")
	code, _, errOut = linbis("convert", dot, back)
	require.Equal(t, 0, code, errOut)
	_, a, _ := linbis("info", "--json", aut)
	_, b, _ := linbis("info", "--json", back)
	var sa, sb map[string]any
	require.NoError(t, json.Unmarshal([]byte(a), &sa))
	require.NoError(t, json.Unmarshal([]byte(b), &sb))
	delete(sa, "file")
	delete(sb, "file")
	assert.Equal(t, sa, sb)
}

func TestInputErrorsExitTwoWithOneLine(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.aut")
	require.NoError(t, os.WriteFile(bad, []byte("des (0, 1, 2)\n(0, \"a\", 5)\n"), 0o644))
	code, _, errOut := linbis("info", bad)
	assert.Equal(t, 2, code)
	assert.Equal(t, "linbis: "+bad+":2:10: target state 5 out of range: the header declares 2 states\n", errOut)

	code, _, errOut = linbis("convert", "only-one.aut")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "linbis: convert needs 2 arguments (IN OUT), got 1: only-one.aut\n")

	code, _, _ = linbis("no-such-verb")
	assert.Equal(t, 2, code)
}
