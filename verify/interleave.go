package verify

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/linbis/linbis/lts"
)

// threadOf returns the thread of a trace step: the recorded one, or the
// one its call/ret label names, or 0.
func threadOf(s lts.TraceStep) int32 {
	if s.Thread != 0 {
		return s.Thread
	}
	if a, ok := lts.ParseAction(s.Label); ok {
		return a.Thread
	}
	return 0
}

// cell is what a step shows in its thread's column.
func cell(s lts.TraceStep) string {
	if a, ok := lts.ParseAction(s.Label); ok {
		return a.String()
	}
	var text string
	if s.Source != nil {
		text = fmt.Sprintf("L%d: %s", s.Source.Line, s.Source.Text)
	}
	switch {
	case s.Label != lts.TauName && text != "":
		return s.Label + " at " + text // e.g. a lin(...) event
	case s.Label != lts.TauName:
		return s.Label
	case text == "":
		return "τ"
	}
	return text
}

// Interleaving renders a trace as a table with one column per thread and
// one row per step: calls and returns as events, internal steps by their
// source line. Steps whose thread is unknown go in a column "?". The first
// step of a lasso's cycle is preceded by a marker row, and a step's note
// (e.g. "spec cannot do this") follows its cell without counting in its
// column's width, so that a long note (a model error's or a data race's
// message) does not push the other threads' cells to the right.
func Interleaving(tr *lts.Trace) string {
	maxThread := int32(0)
	unknown := false
	for _, s := range tr.Steps {
		t := threadOf(s)
		maxThread = max(maxThread, t)
		unknown = unknown || t == 0
	}
	cols := int(maxThread)
	if unknown {
		cols++
	}
	col := func(t int32) int {
		if t == 0 {
			return cols - 1
		}
		return int(t - 1)
	}
	header := make([]string, cols)
	for i := range header {
		header[i] = fmt.Sprintf("thread %d", i+1)
	}
	if unknown {
		header[cols-1] = "?"
	}
	rows := [][]string{}
	marks, notes := []string{}, []string{}
	for i, s := range tr.Steps {
		if i == tr.LoopStart {
			rows = append(rows, nil) // cycle marker
			marks, notes = append(marks, ""), append(notes, "")
		}
		row := make([]string, cols)
		row[col(threadOf(s))] = cell(s)
		rows = append(rows, row)
		marks, notes = append(marks, strconv.Itoa(i+1)), append(notes, s.Note)
	}
	width := make([]int, cols)
	for i, h := range header {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var sb strings.Builder
	line := func(mark string, cells []string, note string) {
		var lb strings.Builder
		fmt.Fprintf(&lb, "%5s", mark)
		for i, c := range cells {
			lb.WriteString("  ")
			lb.WriteString(c)
			lb.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)))
		}
		text := strings.TrimRight(lb.String(), " ")
		if note != "" {
			text += "   ← " + note
		}
		sb.WriteString(text)
		sb.WriteString("\n")
	}
	line("step", header, "")
	for i, r := range rows {
		if r == nil {
			sb.WriteString("  ─── cycle: the steps below repeat forever ───\n")
			continue
		}
		line(marks[i], r, notes[i])
	}
	return sb.String()
}
