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
	line := &progressLine{mt: meter.New(&buf, 0)}
	line.stage("exploring", 100)
	line.stage("exploring", 5000)
	assert.Contains(t, buf.String(), "exploring the implementation: 5000 states")
	line.stage("exploring", 10) // the count starts again: the specification
	assert.Contains(t, buf.String(), "exploring the specification: 10 states")
	line.stage("kernel states", 825)
	line.stage("refine", 825)
	line.stage("refinement pairs", 7)
	line.stage("classify", 1<<20)
	out := buf.String()
	assert.Contains(t, out, "bisimulation: reading the LTS: 825 states")
	assert.Contains(t, out, "bisimulation: splitting classes: 825 classes")
	assert.Contains(t, out, "trace refinement: 7 pairs")
	assert.Contains(t, out, "bisimulation: classifying bottom up: 1048576 components")
	assert.NotContains(t, out, "kernel states")
	assert.NotContains(t, out, "refine:")
	for stage, w := range stageWords {
		assert.NotEmpty(t, w.unit, stage)
	}
}
