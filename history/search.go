package history

import (
	"context"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
)

// This file holds the general decision procedure for one partition: the
// Wing–Gong search for a linearization (Wing and Gong, "Testing and
// verifying concurrent objects", JPDC 1993) with the two improvements of
// Lowe ("Testing for linearizability", CCPE 2017) that Porcupine also uses:
//
//   - Just-in-time linearization over the entry list (entries.go): walking
//     it, a call entry is a candidate to linearize next; reaching the
//     return entry of an operation not yet linearized means no choice made
//     so far can be extended, so the search backtracks.
//   - Memoisation of configurations (configs.go): a configuration (set of
//     linearized operations, spec state) reached twice has the same
//     future, so the second visit is pruned.
//
// What a configuration stores is what makes long histories cheap.
// Operations are numbered in call order. Let base be the first returned
// operation not linearized: every returned operation before it is
// linearized, and every linearized operation was called before base
// returned (it was linearized while base was not, so its call came first
// in the list). So the set is known from base, the pending operations
// before base that took effect (one bit per pending operation, usually
// few), and the bits from base's word to that of the last linearized
// operation: a window as wide as the history's concurrency, not its
// length. Porcupine stores the whole bitset, n bits per configuration.
//
// Invariants: the list holds exactly the entries of operations not yet
// linearized; path[k] is the k-th linearized operation with what it
// changed; linearized, tookEffect, hash, base and top describe the
// operations on the path.
//
// Pending operations (never returned, result unknown) may or may not take
// effect: their return entries sit after every other entry, and the search
// succeeds as soon as every returned operation is linearized.

// searchResult is the outcome of searching one partition.
type searchResult struct {
	verdict Verdict
	// prefix is, when not linearizable, the longest linearizable prefix
	// found; when linearizable, a linearization (indices into the ops
	// searched; pending operations left out did not take effect).
	prefix []int
	stuck  int    // the operation that could not be placed after prefix, -1 if none
	state  string // the spec state after prefix, shown (model.ShowStateOf)
	// configs counts the configurations stored.
	configs int64
	// limit says which budget stopped an Unknown search.
	limit Limit
}

// stop tells a search when to give up.
type stop struct {
	// ctx ends the search when it ends (nil: never); deadline, if not
	// zero, ends it too (the quick search for a bad pattern's prefix).
	ctx      context.Context
	deadline time.Time
	// cancelled, if set, reports that the answer is no longer needed
	// (a smaller partition failed).
	cancelled func() bool
	// budget bounds the memory of the searches running at once (nil: none).
	budget *budget
	// configs, if set, accumulates the configurations of all searches,
	// and report is called after each addition.
	configs *atomic.Int64
	report  func()
}

// pollEvery is how many search steps pass between looks at the clock,
// the budget and the cancellation flag.
const pollEvery = 4096

// limitHit returns the limit that stops the search now, if any.
func (s *stop) limitHit(acct *account) (Limit, bool) {
	switch {
	case s.cancelled != nil && s.cancelled():
		return NoLimit, true
	case s.ctx != nil && s.ctx.Err() != nil, !s.deadline.IsZero() && time.Now().After(s.deadline):
		return TimeLimit, true // Check says which limit from the context
	case acct.exhausted() || s.budget.liveOver():
		return MemoryLimit, true
	}
	return NoLimit, false
}

// search decides whether the operations of group (indices into all, all
// acting on one object of spec) are linearizable; the indices of the result
// are positions in group. It works in the memory of x (nil: fresh memory).
func search(all []record.Op, group []int, spec model.Spec, st stop, x *scratch) searchResult {
	// Number the operations in call order (see the file comment); the
	// result is mapped back at the end.
	var byCall []int // nil: group is in call order already, as recorded histories mostly are
	for k := 1; k < len(group); k++ {
		if all[group[k]].Call < all[group[k-1]].Call {
			byCall = seq(len(group))
			sort.SliceStable(byCall, func(a, b int) bool { return all[group[byCall[a]]].Call < all[group[byCall[b]]].Call })
			break
		}
	}
	if x == nil {
		x = &scratch{}
	}
	ops := opView{all: all}
	if byCall != nil || !isSeq(group, len(all)) {
		x.index = resize(x.index, len(group))
		for k, i := range group {
			if byCall != nil {
				i = group[byCall[k]]
			}
			x.index[k] = int32(i)
		}
		ops.index = x.index
	}
	res := searchSorted(ops, spec, st, x)
	if byCall != nil {
		for k, i := range res.prefix {
			res.prefix[k] = byCall[i]
		}
		if res.stuck >= 0 {
			res.stuck = byCall[res.stuck]
		}
	}
	return res
}

// opView is the operations of one search, numbered in call order: the
// k-th is all[index[k]], or all[k] when index is nil (a partition that is
// the whole history in call order, as register histories are). The search
// reads them where they are: a copy of a partition's operations (120 bytes
// each) was the largest allocation of a small run.
type opView struct {
	all   []record.Op
	index []int32
}

func (v opView) len() int {
	if v.index == nil {
		return len(v.all)
	}
	return len(v.index)
}

// at returns the k-th operation.
func (v opView) at(k int) *record.Op {
	if v.index == nil {
		return &v.all[k]
	}
	return &v.all[v.index[k]]
}

// step is one linearized operation on the search path: its call entry and
// what linearizing it changed, to be restored on backtracking.
type step struct {
	entry     int32
	state     int32 // the spec state before
	base, top int32 // searchState.base and top before
}

// searchState is the configuration of the search: the linearized set with
// the hash and the window bounds the memo key needs (see the file comment).
type searchState struct {
	ops opView
	// linearized has bit i set when operation i is linearized.
	linearized []uint64
	// tookEffect has bit r set when the r-th pending operation is.
	tookEffect []uint64
	// pendingBefore[i] counts the pending operations before operation i.
	pendingBefore []int32
	// zobrist holds a random word per operation; hash is the XOR of those
	// linearized.
	zobrist []uint64
	hash    uint64
	// base is the first returned operation not linearized (len(ops) when
	// none is left); top is the word of linearized holding the last
	// linearized operation (-1 when none).
	base, top int32
	// remaining counts the returned operations not linearized.
	remaining int
	key       []uint64 // the memo key, rebuilt for each insertion
}

// reset makes s the start of a search of ops (nothing linearized),
// reusing its memory.
func (s *searchState) reset(ops opView) {
	n := ops.len()
	s.ops, s.hash, s.top, s.remaining, s.key = ops, 0, -1, 0, s.key[:0]
	s.linearized = resize(s.linearized, (n+63)/64)
	clear(s.linearized)
	s.pendingBefore = resize(s.pendingBefore, n+1)
	s.pendingBefore[0] = 0
	s.zobrist = resize(s.zobrist, n)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range n {
		s.zobrist[i] = splitmix(&x)
		s.pendingBefore[i+1] = s.pendingBefore[i]
		if ops.at(i).IsPending() {
			s.pendingBefore[i+1]++
		} else {
			s.remaining++
		}
	}
	s.tookEffect = resize(s.tookEffect, int(s.pendingBefore[n]+63)/64)
	clear(s.tookEffect)
	s.base = int32(n)
	s.advanceBase(0)
}

func (s *searchState) isSet(i int32) bool { return s.linearized[i>>6]&(1<<(i&63)) != 0 }

// advanceBase moves base to the first returned operation, from i on, not
// linearized.
func (s *searchState) advanceBase(i int32) {
	n := s.ops.len()
	for int(i) < n && (s.ops.at(int(i)).IsPending() || s.isSet(i)) {
		i++
	}
	s.base = i
}

// flip adds operation i to the set or removes it (bits and hash only).
func (s *searchState) flip(i int32) {
	s.linearized[i>>6] ^= 1 << (i & 63)
	s.hash ^= s.zobrist[i]
	if s.ops.at(int(i)).IsPending() {
		r := s.pendingBefore[i]
		s.tookEffect[r>>6] ^= 1 << (r & 63)
	}
}

// memoKey builds the words that, with base, identify the linearized set:
// the pending operations before base that took effect, then the window of
// linearized from base's word to top.
func (s *searchState) memoKey() []uint64 {
	key := s.key[:0]
	if p := s.pendingBefore[s.base]; p > 0 {
		key = append(key, s.tookEffect[:(p+63)/64]...)
		if p&63 != 0 {
			key[len(key)-1] &= 1<<(p&63) - 1
		}
	}
	if from := s.base >> 6; s.top >= from {
		key = append(key, s.linearized[from:s.top+1]...)
	}
	s.key = key
	return key
}

// scratch is the memory a search leaves to the next search on the same
// worker (checkAll). A kv history is many small partitions, and
// allocating each search's memo, step cache and entry list anew made most
// of a small run's allocation, hence of its peak: the garbage collector
// lets the heap grow to 4 MB before its first cycle.
type scratch struct {
	state searchState
	list  entryList
	memo  configSet
	cache stepCache
	path  []step
	index []int32 // of the opView
}

// searchSorted is search on operations numbered in call order, in the
// memory of x (nil: fresh memory).
func searchSorted(ops opView, spec model.Spec, st stop, x *scratch) searchResult {
	if x == nil {
		x = &scratch{}
	}
	res := searchResult{stuck: -1}
	s := &x.state
	s.reset(ops)
	if s.remaining == 0 {
		res.verdict = Linearizable
		return res
	}
	acct := &account{b: st.budget}
	defer acct.close()
	list := &x.list
	list.reset(ops)
	// Per operation: the list, the bits and the hashes (40 bytes), the
	// path (16), the longest prefix (8) and the call-order index (4).
	acct.charge(int64(ops.len()) * 68)
	memo := &x.memo
	memo.reset(acct)
	spec = model.ForSearch(spec, acct)
	cache := &x.cache
	cache.reset(spec, acct)
	state := cache.intern(spec.Init())
	path := slices.Grow(x.path[:0], ops.len())
	defer func() { x.path = path[:0] }()
	// keepPrefix records the path as the longest linearizable prefix when
	// it is one, with the operation it could not be extended by. The first
	// agree entries of the recorded prefix are still those of the path, so
	// only the rest is copied: copying the whole path at each new longest
	// prefix made long histories quadratic (a 10^6-operation register
	// spent minutes here).
	agree := 0
	keepPrefix := func(stuck int32) {
		if len(path) < len(res.prefix) || len(path) == len(res.prefix) && res.stuck >= 0 {
			return
		}
		res.prefix = res.prefix[:agree]
		for _, f := range path[agree:] {
			res.prefix = append(res.prefix, int(f.entry>>1))
		}
		agree = len(path)
		res.stuck, res.state = int(stuck), cache.states[state]
	}
	reported := 0
	e := list.first()
	for iter := 0; ; iter++ {
		if iter%pollEvery == 0 {
			if st.configs != nil {
				st.configs.Add(int64(memo.count - reported))
				reported = memo.count
				st.report()
			}
			if limit, ok := st.limitHit(acct); ok {
				res.verdict, res.limit = Unknown, limit
				break
			}
		}
		if e&1 == 0 { // a call: try to linearize its operation now
			i := e >> 1
			op := ops.at(int(i))
			next := cache.step(state, int(i), op)
			if next < 0 {
				e = list.next[e]
				continue
			}
			f := step{entry: e, state: state, base: s.base, top: s.top}
			s.flip(i)
			s.top = max(s.top, i>>6)
			if i == s.base {
				s.advanceBase(i + 1)
			}
			switch memo.insert(mix(s.hash^uint64(next+1)*0xC2B2AE3D27D4EB4F), uint64(next)<<32|uint64(s.base), s.memoKey()) {
			case seen:
				s.flip(i)
				s.base, s.top = f.base, f.top
				e = list.next[e]
				continue
			case full:
				res.verdict, res.limit = Unknown, MemoryLimit
			}
			if res.limit != NoLimit {
				break
			}
			path = append(path, f)
			state = next
			list.lift(e)
			if !op.IsPending() {
				if s.remaining--; s.remaining == 0 {
					res.verdict, res.stuck, res.state, res.prefix = Linearizable, -1, "", slices.Grow(res.prefix[:0], len(path))
					for _, f := range path { // the witness
						res.prefix = append(res.prefix, int(f.entry>>1))
					}
					break
				}
			}
			e = list.first()
			continue
		}
		// The return of an operation not linearized: backtrack.
		keepPrefix(e >> 1)
		if len(path) == 0 {
			res.verdict = NotLinearizable
			break
		}
		f := path[len(path)-1]
		path = path[:len(path)-1]
		agree = min(agree, len(path))
		i := f.entry >> 1
		s.flip(i)
		s.base, s.top, state = f.base, f.top, f.state
		if !ops.at(int(i)).IsPending() {
			s.remaining++
		}
		list.unlift(f.entry)
		e = list.next[f.entry]
	}
	res.configs = int64(memo.count)
	if st.configs != nil {
		st.configs.Add(int64(memo.count - reported))
	}
	if res.verdict == Unknown {
		res.prefix, res.stuck, res.state = nil, -1, ""
	}
	if res.stuck >= 0 {
		// Shown by the spec that made it: one of its own (ForSearch).
		res.state = model.ShowStateOf(spec, res.state)
	}
	return res
}

// splitmix is the SplitMix64 generator (Steele, Lea, Flood 2014).
func splitmix(x *uint64) uint64 {
	*x += 0x9E3779B97F4A7C15
	z := *x
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}
