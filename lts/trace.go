package lts

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/linbis/linbis/internal/files"
)

// Trace is a counterexample: a path through an LTS, given step by step, and
// optionally a lasso whose steps from LoopStart on form a cycle back to the
// state before step LoopStart.
type Trace struct {
	// Title says what the trace shows, e.g. "lock-freedom violated".
	Title string `json:"title,omitempty"`
	// Steps are the transitions of the path, in order.
	Steps []TraceStep `json:"steps"`
	// LoopStart is the index of the first step of the cycle of a lasso, or
	// -1 for a finite trace.
	LoopStart int `json:"loop_start"`
	// Final optionally describes what happens (or cannot happen) after the
	// last step, e.g. "the specification cannot do ret(1,pop,2)".
	Final string `json:"final,omitempty"`
}

// TraceStep is one step of a Trace.
type TraceStep struct {
	From   int32       `json:"from"`             // state before the step in the LTS the trace came from; -1 if unknown
	Label  string      `json:"label"`            // the step's label, as .aut writes it (TauName for τ)
	To     int32       `json:"to"`               // state after the step; -1 if unknown
	Thread int32       `json:"thread,omitempty"` // thread that took it, 0 if unknown
	Source *SourceStep `json:"source,omitempty"` // source step, if known
	Note   string      `json:"note,omitempty"`   // e.g. "unmatched"
}

// StepFromTransition makes the TraceStep of transition t of l, with its
// thread and source step when l has them.
func StepFromTransition(l *LTS, t int32) TraceStep {
	st := TraceStep{From: l.Src[t], Label: l.LabelName(t), To: l.Dst[t], Thread: l.ThreadOf(t)}
	if src, ok := l.StepOf(t); ok {
		st.Source = &src
	}
	return st
}

// IsLasso reports whether the trace ends in a cycle.
func (tr *Trace) IsLasso() bool { return tr.LoopStart >= 0 && tr.LoopStart < len(tr.Steps) }

// Visible returns the visible labels of the trace, in order.
func (tr *Trace) Visible() []string {
	var out []string
	for _, s := range tr.Steps {
		if s.Label != TauName {
			out = append(out, s.Label)
		}
	}
	return out
}

// LTS returns the trace as a linear LTS: states 0..len(Steps), step i goes
// from state i to i+1, except that the last step of a lasso goes back to
// state LoopStart.
func (tr *Trace) LTS() *LTS {
	b := NewBuilder()
	n := int32(len(tr.Steps)) + 1
	if tr.IsLasso() {
		n--
	}
	b.SetNumStates(n)
	for i, s := range tr.Steps {
		dst := int32(i + 1)
		if tr.IsLasso() && i == len(tr.Steps)-1 {
			dst = int32(tr.LoopStart)
		}
		b.AddTransition(int32(i), b.Label(s.Label), dst)
	}
	return b.Build()
}

// WriteText writes the trace for a person: one numbered line per step, the
// cycle marked.
func (tr *Trace) WriteText(w io.Writer) error {
	var sb strings.Builder
	if tr.Title != "" {
		fmt.Fprintf(&sb, "%s\n", tr.Title)
	}
	for i, s := range tr.Steps {
		if i == tr.LoopStart {
			sb.WriteString("  -- cycle: the following steps repeat forever --\n")
		}
		fmt.Fprintf(&sb, "%4d  %s", i+1, s.Label)
		if s.Thread != 0 {
			fmt.Fprintf(&sb, "  [thread %d]", s.Thread)
		}
		if s.Source != nil {
			fmt.Fprintf(&sb, "  %s", s.Source)
		}
		if s.Note != "" {
			fmt.Fprintf(&sb, "  <- %s", s.Note)
		}
		sb.WriteByte('\n')
	}
	if tr.Final != "" {
		fmt.Fprintf(&sb, "then: %s\n", tr.Final)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteJSON writes the trace as indented JSON.
func (tr *Trace) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(tr)
}

// Export writes the trace to dir as base.txt, base.aut, base.dot and
// base.json, creating dir if needed.
func (tr *Trace) Export(dir, base string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	linear := tr.LTS()
	writers := map[string]func(io.Writer) error{
		".txt":  tr.WriteText,
		".json": tr.WriteJSON,
		".aut":  func(w io.Writer) error { return WriteAut(w, linear) },
		".dot":  func(w io.Writer) error { return WriteDot(w, linear) },
	}
	for ext, write := range writers {
		if err := files.Create(filepath.Join(dir, base+ext), write); err != nil {
			return err
		}
	}
	return nil
}
