package verify

import (
	"errors"
	"fmt"
	"strings"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/onthefly"
)

// FlyReport describes an on-the-fly check: what it stored and computed,
// and which reductions applied.
type FlyReport struct {
	// Reductions lists the reductions that applied: "symmetry", "por".
	Reductions []string `json:"reductions"`
	// Notes say why a reduction that was asked for did not apply.
	Notes []string `json:"notes,omitempty"`
	// Pairs is the number of product pairs (implementation state,
	// specification subset) stored.
	Pairs int64 `json:"pairs"`
	// States is the number of implementation states among the pairs
	// (orbit representatives under symmetry).
	States int64 `json:"states"`
	// Represented is the number of implementation states that the stored
	// ones stand for (the sum of their orbits under thread permutations;
	// States without symmetry), exact when RepresentedExact and otherwise
	// a lower bound: Represented/States is the symmetry reduction's factor.
	Represented      int64 `json:"represented_states"`
	RepresentedExact bool  `json:"represented_exact"` // false: Represented is a lower bound
	// Transitions counts the implementation successors computed.
	Transitions int64 `json:"transitions"`
	SpecStates  int64 `json:"spec_states"` // the specification states explored
	Subsets     int64 `json:"subsets"`     // the distinct subsets of them that the pairs hold
	// AmplePairs counts, under the partial-order reduction, the pairs that
	// followed the successors of one thread only (0 without it).
	AmplePairs int64 `json:"ample_pairs,omitempty"`
	// FullPairs counts, under the partial-order reduction, the pairs that
	// followed the successors of every thread (0 without it).
	FullPairs int64 `json:"full_pairs,omitempty"`
	// ProvisoFull counts those of FullPairs that had an ample thread that
	// the cycle proviso refused.
	ProvisoFull int64 `json:"proviso_full,omitempty"`
	// Dominated counts the stored pairs that were not followed because
	// another pair of the same implementation state, stored in the same
	// breadth-first level, has a subset strictly included in theirs
	// (onthefly/dominance.go): they are among Pairs but computed no
	// successor; 0 when no level held two such pairs of one state.
	Dominated int64 `json:"dominated_pairs"`
	// Complete is false when the search stopped at a refinement violation
	// before seeing every state (lock-freedom is then undecided).
	Complete bool `json:"complete"`
	// Ladder lists the clients searched in turn, the requested bounds
	// last unless a violation was found and replayed before (ladder.go);
	// the figures above are those of the last one.
	Ladder []LadderStage `json:"ladder,omitempty"`
	// FoundAt is the smaller client whose search found the violation,
	// replayed under the requested bounds; nil when the requested bounds'
	// own search decided.
	FoundAt *BoundsReport `json:"found_at,omitempty"`
}

// fly fills the report by the on-the-fly check of p.
func (x *run) fly(p *Plan) error {
	r, m, b, opts := x.r, x.model, x.bounds, x.opts
	opts.Reductions = p.Reductions
	var res *onthefly.Result
	var stages []LadderStage
	err := x.stage("on-the-fly", func() (string, error) {
		copts := x.flyCompileOptions()
		c := x.climb
		if c == nil {
			c = newClimb(m, b, copts, opts)
		}
		err := c.climbTo(len(c.rungs))
		res, stages = c.res, c.stages
		if frontend.IsStateLimit(err) {
			// The search stores pairs, not states: say which flag they
			// count against.
			return "", x.asLimit(fmt.Errorf("the on-the-fly search counts its product pairs against --max-states: %w", err), copts.MaxStates)
		}
		if err != nil {
			return "", x.asLimit(err, copts.MaxStates)
		}
		switch {
		case !res.Refines:
			return "not linearizable", nil
		case !res.LockFree:
			return "not lock-free", nil
		}
		return "holds", nil
	})
	if err != nil {
		if res != nil && errors.As(err, new(*LimitError)) {
			// Stopped by a limit: what the search had stored.
			r.OnTheFly = flyReport(res, stages)
			r.OnTheFly.Complete = false
			if res.RefinesDecided && stages[len(stages)-1].Threads == b.Threads && stages[len(stages)-1].Ops == b.Ops {
				// The refinement search of the requested bounds ended
				// before the cycle search stopped: its verdict stands.
				r.Refines = verdictOf(res.Refines)
				r.Linearizable = r.Refines
				if !res.Refines {
					r.Evidence = append(r.Evidence, violation(res.Counterexample))
				}
			}
		}
		return err
	}
	fr := flyReport(res, stages)
	// The rung that decided: the one whose violation was replayed, else
	// the last (lockFreeAfter's search of the requested bounds may follow
	// a lower rung's violation).
	last := stages[len(stages)-1]
	for _, st := range stages {
		if st.Result == "not linearizable" {
			last = st
			break
		}
	}
	if last.Threads != b.Threads || last.Ops != b.Ops {
		fr.FoundAt = &BoundsReport{Threads: last.Threads, Ops: last.Ops, Values: b.Values}
		shortest := "it is a shortest one of that client"
		if res.PartialOrder {
			shortest = "it is a shortest one of that client's graph reduced by partial order"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("the counterexample was found by the search of the smaller client threads=%d ops=%s and replayed under the requested bounds; "+
			"%s, and a shorter one may exist under the requested bounds (--shortest searches them alone, unreduced by partial order)", last.Threads, opsWord(last.Ops), shortest))
	}
	if res.Symmetric {
		fr.Reductions = append(fr.Reductions, "symmetry")
	} else if opts.Reductions.Symmetry {
		fr.Notes = append(fr.Notes, "symmetry reduction not applied: "+res.SymmetryNote)
		r.Notes = append(r.Notes, "symmetry reduction not applied: "+res.SymmetryNote)
	}
	if res.PartialOrder {
		fr.Reductions = append(fr.Reductions, "por")
	}
	r.OnTheFly = fr
	r.Refines = verdictOf(res.Refines)
	r.Linearizable = r.Refines
	if res.LockFreeChecked {
		r.LockFree = verdictOf(res.LockFree)
	}
	if !res.Refines {
		r.Evidence = append(r.Evidence, violation(res.Counterexample))
		if !res.LockFreeChecked {
			note := "the on-the-fly search stopped at the first violation (--first-violation): lock-freedom was not checked, nor a model error deeper than the violation looked for (the search reports the first of the two in breadth-first order; --method bisim explores the whole implementation and reports a reachable model error with the violation)"
			switch st := stages[len(stages)-1]; {
			case res.ModelError != nil:
				note = "lock-freedom is not decided: past the violation the search of the implementation met a model error, " + res.ModelError.Error()
			case st.Result == "limit":
				// The limit that left lock-freedom undecided: the run's
				// time or memory, else the search's pairs.
				r.StoppedBy = limits.States.String()
				limit := fmt.Sprintf("the state limit (--max-states %d, which counts product pairs)", x.opts.Compile.MaxStates)
				var le *limits.LimitError
				if errors.As(limits.Err(x.ctx), &le) {
					r.StoppedBy, limit = le.Limit.String(), le.Error()
				}
				r.Reason = fmt.Sprintf("the search of the implementation alone for lock-freedom stopped after %d pairs and %d implementation states: %s", st.Pairs, st.States, limit)
				note = "lock-freedom under the requested bounds is not decided: the search of the implementation alone stopped at a limit (--max-states, --max-memory or --timeout)"
			}
			r.Notes = append(r.Notes, note)
		}
	}
	if res.Lasso != nil {
		r.Evidence = append(r.Evidence, lassoEvidence(res.Lasso))
	}
	r.Theorem = flyTheorem(r, fr)
	return nil
}

// flyReport returns the counts of res, the search of the last of the
// ladder's stages.
func flyReport(res *onthefly.Result, stages []LadderStage) *FlyReport {
	return &FlyReport{Reductions: []string{}, Pairs: res.Stats.Pairs, States: res.Stats.States, Transitions: res.Stats.Transitions,
		Represented: res.Stats.Represented, RepresentedExact: res.Stats.RepresentedExact,
		SpecStates: res.Stats.SpecStates, Subsets: res.Stats.Subsets, Complete: res.LockFreeChecked,
		AmplePairs: res.Stats.Ample, FullPairs: res.Stats.Full, ProvisoFull: res.Stats.ProvisoFull,
		Dominated: res.Stats.Dominated, Ladder: stages}
}

func opsWord(ops int) string {
	if ops < 0 {
		return "forever"
	}
	return fmt.Sprint(ops)
}

// flyTheorem says what the on-the-fly verdicts rest on.
func flyTheorem(r *Report, fr *FlyReport) string {
	lin := "linearizability not checked"
	switch r.Linearizable {
	case Yes:
		lin = "linearizable by Thm 3.3 (Yang et al.; Liu et al. Thm 1): every trace of impl is a trace of spec"
	case No:
		lin = "NOT linearizable by Thm 3.3: impl has a trace that spec cannot do"
	}
	lf := "lock-freedom not checked"
	if r.LockFree != Unknown {
		lf = "lock-freedom: no reachable τ-cycle of impl (with an operation pending), i.e. no divergence (Yang et al. §5)"
		if r.LockFree == No {
			lf = "NOT lock-free: impl has a reachable τ-cycle with an operation pending (Yang et al. §5)"
		}
	}
	how := "checked on the fly, without building the LTSs"
	if len(fr.Reductions) > 0 {
		names := make([]string, len(fr.Reductions))
		for i, n := range fr.Reductions {
			names[i] = reductionNames[n]
		}
		how += ", reduced by " + strings.Join(names, " and ") + " (counterexamples replayed on the unreduced semantics)"
	}
	return lin + "; " + lf + "; " + how
}

// reductionNames spell out FlyReport.Reductions.
var reductionNames = map[string]string{"symmetry": "thread symmetry", "por": "partial-order reduction (ample sets with the cycle proviso)"}

// lassoEvidence explains a lock-freedom lasso.
func lassoEvidence(tr *lts.Trace) Evidence {
	return Evidence{Kind: "lasso", Property: "lockfree", Trace: tr, Interleaving: Interleaving(tr),
		Explanation: "a cycle of internal steps with an operation pending and no return: no thread completes an operation"}
}
