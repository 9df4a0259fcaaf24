package verify

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/onthefly"
	"github.com/linbis/linbis/progress"
	"github.com/linbis/linbis/refine"
)

// Method selects which checks establish linearizability.
type Method string

// The methods of `linbis verify --method`.
const (
	// Bisim checks divergence-preserving branching bisimilarity first and
	// falls back to refinement and progress checks only when it fails.
	Bisim Method = "bisim"
	// Refine checks trace refinement and lock-freedom directly.
	Refine Method = "refine"
	// Both runs every check, for comparing their times (Yang et al. Table 1).
	Both Method = "both"
	// Fly checks trace refinement and lock-freedom on the fly, without
	// building the LTSs, with the reductions of Options.Reductions.
	Fly Method = "fly"
	// Auto measures smaller clients and takes the route it estimates
	// faster within the limits, Bisim or Fly (auto.go).
	Auto Method = "auto"
)

// ParseMethod parses a --method value.
func ParseMethod(s string) (Method, error) {
	switch m := Method(s); m {
	case Bisim, Refine, Both, Fly, Auto:
		return m, nil
	}
	return "", fmt.Errorf("unknown method %q: expected auto, bisim, refine, both or fly", s)
}

// Options configure a verification.
type Options struct {
	Method Method // the route; "" is Auto
	// Compile configures the explorer (state limit, heap mode, lin events).
	Compile frontend.Options
	// Antichain turns on antichain pruning in the refinement check.
	Antichain bool
	// MaxPairs bounds the refinement's product pairs (0: refine's default).
	MaxPairs int
	// Algorithm chooses the bisimulation algorithm: bisim.Fast (the
	// default; it classifies an LTS whose only cycles are τ-cycles, as
	// every LTS with finitely many operations per thread is, in one pass,
	// and refines any other), bisim.GJ (O(m log n)) or bisim.GV (the
	// reference); the two always refine.
	Algorithm bisim.Algorithm
	// LinPoints checks refinement over the lin(...) events only (Liu et
	// al. Thm 2); the model must mark its linearization points with `lin`.
	LinPoints bool
	// Reductions select the reductions of the on-the-fly method.
	Reductions onthefly.Reductions
	// Shortest makes the on-the-fly method search the requested bounds
	// alone, without the ladder of smaller clients (ladder.go): a
	// counterexample is then a shortest one under them, at the cost of
	// exhausting every level above it.
	Shortest bool
	// FirstViolation stops the on-the-fly method at the first refinement
	// violation, leaving lock-freedom undecided; by default the search
	// goes on over the implementation alone to decide it too
	// (onthefly.Options.FirstViolation).
	FirstViolation bool
	// MaxMemory is the run's memory limit in bytes, which method auto
	// weighs each route's estimated need against (0: the Go runtime's
	// memory limit, if any).
	MaxMemory int64
	// Progress, if set, receives every stage's progress: each library's
	// stage names, counts and units.
	Progress meter.Reporter
	// ReleaseImpl lets the bisimulation stage release the implementation
	// LTS's transitions once the minimisation no longer reads them: after
	// the one-pass classification, or once the refinement's kernel holds
	// them (a third of the stage's peak on a model checker's LTS; by
	// bisim.QuotientConsuming: the LTS is the run's own, built by its compile stage).
	// Outcome.Impl is then nil, unless the stage had to explore the
	// implementation again for a counterexample (the explorer is
	// deterministic, so the LTS is the same). For callers that do not read
	// Outcome.Impl, such as verify without --export.
	ReleaseImpl bool
}

// Outcome is a report together with the LTSs it was computed from, for
// exporting.
type Outcome struct {
	Report *Report // what was decided
	// Impl and Spec are the LTSs explored; nil on the fly, and Impl nil
	// once released (Options.ReleaseImpl).
	Impl, Spec *lts.LTS
	// ImplQuotient and SpecQuotient are their quotients by divergence-
	// preserving branching bisimilarity; nil when not computed.
	ImplQuotient, SpecQuotient *lts.LTS
	// Finished is true when every stage of the plan ran; a limit that
	// stops a stage (time, memory, states) leaves the rest unrun and the
	// report partial, while the pair limit leaves only the refinement's
	// verdict undecided.
	Finished bool
}

// LimitError is a limit that left the verdicts undecided (limits.Kind
// names it): Run returns it, with the report of what was decided.
type LimitError = limits.LimitError

// Run verifies a parsed model under bounds by the stages of PlanFor(opts).
// It returns the outcome; or the outcome and a *LimitError when a limit
// left verdicts undecided, the report then saying what was decided and
// naming the limit in StoppedBy (ctx's end is such a limit when its cause
// is a *LimitError, as limits.Watch makes it); or another error and no
// outcome. ctx stops every stage's long loops when it ends.
func Run(ctx context.Context, name string, m *frontend.Model, b frontend.Bounds, opts Options) (*Outcome, error) {
	p, err := PlanFor(opts)
	if err != nil {
		return nil, err
	}
	x := &run{ctx: ctx, opts: opts, model: m, bounds: b,
		r: &Report{Model: name, Method: string(p.Method), Bisimilar: Unknown, Refines: Unknown,
			Linearizable: Unknown, LockFree: Unknown, Bounds: b}}
	x.out = &Outcome{Report: x.r}
	if err := x.follow(p); err != nil {
		var le *LimitError
		if !errors.As(err, &le) {
			return nil, err
		}
		// Stopped: the report says what the stages that ran decided,
		// and how far the one stopped came.
		x.r.StoppedBy, x.r.Reason = le.Limit.String(), le.Error()
		if x.r.Theorem == "" {
			x.r.Theorem = theoremText(x.r, opts.LinPoints)
		}
		finishEvidence(x.r)
		return x.out, le
	}
	x.out.Finished = true
	if x.softLimit != nil {
		return x.out, x.softLimit
	}
	return x.out, nil
}

// run is one verification under way: the context that stops it, what it
// verifies, and the report and outcome the stages fill.
type run struct {
	ctx    context.Context
	opts   Options
	model  *frontend.Model
	bounds frontend.Bounds
	r      *Report
	out    *Outcome
	// softLimit is a limit that left a verdict undecided while the stages
	// went on (the refinement's pair limit).
	softLimit *LimitError
	// climb is the on-the-fly climb of the ladder that method auto began
	// while measuring, for the on-the-fly route to go on with.
	climb *climb
}

// stage runs one timed stage and records it with its one-word result; a
// stage stopped by a limit is recorded with the result "limit", and
// returns the limit with the stage's whole message, which says what it
// had stored (asLimit).
func (x *run) stage(name string, f func() (string, error)) error {
	start := time.Now()
	result, err := f()
	var le *LimitError
	if errors.As(err, &le) {
		result = "limit"
		err = x.asLimit(err, 0)
	}
	x.r.Stages = append(x.r.Stages, Stage{Name: name, Seconds: time.Since(start).Seconds(), Result: result})
	return err
}

// follow runs the stages of p.
func (x *run) follow(p *Plan) error {
	x.r.Method = string(p.Method)
	x.r.Notes = append(x.r.Notes, p.Notes...)
	switch p.Method {
	case Auto:
		return x.auto(p)
	case Fly:
		return x.fly(p)
	}
	err := x.stage("compile", func() (string, error) { return x.compile() })
	if err != nil {
		return x.violationBefore(err)
	}
	r := x.r
	r.Impl, r.Spec = sizeOf(x.out.Impl), sizeOf(x.out.Spec)
	if p.Bisimulation {
		if err := x.stage("bisimulation", func() (string, error) { return x.bisimulation(p) }); err != nil {
			if le := new(LimitError); r.Impl != nil && errors.As(err, &le) && (le.Limit == limits.Time || le.Limit == limits.Memory) {
				// What the route had stored: the implementation's LTS.
				err = x.asLimit(fmt.Errorf("with the implementation's LTS of %d states and %d transitions explored, %w", r.Impl.States, r.Impl.Transitions, err), 0)
			}
			return err
		}
		r.ImplQuotient, r.SpecQuotient = sizeOf(x.out.ImplQuotient), sizeOf(x.out.SpecQuotient)
		if r.Bisimilar == Yes {
			r.Linearizable, r.LockFree = Yes, Yes
			r.Theorem = "Thm 5.4 (Yang et al.): impl and spec are divergence-preserving branching bisimilar, " +
				"so the object is linearizable and lock-free"
			if !p.RefineAlways {
				return nil
			}
		}
	}
	if err := x.stage("refinement", x.refinement); err != nil {
		return err
	}
	if r.Linearizable != Unknown && r.Refines != Unknown && r.Linearizable != r.Refines {
		r.Notes = append(r.Notes, fmt.Sprintf("INCONSISTENT: bisimulation says linearizable=%s, refinement says %s", r.Linearizable, r.Refines))
	}
	if r.Linearizable == Unknown && r.Refines != Unknown {
		r.Linearizable = r.Refines
		if x.opts.LinPoints && r.Refines == No {
			// With lin points a failure may be the points' fault (Liu et al. Thm 2).
			r.Linearizable = Unknown
			r.Notes = append(r.Notes, "refinement over lin events fails: either the object is not linearizable or the marked linearization points are wrong")
		}
	}
	if err := x.stage("progress", x.progress); err != nil {
		return err
	}
	if r.Theorem == "" {
		r.Theorem = theoremText(r, x.opts.LinPoints)
	}
	finishEvidence(r)
	return nil
}

// ModelErrorAndViolation is what the bisimulation route returns when
// both are found: a model error stopped the exploration of the
// implementation (Err, a *frontend.ModelError inside), and the on-the-fly
// search, run for it, found a refinement violation before reaching it.
type ModelErrorAndViolation struct {
	Err error // the model error, wrapping a *frontend.ModelError
	// Violation is the violation's evidence (Kind "refinement-violation").
	Violation Evidence
}

// Error returns the model error's message: the violation is reported
// as evidence beside it, not in the message.
func (e *ModelErrorAndViolation) Error() string { return e.Err.Error() }

// Unwrap returns the model error, so that errors.As finds it.
func (e *ModelErrorAndViolation) Unwrap() error { return e.Err }

// violationBefore looks, after the compile stage stopped with err, for
// what the on-the-fly route would have reported instead: its
// breadth-first search of the product stops at its first finding, so if
// that is a refinement violation (shallower than the model error, or as
// shallow and met first), both are returned (ModelErrorAndViolation).
// Other errors, and model errors that the search meets first, are
// returned as they are. The search ends at the model error's depth at the
// latest.
func (x *run) violationBefore(err error) error {
	var me *frontend.ModelError
	if !errors.As(err, &me) || x.opts.LinPoints {
		return err
	}
	copts := x.compileOptions()
	copts.Progress = nil
	res, ferr := onthefly.Check(x.model.Program, x.bounds, onthefly.Options{Options: copts, Reductions: x.opts.Reductions, FirstViolation: true})
	if ferr != nil || res.Refines {
		return err
	}
	return &ModelErrorAndViolation{Err: err, Violation: violation(res.Counterexample)}
}

// compile explores the implementation and the specification; the
// implementation only when method auto has not explored it already.
func (x *run) compile() (string, error) {
	copts := x.compileOptions()
	var err error
	if x.out.Impl == nil {
		x.out.Impl, x.out.Spec, err = frontend.Compile(x.model, x.bounds, copts)
		return "", x.asLimit(err, copts.MaxStates)
	}
	if x.out.Spec, err = frontend.CompileSpec(x.model, x.bounds, copts); err != nil {
		return "", x.asLimit(fmt.Errorf("specification of %s: %w", x.model.Name, err), copts.MaxStates)
	}
	return "", frontend.CheckSpec(x.out.Spec)
}

// asLimit returns err as a *LimitError when a limit stopped the stage,
// and err otherwise. Its message is the stage's whole message, which
// names what the stage had stored when it stopped (states, pairs,
// transitions) and then the limit: for the time and memory limits, which
// stop whichever stage is running, the watch's own words wrapped by the
// stage's; for the explorer's state limit (max being its setting), the
// explorer's.
func (x *run) asLimit(err error, max int) error {
	var le *LimitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &le):
		if le == err {
			return le
		}
		return &LimitError{Limit: le.Limit, Value: le.Value, Err: err}
	case frontend.IsStateLimit(err):
		if max <= 0 {
			max = frontend.DefaultMaxStates
		}
		return &LimitError{Limit: limits.States, Value: int64(max), Err: err}
	}
	return err
}

// bisimulation minimises each side, then compares the quotients: impl ≈
// spec iff their quotients are equivalent, and the quotients are small.
// Only when they differ is the comparison rerun on the LTSs themselves,
// for a distinguishing trace whose steps carry source lines.
func (x *run) bisimulation(p *Plan) (string, error) {
	out, r := x.out, x.r
	bopts := x.bisimOptions()
	release := p.ReleaseImpl && out.Impl.NumTransitions() >= releaseMinTransitions
	// The specification is minimised beside the implementation, on its
	// own goroutine: it is much smaller, and the implementation's
	// refinement leaves a core idle (the one-pass classification uses two
	// goroutines of its own). It reports no progress, so that the two do
	// not interleave on stderr.
	specDone := make(chan error, 1)
	go func() {
		sopts := bopts
		sopts.Progress = nil
		var err error
		out.SpecQuotient, err = bisim.Quotient(out.Spec, bisim.DivBranching, sopts)
		specDone <- err
	}()
	var err error
	if release {
		// Consumed: its transitions are gone once the kernel holds them.
		impl := out.Impl
		out.Impl = nil
		out.ImplQuotient, err = bisim.QuotientConsuming(bisim.Consume(impl), bisim.DivBranching, bopts)
	} else {
		out.ImplQuotient, err = bisim.Quotient(out.Impl, bisim.DivBranching, bopts)
	}
	if specErr := <-specDone; err == nil {
		err = specErr
	}
	if err != nil {
		return "", err
	}
	cmp, err := bisim.Compare(out.ImplQuotient, out.SpecQuotient, bisim.DivBranching, bopts)
	if err != nil {
		return "", err
	}
	r.Bisimilar = verdictOf(cmp.Equivalent)
	if cmp.Equivalent {
		return "bisimilar", nil
	}
	if out.Impl == nil {
		copts := x.compileOptions()
		if out.Impl, err = frontend.CompileImpl(x.model, x.bounds, copts); err != nil {
			return "", x.asLimit(fmt.Errorf("implementation %s: %w", x.model.Name, err), copts.MaxStates)
		}
		r.Notes = append(r.Notes, "the implementation's LTS, released during the bisimulation, was explored again for the counterexample")
	}
	if cmp, err = bisim.Compare(out.Impl, out.Spec, bisim.DivBranching, bopts); err != nil {
		return "", err
	}
	if cmp.Equivalent {
		return "", errors.New("internal error: the quotients differ but the LTSs are equivalent")
	}
	r.Evidence = append(r.Evidence, distinguishing(cmp))
	return "not bisimilar", nil
}

// refinement checks trace refinement. It refines the bisimulation
// quotients when the bisimulation stage made them (the follow-up of Yang
// et al.); minimising only for the refinement costs more than it saves on
// these models, so without them it runs on the LTSs as they are.
func (x *run) refinement() (string, error) {
	out, r, opts := x.out, x.r, x.opts
	ropts := refine.Options{Antichain: opts.Antichain, MaxPairs: opts.MaxPairs, Context: x.ctx,
		Quotient: out.ImplQuotient != nil && !opts.LinPoints, ImplQuotient: out.ImplQuotient, SpecQuotient: out.SpecQuotient}
	if opts.Progress != nil {
		ropts.Progress = opts.Progress
	}
	if opts.LinPoints {
		ropts.Alphabet = func(label string) bool { return strings.HasPrefix(label, "lin(") }
	}
	res, err := refine.Check(out.Impl, out.Spec, ropts)
	var le *LimitError
	if errors.As(err, &le) && le.Limit == limits.Pairs {
		// The pair limit leaves this verdict undecided; the progress
		// stage still runs.
		r.Notes = append(r.Notes, err.Error())
		x.softLimit = le
		r.StoppedBy, r.Reason = le.Limit.String(), err.Error()
		return "limit", nil
	}
	if err != nil {
		return "", err
	}
	r.RefinementPairs = res.Stats.Pairs
	r.Refines = verdictOf(res.Refines)
	if !res.Refines {
		r.Evidence = append(r.Evidence, violation(res.Counterexample))
		return "fails", nil
	}
	return "holds", nil
}

// progress checks lock-freedom on the implementation's LTS.
func (x *run) progress() (string, error) {
	r := x.r
	c, err := progress.NewCheckerOptions(x.out.Impl, progress.Options{Context: x.ctx})
	if err != nil {
		return "", err
	}
	res, err := c.Check(progress.LockFree)
	if err != nil {
		return "", err
	}
	if r.LockFree == Unknown {
		r.LockFree = verdictOf(res.Holds)
	} else if r.LockFree != verdictOf(res.Holds) {
		// Both methods ran and disagree: a bug in linbis, said plainly.
		r.Notes = append(r.Notes, fmt.Sprintf("INCONSISTENT: bisimulation says lock-free=%s, the direct check says %s", r.LockFree, verdictOf(res.Holds)))
	}
	if !res.Holds {
		r.Evidence = append(r.Evidence, lasso(res))
		return "violated", nil
	}
	return "holds", nil
}

// bisimOptions returns the options of the bisimulation stage.
func (x *run) bisimOptions() bisim.Options {
	return bisim.Options{Algorithm: x.opts.Algorithm, Progress: x.opts.Progress, Context: x.ctx,
		NameA: "the implementation", NameB: "the specification"}
}

// releaseMinTransitions is the smallest implementation LTS that
// Options.ReleaseImpl releases: below it the LTS costs little memory, and
// keeping it spares a failing model's second exploration. A variable so
// that tests can exercise the release on small models.
var releaseMinTransitions = 1 << 20

// compileOptions returns the explorer's options of the run.
func (x *run) compileOptions() frontend.Options {
	opts := x.opts
	copts := opts.Compile
	if opts.Progress != nil && copts.Progress == nil {
		copts.Progress = opts.Progress
	}
	copts.Lin = copts.Lin || opts.LinPoints
	copts.Context = x.ctx
	return copts
}

func theoremText(r *Report, linPoints bool) string {
	var lin string
	switch {
	case linPoints && r.Linearizable == Yes:
		lin = "linearizable by Liu et al. Thm 2: the implementation's lin events refine the specification's " +
			"(conclusive when every operation performs exactly one lin event)"
	case r.Linearizable == Yes:
		lin = "linearizable by Thm 3.3 (Yang et al.; Liu et al. Thm 1): every trace of impl is a trace of spec"
	case r.Linearizable == No:
		lin = "NOT linearizable by Thm 3.3: impl has a trace that spec cannot do"
	default:
		lin = "linearizability undecided"
	}
	// Say what was found, not what was looked for: "a τ-cycle with an
	// operation pending" alone reads as if one was found.
	var lf string
	switch r.LockFree {
	case Yes:
		lf = "lock-free, checked directly on the implementation LTS: no τ-cycle keeps an operation pending without a return"
	case No:
		lf = "NOT lock-free, checked directly on the implementation LTS: a τ-cycle keeps an operation pending without a return"
	default:
		lf = "lock-freedom undecided"
	}
	text := lin + "; " + lf
	if r.Bisimilar == No && r.Linearizable == Yes && r.LockFree == Yes {
		text = "the object is linearizable and lock-free: " + text + ". Thm 5.4 (Yang et al.) simply does not apply: " +
			"impl and spec are not divergence-preserving branching bisimilar, as happens when linearization points " +
			"depend on the future (the K-valued register); the formula below explains the difference, it is not a bug"
	}
	return text
}
