package verify

import (
	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/lts"
)

// Verdict is a three-valued answer: a property holds, fails, or was not
// decided (not checked, or a limit was hit); in JSON true, false or null.
type Verdict = frontend.Verdict

// The verdicts.
const (
	Yes     = frontend.Yes
	No      = frontend.No
	Unknown = frontend.Unknown
)

func verdictOf(b bool) Verdict {
	if b {
		return Yes
	}
	return No
}

// Size is the size of an LTS.
type Size struct {
	States      int64 `json:"states"`      // the LTS's states
	Transitions int64 `json:"transitions"` // its transitions, τ-steps included
}

func sizeOf(l *lts.LTS) *Size {
	if l == nil {
		return nil
	}
	return &Size{States: int64(l.NumStates), Transitions: int64(l.NumTransitions())}
}

// BoundsReport states the bounds under which a verdict holds: the
// client's bounds, in the JSON shape every verb uses.
type BoundsReport = frontend.Bounds

// Stage is one timed step of the pipeline.
type Stage struct {
	Name    string  `json:"name"`    // the stage, e.g. "compile", "refinement", "on-the-fly"
	Seconds float64 `json:"seconds"` // its wall-clock time
	// Result is a one-word outcome of the stage, e.g. "bisimilar".
	Result string `json:"result,omitempty"`
}

// Evidence is a counterexample with its renderings.
type Evidence struct {
	// Kind is "distinguishing-formula", "refinement-violation" or "lasso".
	Kind string `json:"kind"`
	// Property names what the evidence refutes, e.g. "lockfree".
	Property string `json:"property,omitempty"`
	// Trace is the counterexample: a path of the implementation, or for
	// a distinguishing formula of the side where it holds.
	Trace *lts.Trace `json:"trace"`
	// Interleaving is Trace as a table, one column per thread, its steps
	// as source lines (Interleaving).
	Interleaving string `json:"interleaving"`
	// History is the call/return history of the trace, for refinement violations.
	History []HistoryOp `json:"history,omitempty"`
	// Explanation says in words why the trace is a counterexample.
	Explanation string `json:"explanation"`
	// Formula is the distinguishing formula (distinguishing-formula only):
	// true in the initial state of the side it names, false in the
	// other's, model-checked on both. Trace is then the path of that side
	// that takes the formula's steps, and OtherTrace the other side's path
	// with the same visible steps (absent when it has none: then Trace is
	// a distinguishing trace).
	Formula *bisim.FormulaReport `json:"formula,omitempty"`
	// OtherTrace is the other side's path with Trace's visible steps
	// (see Formula); nil when it has none, and for the other kinds.
	OtherTrace *lts.Trace `json:"other_trace,omitempty"`
	// OtherInterleaving is OtherTrace as a table; "" when it is nil.
	OtherInterleaving string `json:"other_interleaving,omitempty"`
}

// HistoryOp is one operation of a history: its thread, method, argument and
// result, and the steps (1-based, in the trace) of its call and return; a
// pending operation has Ret 0.
type HistoryOp struct {
	Thread int32  `json:"thread"`           // the calling thread, from 1
	Method string `json:"method"`           // the method called
	Arg    string `json:"arg,omitempty"`    // its argument as labels print it; "" for none
	Result string `json:"result,omitempty"` // its result; "" for none or while pending
	Call   int    `json:"call"`             // the step of the call, from 1
	Ret    int    `json:"ret"`              // the step of the return; 0 while pending
}

// Report is the outcome of verifying one model under its bounds.
type Report struct {
	Model  string       `json:"model"`  // the model's name: a bundled model's, or its file's
	Bounds BoundsReport `json:"bounds"` // the client's bounds checked
	// Method is the route taken: bisim, refine, both or fly; auto only
	// when a limit stopped the run before auto chose.
	Method string `json:"method"`

	Impl         *Size `json:"impl,omitempty"`          // the implementation's LTS; nil on the fly
	Spec         *Size `json:"spec,omitempty"`          // the specification's LTS; nil on the fly
	ImplQuotient *Size `json:"impl_quotient,omitempty"` // Impl modulo divergence-preserving branching bisimilarity; nil when not computed
	SpecQuotient *Size `json:"spec_quotient,omitempty"` // Spec modulo the same; nil when not computed

	// Bisimilar: impl and spec divergence-preserving branching bisimilar.
	Bisimilar Verdict `json:"bisimilar"`
	// Refines: traces(impl) ⊆ traces(spec).
	Refines Verdict `json:"refines"`
	// RefinementPairs is the number of product pairs the refinement explored.
	RefinementPairs int64 `json:"refinement_pairs,omitempty"`
	// OnTheFly describes the on-the-fly check (method fly), which builds
	// no LTS: Impl and Spec are then absent.
	OnTheFly *FlyReport `json:"on_the_fly,omitempty"`
	// Auto is method auto's choice of route and why.
	Auto *AutoReport `json:"auto,omitempty"`

	Linearizable Verdict `json:"linearizable"` // the implementation's traces are the specification's (Thm 3.3)
	LockFree     Verdict `json:"lock_free"`    // no reachable τ-cycle with an operation pending
	// Theorem names the result each verdict rests on.
	Theorem string `json:"theorem"`

	Stages   []Stage    `json:"stages"`             // the stages run, in order, with their times
	Evidence []Evidence `json:"evidence,omitempty"` // the counterexamples of the verdicts that fail
	// Notes are plain remarks, e.g. a limit that was hit.
	Notes []string `json:"notes,omitempty"`
	// StoppedBy names the limit that left a verdict undecided (the
	// limits.Kind: "pairs" for Options.MaxPairs, "states", "time",
	// "memory"); empty when none was hit.
	StoppedBy string `json:"stopped_by,omitempty"`
	// Reason is, with StoppedBy, the limit's message: how far the stage
	// it stopped came (the states, pairs or transitions it had stored),
	// then the limit. On the fly, OnTheFly also counts the pairs and
	// states stored at the stop.
	Reason string `json:"reason,omitempty"`
}

// History extracts the call/return history from a trace.
func History(tr *lts.Trace) []HistoryOp {
	var ops []HistoryOp
	open := map[int32]int{} // thread -> index in ops of its pending op
	for i, s := range tr.Steps {
		a, ok := lts.ParseAction(s.Label)
		if !ok {
			continue
		}
		if a.Call {
			open[a.Thread] = len(ops)
			ops = append(ops, HistoryOp{Thread: a.Thread, Method: a.Method, Arg: a.Value, Call: i + 1})
			continue
		}
		if j, ok := open[a.Thread]; ok {
			ops[j].Result = a.Value
			ops[j].Ret = i + 1
			delete(open, a.Thread)
		}
	}
	return ops
}
