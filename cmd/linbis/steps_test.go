package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompileSteps prints the bundled Treiber stack's steps: the listing
// names both methods and marks the shared reads and the loop's back edge.
func TestCompileSteps(t *testing.T) {
	code, out, errOut := linbis("compile", "--steps", "treiber")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "// implementation TreiberStack")
	assert.Contains(t, out, "method push(v int)")
	assert.Regexp(t, `\d+ ▶  assign    old := Top +L\d+`, out)
	assert.Regexp(t, `\d+ ↺  jump      while !done → \d+`, out)
	assert.Contains(t, out, "// specification StackSpec")
}
