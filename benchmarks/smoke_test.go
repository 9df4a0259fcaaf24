package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSmokeGrid runs the small grid end to end, as `go run ./benchmarks
// --grid smoke` does: it builds linbis, runs every case in a child process,
// and checks that every verdict matches the literature and that the CSV has
// every column.
func TestSmokeGrid(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs linbis")
	}
	out := t.TempDir()
	rows, err := Run(smokeGrid(), Config{Out: out, Timeout: 2 * time.Minute, Refine: true, Fly: true})
	require.NoError(t, err)
	require.Len(t, rows, len(smokeGrid()))
	for _, r := range rows {
		assert.Equal(t, "ok", r.VerdictOK, "%s %d/%d: lin=%s lf=%s, notes %v", r.Model, r.Threads, r.Ops, r.Linearizable, r.LockFree, r.Notes)
		assert.Positive(t, r.ImplStates)
		assert.GreaterOrEqual(t, r.BisimSeconds, 0.0)
		assert.GreaterOrEqual(t, r.RefineSeconds, 0.0)
		assert.Positive(t, r.BisimPeakMiB, "peak memory measured")
		assert.Positive(t, r.GenPeakMiB, "peak memory of the generation measured")
		all, none, sym, por := r.Fly[0], r.Fly[1], r.Fly[2], r.Fly[3]
		for i, f := range r.Fly {
			assert.GreaterOrEqual(t, f.Seconds, 0.0, flyModes[i].name)
			assert.Positive(t, f.States, flyModes[i].name)
		}
		if r.Linearizable == "yes" { // else each stops at its first violation
			assert.Equal(t, r.ImplStates, none.States, "unreduced, the on-the-fly search stores the LTS's states")
			for _, f := range []FlyRun{all, sym, por} {
				assert.LessOrEqual(t, f.States, none.States, "a reduction stores no more states")
			}
			assert.LessOrEqual(t, all.States, sym.States, "partial-order reduction on top of symmetry stores no more states")
		}
		for _, n := range r.Notes {
			assert.NotContains(t, n, "INCONSISTENT")
		}
	}
	f, err := os.Open(filepath.Join(out, "results.csv"))
	require.NoError(t, err)
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, columns, records[0])
	require.Len(t, records, len(rows)+1)
	for _, rec := range records[1:] {
		for i, col := range []string{"impl_states", "spec_states", "bisim_s", "refine_s", "linearizable", "verdict_check"} {
			idx := slices.Index(columns, col)
			assert.NotEmpty(t, rec[idx], "column %s (%d) of %v", col, i, rec[:3])
		}
	}
	for _, name := range []string{"results.md", "results.png"} {
		assert.FileExists(t, filepath.Join(out, name))
	}
	assert.NoFileExists(t, filepath.Join(out, "linbis"), "the output folder holds results, not the binary")
}

// TestStateLimitSkipsTheSeries checks that a case above --max-states is
// reported with linbis's own message and that the larger cases of its
// series are skipped rather than run.
func TestStateLimitSkipsTheSeries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs linbis")
	}
	cases := []Case{
		{Grid: "test", Model: "treiber", Threads: 2, Ops: 1, Extra: oneValue, WantLinearizable: "yes", WantLockFree: "yes"},
		{Grid: "test", Model: "treiber", Threads: 2, Ops: 2, Extra: oneValue, WantLinearizable: "yes", WantLockFree: "yes"},
		{Grid: "test", Model: "treiber", Threads: 2, Ops: 3, Extra: oneValue, WantLinearizable: "yes", WantLockFree: "yes"},
	}
	// Treiber 2/1 has 88 states, 2/2 has 1 056.
	rows, err := Run(cases, Config{Out: t.TempDir(), Timeout: time.Minute, MaxStates: 500})
	require.NoError(t, err)
	require.Len(t, rows, 3)
	assert.Equal(t, "ok", rows[0].VerdictOK, "2/1 is under the limit: %v", rows[0].Notes)
	require.NotEmpty(t, rows[1].Notes)
	assert.Contains(t, rows[1].Notes[0], "state limit reached: more than 500 states")
	assert.NotContains(t, rows[1].Notes[0], "--threads", "the note is linbis's message, not the command line")
	assert.Equal(t, []string{"skipped: 2/2 hit a limit"}, rows[2].Notes)
}

// TestRoutesSmoke runs the routes mode on small cases, as `go run
// ./benchmarks --routes --cases ...` does: every run finishes with the
// same verdicts, auto names its route and why, and routes.md has a row
// per case.
func TestRoutesSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs linbis")
	}
	out := t.TempDir()
	cases := []Case{
		{Grid: "routes", Model: "treiber", Threads: 2, Ops: 3, Extra: oneValue},
		{Grid: "routes", Model: "hw-queue", Threads: 2, Ops: 3, Extra: oneValue},
	}
	rows, err := RunRoutes(cases, nil, Config{Out: out, Timeout: 2 * time.Minute})
	require.NoError(t, err)
	require.Len(t, rows, len(cases))
	for _, r := range rows {
		for i, run := range r.Runs {
			assert.True(t, run.Finished, "%s %s: %s", caseName(r.Case), routeMethods[i], run.Verdicts)
			assert.Equal(t, r.Runs[0].Verdicts, run.Verdicts, "%s %s", caseName(r.Case), routeMethods[i])
			assert.Positive(t, run.CPU)
			assert.Positive(t, run.PeakMiB)
		}
		assert.Contains(t, []string{"bisim", "fly"}, r.Runs[2].Route)
		assert.NotEmpty(t, r.Runs[2].Reason)
		_, _, ok := r.Ratio()
		assert.True(t, ok)
	}
	md, err := os.ReadFile(filepath.Join(out, "routes.md"))
	require.NoError(t, err)
	assert.Contains(t, string(md), "| treiber/2x3 |")
	assert.Contains(t, string(md), "| hw-queue/2x3 |")
}
