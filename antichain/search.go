package antichain

import (
	"context"
	"errors"
	"slices"

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
// The on-the-fly route (onthefly/fly.go) still runs a search of its own
// over the same Subsets. Its promise is the one of SearchOptions.BySteps
// with Past (runBySteps): levels in steps, a shortest counterexample in
// steps, a level's pairs taken state by state, the search going on past a
// violation. runBySteps has its hooks too: the partial-order reduction's
// ample sets under the cycle proviso (Ampler), states numbered as pairs
// take them (Sparse), and symmetry (Renamer); and it follows only the
// least of a state's pairs of a level, as that search does
// (onthefly/dominance.go). onthefly's TestOneEngineForBothRoutes holds
// runBySteps over the semantics to that search, unreduced, with the
// symmetry reduction, with the partial-order reduction and with both: the
// same verdicts, states, counterexamples' lengths, pairs, pairs dominated
// in their level and ample sets. Both store
// a pair once, even where two steps of a state enter the same new state
// (a pair is an element of the product; a copy would only be expanded
// again to the same successors).
// What that search does beyond runBySteps is what serving it here would
// still take: it expands a batch of states on several cores before
// following their pairs (the outcome independent of the number of
// cores), records the τ-steps it follows for the τ-cycle search, keeps
// its states and pairs in packed records, without the index or parents
// (Pairs without Index is its lookup), and a cache of recent successors.
// Taking the least of the renamings by a representative's stabiliser, as
// it does, is the Renamer's choice.

// SearchOptions bound a Search and say what it reports.
type SearchOptions struct {
	// Prune turns the antichain on (Pairs).
	Prune bool
	// Index finds the pairs stored by a hash index rather than by their
	// state's chain (Pairs).
	Index bool
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
	norm    *Subsets
	opts    SearchOptions
	Pairs   *Pairs
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
	// empty is the empty subset's id once Past has met a violation,
	// NoSubset before.
	empty int32
}

// candidate is a pair reached by a visible step, waiting for the next
// layer.
type candidate struct{ state, subset, parent, via int32 }

// NewSearch returns the search of impl against norm; states is a hint of
// the number of implementation states (0 if unknown).
func NewSearch(impl Impl, norm *Subsets, states int32, opts SearchOptions) *Search {
	s := &Search{impl: impl, norm: norm, opts: opts, Pairs: NewPairs(norm, opts.Prune, opts.Index, states)}
	s.renamer, _ = impl.(Renamer)
	s.sparse, _ = impl.(Sparse)
	switch {
	case opts.BySteps:
		s.ampler, _ = impl.(Ampler)
		s.Pairs.keep = true
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
// the subset init (renamed as that state, with a Renamer). It returns the pair and the step id of the first
// violation, or (-1, -1) when every trace of impl is one of the
// specification; its error wraps ErrFull at the pair limit, the cause of
// the context's end, or the specification's error.
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

// runBySteps is Run with levels in steps, as the on-the-fly route's
// search takes them (onthefly/fly.go): level k holds the pairs first
// reached by k steps, τ or visible, so that the first violation found has
// the fewest steps. A level's pairs are taken state by state, in the
// order of the states' ids and of the pairs' within a state, each state's
// steps asked once for all its pairs of the level. With pruning, a pair
// whose subset strictly includes another's of its state's pairs of the
// level is not followed (dominated, counted in Dominated), as that search
// does (onthefly/dominance.go): the level is complete when its pairs are
// followed, so a smaller subset stored after the pair, in its level, is
// known; every violation from the pair is one from the smaller pair, at
// the same depth, so the verdict and the counterexample's length stay,
// and the pairs followed reach the same states (a violation's successor
// has the empty subset, which every subset includes).
// Depth is the level of the violation, or the last level.
//
// With the partial-order hook (Ampler), a pair follows its state's ample
// set alone when the cycle proviso holds (provisoHolds): then every step
// of the reduced product that leaves a pair following an ample set goes
// to a pair of a larger id, so every cycle of it has a pair that follows
// all its steps. A pair that an ample step leads to and that is then not
// followed (dominated) is replaced by the least pairs of its level below
// it, which must be stored after p too: the proviso refuses the ample set
// when a pair of that state other than q, stored no later than p, has a
// subset ⊆ q's (coveredUpTo), as onthefly's does.
func (s *Search) runBySteps(init int32) (pair, step int32, err error) {
	impl, ps := s.impl, s.Pairs
	pair, step, s.empty = -1, -1, NoSubset
	ps.Add(impl.Initial(), init, -1, -1)
	for lo := int32(0); int(lo) < ps.Len(); s.Depth++ {
		hi := int32(ps.Len())
		// A level's pairs by state, then by id: state<<32 | offset.
		s.order = s.order[:0]
		for p := lo; p < hi; p++ {
			s.order = append(s.order, uint64(uint32(ps.State[p]))<<32|uint64(p-lo))
		}
		slices.Sort(s.order)
		for i := 0; i < len(s.order); {
			st := int32(s.order[i] >> 32)
			to, label, first, end, err := impl.Steps(st)
			if err != nil {
				return -1, -1, err
			}
			var ample []int32
			if s.ampler != nil {
				ample = s.ampler.Ample()
			}
			group := i
			for i < len(s.order) && int32(s.order[i]>>32) == st {
				i++
			}
			for g := group; g < i; g++ {
				p := lo + int32(uint32(s.order[g]))
				if s.dominated(s.order[group:i], lo, g-group) {
					s.Dominated++
					continue
				}
				reduced, err := s.reduced(p, ample, to, label)
				if err != nil {
					return -1, -1, err
				}
				ids := ample
				if !reduced {
					ids = s.span(first, end)
				}
				for _, id := range ids {
					if err := s.follow(p, id, to[id], label[id], &pair, &step); err != nil || pair >= 0 && !s.opts.Past {
						return pair, step, err
					}
				}
				if err := s.stop(); err != nil {
					return -1, -1, err
				}
			}
		}
		lo = hi
	}
	s.Depth--
	return pair, step, nil
}

// span returns the step ids from first to end (a buffer of s's).
func (s *Search) span(first, end int32) []int32 {
	s.ids = s.ids[:0]
	for id := first; id < end; id++ {
		s.ids = append(s.ids, id)
	}
	return s.ids
}

// reduced reports whether pair p follows its state's ample set alone
// (none: it follows every step), and counts it.
func (s *Search) reduced(p int32, ample, to, label []int32) (bool, error) {
	if s.ampler == nil {
		return false, nil
	}
	if len(ample) == 0 {
		s.Full++
		return false, nil
	}
	ok, err := s.provisoHolds(p, ample, to, label)
	if err != nil {
		return false, err
	}
	if ok {
		s.Ample++
	} else {
		s.Full++
		s.ProvisoFull++
	}
	return ok, nil
}

// provisoHolds is the cycle proviso (C3, frontend/reduce/por.go) for pair
// p and its state's ample set: each ample step leads to a new pair or to
// a pair stored after p, never to an earlier one nor to one a stored pair
// covers.
func (s *Search) provisoHolds(p int32, ample, to, label []int32) (bool, error) {
	for _, id := range ample {
		q, _, err := s.after(p, id, label[id])
		if err != nil {
			return false, err
		}
		same, covered := s.Pairs.Lookup(to[id], q)
		if same >= 0 && same <= p || same < 0 && covered {
			return false, nil
		}
		if same >= 0 && s.coveredUpTo(to[id], q, same, p) {
			// same may not be followed (dominated), and the pair
			// followed in its place is one of those, stored before p.
			return false, nil
		}
	}
	return true, nil
}

// dominated reports whether the pair group[i] of a state's pairs of one
// level (group, offsets from lo with the state above them, as
// runBySteps' order holds them) is not followed: pruning, another pair of
// the group has a subset strictly included in its own (a pair is stored
// once, so a different pair of the state has a different subset).
func (s *Search) dominated(group []uint64, lo int32, i int) bool {
	if len(group) < 2 || !s.opts.Prune {
		return false
	}
	sub := s.Pairs.Subset[lo+int32(uint32(group[i]))]
	for j, k := range group {
		if other := s.Pairs.Subset[lo+int32(uint32(k))]; j != i && other != sub && s.norm.Includes(sub, other) {
			return true
		}
	}
	return false
}

// coveredUpTo reports whether a pair of state st other than q, with id at
// most p, has a subset included in sub, q's (never without pruning). The
// store keeps every pair of a state in its chain (Pairs.keep) and refuses
// a pair that a stored one covers, so for q > p no such pair is found
// today; the check states the rule the proviso relies on, as onthefly's
// provisoHolds does, rather than that property of the store.
func (s *Search) coveredUpTo(st, sub, q, p int32) bool {
	if !s.opts.Prune {
		return false
	}
	ps := s.Pairs
	for z := ps.head[st]; z >= 0; z = ps.next[z] {
		if z != q && z <= p && s.norm.Includes(sub, ps.Subset[z]) {
			return true
		}
	}
	return false
}

// follow follows step id of pair p, by label a to state d: it adds the
// pair the step leads to. The first step the specification cannot follow
// is noted in *pair and *step; past it (Past) the step leads to a pair
// with the empty subset.
func (s *Search) follow(p, id, d, a int32, pair, step *int32) error {
	q, violates, err := s.after(p, id, a)
	if err != nil {
		return err
	}
	if violates && *pair < 0 {
		*pair, *step, s.ViolationDepth = p, id, s.Depth
		if !s.opts.Past {
			return nil
		}
	}
	if d < 0 {
		// A state no pair has taken (Sparse): the pair is new.
		d = s.sparse.Store(id)
	}
	s.add(d, q, p, id)
	return nil
}

// after returns the subset that step id of pair p, by label a, leads to,
// renamed (Renamer), and whether the specification cannot follow it: the
// subset is then, with Past, the empty one (interned the first time),
// which follows every step past the violation, and NoSubset without.
func (s *Search) after(p, id, a int32) (q int32, violates bool, err error) {
	sub := s.Pairs.Subset[p]
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
		if s.opts.Progress != nil {
			s.opts.Progress.Report("refinement pairs", int64(q), "pairs")
		}
		s.stopped = limits.Err(s.opts.Context)
	}
	return q
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
