package verify

import (
	"fmt"

	"github.com/linbis/linbis/onthefly"
)

// Plan is the stages a verification takes and why, decided once from its
// Options before any stage runs: Run follows it and changes none of it.
//
// The routes: Fly is the on-the-fly check alone. Every other route
// compiles both LTSs, then runs the bisimulation stage when Bisimulation
// is set; a bisimilar pair decides both properties (Thm 5.4), and the
// refinement and progress stages follow only when it is not, or always
// when RefineAlways is set.
type Plan struct {
	// Method is the route the report names: Auto measures smaller
	// clients and follows AutoBisim or AutoFly (auto.go), and
	// linearization points make any route but Fly Refine.
	Method Method
	// AutoBisim and AutoFly are method auto's two routes.
	AutoBisim, AutoFly *Plan
	// Bisimulation runs the bisimulation stage after compiling.
	Bisimulation bool
	// RefineAlways runs the refinement and progress stages even when the
	// bisimulation decided (method both, for comparing their times, and
	// method refine, which has no bisimulation stage).
	RefineAlways bool
	// ReleaseImpl lets the bisimulation stage consume the implementation
	// LTS (Options.ReleaseImpl), when nothing reads it afterwards.
	ReleaseImpl bool
	// Reductions are the on-the-fly route's reductions.
	Reductions onthefly.Reductions
	// Shortest: the on-the-fly route searches the requested bounds
	// alone, without the ladder (Options.Shortest).
	Shortest bool
	// Notes say what the plan decided against the options, for the
	// report.
	Notes []string
}

// PlanFor returns the plan of a verification under opts (the zero Method
// is Auto), or an error for options that no route can honour.
func PlanFor(opts Options) (*Plan, error) {
	switch opts.Method {
	case "":
		opts.Method = Auto
		return PlanFor(opts)
	case Fly:
		return flyPlan(opts)
	case Auto:
		if opts.LinPoints {
			// Only the refinement route checks linearization points.
			break
		}
		p := bisimPlan(opts, Bisim)
		if limit := opts.Compile.MaxStates; limit > 0 && limit <= autoSmallStates {
			// The user's own state limit keeps the run small.
			return p, nil
		}
		fly, err := flyPlan(opts)
		if err != nil {
			return nil, err
		}
		return &Plan{Method: Auto, AutoBisim: p, AutoFly: fly}, nil
	case Bisim, Refine, Both:
	default:
		return nil, fmt.Errorf("unknown method %q", opts.Method)
	}
	method := opts.Method
	if method == Auto {
		method = Bisim
	}
	if !opts.LinPoints {
		return bisimPlan(opts, method), nil
	}
	p := &Plan{Method: Refine, RefineAlways: true}
	if method != Refine {
		p.Notes = append(p.Notes, "with linearization points only the refinement over lin events is checked (Liu et al. Thm 2)")
	}
	return p, nil
}

// bisimPlan is the plan of method Bisim, Refine or Both without
// linearization points.
func bisimPlan(opts Options, method Method) *Plan {
	return &Plan{Method: method, Bisimulation: method != Refine, RefineAlways: method != Bisim,
		ReleaseImpl: opts.ReleaseImpl && method == Bisim}
}

// flyPlan is the plan of the on-the-fly route.
func flyPlan(opts Options) (*Plan, error) {
	if opts.LinPoints {
		return nil, fmt.Errorf("--lin-points needs the refinement method (the on-the-fly check compares calls and returns)")
	}
	p := &Plan{Method: Fly, Reductions: opts.Reductions, Shortest: opts.Shortest}
	if opts.Shortest && opts.Reductions.PartialOrder {
		// The reduced graph's breadth-first search may take independent
		// steps early and find a longer counterexample first; symmetry
		// keeps distances.
		p.Reductions.PartialOrder = false
		p.Notes = append(p.Notes, "partial-order reduction not applied: --shortest asks for a shortest counterexample, and the reduced search may find a longer one first")
	}
	return p, nil
}
