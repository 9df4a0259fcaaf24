package onthefly

import (
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/linbis/linbis/frontend/reduce"
	"github.com/linbis/linbis/frontend/semantics"
)

// The search on several cores. A level's states are taken in batches of
// consecutive states of the search's order (antichain.Leveler). The expanders
// expand a batch's states in parallel, a chunk of them at a time, each
// into the chunk's buffers (expansions): the machine's steps, the
// successors' canonicalisation under the symmetry reduction, their
// stabilisers, the partial-order reduction's ample thread, the lookups of
// their states; and for each pair of the state and each successor, the
// subset it leads to (flyPre), when the specification has computed it
// already, and how the pairs stored so far cover it. Then one goroutine,
// the engine's (antichain.Search, served by semImpl: semimpl.go), follows
// the batch's pairs in the search's order, as a sequential search does
// after each expansion, and alone writes what the search stores: states,
// pairs, the specification's subsets, τ-edges.
//
// The outcome is the sequential search's, for any number of expanders:
// the same pairs, numbered alike, the same first violation, the same
// counters but Recognised. The expanders read only what no goroutine
// writes while they run, and all they found is what the sequential search
// would find, or is completed by the follower:
//   - a successor's state not stored when the batch was expanded may have
//     been stored by a pair followed since: findNew looks it up again;
//   - the pairs of a state stored since the batch's expansion are those
//     with ids from since on, first in the state's chain: the engine looks
//     at those (semImpl.Foreseen) and takes the expander's verdict on the
//     others (a pair
//     covered stays covered: pairs are never removed);
//   - a subset that the specification had not computed (After, or a
//     renaming) when the batch was expanded is computed by the follower,
//     where the sequential search computes it, so that the subsets are
//     interned in the same order and have the same ids (renamed keeps the
//     alternative with the least id). The expanders only read the
//     specification's tables (Subsets.Known, permute's peek).
// Permutation ids are the exception: the expanders intern the
// permutations they meet, in their order, but the search only names
// permutations by them. The cache of recent successors (flycache.go) is in
// parts, one per expander, filled after each batch; what it finds is what
// canonicalisation would find, so only Recognised depends on it.
//
// A batch is expanded in full before it is followed: with two cores, one
// is idle while the other follows, so the follower does as little as it
// can (a few table lookups per pair; the specification's work, once it
// has seen most of its subsets, is the expanders').

// Batches: the states expanded at once, and in a chunk. A batch is small
// enough that most levels take many (the follower of a level's last batch
// overlaps no expansion) and that its buffers stay small, large enough
// that the goroutines' start and wait cost little beside its work; a
// chunk's states are few enough that the expanders finish a batch about
// together.
const (
	batchStates = 1 << 11
	chunkStates = 32
)

// expander expands states for the search, on one goroutine at a time:
// its own stepper and copies of the reductions' buffers. It reads the
// search's tables and writes only its own fields and the chunk it is
// given (and interns permutations, in flySearch.perms).
type expander struct {
	f   *flySearch
	st  *semantics.Stepper
	sym *reduce.Symmetry // nil without the symmetry reduction
	por *reduce.POR      // nil without the partial-order reduction
	// permIDs are the permutations it has interned, with their ids in
	// f.perms: most are found here, without the lock.
	permIDs map[string]permID
	// recognised counts the successors found in the cache or in seen.
	recognised int64
	// seen finds the successors computed before in the chunk being
	// expanded, with the cache (open addressing by their raw hashes,
	// index+1 in the chunk's succs; 0 is empty): in a diamond of two
	// threads' independent steps, the two orders' successors are met in
	// the same level, often in the same chunk, before the cache has them.
	seen      []int32
	cur       []int32
	tauVec    []int32 // the vector of the state whose τ-steps are found (tauEdges)
	tauRecent tauRecent
}

// startExpanders makes the search's expanders: n of them, whose steppers
// hash alike (the cache's keys), the first with the search's reductions
// and the others with copies.
func (f *flySearch) startExpanders(n int) {
	f.batchStates = batchStates
	if f.o.batchStates > 0 {
		f.batchStates = f.o.batchStates
	}
	seed := maphash.MakeSeed()
	for i := range n {
		e := &expander{f: f, st: &semantics.Stepper{Expander: f.x.NewExpander(seed)}, sym: f.sym, por: f.por,
			permIDs: map[string]permID{}}
		if i > 0 && e.sym != nil {
			e.sym = e.sym.Clone()
		}
		if i > 0 && e.por != nil {
			e.por = e.por.Clone()
		}
		f.expanders = append(f.expanders, e)
	}
}

// expansions are the expansions of a chunk of states, in the search's
// order, and what each pair of them leads to.
type expansions struct {
	states []expansion
	succs  []flySucc
	alts   []uint8 // the successors' alternative permutations, in their stabilisers' parts (flySucc.altStart)
	vecs   []int32 // the vectors of their representatives (flySucc.vecStart)
	raw    []byte  // their encodings as computed, with the cache (flySucc.rawStart)
	// loaded[loadedAt[r]:loadedAt[r+1]] is the vector of the chunk's
	// state r, read from the store before the chunk is expanded (load).
	loaded   []int32
	loadedAt []int32
	// pre[ex.pre+k*n+i] is what successor i of expansion ex (which has n)
	// gives the pair order[ex.first+k].
	pre []flyPre
}

// expansion is the expansion of a state: its successors
// succs[succStart:succEnd], its pairs order[first:end] of the level,
// the ample thread (-1: none) and, when the state's expansion stopped at
// a model error, the failure and its thread.
type expansion struct {
	state              int32
	first, end         int32
	succStart, succEnd int32
	pre                int32
	ample              int
	failThread         int
	fail               *semantics.Failure
}

// flyPre is what a successor gives a pair, as an expander found it
// (follow's arguments): the subset it leads to, renamed, and the
// permutation (next); whether the specification cannot follow; and
// lookupPair's outcome among the pairs stored before the batch (same -1
// and covered false when the successor's state was not stored). ok is
// false when the specification had not computed the subset: the follower
// works it all out then.
type flyPre struct {
	sub, same             int32
	perm                  permID
	violates, covered, ok bool
}

// known returns what the expander found of successor i, nil if it found
// nothing (or there is no expander's work: pre nil).
func known(pre []flyPre, i int) *flyPre {
	if pre == nil || !pre[i].ok {
		return nil
	}
	return &pre[i]
}

// A level's batches, in the order the search takes them: batch i is the
// states whose pairs start at order[runs[i*n+k]], k < n (n the batch's
// states), its chunks in the chunk set i%2.
//
// The search alternates two steps, each on every core:
//   - resolve: the states of batch i looked up, and what each pair's
//     successors lead to (flyPre); with it, the cache of recent
//     successors filled from batch i-1, and the vectors of batch i+1's
//     states read from the store (load) for the next step;
//   - follow batch i on the calling goroutine while the other expanders
//     expand batch i+1 (their successors, canonical, without lookups),
//     the calling goroutine joining them when it is done.
// The expansion of a batch reads nothing the follower writes: neither the
// store (its states' vectors are loaded in the step before), nor the
// pairs, nor the specification, nor the cache (filled in the resolve
// step); the permutations are interned under a lock and read through
// fixed blocks (perm). So the follower, the one part of the search on one
// core, overlaps the other cores' expansions.

// batch returns runs' entries that delimit batch i of a level.
func (f *flySearch) batch(runs []int32, i int) []int32 {
	return runs[f.bounds[i] : f.bounds[i+1]+1]
}

// cutLevel sets f.bounds to where the batches of a level of n states
// start, and n: batches of f.batchStates states, halving towards the
// level's end down to a chunk, so that the follower of the last batch,
// which overlaps no expansion, has little to do.
func (f *flySearch) cutLevel(n int) {
	f.bounds = append(f.bounds[:0], 0)
	for at := 0; at < n; {
		at = min(at+min(f.batchStates, max(chunkStates, (n-at+1)/2)), n)
		f.bounds = append(f.bounds, at)
	}
}

// chunkRuns returns the entries of a batch's runs that delimit its chunk c.
func chunkRuns(runs []int32, c int) []int32 {
	n := len(runs) - 1
	return runs[c*chunkStates : min((c+1)*chunkStates, n)+1]
}

// chunkCount is the number of chunks of a batch.
func chunkCount(runs []int32) int { return (len(runs) - 1 + chunkStates - 1) / chunkStates }

// useSet makes chunk set k hold the chunks of a batch delimited by runs.
func (f *flySearch) useSet(k int, runs []int32) {
	f.nchunks[k] = chunkCount(runs)
	for len(f.chunks[k]) < f.nchunks[k] {
		f.chunks[k] = append(f.chunks[k], &expansions{})
	}
}

// resolve runs the resolve step of batch i of nb (see above).
func (f *flySearch) resolve(order []uint64, runs []int32, lo int32, i, nb int) {
	k := i % 2
	f.since.reset(int32(f.subset.Len()), int32(f.states.len()))
	for _, e := range f.expanders {
		f.res.Stats.Recognised += e.recognised
		e.recognised = 0
	}
	done := f.chunks[1-k][:f.nchunks[1-k]] // batch i-1's
	var next []int32
	if i+1 < nb {
		next = f.batch(runs, i+1)
		f.useSet(1-k, next)
	}
	parts := 0
	if i > 0 {
		parts = len(f.cache)
	}
	nr, nl := f.nchunks[k], chunkCount(next)
	f.onExpanders(nr+nl+parts, func(e *expander, c int) {
		switch {
		case c < nr:
			e.resolveChunk(f.chunks[k][c], order, lo)
		case c < nr+nl:
			e.load(f.chunks[1-k][c-nr], order, chunkRuns(next, c-nr))
		default:
			f.remember(c-nr-nl, done)
		}
	}, nil)
}

// onExpanders runs do(e, c) for c in [0, n), on the expanders, each taking
// the next c as it is free. With lead, the calling goroutine runs lead
// first, with expanders[0], while the others start (lead must not use
// them), and joins them when lead returns false; when it returns true the
// others stop after what they are doing. It returns lead's result, once
// all have stopped.
func (f *flySearch) onExpanders(n int, do func(e *expander, c int), lead func() bool) bool {
	r := f.startOthers(n, do, lead != nil)
	stop := lead != nil && lead()
	r.join(stop)
	return stop
}

// running is a run of do(e, c) for c in [0, n) on the expanders, each
// taking the next c as it is free (onExpanders).
type running struct {
	f       *flySearch
	n       int
	do      func(e *expander, c int)
	next    atomic.Int64
	stopped atomic.Bool
	wg      sync.WaitGroup
}

// startOthers starts a run of do on the expanders but the first, which
// the calling goroutine takes in join: with lead, that many of them as
// there are cs; without, one fewer, the caller being one of them.
func (f *flySearch) startOthers(n int, do func(e *expander, c int), lead bool) *running {
	r := &running{f: f, n: n, do: do}
	others := min(len(f.expanders)-1, n)
	if !lead {
		others = min(len(f.expanders), n) - 1
	}
	for _, e := range f.expanders[1 : 1+max(others, 0)] {
		r.wg.Go(func() { r.work(e) })
	}
	return r
}

// work runs do on e for the cs left.
func (r *running) work(e *expander) {
	for c := int(r.next.Add(1) - 1); c < r.n && !r.stopped.Load(); c = int(r.next.Add(1) - 1) {
		r.do(e, c)
	}
}

// join has the calling goroutine take the first expander's part of the
// run, or, with stop, has the others stop after what they are doing; it
// returns once all have stopped.
func (r *running) join(stop bool) {
	if stop {
		r.stopped.Store(true)
	} else {
		r.work(r.f.expanders[0])
	}
	r.wg.Wait()
}

// start empties x for the expansions of up to n states (its loaded
// vectors stay).
func (e *expander) start(x *expansions, n int) {
	x.states, x.succs, x.alts, x.vecs, x.raw, x.pre = x.states[:0], x.succs[:0], x.alts[:0], x.vecs[:0], x.raw[:0], x.pre[:0]
	if e.f.cache == nil {
		return
	}
	size := 1024
	for size < 16*n {
		size *= 2
	}
	if cap(e.seen) < size {
		e.seen = make([]int32, size)
	}
	e.seen = e.seen[:size]
	clear(e.seen)
}

// load reads the vectors of the states whose pairs start at
// order[runs[i]] from the store into x, for expandChunk.
func (e *expander) load(x *expansions, order []uint64, runs []int32) {
	x.loaded, x.loadedAt = x.loaded[:0], x.loadedAt[:0]
	for r := 0; r+1 < len(runs); r++ {
		x.loadedAt = append(x.loadedAt, int32(len(x.loaded)))
		x.loaded = e.f.stored(x.loaded, int32(order[runs[r]]>>32))
	}
	x.loadedAt = append(x.loadedAt, int32(len(x.loaded)))
}

// expandChunk expands the states whose pairs start at order[runs[i]], whose
// vectors load has read, into x; it stops after a state whose expansion
// fails (the search stops there).
func (e *expander) expandChunk(x *expansions, order []uint64, runs []int32) {
	e.start(x, len(runs)-1)
	for r := 0; r+1 < len(runs); r++ {
		ex := e.expand(int32(order[runs[r]]>>32), x.loaded[x.loadedAt[r]:x.loadedAt[r+1]], x)
		ex.first, ex.end = runs[r], runs[r+1]
		if ex.fail != nil {
			return
		}
	}
}

// resolveChunk looks up the representatives of x's successors in the
// store and works out what each pair of each state is led to by each
// successor (order nil: not that).
func (e *expander) resolveChunk(x *expansions, order []uint64, lo int32) {
	f := e.f
	for i := range x.succs {
		if sc := &x.succs[i]; !sc.cached {
			sc.to = f.states.find(x.vecs[sc.vecStart:sc.vecEnd], sc.hash)
		}
	}
	if order == nil {
		return
	}
	for j := range x.states {
		ex := &x.states[j]
		ex.pre = int32(len(x.pre))
		if ex.fail != nil {
			return
		}
		succs := x.succs[ex.succStart:ex.succEnd]
		for _, k := range order[ex.first:ex.end] {
			sub := f.subset.get(int(lo + int32(uint32(k))))
			for i := range succs {
				x.pre = append(x.pre, f.foresee(sub, &succs[i], x.alts))
			}
		}
	}
}

// foresee works out what successor sc gives a pair with subset sub
// (flyPre), as far as the specification has computed it; alts are sc's
// chunk's alternative permutations.
func (f *flySearch) foresee(sub int32, sc *flySucc, alts []uint8) flyPre {
	to, perm, violates, ok, _ := f.next(sub, sc, alts, true) // peeking never fails
	if !ok {
		return flyPre{}
	}
	pr := flyPre{sub: to, perm: perm, violates: violates, same: -1, ok: true}
	if sc.to >= 0 {
		pr.same, pr.covered = f.lookupPair(sc.to, to, 0)
	}
	return pr
}

// expand appends the expansion of state s, whose vector is cur, to x and
// returns it: its successors, canonical, with the ids of those the cache
// of recent successors knows (resolveChunk looks up the others), and with
// the partial-order reduction its ample thread; its pairs are not set.
func (e *expander) expand(s int32, cur []int32, x *expansions) *expansion {
	f := e.f
	blk := &e.st.Blk
	t, fail := e.st.Successors(cur)
	ex := expansion{state: s, succStart: int32(len(x.succs)), ample: -1, failThread: t, fail: fail}
	if e.por != nil && fail == nil {
		ex.ample = e.por.Choose(cur, blk.Succs)
	}
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		raw := blk.Batch[sc.Start:sc.End]
		rawStart, altStart, vecStart := int32(len(x.raw)), int32(len(x.alts)), int32(len(x.vecs))
		if f.cache != nil {
			if c, ok := e.computed(x, raw, sc.Hash); ok {
				e.recognised++
				c.thread, c.label = sc.Thread, sc.Label
				x.succs = append(x.succs, c)
				continue
			}
			x.raw = append(x.raw, raw...)
			if to, perm, ok := f.cache.find(raw, sc.Hash); ok {
				e.recognised++
				x.succs = append(x.succs, flySucc{to: to, thread: sc.Thread, perm: perm, label: sc.Label, cached: true,
					vecStart: vecStart, vecEnd: vecStart, rawStart: rawStart, rawEnd: int32(len(x.raw)), rawHash: sc.Hash,
					altStart: altStart, altEnd: altStart, stab: 1, exact: true})
				continue
			}
		}
		to, perm := e.representative(raw)
		var stab int64
		var exact bool
		x.alts, stab, exact = e.stabilizer(x.alts)
		x.vecs = append(x.vecs, to...)
		x.succs = append(x.succs, flySucc{to: -1, thread: sc.Thread, perm: perm, label: sc.Label,
			vecStart: vecStart, vecEnd: int32(len(x.vecs)), hash: f.states.hash(to), rawStart: rawStart, rawEnd: int32(len(x.raw)), rawHash: sc.Hash,
			altStart: altStart, altEnd: int32(len(x.alts)), stab: stab, exact: exact})
	}
	ex.succEnd = int32(len(x.succs))
	x.states = append(x.states, ex)
	return &x.states[len(x.states)-1]
}

// computed returns the successor of x computed before whose encoding
// (as the stepper computed it) is raw, with hash h, and whether there is
// one; if not, the successor to be added next will be found so.
func (e *expander) computed(x *expansions, raw []byte, h uint32) (flySucc, bool) {
	mask := uint32(len(e.seen) - 1)
	for k := h & mask; ; k = (k + 1) & mask {
		i := e.seen[k] - 1
		if i < 0 {
			if len(x.succs) < len(e.seen)/2 { // else the table is full enough
				e.seen[k] = int32(len(x.succs)) + 1
			}
			return flySucc{}, false
		}
		if c := &x.succs[i]; c.rawHash == h && string(x.raw[c.rawStart:c.rawEnd]) == string(raw) {
			return *c, true
		}
	}
}

// representative decodes a successor's encoding and returns its orbit's
// representative (the state itself without symmetry) and the permutation
// id that takes it there; the symmetry keeps what stabilizer needs.
func (e *expander) representative(enc []byte) ([]int32, permID) {
	e.cur = semantics.Decode(e.cur[:0], enc)
	if e.sym == nil {
		return e.cur, 0
	}
	rep, perm := e.sym.Canon(e.cur, e.st.Expander.Canon)
	return rep, e.internPerm(perm)
}

// internPerm returns the id of a permutation, interning it if new.
func (e *expander) internPerm(perm []uint8) permID {
	if id, ok := e.permIDs[string(perm)]; ok {
		return id
	}
	id := e.f.perms.intern(perm)
	e.permIDs[string(perm)] = id
	return id
}

// stabilizer appends to alts the alternatives of the successor that the
// expander canonicalised last: the permutations g∘σ, for the permutations
// g ≠ id with apply(rep, g) = rep, rep being its representative and σ the
// permutation to it. They take the successor to the same representative,
// but rename its specification subset differently. Two threads in the
// same local state of an operation may stand in different places of the
// histories, one already linearized and the other not; the pairs (rep,
// g·X) are one orbit, and follow keeps the one with the least subset id,
// so that the search stores one pair of the orbit rather than up to |g| of
// them.
//
// The alternatives are kept as the stabiliser's g in the parts canon
// found them (symmetry's StabilizerParts): the number of runs of tied
// threads, the runs (first position, length: any permutation within a
// run) and the marked permutations (flat, the identity first), whose
// product is the stabiliser (altParts reads them back). Most often every
// g keeps the threads in their classes of the renamed subset, which the
// parts tell at once (flySpec.renamed), so that the elements are listed
// only for the renamings that need them. With a stabiliser of order 1
// none are appended, nor with more than maxStabilizer elements (many idle
// threads alike, whose exchange changes no subset anyway): sound, with
// maybe more pairs.
//
// It returns the stabiliser's order, or a bound on it and false when canon
// could not try every order of the tied threads.
func (e *expander) stabilizer(alts []uint8) ([]uint8, int64, bool) {
	if e.sym == nil {
		return alts, 1, true
	}
	at := len(alts)
	alts, marked, order, exact := e.sym.StabilizerParts(append(alts, 0))
	if !exact || order < 2 || order > maxStabilizer {
		return alts[:at], order, exact
	}
	alts[at] = uint8((len(alts) - at - 1) / 2)
	return append(alts, marked...), order, exact
}

// altParts splits the alternatives of a successor, as stabilizer appends
// them, into the stabiliser's runs and marked permutations.
func altParts(alts []uint8) (runs, marked []uint8) {
	r := 2 * int(alts[0])
	return alts[1 : 1+r], alts[1+r:]
}

// sinceBatch is what the search has stored since the batch being
// followed was expanded, for the follower to complete what the expanders
// found (semImpl.Foreseen, findNew) without looking in the large tables.
type sinceBatch struct {
	pairs, states int32 // the pairs and states stored when it was expanded
	// touched marks the states that have a pair stored since, which
	// touchedList lists.
	touched     bits
	touchedList []int32
	// fresh finds the states stored since by their hashes: open
	// addressing, hash<<32 | id+1, 0 an empty slot; n of them.
	fresh []uint64
	n     int
}

// reset starts a batch, expanded when pairs pairs and states states were
// stored.
func (b *sinceBatch) reset(pairs, states int32) {
	b.pairs, b.states = pairs, states
	for _, s := range b.touchedList {
		b.touched.set(int(s), false)
	}
	b.touchedList = b.touchedList[:0]
	if b.n > 0 {
		clear(b.fresh)
		b.n = 0
	}
}

// paired notes that a pair of state s has been stored.
func (b *sinceBatch) paired(s int32) {
	if !b.touched.has(int(s)) {
		b.touched.set(int(s), true)
		b.touchedList = append(b.touchedList, s)
	}
}

// stored notes that state id, whose hash is h, has been stored.
func (b *sinceBatch) stored(id int32, h uint64) {
	if b.fresh == nil || (b.n+1)*2 > len(b.fresh) {
		old := b.fresh
		b.fresh = make([]uint64, max(2*len(old), 1<<10))
		for _, e := range old {
			if e != 0 {
				b.put(e)
			}
		}
	}
	b.put(uint64(uint32(h))<<32 | uint64(id) + 1)
	b.n++
}

// put adds the entry e (hash<<32 | id+1) to fresh.
func (b *sinceBatch) put(e uint64) {
	mask := uint64(len(b.fresh) - 1)
	i := e >> 32 & mask
	for b.fresh[i] != 0 {
		i = (i + 1) & mask
	}
	b.fresh[i] = e
}

// find returns the id of state v, whose hash is h, if it has been stored
// since, else -1.
func (b *sinceBatch) find(store *stateStore, v []int32, h uint64) int32 {
	if b.n == 0 {
		return -1
	}
	mask := uint64(len(b.fresh) - 1)
	for i := uint64(uint32(h)) & mask; b.fresh[i] != 0; i = (i + 1) & mask {
		if e := b.fresh[i]; uint32(e>>32) == uint32(h) {
			if id := int32(uint32(e) - 1); store.is(id, v) {
				return id
			}
		}
	}
	return -1
}
