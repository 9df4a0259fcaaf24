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
//     the fewest visible actions of all, whatever its τ steps.
//   - With pruning (Pairs), a pair (s, P) is not explored when a pair
//     (s, Q) with Q ⊆ P has been (De Wulf, Doyen, Henzinger, Raskin,
//     CAV 2006; Abdulla et al., TACAS 2010): traces(Q) ⊆ traces(P), so
//     every violation from (s, P) is found from (s, Q) no later. (s, Q)
//     is in the same layer or an earlier one, so pruning keeps the
//     counterexample shortest.
//
// The on-the-fly route (onthefly/fly.go) still runs a search of its own
// over the same Subsets, which differs from this one in what it
// promises and in what it reads: its levels count every step, not the
// visible ones (a shortest counterexample in steps), a level's pairs
// taken state by state, each state expanded once for all its pairs and
// on several cores; it goes on past a violation for lock-freedom, renames
// a successor's subset by the symmetry reduction's permutation (the least
// of its stabiliser's renamings), follows an ample set where the cycle
// proviso lets it, and finds pairs by their states' chains in packed
// records, without the index or parents (Pairs without Index is its
// lookup). Serving it here takes a layering option, those hooks on
// Impl, and Pairs' records packed as the route's are.

// SearchOptions bound a Search and say what it reports.
type SearchOptions struct {
	// Prune turns the antichain on (Pairs).
	Prune bool
	// Index finds the pairs stored by a hash index rather than by their
	// state's chain (Pairs).
	Index bool
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
	impl  Impl
	norm  *Subsets
	opts  SearchOptions
	Pairs *Pairs
	// Depth is the visible layer being explored, when Run returns the
	// last one explored.
	Depth int

	full        bool  // an add met the pair limit
	stopped     error // the context's cause, once add saw it
	layer, next []int32
	cands       []candidate
	keys        []uint64 // the implementation's labels (Impl.Label)
}

// candidate is a pair reached by a visible step, waiting for the next
// layer.
type candidate struct{ state, subset, parent, via int32 }

// NewSearch returns the search of impl against norm; states is a hint of
// the number of implementation states (0 if unknown).
func NewSearch(impl Impl, norm *Subsets, states int32, opts SearchOptions) *Search {
	return &Search{impl: impl, norm: norm, opts: opts, Pairs: NewPairs(norm, opts.Prune, opts.Index, states)}
}

// Run searches from the pair of the implementation's initial state and
// the subset init. It returns the pair and the step id of the first
// violation, or (-1, -1) when every trace of impl is one of the
// specification; its error wraps ErrFull at the pair limit, the cause of
// the context's end, or the specification's error.
func (s *Search) Run(init int32) (pair, step int32, err error) {
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
				d, a := to[id], label[id]
				for int(a) >= len(s.keys) {
					s.keys = append(s.keys, impl.Label(int32(len(s.keys))))
				}
				k := s.keys[a]
				if k == TauStep {
					if q := s.add(d, sub, p, id); q >= 0 {
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
