package verify

import (
	"fmt"
	"io"
	"strings"

	"github.com/linbis/linbis/history/timeline"
)

// WriteHTML writes the report as a self-contained page: the history of the
// first counterexample drawn as a timeline of operations per thread (as
// Porcupine draws histories; no drawing when nothing failed), the verdict,
// the sizes, stages and verdicts of the text report, and every
// counterexample's interleaving table below; a distinguishing formula with
// its explanation (the formula and its English reading) and the paths of
// both sides.
func WriteHTML(w io.Writer, r *Report) error {
	tl := &timeline.Timeline{
		Title:   fmt.Sprintf("linbis verify: %s (%s)", r.Model, r.Bounds),
		Verdict: fmt.Sprintf("linearizable: %s · lock-free: %s", r.Linearizable, r.LockFree),
		Bad:     r.Linearizable == No || r.LockFree == No,
		Notes:   append([]string{"Why: " + r.Theorem + "."}, r.Notes...),
	}
	for i := 0; i < r.Bounds.Threads; i++ {
		tl.Lanes = append(tl.Lanes, fmt.Sprintf("thread %d", i+1))
	}
	if len(r.Evidence) > 0 {
		e := r.Evidence[len(r.Evidence)-1]
		for _, ev := range r.Evidence {
			if ev.Kind == "refinement-violation" {
				e = ev // the history that has no linearization says most
			}
		}
		tl.Notes = append(tl.Notes, "Drawn: the "+e.Kind+". "+e.Explanation)
		ops := e.History
		if ops == nil {
			ops = History(e.Trace)
		}
		last := len(e.Trace.Steps)
		for _, op := range ops {
			if int(op.Thread) > len(tl.Lanes) {
				continue
			}
			bar := timeline.Bar{Lane: int(op.Thread) - 1, Start: int64(op.Call), End: int64(op.Ret),
				Label: op.label(), Detail: fmt.Sprintf("thread %d: %s (steps %d–%s)", op.Thread, op.label(), op.Call, op.retText())}
			if op.Ret == 0 {
				bar.End = timeline.Open
			}
			if op.Ret == last && e.Kind == "refinement-violation" {
				bar.Kind = timeline.Stuck
			} else if e.Kind == "lasso" && op.Ret == 0 {
				bar.Kind = timeline.Witness // pending forever on the cycle
			}
			tl.Bars = append(tl.Bars, bar)
		}
	}
	// What was checked and what holds, as the text report says it: a
	// passing run has no history to draw, and this is its page.
	var run strings.Builder
	writeSummary(&run, r)
	tl.Sections = append(tl.Sections, timeline.Section{Heading: "the run: sizes, stages and verdicts", Text: run.String()})
	for _, e := range r.Evidence {
		if e.Formula != nil {
			tl.Sections = append(tl.Sections, formulaSections(&e)...)
			continue
		}
		tl.Sections = append(tl.Sections, timeline.Section{Heading: e.Kind, Intro: e.Explanation, Text: e.Interleaving})
	}
	return timeline.WriteHTML(w, tl)
}

// formulaSections shows a distinguishing formula as the text report does:
// its explanation (the formula, its English reading) preformatted, since
// the reading is laid out in lines, then the path of each side, titled by
// the LTS it belongs to.
func formulaSections(e *Evidence) []timeline.Section {
	f := e.Formula
	sections := []timeline.Section{
		{Heading: fmt.Sprintf("distinguishing formula (holds in %s, not in %s)", sideName(f), otherSideName(f)),
			Text: e.Explanation},
		{Heading: e.Trace.Title, Text: e.Interleaving},
	}
	if e.OtherTrace != nil {
		sections = append(sections, timeline.Section{Heading: e.OtherTrace.Title, Text: e.OtherInterleaving})
	}
	return sections
}

// label renders an operation as "push(1)" or "pop() → 2".
func (op HistoryOp) label() string {
	s := fmt.Sprintf("%s(%s)", op.Method, op.Arg)
	if op.Ret > 0 && op.Result != "" {
		s += " → " + op.Result
	}
	return s
}

func (op HistoryOp) retText() string {
	if op.Ret == 0 {
		return "pending"
	}
	return fmt.Sprint(op.Ret)
}
