package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/linbis/linbis/internal/meter"
)

// The progress line names the LTS being explored and says what a stage
// counts, in words, not the libraries' stage names.
func TestProgressLineWords(t *testing.T) {
	var buf bytes.Buffer
	var line meter.Reporter = &progressLine{mt: meter.New(&buf, 0)}
	line.Report("exploring", 100, "states")
	line.Report("exploring", 5000, "states")
	assert.Contains(t, buf.String(), "exploring the implementation: 5000 states")
	line.Report("exploring", 10, "states") // the count starts again: the specification
	assert.Contains(t, buf.String(), "exploring the specification: 10 states")
	line.Report("kernel states", 825, "states")
	line.Report("refine", 825, "classes")
	line.Report("refinement pairs", 7, "pairs")
	line.Report("classify", 1<<20, "components")
	line.Report("3 of 7 partitions decided", 12, "configurations")
	out := buf.String()
	assert.Contains(t, out, "bisimulation: reading the LTS: 825 states")
	assert.Contains(t, out, "bisimulation: splitting classes: 825 classes")
	assert.Contains(t, out, "trace refinement: 7 pairs")
	assert.Contains(t, out, "bisimulation: classifying bottom up: 1048576 components")
	assert.Contains(t, out, "3 of 7 partitions decided: 12 configurations", "a stage without words is shown as it is")
	assert.NotContains(t, out, "kernel states")
	assert.NotContains(t, out, "refine:")
	assert.Nil(t, reporter(nil), "no meter: no reporter, so that the libraries skip the reports")
}
