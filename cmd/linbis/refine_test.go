package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Small LTSs for the refine verb: spec does a then b, forever; implOK does
// the same with a τ step (and a τ-cycle) in between; implBad can also do c
// after a; implLin does x, then lin(1) or lin(2) with hidden steps.
var refineFiles = map[string]string{
	"spec.aut":    "des (0, 2, 2)\n(0, \"a\", 1)\n(1, \"b\", 0)\n",
	"implOK.aut":  "des (0, 4, 3)\n(0, \"a\", 1)\n(1, \"tau\", 2)\n(2, \"tau\", 1)\n(2, \"b\", 0)\n",
	"implBad.aut": "des (0, 4, 3)\n(0, \"a\", 1)\n(1, \"tau\", 2)\n(2, \"b\", 0)\n(2, \"c\", 0)\n",
	"linSpec.aut": "des (0, 2, 3)\n(0, \"call\", 1)\n(1, \"lin(1)\", 2)\n",
	"linImpl.aut": "des (0, 3, 4)\n(0, \"call\", 1)\n(1, \"x\", 2)\n(2, \"lin(1)\", 3)\n",
	"bad.aut":     "des (0, 1, 2)\n(0, \"a\" 1)\n",
}

func refineFixtures(t *testing.T) string {
	dir := t.TempDir()
	for name, text := range refineFiles {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return dir
}

func TestRefineVerdicts(t *testing.T) {
	dir := refineFixtures(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"holds", []string{p("implOK.aut"), p("spec.aut")}, 0, []string{"refines", "pairs explored"}},
		{"holds without antichains or quotient", []string{"--antichain=false", "--quotient=false", p("implOK.aut"), p("spec.aut")}, 0, []string{"refines"}},
		{"fails", []string{p("implBad.aut"), p("spec.aut")}, 1,
			[]string{"does NOT refine", "   1  a", "   3  c  <- spec cannot do this", "cannot do c after the 1 visible actions"}},
		{"fails without antichains or quotient", []string{"--antichain=false", "--quotient=false", p("implBad.aut"), p("spec.aut")}, 1,
			[]string{"   3  c  <- spec cannot do this"}},
		{"spec does not refine a smaller impl", []string{p("spec.aut"), p("linImpl.aut")}, 1, []string{"   1  a  <- spec cannot do this"}},
		{"hidden x: lin-point mode holds", []string{"--visible", `^lin\(`, p("linImpl.aut"), p("linSpec.aut")}, 0, []string{"refines"}},
		{"all visible: x is extra", []string{p("linImpl.aut"), p("linSpec.aut")}, 1, []string{"   2  x  <- spec cannot do this"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := linbis(append([]string{"refine"}, tc.args...)...)
			require.Equal(t, tc.code, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
			for _, s := range tc.contains {
				assert.Contains(t, out, s)
			}
		})
	}
}

func TestRefineJSONAndExport(t *testing.T) {
	dir := refineFixtures(t)
	out := filepath.Join(dir, "out")
	code, stdout, errOut := linbis("refine", "--json", "--export", out, filepath.Join(dir, "implBad.aut"), filepath.Join(dir, "spec.aut"))
	require.Equal(t, 1, code, errOut)
	var rep struct {
		Refines        bool `json:"refines"`
		Counterexample struct {
			Steps []struct {
				Label string `json:"label"`
				Note  string `json:"note"`
			} `json:"steps"`
		} `json:"counterexample"`
		Stats map[string]any `json:"stats"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
	assert.False(t, rep.Refines)
	require.Len(t, rep.Counterexample.Steps, 3)
	assert.Equal(t, "c", rep.Counterexample.Steps[2].Label)
	assert.Equal(t, "spec cannot do this", rep.Counterexample.Steps[2].Note)
	assert.Positive(t, rep.Stats["pairs"])
	for _, ext := range []string{".txt", ".aut", ".dot", ".json"} {
		assert.FileExists(t, filepath.Join(out, "refine-counterexample"+ext))
	}

	code, stdout, _ = linbis("refine", "--json", filepath.Join(dir, "implOK.aut"), filepath.Join(dir, "spec.aut"))
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, `"refines": true`)
	assert.NotContains(t, stdout, "counterexample")
}

func TestRefineErrors(t *testing.T) {
	dir := refineFixtures(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name string
		args []string
		want string
		code int
	}{
		{"one file", []string{p("spec.aut")}, "linbis: refine needs 2 arguments (IMPL.aut SPEC.aut), got 1: ", 2},
		{"parse error", []string{p("bad.aut"), p("spec.aut")}, "linbis: " + p("bad.aut") + ":2:", 2},
		{"missing file", []string{p("nope.aut"), p("spec.aut")}, "nope.aut", 2},
		{"pair limit", []string{"--max-pairs", "1", p("implOK.aut"), p("spec.aut")},
			"linbis: no verdict: pair limit reached: explored 1 pairs", 3},
		{"bad limit", []string{"--max-pairs", "0", p("implOK.aut"), p("spec.aut")}, "--max-pairs must be at least 1, got 0", 2},
		{"nothing visible", []string{"--visible", `^lin\(`, p("implOK.aut"), p("spec.aut")}, "would hold vacuously", 2},
		{"bad regexp", []string{"--visible", "(", p("implOK.aut"), p("spec.aut")}, "--visible: error parsing regexp", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := linbis(append([]string{"refine"}, tc.args...)...)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, errOut, tc.want)
		})
	}
}
