package main

import "github.com/linbis/linbis/internal/meter"

// The progress line on stderr speaks the user's words: which LTS is being
// explored, what a bisimulation or refinement stage is doing. The
// libraries report through meter.Reporter in their own words ("kernel
// states", "refine") with the unit of the count; stageWords translates
// the stage.

// stageWords maps a library's progress stage to what the line says.
var stageWords = map[string]string{
	"kernel states":    "bisimulation: reading the LTS",
	"classify":         "bisimulation: classifying bottom up",
	"refine":           "bisimulation: splitting classes",
	"refine (gv)":      "bisimulation (gv): splitting classes",
	"quotient states":  "bisimulation: building the quotient",
	"refinement pairs": "trace refinement",
	"product pairs":    "on-the-fly check",
	"measuring":        "method auto: measuring smaller clients",
	"annotate":         "progress: annotating",
	"product":          "progress: building the product",
}

// reporter returns the line of m as the libraries' Reporter, nil (no
// reports, and no work to make them) when m is.
func reporter(m *meter.Meter) meter.Reporter {
	if m == nil {
		return nil
	}
	return &progressLine{mt: m}
}

// progressLine reports to a meter (nil: no line). It is the Reporter
// that the verbs hand to the libraries.
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

// Report reports a library stage's count, in the user's words.
func (p *progressLine) Report(stage string, n int64, unit string) {
	if p.mt == nil {
		return
	}
	if stage == "exploring" {
		p.exploring(n)
		return
	}
	if w, ok := stageWords[stage]; ok {
		stage = w
	}
	p.mt.Report(stage, n, unit)
}
