package verify

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got)
}

func TestInterleavingHandTrace(t *testing.T) {
	src := func(line int32, text string) *lts.SourceStep { return &lts.SourceStep{Line: line, Col: 5, Text: text} }
	tr := &lts.Trace{
		Steps: []lts.TraceStep{
			{Label: "call(1,push,1)", Thread: 1},
			{Label: "call(2,pop)", Thread: 2},
			{Label: "tau", Thread: 2, Source: src(14, "old := Top")},
			{Label: "tau", Thread: 1, Source: src(7, "done = cas(Top, old, x)")},
			{Label: "ret(1,push)"},
			{Label: "tau"},
			{Label: "ret(2,pop,EMPTY)", Thread: 2, Note: "spec cannot do this"},
		},
		LoopStart: -1,
	}
	golden(t, "interleaving-hand.txt", Interleaving(tr))
}

func TestInterleavingLasso(t *testing.T) {
	tr := &lts.Trace{
		Steps: []lts.TraceStep{
			{Label: "call(1,inc)", Thread: 1},
			{Label: "tau", Thread: 1},
			{Label: "tau", Thread: 1},
		},
		LoopStart: 1,
	}
	out := Interleaving(tr)
	assert.Contains(t, out, "cycle: the steps below repeat forever")
	assert.Regexp(t, `(?m)^\s+1\s+call inc\(\)$`, out)
	assert.NotContains(t, out, "?", "every step has a known thread")
}
