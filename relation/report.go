package relation

import (
	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/lts"
)

// Report is the answer of `linbis compare --json`: whether two LTSs are
// related, in one shape whichever relation was asked.
type Report struct {
	A string `json:"a"` // the first LTS compared (side A)
	B string `json:"b"` // the second (side B)
	// Relation is strong, branching, divbranching, trace or weak-trace.
	Relation string `json:"relation"`
	// Preorder tells whether A's inclusion in B was asked (trace relations
	// only) rather than the equivalence.
	Preorder bool `json:"preorder"`
	// Holds is the verdict: related (equivalent, or included) or not.
	Holds   bool  `json:"holds"`
	StatesA int32 `json:"states_a"` // A's states
	StatesB int32 `json:"states_b"` // B's states
	// Classes is the number of classes of the disjoint union (the
	// bisimilarities only).
	Classes int32 `json:"classes,omitempty"`
	// Pairs is the number of pairs the refinement search explored, both
	// directions (the trace relations only).
	Pairs int64 `json:"pairs,omitempty"`
	// Side is the file that can do Counterexample when the relation does
	// not hold: the path of the side whose initial state satisfies Formula,
	// or a trace the other side cannot do.
	Side string `json:"side,omitempty"`
	// Counterexample is that path, from Side's initial state; nil when
	// the relation holds.
	Counterexample *lts.Trace `json:"counterexample,omitempty"`
	// Kind is "distinguishing-trace" when the counterexample's visible
	// labels are a trace the other side cannot do, else "formula" (only
	// then is the relation told apart by Formula alone).
	Kind string `json:"kind,omitempty"`
	// Formula is the distinguishing formula, when a bisimilarity does
	// not hold; nil otherwise.
	Formula *bisim.FormulaReport `json:"formula,omitempty"`
}

// bisimReport states c, the comparison of the LTSs named a and b under
// the bisimilarity r, as a Report.
func bisimReport(c *bisim.Comparison, a, b string, r Relation) *Report {
	out := &Report{A: a, B: b, Relation: r.String(), Holds: c.Equivalent,
		StatesA: c.StatesA, StatesB: c.StatesB, Classes: c.Classes}
	if ev := c.Evidence; !c.Equivalent && ev != nil {
		out.Side, out.Counterexample, out.Formula, out.Kind = []string{a, b}[ev.HoldsIn], ev.Witness, ev.Report(), "formula"
		if ev.TraceDistinguishes {
			out.Kind = "distinguishing-trace"
		}
	}
	return out
}
