package main

import (
	"testing"
	"time"

	"github.com/linbis/linbis/internal/limits"
	"github.com/stretchr/testify/assert"
)

// TestGraceIsCPUTime: the grace a run gets to stop after its context has
// ended is CPU time: a process that works is ended once it has spent
// stopGrace of it, however little of a core it gets (a niced run on a
// loaded machine: 2 s of wall time were not enough); one that spends none
// (blocked) after stopWallFactor times stopGrace of wall time.
func TestGraceIsCPUTime(t *testing.T) {
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = 50 * time.Millisecond
	if limits.ProcessCPU() == 0 {
		t.Skip("no CPU time on this system")
	}

	start, cpu0 := time.Now(), limits.ProcessCPU()
	over := graceOver()
	x := 0
	for !over() {
		for i := range 10000 {
			x += i
		}
	}
	assert.GreaterOrEqual(t, limits.ProcessCPU()-cpu0, stopGrace, "%d", x)
	t.Logf("%s of CPU time in %s", limits.ProcessCPU()-cpu0, time.Since(start))

	stopGrace = 5 * time.Millisecond
	start = time.Now()
	over = graceOver()
	for !over() {
		time.Sleep(time.Millisecond)
	}
	assert.Less(t, time.Since(start), stopWallFactor*stopGrace+time.Second, "blocked: ended by wall time")
}
