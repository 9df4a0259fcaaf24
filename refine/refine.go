package refine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
)

// DefaultMaxPairs is the pair limit used when Options.MaxPairs is 0.
const DefaultMaxPairs = 50_000_000

// ErrPairLimit is wrapped by the error Check returns when it explored
// Options.MaxPairs pairs without reaching a verdict: a
// *limits.LimitError whose Limit is limits.Pairs.
var ErrPairLimit = errors.New("pair limit reached")

// Options tune Check. The zero value is a plain check without antichains or
// quotienting; the CLI turns both on.
type Options struct {
	// Antichain prunes a pair (s, P) when a pair (s, Q) with Q ⊆ P was
	// explored (De Wulf et al. 2006; Abdulla et al. 2010).
	Antichain bool
	// Quotient minimises impl and spec modulo divergence-preserving
	// branching bisimilarity before the search.
	Quotient bool
	// ImplQuotient and SpecQuotient, if set together with Quotient and
	// without Alphabet, are quotients of impl and spec computed already
	// (e.g. by the bisimulation stage, bisim.Minimize); Check uses them
	// instead of minimising again. Any LTS trace equivalent to impl (spec)
	// is sound here; counterexamples are still mapped back to impl.
	ImplQuotient, SpecQuotient *lts.LTS
	// MaxPairs bounds the number of pairs explored; 0 means DefaultMaxPairs.
	// Hitting it makes Check return an error wrapping ErrPairLimit.
	MaxPairs int
	// Progress, if set, receives the pairs explored so far now and then
	// ("refinement pairs", pairs, "pairs").
	Progress meter.Reporter
	// Context, if set, stops Check when it ends: the search polls it
	// every few thousand pairs and returns an error wrapping its cause
	// (limits.Err), as does the minimisation of Quotient.
	Context context.Context
	// Alphabet, if set, says which labels are visible; all others are
	// treated as τ in both LTSs (linearization-point mode, Liu et al.
	// Thm 2: only the lin(...) events visible; see the package doc for when
	// its failures are conclusive). nil means every non-τ label is visible.
	// Check returns an error when no implementation transition is visible
	// under it, rather than a vacuous verdict.
	Alphabet func(label string) bool
}

// Stats describe a run of Check.
type Stats struct {
	// Pairs is the number of (impl state, spec subset) pairs explored.
	Pairs int64
	// Subsumed is the number of pairs skipped by antichain pruning.
	Subsumed int64
	// SpecSubsets is the number of normalised spec states built.
	SpecSubsets int
	// Depth is the number of visible actions of the longest trace explored.
	Depth int
	// ImplStates and SpecStates are the sizes searched, after quotienting.
	ImplStates, SpecStates int32
	// InputImplStates and InputSpecStates are the sizes given to Check.
	InputImplStates, InputSpecStates int32
	// QuotientTime, SearchTime and ReplayTime split the wall-clock time:
	// minimising both LTSs, the product search, and mapping the
	// counterexample back to the original implementation.
	QuotientTime, SearchTime, ReplayTime time.Duration
}

// Result is the verdict of Check.
type Result struct {
	// Refines is true when traces(impl) ⊆ traces(spec).
	Refines bool
	// Counterexample, when Refines is false, is a shortest implementation
	// trace (fewest visible actions) that the specification cannot do, as
	// a path of the original implementation; its last step is the action
	// the specification cannot match, marked with a Note.
	Counterexample *lts.Trace
	// Stats describe the run.
	Stats Stats
}

// Check decides whether every trace of impl is a trace of spec. Labels are
// matched by name. It returns an error for invalid LTSs, an error wrapping
// ErrPairLimit when the pair limit is hit, and one wrapping the cause of
// Options.Context's end when that stops it.
func Check(impl, spec *lts.LTS, opts Options) (*Result, error) {
	for _, x := range []struct {
		name string
		l    *lts.LTS
	}{{"implementation", impl}, {"specification", spec}} {
		if x.l == nil || x.l.NumStates == 0 {
			return nil, fmt.Errorf("the %s LTS has no states", x.name)
		}
		if err := x.l.Validate(); err != nil {
			return nil, fmt.Errorf("the %s LTS is malformed: %w", x.name, err)
		}
	}
	switch {
	case opts.MaxPairs == 0:
		opts.MaxPairs = DefaultMaxPairs
	case opts.MaxPairs < 0:
		return nil, fmt.Errorf("the pair limit must be positive, got %d", opts.MaxPairs)
	}
	res := &Result{Stats: Stats{InputImplStates: impl.NumStates, InputSpecStates: spec.NumStates}}
	st := &res.Stats

	// hImpl has impl's transitions, in the same order, with the hidden
	// labels turned into τ: its paths are paths of impl.
	hImpl, hSpec := hide(impl, opts.Alphabet), hide(spec, opts.Alphabet)
	if opts.Alphabet != nil && !slices.ContainsFunc(hImpl.Label, func(a int32) bool { return a != lts.Tau }) {
		// Refinement would hold vacuously; most likely the model has no
		// linearization events.
		return nil, errors.New("no transition of the implementation is visible under the given alphabet, so refinement would hold vacuously")
	}
	sImpl, sSpec := hImpl, hSpec
	if opts.Quotient && opts.Alphabet == nil && opts.ImplQuotient != nil && opts.SpecQuotient != nil {
		for _, q := range []*lts.LTS{opts.ImplQuotient, opts.SpecQuotient} {
			if q.NumStates == 0 {
				return nil, errors.New("a given quotient has no states")
			}
			if err := q.Validate(); err != nil {
				return nil, fmt.Errorf("a given quotient is malformed: %w", err)
			}
		}
		sImpl, sSpec = opts.ImplQuotient, opts.SpecQuotient
	} else if opts.Quotient {
		start := time.Now()
		var err error
		if sImpl, err = quotient(opts.Context, hImpl); err != nil {
			return nil, fmt.Errorf("minimising the implementation: %w", err)
		}
		if sSpec, err = quotient(opts.Context, hSpec); err != nil {
			return nil, fmt.Errorf("minimising the specification: %w", err)
		}
		st.QuotientTime = time.Since(start)
	}
	st.ImplStates, st.SpecStates = sImpl.NumStates, sSpec.NumStates

	start := time.Now()
	s, norm := newSearch(sImpl, sSpec, opts)
	init, _ := norm.Closure([]int32{sSpec.Initial}) // an LTS in memory gives no error
	pair, last, err := s.Run(init)
	st.SearchTime = time.Since(start)
	st.Pairs, st.Subsumed = int64(s.Pairs.Len()), s.Pairs.Subsumed
	st.SpecSubsets, st.Depth = norm.Count(), s.Depth
	if err != nil {
		return res, stopError(s, norm, opts, err)
	}
	if pair < 0 {
		res.Refines = true
		return res, nil
	}

	start = time.Now()
	path := s.Pairs.Path(pair, last)
	if opts.Quotient {
		// The path is one of the quotient; find one of impl with the same
		// visible labels (hImpl has them, being trace equivalent).
		visible := make([]string, 0, len(path))
		for _, t := range path {
			if sImpl.Label[t] != lts.Tau {
				visible = append(visible, sImpl.LabelName(t))
			}
		}
		var ok bool
		if path, ok = lts.Replay(hImpl, visible); !ok {
			return nil, fmt.Errorf("internal error: the counterexample %q found on the quotient is not a trace of the implementation", visible)
		}
	}
	res.Counterexample = counterexample(impl, hImpl, path)
	st.ReplayTime = time.Since(start)
	return res, nil
}

// newSearch returns the antichain search of impl against spec
// (antichain.Search, layered by visible actions) and spec's normalisation;
// labels are matched by name.
func newSearch(impl, spec *lts.LTS, opts Options) (*antichain.Search, *antichain.Subsets) {
	norm := antichain.NewSubsets(antichain.NewExplicit(spec), true)
	specIDs := make(map[string]int32, len(spec.Labels))
	for i, name := range spec.Labels {
		specIDs[name] = int32(i)
	}
	labelOf := func(a int32) int32 {
		if id, ok := specIDs[impl.Labels[a]]; ok {
			return id
		}
		return -1
	}
	return antichain.NewSearch(antichain.NewExplicitImpl(impl, labelOf), norm, impl.NumStates, antichain.SearchOptions{
		Prune: opts.Antichain, Index: true, MaxPairs: opts.MaxPairs, Progress: opts.Progress, Context: opts.Context,
	}), norm
}

// stopError is the error of a search stopped by err: the pair limit
// (antichain.ErrFull), the cause of Options.Context's end.
func stopError(s *antichain.Search, norm *antichain.Subsets, opts Options, err error) error {
	if !errors.Is(err, antichain.ErrFull) {
		return fmt.Errorf("refinement stopped after %d pairs: %w", s.Pairs.Len(), err)
	}
	return &limits.LimitError{Limit: limits.Pairs, Value: int64(opts.MaxPairs), Err: fmt.Errorf(
		"%w: explored %d pairs (%d specification subsets) up to traces of %d visible actions without finding a violation; the verdict is unknown",
		ErrPairLimit, s.Pairs.Len(), norm.Count(), s.Depth)}
}

// counterexample renders path, a path of impl (whose hidden labels are τ in
// hImpl), as the refinement counterexample.
func counterexample(impl, hImpl *lts.LTS, path []int32) *lts.Trace {
	tr := lts.TraceOf(impl, path)
	tr.Title = "trace refinement fails: the implementation can do a trace the specification cannot"
	lastT := path[len(path)-1]
	tr.Steps[len(tr.Steps)-1].Note = "spec cannot do this"
	visible := 0
	for _, t := range path {
		if hImpl.Label[t] != lts.Tau {
			visible++
		}
	}
	tr.Final = fmt.Sprintf("the specification cannot do %s after the %d visible actions before it",
		impl.LabelName(lastT), visible-1)
	return tr
}

// hide returns l with the labels that visible rejects turned into τ; the
// transitions keep their order and ids, the label table is shared. It
// returns l itself when visible is nil.
func hide(l *lts.LTS, visible func(string) bool) *lts.LTS {
	if visible == nil {
		return l
	}
	toTau := make([]bool, len(l.Labels))
	for i, name := range l.Labels {
		toTau[i] = i != int(lts.Tau) && !visible(name)
	}
	h := *l
	h.Label = make([]int32, len(l.Label))
	for t, a := range l.Label {
		if toTau[a] {
			a = lts.Tau
		}
		h.Label[t] = a
	}
	return &h
}
