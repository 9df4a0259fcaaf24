package refine

import (
	"fmt"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lts"
)

// search is the breadth-first exploration of the product of the
// implementation with the normalised specification (see the package doc).
type search struct {
	impl *lts.LTS
	norm *antichain.Subsets
	// specInitial is the specification's initial state.
	specInitial int32
	pairs       *pairStore
	labelMap    []int32 // impl label id → spec label id, -1 if spec has none
	opts        Options
	depth       int  // visible layer being explored
	full        bool // the pair limit was hit
	// stopped is the cause of Options.Context's end, once add saw it.
	stopped error

	layer, next []int32 // pair ids of the current and the next layer
	cands       []candidate
}

// candidate is a pair reached by a visible step, waiting for the next layer.
type candidate struct{ state, subset, parent, via int32 }

func newSearch(impl, spec *lts.LTS, opts Options) *search {
	norm := antichain.NewSubsets(antichain.NewExplicit(spec), true)
	specIDs := make(map[string]int32, len(spec.Labels))
	for i, name := range spec.Labels {
		specIDs[name] = int32(i)
	}
	labelMap := make([]int32, len(impl.Labels))
	for i, name := range impl.Labels {
		if id, ok := specIDs[name]; ok {
			labelMap[i] = id
		} else {
			labelMap[i] = -1
		}
	}
	return &search{
		impl: impl, norm: norm, specInitial: spec.Initial, labelMap: labelMap, opts: opts,
		pairs: newPairStore(impl.NumStates, norm, opts.Antichain),
	}
}

// progressEvery is how many new pairs pass between Progress calls and
// polls of Options.Context (a power of two).
const progressEvery = 1 << 12

// run explores the product layer by layer. It returns the pair and the impl
// transition of the first violation found, or (-1, -1) when impl refines
// spec.
func (s *search) run() (pair, trans int32, err error) {
	impl, norm, ps := s.impl, s.norm, s.pairs
	init, _ := norm.Closure([]int32{s.specInitial}) // an LTS in memory gives no error
	s.layer = append(s.layer[:0], ps.add(impl.Initial, init, -1, -1))
	for s.depth = 0; len(s.layer) > 0; s.depth++ {
		s.cands = s.cands[:0]
		// The layer grows while it is scanned: τ steps stay in it.
		for i := 0; i < len(s.layer); i++ {
			p := s.layer[i]
			if ps.isDead(p) {
				continue
			}
			st, sub := ps.state[p], ps.subset[p]
			for t := impl.Out[st]; t < impl.Out[st+1]; t++ {
				d := impl.Dst[t]
				if impl.Label[t] == lts.Tau {
					if q := s.add(d, sub, p, t); q >= 0 {
						s.layer = append(s.layer, q)
					}
					continue
				}
				q := antichain.NoSubset
				if a := s.labelMap[impl.Label[t]]; a >= 0 {
					q, _ = norm.After(sub, uint64(a))
				}
				if q == antichain.NoSubset {
					return p, t, nil
				}
				s.cands = append(s.cands, candidate{d, q, p, t})
			}
			if s.full || s.stopped != nil {
				return -1, -1, s.stopError()
			}
		}
		s.next = s.next[:0]
		for _, c := range s.cands {
			if q := s.add(c.state, c.subset, c.parent, c.via); q >= 0 {
				s.next = append(s.next, q)
			}
		}
		if s.full || s.stopped != nil {
			return -1, -1, s.stopError()
		}
		s.layer, s.next = s.next, s.layer
	}
	s.depth--
	return -1, -1, nil
}

// add adds a pair and reports progress; at the pair limit it adds nothing
// and sets s.full, and once Options.Context has ended it sets s.stopped.
func (s *search) add(st, sub, parent, via int32) int32 {
	if s.pairs.len() >= s.opts.MaxPairs {
		s.full = true
		return -1
	}
	q := s.pairs.add(st, sub, parent, via)
	if q >= 0 && q&(progressEvery-1) == 0 {
		if s.opts.Progress != nil {
			s.opts.Progress.Report("refinement pairs", int64(q), "pairs")
		}
		s.stopped = limits.Err(s.opts.Context)
	}
	return q
}

// stopError is the error of a search stopped by the pair limit or by
// Options.Context.
func (s *search) stopError() error {
	if s.stopped != nil {
		return fmt.Errorf("refinement stopped after %d pairs: %w", s.pairs.len(), s.stopped)
	}
	return &limits.LimitError{Limit: limits.Pairs, Value: int64(s.opts.MaxPairs), Err: fmt.Errorf(
		"%w: explored %d pairs (%d specification subsets) up to traces of %d visible actions without finding a violation; the verdict is unknown",
		ErrPairLimit, s.pairs.len(), s.norm.Count(), s.depth)}
}

// path returns the impl transitions from the initial state to pair p,
// followed by last.
func (s *search) path(p, last int32) []int32 {
	var rev []int32
	rev = append(rev, last)
	for ; s.pairs.parent[p] >= 0; p = s.pairs.parent[p] {
		rev = append(rev, s.pairs.via[p])
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
