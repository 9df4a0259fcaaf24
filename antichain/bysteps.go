package antichain

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// PairStore is the store of the pairs of a search layered by steps
// (SearchOptions.BySteps), as narrow as the on-the-fly route's packed
// records (onthefly's pairRecords) allow: a pair is its subset and its
// place in its state's chain, numbered in the order it was put. The
// search finds a pair by its state's chain (a state has few pairs, and
// the chain is walked anyway for the antichain, so it needs no index of
// the pairs), keeps the states of the pairs of the level it follows and
// of the next, and keeps no parents: a counterexample's path is rebuilt
// from the levels (Path). Pairs is one.
type PairStore interface {
	// Len returns the number of pairs stored.
	Len() int
	// SubsetOf returns pair p's subset.
	SubsetOf(p int32) int32
	// Last returns the last pair put of state s, -1 if it has none (s
	// may be past every state paired).
	Last(s int32) int32
	// Before returns the pair of p's state put before p, -1 if none.
	Before(p int32) int32
	// Put stores pair (s, sub) as pair Len(), last of its state's chain,
	// and returns its id: the search has looked it up.
	Put(s, sub int32) int32
}

var _ PairStore = (*Pairs)(nil)

// Follower is the hook of an implementation that keeps what a search
// layered by steps follows: the on-the-fly route keeps the τ-steps its
// pairs follow for its τ-cycle search (onthefly/taulists.go).
type Follower interface {
	// Followed is called once the pairs of state st of a level have
	// been followed, st's steps those Steps returned last: all reports
	// that one of them followed every step, else each followed the
	// ample set alone (Ampler) or nothing (dominated). An error stops
	// the search.
	Followed(st int32, all bool) error
}

// Leveler is the hook of an implementation told each level's order
// before its states' steps are asked for, so that it may expand them
// ahead, several at once (onthefly expands a level's batches on several
// cores: onthefly/workers.go).
type Leveler interface {
	// Level is called with the pairs of the level starting at pair lo,
	// in the order the search takes them (state<<32 | offset from lo,
	// sorted); the slice is only read, until the next call. An error
	// stops the search.
	Level(order []uint64, lo int32) error
}

// Foresight is the hook of an implementation that works out ahead, for
// the pairs of the state whose steps Steps returned last, what each step
// leads to, so that the search, following them, need not (onthefly's
// expanders do so on several cores).
type Foresight interface {
	// Foreseen returns what step id of the state's g-th pair of the
	// level (in the search's order) leads to: the subset, renamed (the
	// empty one past a violation, with Past), whether the specification
	// cannot follow it, and the lookup of that pair (lookup) among the
	// pairs stored before pair since; ok is false when it worked
	// nothing out. The search looks at the pairs from since on itself,
	// at none when since is NoneSince (the implementation knows that no
	// pair of the step's state was stored since).
	Foreseen(g int, id int32) (sub int32, violates bool, same int32, covered bool, since int32, ok bool)
}

// NoneSince is Foreseen's since when no pair is left to look at.
const NoneSince = math.MaxInt32

// runBySteps is Run with levels in steps, as the on-the-fly route's
// search takes them (onthefly/fly.go): level k holds the pairs first
// reached by k steps, τ or visible, so that the first violation found has
// the fewest steps. A level's pairs are taken state by state, in the
// order of the states' ids and of the pairs' within a state, each state's
// steps asked once for all its pairs of the level. A pair is stored when
// no pair of its state with the same subset or, pruning, with a subset
// ⊆ its own is stored (lookup); one stored later does not remove it.
// With pruning, a pair whose subset strictly includes another's of its
// state's pairs of the level is not followed (dominated, counted in
// Dominated), as that search does (onthefly/dominance.go): the level is
// complete when its pairs are followed, so a smaller subset stored after
// the pair, in its level, is known; every violation from the pair is one
// from the smaller pair, at the same depth, so the verdict and the
// counterexample's length stay, and the pairs followed reach the same
// states (a violation's successor has the empty subset, which every
// subset includes). Depth is the level of the violation, or the last
// level.
//
// With the partial-order hook (Ampler), a pair follows its state's ample
// set alone when the cycle proviso holds (provisoHolds): then every step
// of the reduced product that leaves a pair following an ample set goes
// to a pair of a larger id, so every cycle of it has a pair that follows
// all its steps. A pair that an ample step leads to and that is then not
// followed (dominated) is replaced by the least pairs of its level below
// it, which must be stored after p too: the proviso refuses the ample set
// when a pair of that state other than q, stored no later than p, has a
// subset ⊆ q's (coveredUpTo).
func (s *Search) runBySteps(init int32) (pair, step int32, err error) {
	impl, ps := s.impl, s.store
	pair, step, s.empty = -1, -1, NoSubset
	if len(s.norm.Members(init)) == 0 {
		// A search of the implementation alone (onthefly's search of
		// lock-freedom): the empty subset follows every step, as past a
		// violation.
		s.empty = init
	}
	s.levels = append(s.levels[:0], 0)
	s.put(impl.Initial(), init, -1, -1)
	for lo := int32(0); int(lo) < ps.Len(); s.Depth++ {
		hi := int32(ps.Len())
		s.levels = append(s.levels, hi)
		s.levelStates, s.nextStates = s.nextStates, s.levelStates[:0]
		var err error
		if s.order, err = levelOrder(s.opts.Context, s.order[:0], s.levelStates); err != nil {
			return pair, step, err
		}
		if s.leveler != nil {
			if err := s.leveler.Level(s.order, lo); err != nil {
				return pair, step, err
			}
		}
		for i := 0; i < len(s.order); {
			st := int32(s.order[i] >> 32)
			to, label, first, end, err := impl.Steps(st)
			if err != nil {
				return pair, step, err // past a violation (Past), with it
			}
			var ample []int32
			if s.ampler != nil {
				ample = s.ampler.Ample()
			}
			group := i
			for i < len(s.order) && int32(s.order[i]>>32) == st {
				i++
			}
			all := s.ampler == nil
			for g := group; g < i; g++ {
				p := lo + int32(uint32(s.order[g]))
				s.g = g - group
				if i-group > 1 && s.dominated(s.order[group:i], lo, g-group) {
					s.Dominated++
					s.markAmpled(p)
					continue
				}
				reduced := false
				switch {
				case s.ampler == nil:
				case len(ample) == 0:
					s.Full++
				default:
					if reduced, err = s.reduced(p, ample, to, label); err != nil {
						return -1, -1, err
					}
				}
				n := int(end - first) // the steps it follows: every step, or ample's
				if reduced {
					n = len(ample)
					s.markAmpled(p)
				} else {
					all = true
				}
				for k := range n {
					id := first + int32(k)
					if reduced {
						id = ample[k]
					}
					if err := s.follow(p, id, to[id], label[id], &pair, &step); err != nil || pair >= 0 && !s.opts.Past {
						return pair, step, err
					}
				}
				if err := s.stop(); err != nil {
					return -1, -1, err
				}
			}
			if s.follower != nil {
				if err := s.follower.Followed(st, all); err != nil {
					return -1, -1, err
				}
			}
		}
		lo = hi
	}
	s.Depth--
	return pair, step, nil
}

// markAmpled marks pair p as having followed an ample set alone (or
// nothing), for rebuilt paths.
func (s *Search) markAmpled(p int32) {
	for int(p>>6) >= len(s.ampled) {
		s.ampled = append(s.ampled, 0)
	}
	s.ampled[p>>6] |= 1 << (p & 63)
}

// Parent returns the pair and the step id that found pair p of a search
// layered by steps with SearchOptions.Parents (-1, -1 for the first).
func (s *Search) Parent(p int32) (from, via int32) {
	c := s.parents[p]
	return c.parent, c.via
}

// Levels returns where the levels of a search layered by steps start:
// level k's first pair is the k-th (those past the last are the level
// being found when the search stopped).
func (s *Search) Levels() []int32 { return s.levels }

// LevelBytes returns the bytes of the arrays of a search layered by steps
// that grow with its levels, as allocated: where the levels start, the
// states of the pairs of the level followed and of the next, the level's
// order and the marks of the pairs that followed an ample set (not its
// store's, nor the parents kept for tests).
func (s *Search) LevelBytes() int64 {
	return int64(cap(s.levels)+cap(s.levelStates)+cap(s.nextStates))*4 + int64(cap(s.order)+cap(s.ampled))*8
}

// Ampled reports whether pair p of a search layered by steps followed an
// ample set alone, or was not followed (dominated).
func (s *Search) Ampled(p int32) bool { return s.isAmpled(p) }

// isAmpled reports whether pair p was marked by markAmpled.
func (s *Search) isAmpled(p int32) bool {
	return int(p>>6) < len(s.ampled) && s.ampled[p>>6]&(1<<(p&63)) != 0
}

// span returns the step ids from first to end (a buffer of s's).
func (s *Search) span(first, end int32) []int32 {
	s.ids = s.ids[:0]
	for id := first; id < end; id++ {
		s.ids = append(s.ids, id)
	}
	return s.ids
}

// reduced reports whether pair p follows its state's ample set alone,
// not empty, or every step, and counts it.
func (s *Search) reduced(p int32, ample, to, label []int32) (bool, error) {
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
		_, _, same, covered, err := s.step(p, id, to[id], label[id])
		if err != nil {
			return false, err
		}
		if same >= 0 && same <= p || same < 0 && covered {
			return false, nil
		}
		if same >= 0 && s.coveredUpTo(to[id], s.store.SubsetOf(same), same, p) {
			// same may not be followed (dominated), and the pair
			// followed in its place is one of those, stored before p.
			return false, nil
		}
	}
	return true, nil
}

// step returns what step id of pair p (the s.g-th of its state's pairs of
// the level), by label a to state d, leads to: the subset (after), whether
// the specification cannot follow, and the lookup of the pair (d, subset)
// (lookup; none when the specification cannot follow and the search does
// not go on past it), from what the implementation worked out ahead
// (Foresight) where it did.
func (s *Search) step(p, id, d, a int32) (q int32, violates bool, same int32, covered bool, err error) {
	if s.foresight != nil {
		var since int32
		var ok bool
		if q, violates, same, covered, since, ok = s.foresight.Foreseen(s.g, id); ok {
			if d >= 0 && since != NoneSince {
				if z, c := s.lookupFrom(d, q, since); z >= 0 {
					same, covered = z, true
				} else if same < 0 {
					covered = covered || c
				}
			}
			return q, violates, same, covered, nil
		}
	}
	if q, violates, err = s.after(p, id, a); err != nil || violates && !s.opts.Past {
		return q, violates, -1, false, err
	}
	same, covered = s.lookup(d, q)
	return q, violates, same, covered, nil
}

// lookup returns the id of pair (st, sub), -1 if it is not stored, and
// whether a pair (st, Q) with Q ⊆ sub is stored, the pair itself
// included (then (st, sub) needs no search of its own), by st's chain.
func (s *Search) lookup(st, sub int32) (same int32, covered bool) {
	return s.lookupFrom(st, sub, 0)
}

// lookupFrom is lookup among the pairs from since on (the last of the
// state's chain).
func (s *Search) lookupFrom(st, sub, since int32) (same int32, covered bool) {
	if st < 0 { // a state not numbered (Sparse)
		return -1, false
	}
	ps := s.store
	// The pair itself first: comparing ids is cheaper than an inclusion.
	for q := ps.Last(st); q >= since; q = ps.Before(q) {
		if ps.SubsetOf(q) == sub {
			return q, true
		}
	}
	for q := ps.Last(st); q >= since; q = ps.Before(q) {
		if s.norm.Includes(sub, ps.SubsetOf(q)) {
			return -1, true
		}
	}
	return -1, false
}

// dominated reports whether the pair group[i] of a state's pairs of one
// level (group, offsets from lo with the state above them, as
// runBySteps' order holds them) is not followed: pruning, another pair of
// the group has a subset strictly included in its own (a pair is stored
// once, so a different pair of the state has a different subset).
func (s *Search) dominated(group []uint64, lo int32, i int) bool {
	if len(group) < 2 || !s.opts.Prune || s.opts.FollowDominated {
		return false
	}
	ps := s.store
	sub := ps.SubsetOf(lo + int32(uint32(group[i])))
	for j, k := range group {
		if other := ps.SubsetOf(lo + int32(uint32(k))); j != i && other != sub && s.norm.Includes(sub, other) {
			return true
		}
	}
	return false
}

// coveredUpTo reports whether a pair of state st other than q, with id at
// most p, has a subset included in sub, q's (never without pruning, nor
// when every pair is followed: SearchOptions.FollowDominated). The
// search refuses a pair that a stored one covers (lookup), so for q > p
// no such pair is found today; the check states the rule the proviso
// relies on rather than that property of the search.
func (s *Search) coveredUpTo(st, sub, q, p int32) bool {
	if !s.opts.Prune || s.opts.FollowDominated {
		return false
	}
	ps := s.store
	for z := ps.Last(st); z >= 0; z = ps.Before(z) {
		if z != q && z <= p && s.norm.Includes(sub, ps.SubsetOf(z)) {
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
	q, violates, same, covered, err := s.step(p, id, d, a)
	if err != nil {
		return err
	}
	if violates && *pair < 0 {
		*pair, *step, s.ViolationDepth = p, id, s.Depth
		if !s.opts.Past {
			return nil
		}
	}
	if d >= 0 {
		if same >= 0 || covered && s.opts.Prune {
			return nil
		}
	} else {
		// A state no pair has taken (Sparse): the pair is new, and the
		// state is stored only if it can be (not past the pair limit).
		if s.store.Len() >= s.opts.MaxPairs {
			s.full = true
			return nil
		}
		d = s.sparse.Store(id)
	}
	s.put(d, q, p, id)
	return nil
}

// put stores a pair the search has looked up, found by step via of pair
// from (-1 for the first), for the next level, and reports progress; at
// the pair limit it stores nothing (stop then says so), and once the
// context has ended it notes its cause.
func (s *Search) put(st, sub, from, via int32) {
	ps := s.store
	if ps.Len() >= s.opts.MaxPairs {
		s.full = true
		return
	}
	q := ps.Put(st, sub)
	if s.opts.Parents {
		s.parents = append(s.parents, candidate{st, sub, from, via})
	}
	s.nextStates = append(s.nextStates, st)
	s.states = max(s.states, st+1)
	if q&(ProgressEvery-1) == 0 {
		s.report(q)
	}
}

// Path returns the step ids from the initial pair to pair p, followed by
// last: read off Pairs' parents layered by visible actions; layered by
// steps, rebuilt from the levels, as the store keeps no parents
// (Rebuild). It asks the implementation for the steps of the states on
// the way again, whose error it returns.
func (s *Search) Path(p, last int32) ([]int32, error) {
	if !s.opts.BySteps {
		return s.Pairs.Path(p, last), nil
	}
	path := []int32{last}
	err := s.Rebuild(p, func(_, via int32) error {
		path = append(path, via)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Reverse(path)
	return path, nil
}

// Rebuild rebuilds the path to pair p of a search layered by steps
// backwards, a level at a time, and calls found with each of its steps,
// from the last to the first: the pair it leaves and its id, while the
// implementation's steps are that pair's state's (Impl.Steps asked last),
// so that the implementation may read off what it knows of the step.
//
// The parent of a pair of level k is the first pair of level k-1, in the
// order in which the search took them, that has a step to it: the search
// stores a pair when it first meets it, and a pair met again is found
// stored, or covered by one stored before (pairs are never removed, so
// what covered it then covers it still). Each pair of level k-1 is
// followed again as the search followed it — its state's steps asked
// for, every step or the ample set's alone (markAmpled), the subsets
// taken and renamed — until a step leads to the pair: so the path is the
// one parent pointers would have kept (CheckParents), and a
// counterexample the same shortest one, for one more expansion of the
// states of the levels on the way back, paid only for a path.
func (s *Search) Rebuild(p int32, found func(from, via int32) error) error {
	if p == 0 {
		return nil
	}
	// The states of the pairs of the levels before p's, the only ones the
	// path goes through: a search past a violation may store many more.
	states := s.pairStates(s.levels[s.levelOf(p)])
	target := s.StateOf(p)
	for p != 0 {
		k := s.levelOf(p)
		if p < int32(len(states)) {
			target = states[p]
		}
		sub := s.store.SubsetOf(p)
		from, via := int32(-1), int32(-1)
		err := s.producers(states, s.levels[k-1], s.levels[k], func(q, id, d, r int32) bool {
			if d == target && r == sub {
				from, via = q, id
			}
			return from >= 0
		})
		if err != nil {
			return err
		}
		if from < 0 {
			return fmt.Errorf("internal error: no pair of level %d leads to pair %d", k-1, p)
		}
		if err := found(from, via); err != nil {
			return err
		}
		p = from
	}
	return nil
}

// CheckParents checks, for a search layered by steps with
// SearchOptions.Parents, that the parent Rebuild finds for every pair is
// the pair and step that found it (Parent), a level at a time, and that
// no pair is stored twice (the search looks a successor's state up again
// when another step of the same state's pairs stored it). It is for the
// tests that hold rebuilt paths to the parents.
func (s *Search) CheckParents() error {
	states := s.pairStates(int32(s.store.Len()))
	if len(s.parents) != len(states) || len(states) > 0 && s.parents[0].parent != -1 {
		return errors.New("internal error: the recorded parents do not match the pairs")
	}
	for k := 1; k < len(s.levels); k++ {
		hi := int32(len(states))
		if k+1 < len(s.levels) {
			hi = s.levels[k+1]
		}
		first := map[int32][2]int32{}
		err := s.producers(states, s.levels[k-1], s.levels[k], func(q, id, d, r int32) bool {
			if z := s.firstPair(d, r); z >= s.levels[k] && z < hi {
				if _, ok := first[z]; !ok {
					first[z] = [2]int32{q, id}
				}
			}
			return false
		})
		if err != nil {
			return err
		}
		for q := s.levels[k]; q < hi; q++ {
			if z := s.firstPair(states[q], s.store.SubsetOf(q)); z != q {
				return fmt.Errorf("internal error: pair %d of level %d is stored again as pair %d", z, k, q)
			}
			if got, want := first[q], [2]int32{s.parents[q].parent, s.parents[q].via}; got != want {
				return fmt.Errorf("internal error: pair %d of level %d rebuilt as found by pair and step %v, found by %v", q, k, got, want)
			}
		}
	}
	return nil
}

// firstPair returns the first pair (st, sub) stored, -1 if there is none.
func (s *Search) firstPair(st, sub int32) int32 {
	first := int32(-1)
	if st < 0 {
		return first
	}
	for q := s.store.Last(st); q >= 0; q = s.store.Before(q) {
		if s.store.SubsetOf(q) == sub {
			first = q // the chain runs from the last pair to the first
		}
	}
	return first
}

// levelOf returns the level of pair p.
func (s *Search) levelOf(p int32) int {
	return sort.Search(len(s.levels), func(k int) bool { return s.levels[k] > p }) - 1
}

// pairStates returns the state of each pair below hi, read off the
// store's chains.
func (s *Search) pairStates(hi int32) []int32 {
	states := make([]int32, hi)
	for st := range s.states {
		for q := s.store.Last(st); q >= 0; q = s.store.Before(q) {
			if q < hi {
				states[q] = st
			}
		}
	}
	return states
}

// StateOf returns the state of pair p of a search layered by steps, read
// off the store's chains (-1 if p is not stored).
func (s *Search) StateOf(p int32) int32 {
	for st := range s.states {
		// A chain runs from its state's last pair to its first.
		for q := s.store.Last(st); q >= p; q = s.store.Before(q) {
			if q == p {
				return st
			}
		}
	}
	return -1
}

// producers follows the pairs [lo, hi) of a level again, as runBySteps
// did, and calls visit with each step taken — the pair q, the step id,
// the state d and the subset r it leads to — in the search's order, until
// visit returns true.
func (s *Search) producers(states []int32, lo, hi int32, visit func(q, id, d, r int32) bool) error {
	// No context: the search is over, and its path is rebuilt whatever
	// the limits.
	order, _ := levelOrder(nil, nil, states[lo:hi])
	for i := 0; i < len(order); {
		st := int32(order[i] >> 32)
		j := i + 1
		for j < len(order) && int32(order[j]>>32) == st {
			j++
		}
		to, label, first, end, err := s.impl.Steps(st)
		if err != nil {
			return err
		}
		var ample []int32
		if s.ampler != nil {
			ample = s.ampler.Ample()
		}
		for g, k := range order[i:j] {
			q := lo + int32(uint32(k))
			if s.dominated(order[i:j], lo, g) {
				continue
			}
			ids := ample
			if !s.isAmpled(q) {
				ids = s.span(first, end)
			}
			for _, id := range ids {
				if to[id] < 0 {
					continue // a state no pair took
				}
				r, violates, err := s.after(q, id, label[id])
				if err != nil {
					return err
				}
				if violates && !s.opts.Past {
					continue // the search stopped there
				}
				if visit(q, id, to[id], r) {
					return nil
				}
			}
		}
		i = j
	}
	return nil
}
