package lts

import (
	"fmt"
	"math"
	"sort"
)

// Tau is the label id of the internal action τ; it is always label 0.
const Tau int32 = 0

// TauName is how τ is written in output (mCRL2's convention).
const TauName = "tau"

// LTS is an explicit labelled transition system with states 0..NumStates-1.
//
// The transitions are stored sorted by source in the parallel slices Src,
// Label and Dst; those of state s are the indices Out[s] ≤ t < Out[s+1].
// An LTS is immutable once built; use a Builder to make one.
type LTS struct {
	// Initial is the initial state.
	Initial int32
	// NumStates is the number of states; states are 0..NumStates-1.
	NumStates int32
	// Labels is the label table; Labels[Tau] is TauName.
	Labels []string
	// Src, Label and Dst hold one entry per transition, sorted by Src.
	Src, Label, Dst []int32
	// Out is the CSR index by source, of length NumStates+1.
	Out []int32
	// Meta is optional per-transition side data (thread, source step),
	// parallel to Src; nil when the LTS came from a file.
	Meta *Meta
}

// Meta is per-transition side data recorded by the frontend: which thread
// took a transition and which source step it executes. Both slices are
// parallel to LTS.Src. They are narrow (at most MaxMetaThread threads and
// MaxMetaSteps source steps, more than a model has): on a large LTS, int32
// slices would cost 500 MB more per 100 M transitions.
type Meta struct {
	// Thread is the thread (numbered from 1) that took each transition; 0 if none.
	Thread []uint8
	// Step indexes Steps for each transition; -1 if none.
	Step []int16
	// Steps describes source steps, referenced by Step.
	Steps []SourceStep
}

// SourceStep is a position in a model's source and the text of the step there.
type SourceStep struct {
	File      string `json:"file,omitempty"`   // the source file, as the model names it; "" if not known
	Line      int32  `json:"line"`             // 1-based line
	Col       int32  `json:"col"`              // 1-based column, in bytes
	Text      string `json:"text,omitempty"`   // the step's source text; "" if not known
	Procedure string `json:"method,omitempty"` // the method or procedure whose code the step is; "" if not known
}

// String renders the step as file:line:col: text.
func (s SourceStep) String() string {
	pos := fmt.Sprintf("%d:%d", s.Line, s.Col)
	if s.File != "" {
		pos = s.File + ":" + pos
	}
	if s.Text == "" {
		return pos
	}
	return pos + ": " + s.Text
}

// NumTransitions returns the number of transitions.
func (l *LTS) NumTransitions() int { return len(l.Src) }

// NumLabels returns the number of distinct labels, τ included.
func (l *LTS) NumLabels() int { return len(l.Labels) }

// Outgoing returns the half-open range [lo, hi) of the transitions leaving s.
func (l *LTS) Outgoing(s int32) (lo, hi int32) { return l.Out[s], l.Out[s+1] }

// IsTau reports whether transition t is a τ step.
func (l *LTS) IsTau(t int32) bool { return l.Label[t] == Tau }

// LabelName returns the name of transition t's label.
func (l *LTS) LabelName(t int32) string { return l.Labels[l.Label[t]] }

// MaxMetaThread and MaxMetaSteps bound the thread numbers and the number of
// source steps that Meta can record (labels name threads up to MaxThread).
const (
	MaxMetaThread = math.MaxUint8
	MaxMetaSteps  = math.MaxInt16 + 1
)

// ThreadOf returns the thread that took transition t, or 0 if unknown.
func (l *LTS) ThreadOf(t int32) int32 {
	if l.Meta == nil || l.Meta.Thread == nil {
		return 0
	}
	return int32(l.Meta.Thread[t])
}

// StepOf returns the source step of transition t and whether it is known.
func (l *LTS) StepOf(t int32) (SourceStep, bool) {
	if l.Meta == nil || l.Meta.Step == nil || l.Meta.Step[t] < 0 {
		return SourceStep{}, false
	}
	return l.Meta.Steps[l.Meta.Step[t]], true
}

// LabelID returns the id of the label with the given name, or -1.
// It scans the table; callers that look up many labels should build a map.
func (l *LTS) LabelID(name string) int32 {
	for i, n := range l.Labels {
		if n == name {
			return int32(i)
		}
	}
	return -1
}

// Incoming builds the CSR index by target: the transitions entering state s
// are In[Index[s]:Index[s+1]] (as transition ids).
func (l *LTS) Incoming() (index, in []int32) {
	index = make([]int32, l.NumStates+1)
	for _, d := range l.Dst {
		index[d+1]++
	}
	for s := int32(0); s < l.NumStates; s++ {
		index[s+1] += index[s]
	}
	in = make([]int32, len(l.Dst))
	fill := make([]int32, l.NumStates)
	copy(fill, index[:l.NumStates])
	for t, d := range l.Dst {
		in[fill[d]] = int32(t)
		fill[d]++
	}
	return index, in
}

// Validate checks the structural invariants of l and returns the first
// violation found. Tests call it; it costs O(states + transitions).
func (l *LTS) Validate() error {
	n := l.NumStates
	if n < 0 {
		return fmt.Errorf("negative state count %d", n)
	}
	if n > 0 && (l.Initial < 0 || l.Initial >= n) {
		return fmt.Errorf("initial state %d out of range [0,%d)", l.Initial, n)
	}
	if len(l.Labels) == 0 || l.Labels[Tau] != TauName {
		return fmt.Errorf("label 0 must be %q", TauName)
	}
	m := len(l.Src)
	if len(l.Label) != m || len(l.Dst) != m {
		return fmt.Errorf("transition slices differ in length: %d %d %d", m, len(l.Label), len(l.Dst))
	}
	if len(l.Out) != int(n)+1 || l.Out[0] != 0 || int(l.Out[n]) != m {
		return fmt.Errorf("bad CSR index")
	}
	for s := int32(0); s < n; s++ {
		if l.Out[s] > l.Out[s+1] {
			return fmt.Errorf("CSR index decreases at state %d", s)
		}
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			if l.Src[t] != s {
				return fmt.Errorf("transition %d has source %d but sits in the range of state %d", t, l.Src[t], s)
			}
		}
	}
	for t := 0; t < m; t++ {
		if l.Dst[t] < 0 || l.Dst[t] >= n {
			return fmt.Errorf("transition %d: target %d out of range", t, l.Dst[t])
		}
		if l.Label[t] < 0 || int(l.Label[t]) >= len(l.Labels) {
			return fmt.Errorf("transition %d: label %d out of range", t, l.Label[t])
		}
	}
	if l.Meta != nil {
		if len(l.Meta.Thread) != m || len(l.Meta.Step) != m {
			return fmt.Errorf("meta slices do not match the transitions")
		}
		for t, st := range l.Meta.Step {
			if st < -1 || int(st) >= len(l.Meta.Steps) {
				return fmt.Errorf("transition %d: step %d out of range", t, st)
			}
		}
	}
	return nil
}

// SortedLabelsNames returns the visible label names in lexical order, for
// stable output.
func (l *LTS) SortedLabelsNames() []string {
	names := append([]string(nil), l.Labels[1:]...)
	sort.Strings(names)
	return names
}
