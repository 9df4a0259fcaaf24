package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sampleRows() []*Row {
	a := newRow(smokeGrid()[0])
	a.ImplStates, a.SpecStates, a.BisimSeconds, a.RefineSeconds, a.RefineNoACSeconds = 100, 50, 0.01, 0.2, 0.5
	a.Linearizable, a.LockFree = "yes", "yes"
	a.checkVerdicts()
	b := newRow(smokeGrid()[2])
	b.ImplStates, b.RefineSeconds, b.Linearizable = 1000, 0.3, "yes"
	b.checkVerdicts()
	return []*Row{a, b}
}

func TestVerdictCheck(t *testing.T) {
	rows := sampleRows()
	assert.Equal(t, "ok", rows[0].VerdictOK)
	assert.Equal(t, "MISMATCH", rows[1].VerdictOK, "the buggy queue is not linearizable in the literature")
	r := newRow(Case{WantLinearizable: "yes"})
	r.Linearizable = "unknown"
	r.checkVerdicts()
	assert.Equal(t, "", r.VerdictOK, "unknown is not compared")
}

func TestCSVHasEveryColumn(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteCSV(&buf, sampleRows()))
	records, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Len(t, records, 3)
	assert.Equal(t, columns, records[0])
	for _, rec := range records[1:] {
		assert.Len(t, rec, len(columns))
	}
	assert.Equal(t, "", records[2][5+6], "an unmeasured figure is empty, not -1")
}

func TestMarkdownAndPlot(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteMarkdown(&buf, sampleRows(), "test machine"))
	assert.Contains(t, buf.String(), "| smoke | Treiber | 2/1 | 50 (70) | 100 (81) |")
	path := filepath.Join(t.TempDir(), "p.png")
	require.NoError(t, WritePlot(path, sampleRows()))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(data[:4]))
}

func TestGridsAreWellFormed(t *testing.T) {
	for name, g := range grids {
		for _, c := range g() {
			assert.NotEmpty(t, c.Model, name)
			assert.Positive(t, c.Threads, name)
			assert.Positive(t, c.Ops, name)
			assert.Contains(t, []string{"yes", "no", ""}, c.WantLinearizable)
		}
	}
	assert.Len(t, yangGrid(), 32, "Table 1 has 16 rows, for two stacks")
}

func TestCSVRoundTrip(t *testing.T) {
	rows := sampleRows()
	rows[0].Notes = []string{"bisim: a note", "refine: pair limit reached"}
	rows[0].Fly[2] = FlyRun{Seconds: 0.25, PeakMiB: 12.5, States: 40, Pairs: 61}
	rows[1].Fly[3] = FlyRun{Seconds: 1.5, PeakMiB: 30, States: 900, Pairs: 1200}
	var buf bytes.Buffer
	require.NoError(t, WriteCSV(&buf, rows))
	back, err := ReadCSV(&buf)
	require.NoError(t, err)
	for _, r := range rows {
		r.Extra = nil // the flags of a case are not part of the CSV
	}
	assert.Equal(t, rows, back)
	_, err = ReadCSV(strings.NewReader("a,b\n1,2\n"))
	assert.ErrorContains(t, err, "not a results.csv: unknown column \"a\"")
	_, err = ReadCSV(strings.NewReader("grid,model\nyang,treiber\n"))
	assert.ErrorContains(t, err, "not a results.csv: no column \"label\"")
}

// TestCommittedCSVsRedraw reads the committed results, written before
// some on-the-fly columns existed (the optional ones), and draws them
// again: the runs they lack are unmeasured, the others kept.
func TestCommittedCSVsRedraw(t *testing.T) {
	for _, name := range []string{"RESULTS.csv", "RESULTS-liu.csv"} {
		f, err := os.Open(name)
		require.NoError(t, err)
		header, err := csv.NewReader(f).Read()
		require.NoError(t, err)
		_, err = f.Seek(0, 0)
		require.NoError(t, err)
		rows, err := ReadCSV(f)
		f.Close()
		require.NoError(t, err, name)
		require.NotEmpty(t, rows, name)
		for i, m := range flyModes {
			if !slices.Contains(header, m.column+"_s") {
				for _, r := range rows {
					assert.Equal(t, FlyRun{-1, -1, -1, -1}, r.Fly[i], "%s: %s is not measured", name, m.name)
				}
			}
		}
		assert.Positive(t, rows[0].ImplStates, name)
		out := t.TempDir()
		require.NoError(t, redraw(name, out), name)
		back, err := os.Open(filepath.Join(out, "results.csv"))
		require.NoError(t, err)
		again, err := ReadCSV(back)
		back.Close()
		require.NoError(t, err)
		assert.Equal(t, rows, again, "%s: drawn again with every column, the same rows", name)
	}
}
