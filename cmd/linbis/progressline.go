package main

import "github.com/linbis/linbis/internal/meter"

// The progress line on stderr speaks the user's words: which LTS is being
// explored, what a bisimulation or refinement stage is doing, and the unit
// of its count. The libraries name their stages for their own code
// ("kernel states", "refine"); stageWords translates.

// stageWords maps a library's progress stage to what the line says and
// the unit it counts.
var stageWords = map[string]struct{ what, unit string }{
	"kernel states":    {"bisimulation: reading the LTS", "states"},
	"classify":         {"bisimulation: classifying bottom up", "components"},
	"refine":           {"bisimulation: splitting classes", "classes"},
	"refine (gv)":      {"bisimulation (gv): splitting classes", "classes"},
	"quotient states":  {"bisimulation: building the quotient", "states"},
	"refinement pairs": {"trace refinement", "pairs"},
	"product pairs":    {"on-the-fly check", "state pairs"},
	"annotate":         {"progress: annotating", "states"},
	"product":          {"progress: building the product", "states"},
}

// progressLine reports to a meter (nil: no line).
type progressLine struct {
	mt *meter.Meter
	// Exploration: the implementation is explored first, then the
	// specification; a count that starts again from below marks the
	// second.
	explored int64
	spec     bool
}

// exploring reports an exploration's states.
func (p *progressLine) exploring(states int64) {
	if p.mt == nil {
		return
	}
	if states < p.explored {
		p.spec = true
	}
	p.explored = states
	what := "exploring the implementation"
	if p.spec {
		what = "exploring the specification"
	}
	p.mt.Report(what, states, "states")
}

// stage reports a library stage's count, in the user's words.
func (p *progressLine) stage(stage string, n int64) {
	if p.mt == nil {
		return
	}
	if stage == "exploring" {
		p.exploring(n)
		return
	}
	w, ok := stageWords[stage]
	if !ok {
		w.what, w.unit = stage, ""
	}
	p.mt.Report(w.what, n, w.unit)
}
