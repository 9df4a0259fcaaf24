package antichain

import (
	"context"
	"errors"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
)

// The search for trace inclusion impl ⊑_tr spec: breadth-first over the
// product of implementation states with normalised specification subsets
// (Liu et al., Fig. 2; Roscoe's FDR). From a pair (s, P), a τ step of s
// leads to (s', P) and a visible step s -a-> s' to (s', P·a), P·a the
// subset After(P, a); the search fails at the first pair whose state has
// a visible step a with P·a = ∅: the trace that led there, followed by a,
// is a trace the specification cannot do.
//
// Invariants:
//   - The pairs are explored layer by layer in the number of visible
//     actions: layer k holds the pairs first reached by a trace of k
//     visible actions, closed under τ steps (taken in the order they are
//     found) before layer k+1 starts. So the first violation found has
//     the fewest visible actions of all, whatever its τ steps. With
//     SearchOptions.BySteps, level k holds the pairs first reached by k
//     steps, and the first violation has the fewest steps (runBySteps).
//   - With pruning (Pairs), a pair (s, P) is not stored when a pair
//     (s, Q) with Q ⊆ P has been (De Wulf, Doyen, Henzinger, Raskin,
//     CAV 2006; Abdulla et al., TACAS 2010): traces(Q) ⊆ traces(P), so
//     every violation from (s, P) is found from (s, Q) no later. (s, Q)
//     is in the same layer or an earlier one, so pruning keeps the
//     counterexample shortest. Layered by visible actions, a stored pair
//     that a smaller one of its state subsumes later is not expanded
//     either (Pairs.Dead). Layered by steps, a pair that a smaller one of
//     its state and level subsumes is not followed (runBySteps,
//     dominated); one stored in a later level does not stop it.
//
// Symmetry enters through the implementation: an Impl that is a Renamer
// gives representatives of orbits as its states, and the subset a pair
// reaches by a step is renamed by the step's permutation (Rename), after
// the step's label is taken; a pair of the search stands for its orbit's
// (onthefly/fly.go argues why this is sound and complete for a symmetric
// model and specification).
//
// Layered by steps (SearchOptions.BySteps: runBySteps, bysteps.go), it
// is the on-the-fly route's search (onthefly.Check): levels in steps, a
// shortest counterexample in steps, a level's pairs taken state by state,
// and with Past the search going on past a violation, over the
// implementation alone, for a τ-cycle search after it. Its hooks are the
// implementation's: the partial-order reduction's ample sets under the
// cycle proviso (Ampler), states numbered as pairs take them (Sparse),
// the τ-steps its pairs follow handed over (Follower), each level's order
// told before its states' steps are asked for (Leveler), and what the
// implementation worked out ahead for a pair's step (Foresight: the
// subset renamed, and the lookup among the pairs stored before a given
// pair, the search looking only at those stored since). Its pairs are in
// a store as narrow as the route's packed records (PairStore: subsets and
// states' chains, no parents), so a path is rebuilt from the levels
// (Rebuild); it follows only the least of a state's pairs of a level
// (dominated), and stores a pair once, even where two steps of a state
// enter the same new state (a pair is an element of the product; a copy
// would only be expanded again to the same successors). A level's sort
// is polled for the context's end (levelOrder). The tests' switches:
// every pair followed (SearchOptions.FollowDominated), and the parents
// kept to check rebuilt paths against (SearchOptions.Parents,
// CheckParents). Taking the least of the renamings by a representative's
// stabiliser, as the on-the-fly route does, is the Renamer's choice.

// SearchOptions bound a Search and say what it reports.
type SearchOptions struct {
	// Prune turns the antichain on (Pairs).
	Prune bool
	// Index finds the pairs stored by a hash index rather than by their
	// state's chain (Pairs), layered by visible actions.
	Index bool
	// Store, layered by steps, is the store of the pairs (nil: a
	// Pairs): the on-the-fly route's packed records.
	Store PairStore
	// BySteps layers the search by steps rather than by visible actions
	// (runBySteps): the first violation found has the fewest steps, the
	// on-the-fly route's promise.
	BySteps bool
	// Past, with BySteps, goes on past the first violation over the
	// implementation alone, until every state is reached (for a search of
	// τ-cycles after it): a step the specification cannot follow leads to
	// a pair with the empty subset, which follows every step and covers
	// every other pair of its state. Run returns the first violation at
	// the end, ViolationDepth its level.
	Past bool
	// FollowDominated, with BySteps, follows every pair of a level, even
	// one that a pair of its state and level with a smaller subset
	// dominates (runBySteps), for the tests that hold the rule to the
	// same outcome.
	FollowDominated bool
	// Parents, with BySteps, keeps the pair and step that found each
	// pair (Parent), for the tests that hold rebuilt paths to them.
	Parents bool
	// MaxPairs bounds the pairs stored; the search stops with ErrFull
	// when one more would pass it.
	MaxPairs int
	// Progress, if set, receives the pairs stored so far every
	// ProgressEvery pairs (stage "refinement pairs").
	Progress meter.Reporter
	// Context, if set, stops the search when it ends: it is polled every
	// ProgressEvery pairs, and Run returns its cause (limits.Err).
	Context context.Context
}

// ProgressEvery is how many new pairs pass between Progress calls and
// polls of the context (a power of two).
const ProgressEvery = 1 << 12

// ErrFull is Run's error when the pair limit is reached.
var ErrFull = errors.New("pair limit reached")

// Search is one search of the product of an implementation and a
// normalised specification.
type Search struct {
	impl    Impl
	renamer Renamer // impl's symmetry hook, nil if it has none
	ampler  Ampler  // impl's partial-order hook, nil if it has none
	sparse  Sparse  // impl's hook to number states as pairs take them, or nil
	// follower is impl's hook to keep what runBySteps follows, leveler
	// and foresight its hooks to expand ahead, or nil
	follower  Follower
	leveler   Leveler
	foresight Foresight
	g         int // the pair being followed, of its state's pairs of the level
	norm      *Subsets
	opts      SearchOptions
	// Pairs is the store of Run layered by visible actions, and of
	// runBySteps when SearchOptions.Store gives none: then Store is
	// Pairs.
	Pairs *Pairs
	// Store is the store of the pairs of runBySteps (PairStore).
	Store PairStore
	// Depth is the visible layer being explored, when Run returns the
	// last one explored.
	Depth int
	// ViolationDepth is the level of the first violation (with Past).
	ViolationDepth int
	// With the partial-order hook (Ampler), Ample counts the pairs that
	// followed an ample set alone, Full those that followed every step
	// (no ample set, or the cycle proviso refused it: ProvisoFull of
	// them).
	Ample, Full, ProvisoFull int64
	// Dominated counts the pairs that runBySteps did not follow: a pair
	// of the same state and level has a strictly smaller subset.
	Dominated int64

	full        bool  // an add met the pair limit
	stopped     error // the context's cause, once add saw it
	layer, next []int32
	cands       []candidate
	keys        []uint64 // the implementation's labels (Impl.Label)
	order       []uint64 // runBySteps' level: state<<32 | pair offset
	ids         []int32  // span's
	// store is Store, and Store a *Pairs, for runBySteps; levels[k] is
	// the first pair of its level k, levelStates and nextStates the
	// states of the pairs of the level being followed and of those of
	// the next found so far; ampled marks the pairs that followed an
	// ample set alone or were not followed (dominated), for rebuilt
	// paths and the implementation (Ampled); states bounds the states
	// paired.
	store                   PairStore
	levels                  []int32
	levelStates, nextStates []int32
	ampled                  []uint64
	states                  int32
	// empty is the empty subset's id once Past has met a violation, or
	// from the start (a search from the empty subset), NoSubset before.
	empty int32
	// parents are the pairs and steps that found each pair, with
	// SearchOptions.Parents (-1 for the first pair).
	parents []candidate
}

// candidate is a pair reached by a visible step, waiting for the next
// layer.
type candidate struct{ state, subset, parent, via int32 }

// NewSearch returns the search of impl against norm; states is a hint of
// the number of implementation states (0 if unknown).
func NewSearch(impl Impl, norm *Subsets, states int32, opts SearchOptions) *Search {
	s := &Search{impl: impl, norm: norm, opts: opts}
	if !opts.BySteps {
		s.Pairs = NewPairs(norm, opts.Prune, opts.Index, states)
	}
	s.renamer, _ = impl.(Renamer)
	s.sparse, _ = impl.(Sparse)
	switch {
	case opts.BySteps:
		s.ampler, _ = impl.(Ampler)
		s.follower, _ = impl.(Follower)
		s.leveler, _ = impl.(Leveler)
		s.foresight, _ = impl.(Foresight)
		if s.store = opts.Store; s.store == nil {
			// The pairs found by their states' chains, as the
			// on-the-fly route's are: runBySteps looks them up itself.
			s.Pairs = NewPairs(norm, opts.Prune, false, states)
			s.store = s.Pairs
		}
		s.Store = s.store
	case s.sparse != nil:
		// Run takes a step's state where it meets the step.
		s.impl = dense{impl, s.sparse}
	}
	return s
}

// dense is a Sparse implementation whose steps all have their states
// numbered, for Run.
type dense struct {
	Impl
	sparse Sparse
}

// Steps implements Impl: it numbers the states of s's steps that have
// none yet.
func (d dense) Steps(s int32) (to, label []int32, lo, hi int32, err error) {
	to, label, lo, hi, err = d.Impl.Steps(s)
	for id := lo; id < hi && err == nil; id++ {
		if to[id] < 0 {
			d.sparse.Store(id)
		}
	}
	return to, label, lo, hi, err
}

// Run searches from the pair of the implementation's initial state and
// the subset init (renamed as that state, with a Renamer). It returns the
// pair and the step id of the first violation, or (-1, -1) when every
// trace of impl is one of the specification; its error wraps ErrFull at
// the pair limit, the cause of the context's end, or the specification's
// or the implementation's error (past a violation, with Past, that
// violation comes with the implementation's error).
func (s *Search) Run(init int32) (pair, step int32, err error) {
	if s.opts.BySteps {
		return s.runBySteps(init)
	}
	// runBySteps' rule for pairs dominated in their level has nothing to
	// add here: a layer grows by τ steps while it is scanned, so it is
	// never complete before its pairs are expanded, and Pairs.Dead
	// already skips every pair that a smaller one of its state, of any
	// layer, subsumed before it was expanded (a pair expanded before its
	// dominator was stored could only be skipped by a search that waits
	// for the layer's τ closure, which would change the order in which
	// pairs are met, and refine's pairs and counterexamples with it).
	impl, norm, ps := s.impl, s.norm, s.Pairs
	s.layer = append(s.layer[:0], ps.Add(impl.Initial(), init, -1, -1))
	for s.Depth = 0; len(s.layer) > 0; s.Depth++ {
		s.cands = s.cands[:0]
		// The layer grows while it is scanned: τ steps stay in it.
		for i := 0; i < len(s.layer); i++ {
			p := s.layer[i]
			if ps.Dead(p) {
				continue
			}
			sub := ps.Subset[p]
			to, label, lo, hi, err := impl.Steps(ps.State[p])
			if err != nil {
				return -1, -1, err
			}
			for id := lo; id < hi; id++ {
				d, k := to[id], s.key(label[id])
				if k == TauStep {
					q := sub
					if s.renamer != nil {
						if q, err = s.renamer.Rename(sub, id); err != nil {
							return -1, -1, err
						}
					}
					if q := s.add(d, q, p, id); q >= 0 {
						s.layer = append(s.layer, q)
					}
					continue
				}
				q := NoSubset
				if k != Foreign {
					if q, err = norm.After(sub, k); err != nil {
						return -1, -1, err
					}
				}
				if q == NoSubset {
					return p, id, nil
				}
				if s.renamer != nil {
					if q, err = s.renamer.Rename(q, id); err != nil {
						return -1, -1, err
					}
				}
				s.cands = append(s.cands, candidate{d, q, p, id})
			}
			if err := s.stop(); err != nil {
				return -1, -1, err
			}
		}
		s.next = s.next[:0]
		for _, c := range s.cands {
			if q := s.add(c.state, c.subset, c.parent, c.via); q >= 0 {
				s.next = append(s.next, q)
			}
		}
		if err := s.stop(); err != nil {
			return -1, -1, err
		}
		s.layer, s.next = s.next, s.layer
	}
	s.Depth--
	return -1, -1, nil
}

// after returns the subset that step id of pair p, by label a, leads to,
// renamed (Renamer), and whether the specification cannot follow it: the
// subset is then, with Past, the empty one (interned the first time),
// which follows every step past the violation, and NoSubset without.
func (s *Search) after(p, id, a int32) (q int32, violates bool, err error) {
	sub := s.store.SubsetOf(p)
	q = sub
	if k := s.key(a); k != TauStep && sub != s.empty {
		q = NoSubset
		if k != Foreign {
			if q, err = s.norm.After(sub, k); err != nil {
				return NoSubset, false, err
			}
		}
		if q == NoSubset {
			if !s.opts.Past {
				return NoSubset, true, nil
			}
			if s.empty == NoSubset {
				s.empty = s.norm.Intern(nil)
			}
			q, violates = s.empty, true
		}
	}
	if s.renamer != nil {
		if q, err = s.renamer.Rename(q, id); err != nil {
			return NoSubset, false, err
		}
	}
	return q, violates, nil
}

// key returns what the implementation's label a is to the specification
// (Impl.Label), asking it the first time.
func (s *Search) key(a int32) uint64 {
	if int(a) < len(s.keys) {
		return s.keys[a]
	}
	return s.newKey(a)
}

// newKey asks Impl.Label for the labels up to a.
func (s *Search) newKey(a int32) uint64 {
	for int(a) >= len(s.keys) {
		s.keys = append(s.keys, s.impl.Label(int32(len(s.keys))))
	}
	return s.keys[a]
}

// add adds a pair and reports progress; at the pair limit it adds
// nothing (stop then says so), and once the context has ended it notes
// its cause.
func (s *Search) add(st, sub, parent, via int32) int32 {
	if s.Pairs.Len() >= s.opts.MaxPairs {
		s.full = true
		return -1
	}
	q := s.Pairs.Add(st, sub, parent, via)
	if q >= 0 && q&(ProgressEvery-1) == 0 {
		s.report(q)
	}
	return q
}

// report reports progress at pair q and polls the context (every
// ProgressEvery pairs).
func (s *Search) report(q int32) {
	if s.opts.Progress != nil {
		s.opts.Progress.Report("refinement pairs", int64(q), "pairs")
	}
	s.stopped = limits.Err(s.opts.Context)
}

// stop returns why the search must stop: the context's end, or ErrFull.
func (s *Search) stop() error {
	switch {
	case s.stopped != nil:
		return s.stopped
	case s.full:
		return ErrFull
	}
	return nil
}
