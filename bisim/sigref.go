package bisim

import (
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/linbis/linbis/internal/parallel"
)

// Signature rounds: the parallel part of Fast's refinement.
//
// Design. Before the worklist starts, the initial partition (the classes
// of the weakly enabled labels, fast_init.go) is refined in rounds, after
// Blom and Orzan's signature-based refinement ("Distributed branching
// bisimulation reduction of state spaces", PDMC 2003; "A distributed
// algorithm for strong bisimulation reduction of state spaces", 2002, as
// in LTSmin): in a round every state's signature under the partition π is
// computed, and the states of a block are split by their signatures. The
// signature of s is the set of pairs (a, π(t)) of its non-inert steps
// s -a-> t and, under branching, of those of every state it reaches by
// inert τ-steps: sig(s) = own(s) ∪ ⋃ sig(s′) over the inert τ-steps
// s -τ-> s′ (an inert step is a τ-step inside a block). States with equal
// signatures in one block stay together. Two branching bisimilar states
// have equal signatures under any partition coarser than branching
// bisimilarity, so each round keeps the partition coarser than the
// coarsest stable one (invariant (1) of fastRefine); a round that splits
// nothing has found it, for then every block is stable under every
// (a, C): its states' signatures are equal.
//
// The kernel's τ graph is acyclic (τ-SCCs contracted) and its states are
// numbered in reverse topological order, so sig(s′) of every inert step
// is computed before sig(s): the states are taken by τ-level (0: no
// τ-step; else one more than the highest level of its τ-successors), and
// the states of a level, which need only lower levels, are shared among
// the workers. A state with inert steps into states that share one
// signature X, whose own pairs are all in X, has signature X itself,
// shared, not copied: in a block with a contracted giant τ-SCC (a hub with
// a signature of millions of pairs) every state that matches the hub
// costs its own pairs' lookups alone. Other unions are built; when the
// pairs built in a round pass a budget proportional to the transitions,
// the rounds stop.
//
// Every step gives the same result for any number of workers: each state's
// signature is a function of the partition alone, and the new blocks are
// numbered in order of their smallest state, in one pass. The rounds stop
// when one splits nothing (the partition is stable and the worklist has
// nothing to do), or adds fewer than n/sigMinGain blocks (the rounds no
// longer pay: each reads every transition, while the
// worklist reads only what changed), or after sigMaxRounds, or at the
// budget; then the worklist
// finishes from the partition found, every block target-dirty. Since the
// coarsest stable refinement of a partition coarser than it is unique,
// the result is the same whichever way the rounds stop.

// sigMinGain: the rounds go on while a round adds at least
// n/sigMinGain blocks, n the kernel's states (a variable: tests raise the
// share to hand over early). A round reads every transition; one that
// adds fewer blocks than that is no longer worth it: on long τ-chains
// and interleaved cycles, where each round splits off a few more
// positions, going on while a round added a 1/64 share of the blocks
// read every transition 16 times and doubled to quadrupled the work.
var sigMinGain int32 = 64

// sigMaxRounds: the most rounds, so that the rounds read every transition
// a bounded number of times (random LTSs need three or four).
const sigMaxRounds = 16

// sigBudget: the pairs that one round may collect, per transition and
// state of the kernel (a variable: tests lower it to reach the budget).
var sigBudget int64 = 4

// sigRounds refines the classes in r.block (numbered 0..classes-1 in
// order of their smallest state) by signature rounds on workers
// goroutines, leaves the classes found in r.block, numbered the same way,
// and returns their number and whether the partition is stable. Where it
// is not, and the equivalence is strong, it sets r.sigDirty to the classes
// that the last round split off: every other class is stable under every
// class (see sigDirtyParts), so only those need to be the worklist's
// targets.
func (r *refiner) sigRounds(classes int32, workers int) (int32, bool) {
	k := r.k
	n := k.n
	order, levels := sigLevels(k)
	r.work += int64(n) + int64(len(k.dst))
	sr := &sigRound{k: k, cls: r.block, order: order, levels: levels, workers: workers,
		base: make([][]uint64, n), extra: make([][]uint64, n), hash: make([]uint64, n), next: make([]int32, n),
		scratch: make([]sigScratch, workers), budget: sigBudget * int64(len(k.dst)+int(n))}
	for round := 1; ; round++ {
		ok := sr.signatures()
		r.work += sr.built.Load() + int64(len(k.dst))
		if !ok {
			return classes, false
		}
		count, exact := sr.group()
		r.work += int64(n)
		gained := count - classes
		if gained == 0 {
			copy(r.block, sr.cls)
			return classes, exact
		}
		if gained < n/sigMinGain || round == sigMaxRounds {
			if exact && !k.inert {
				r.sigDirty = sigDirtyParts(sr.cls, sr.next, classes, count)
			}
			copy(r.block, sr.next)
			return count, false
		}
		sr.cls, sr.next = sr.next, sr.cls
		classes = count
	}
}

// sigDirtyParts returns, per class of next (count of them), whether it is
// a part of a class of cls (classes of them) that split. Under strong
// bisimilarity, after a round whose grouping is exact, every class of
// next is stable under every class of cls: its states have the same
// pairs (a, cls(t)). So it is stable under every class of next that is a
// class of cls too, and only the parts of the classes that split can
// split it further.
func sigDirtyParts(cls, next []int32, classes, count int32) []bool {
	parts := make([]int32, classes)
	seen := make([]bool, count)
	for s, c := range next {
		if !seen[c] {
			seen[c] = true
			parts[cls[s]]++
		}
	}
	dirty := make([]bool, count)
	for s, c := range next {
		dirty[c] = parts[cls[s]] > 1
	}
	return dirty
}

// sigRound is the state of the signature rounds.
type sigRound struct {
	k       *kernel
	cls     []int32 // per state: its class in the round's partition
	next    []int32 // per state: its class after the round
	order   []int32 // the states by τ-level
	levels  []int32 // level i is order[levels[i]:levels[i+1]]
	workers int
	// Per state: its signature, the union of base and extra (signature),
	// each sorted (label<<32 | class), and its hash.
	base, extra [][]uint64
	hash        []uint64
	built       atomic.Int64 // the pairs built in the round
	budget      int64        // the most pairs a round may build
	scratch     []sigScratch // per worker
}

// sigScratch is one worker's buffers: the pairs being collected, the
// inert successors of a state, and the arena its signatures are built in.
type sigScratch struct {
	pairs  []uint64
	merged []uint64
	succ   []int32
	arena  []uint64
}

// sigLevels returns the kernel's states ordered by τ-level and the bounds
// of the levels (one level under strong bisimilarity, where no step is
// inert).
func sigLevels(k *kernel) (order, levels []int32) {
	n := k.n
	order = make([]int32, n)
	if !k.inert {
		for s := range n {
			order[s] = s
		}
		return order, []int32{0, n}
	}
	level := make([]int32, n)
	var size []int32
	for s := range n {
		l := int32(0)
		for t := k.out[s]; t < k.out[s+1] && k.isTau(t); t++ {
			if d := k.dst[t]; d != s {
				l = max(l, level[d]+1)
			}
		}
		level[s] = l
		for int(l) >= len(size) {
			size = append(size, 0)
		}
		size[l]++
	}
	levels = make([]int32, len(size)+1)
	for l, sz := range size {
		levels[l+1] = levels[l] + sz
	}
	fill := slices.Clone(levels[:len(size)])
	for s := range n {
		order[fill[level[s]]] = s
		fill[level[s]]++
	}
	return order, levels
}

// sigChunk is the number of states a worker takes at a time.
const sigChunk = 1024

// signatures computes every state's signature under cls, level by level;
// false when the unions built pass budget.
func (sr *sigRound) signatures() bool {
	sr.built.Store(0)
	for w := range sr.scratch {
		sr.scratch[w].arena = nil
	}
	var over atomic.Bool
	for l := 0; l+1 < len(sr.levels); l++ {
		states := sr.order[sr.levels[l]:sr.levels[l+1]]
		chunks := (len(states) + sigChunk - 1) / sigChunk
		parallel.ForEachWorker(min(sr.workers, chunks), chunks, func(w, c int) {
			sc := &sr.scratch[w]
			built := int64(0)
			for _, s := range states[c*sigChunk : min(len(states), (c+1)*sigChunk)] {
				b := sr.signature(sc, s)
				if b < 0 || over.Load() {
					over.Store(true)
					return
				}
				built += b
			}
			if sr.built.Add(built) > sr.budget {
				over.Store(true)
			}
		})
		if over.Load() {
			return false
		}
	}
	return true
}

// signature computes sig(s) into sr.base[s], sr.extra[s] and
// sr.hash[s] and returns the pairs it collected, or -1 where the round
// would pass its budget.
//
// A signature is held as a base, a sorted set of pairs shared by the
// states that reach it by inert steps, and the sorted pairs beside it
// (extra, disjoint from the base): s takes the largest base among its
// inert successors' and adds its own pairs and the others' that the base
// lacks, each looked up by binary search, so that the states of a
// contracted giant τ-SCC's block do not copy its signature. Where the
// pairs beside it outnumber the base, the two become a new base. The
// hash is the sum of a hash of each pair, so the base's and the extra's
// add up.
func (sr *sigRound) signature(sc *sigScratch, s int32) int64 {
	k, cls := sr.k, sr.cls
	c := cls[s]
	pairs, succ := sc.pairs[:0], sc.succ[:0]
	for t := k.out[s]; t < k.out[s+1]; t++ {
		d := k.dst[t]
		if k.inert && k.isTau(t) && cls[d] == c {
			if d != s {
				succ = append(succ, d)
			}
			continue
		}
		pairs = append(pairs, uint64(uint32(k.lab[t]))<<32|uint64(uint32(cls[d])))
	}
	defer func() { sc.pairs, sc.succ = pairs, succ }()
	if len(succ) == 0 {
		slices.Sort(pairs)
		pairs = slices.Compact(pairs)
		sr.base[s], sr.extra[s], sr.hash[s] = sc.keep(pairs), nil, hashSum(pairs)
		return int64(len(pairs))
	}
	big := succ[0]
	for _, d := range succ[1:] {
		if len(sr.base[d]) > len(sr.base[big]) {
			big = d
		}
	}
	x := sr.base[big]
	own := len(pairs)
	pairs = lacking(pairs[:0], pairs[:own], x) // in place: never longer
	pairs = append(pairs, sr.extra[big]...)
	for _, d := range succ {
		if d == big {
			continue
		}
		if !sameSlice(sr.base[d], x) {
			pairs = lacking(pairs, sr.base[d], x)
		}
		pairs = lacking(pairs, sr.extra[d], x)
	}
	collected := int64(own + len(pairs))
	if sr.built.Add(collected) > sr.budget {
		return -1
	}
	slices.Sort(pairs)
	pairs = slices.Compact(pairs)
	h := sr.hash[big] - hashSum(sr.extra[big]) + hashSum(pairs)
	if len(pairs) > len(x) {
		merged := append(sc.merged[:0], x...)
		merged = append(merged, pairs...)
		slices.Sort(merged)
		sc.merged = merged
		sr.base[s], sr.extra[s], sr.hash[s] = sc.keep(merged), nil, h
		sr.built.Add(int64(len(merged)))
		return 0
	}
	e := sr.extra[big]
	if !slices.Equal(pairs, e) {
		e = sc.keep(pairs)
	}
	sr.base[s], sr.extra[s], sr.hash[s] = x, e, h
	return 0
}

// lacking appends to dst the pairs of from that the sorted set x lacks.
func lacking(dst, from, x []uint64) []uint64 {
	for _, p := range from {
		if _, ok := slices.BinarySearch(x, p); !ok {
			dst = append(dst, p)
		}
	}
	return dst
}

// sameSlice reports whether a and b are the same slice of memory.
func sameSlice(a, b []uint64) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b))
}

// sameSig reports whether states s and u have the same signature: the
// same base and extra, or the same union of the two.
func (sr *sigRound) sameSig(s, u int32) bool {
	x1, e1, x2, e2 := sr.base[s], sr.extra[s], sr.base[u], sr.extra[u]
	if sameSlice(x1, x2) {
		return slices.Equal(e1, e2)
	}
	if len(x1)+len(e1) != len(x2)+len(e2) {
		return false
	}
	var i1, j1, i2, j2 int
	next := func(x, e []uint64, i, j *int) uint64 {
		if *j == len(e) || *i < len(x) && x[*i] < e[*j] {
			*i++
			return x[*i-1]
		}
		*j++
		return e[*j-1]
	}
	for range len(x1) + len(e1) {
		if next(x1, e1, &i1, &j1) != next(x2, e2, &i2, &j2) {
			return false
		}
	}
	return true
}

// keep copies a signature into the worker's arena.
func (sc *sigScratch) keep(pairs []uint64) []uint64 {
	if len(pairs) == 0 {
		return nil
	}
	if cap(sc.arena)-len(sc.arena) < len(pairs) {
		sc.arena = make([]uint64, 0, max(1<<16, len(pairs)))
	}
	start := len(sc.arena)
	sc.arena = append(sc.arena, pairs...)
	return sc.arena[start:len(sc.arena):len(sc.arena)]
}

// hashSum is the hash of a set of pairs: the sum of their hashes, so that
// the hash of a union of disjoint sets is the sum of theirs.
func hashSum(pairs []uint64) uint64 {
	h := uint64(0)
	for _, p := range pairs {
		h += mix64(p)
	}
	return h
}

// mix64 is the finaliser of SplitMix64.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// group numbers the states' (class, signature) pairs in order of their
// smallest state into next, and returns how many there are and whether
// the grouping is exact: states grouped by hash whose classes or
// signatures differ (a collision) make it inexact, and the grouping,
// coarser than the signatures', then is no proof of stability. The keys
// are shared among the workers by their hash, each finding the smallest
// state of each of its keys in a table of its own; one pass in state order
// then numbers them.
func (sr *sigRound) group() (count int32, exact bool) {
	n := sr.k.n
	shards := sr.workers
	keys := make([]uint64, n)
	rep := sr.next // the smallest state with the same key, then the class
	parallel.ForEach(shards, shards, func(w int) {
		for s := int32(w); s < n; s += int32(shards) {
			keys[s] = mix64(uint64(uint32(sr.cls[s]))*0x9e3779b97f4a7c15 ^ sr.hash[s])
		}
	})
	var inexact atomic.Bool
	parallel.ForEach(shards, shards, func(w int) {
		// The table holds at most half full: sized by this shard's keys,
		// not by n/shards, since a skewed share (likely on small kernels)
		// would fill it and the probing would never end.
		mine := 0
		for _, key := range keys {
			if int(key%uint64(shards)) == w {
				mine++
			}
		}
		size := 1
		for size < 2*mine+2 {
			size *= 2
		}
		mask := uint64(size - 1)
		table := make([]int32, size)
		for i := range table {
			table[i] = -1
		}
		for s := range n {
			key := keys[s]
			if int(key%uint64(shards)) != w {
				continue
			}
			i := (key / uint64(shards)) & mask
			for table[i] >= 0 && keys[table[i]] != key {
				i = (i + 1) & mask
			}
			if r := table[i]; r >= 0 {
				rep[s] = r
				if sr.cls[r] != sr.cls[s] || !sr.sameSig(r, s) {
					inexact.Store(true)
				}
				continue
			}
			table[i], rep[s] = s, s
		}
	})
	for s := range n {
		if r := rep[s]; r == s {
			rep[s] = count
			count++
		} else {
			rep[s] = rep[r]
		}
	}
	return count, !inexact.Load()
}
