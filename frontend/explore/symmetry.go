package explore

import (
	"math"
	"math/bits"
	"slices"
)

// Thread symmetry. The most-general client's threads run the same code, so
// a state in which the threads' roles are permuted behaves the same, up to
// the renaming of the thread ids in the labels. A symmetry (Emerson and
// Sistla, "Symmetry and model checking", FMSD 9, 1996; Ip and Dill,
// "Better verification through symmetry", FMSD 9, 1996: thread ids as a
// scalarset) lets a search keep one representative per orbit of the
// thread permutations.
//
// The group and its action. A permutation π of the threads (π[t]: the
// thread that plays t's role) maps a state vector s to π·s: thread t's
// block [pc, ops done, retval, locals] moves to π[t]'s place, the element
// t+1 of each tid-indexed array (see below) to π[t]+1 — for an array
// declared with [thread] dimensions, row t+1 to row π[t]+1, and in a
// [thread][thread] array element (t+1, u+1) to (π[t]+1, π[u]+1) — and the
// heap is then renumbered canonically (canonicaliser.renumber), since its
// numbering follows the threads' order.
//
// When the group acts by automorphisms (newSymmetry, symcheck.go). π is
// an automorphism of the LTS, up to the renaming of thread ids in labels,
// when every transition s -a-> s' of thread t gives π·s -π(a)-> π·s' of
// thread π[t], and conversely (π⁻¹ is a permutation too). A step of thread
// t reads and writes its own block, the shared variables and the heap; it
// depends on t only through the client (which methods t may call: the
// same for all threads unless an `only` clause says otherwise) and through
// the value of tid. newSymmetry accepts a program only when thread ids
// (tid, and the values of the locations that it infers hold them) are
// only stored into such locations, compared for equality and used as the
// index of shared arrays with indices exactly 1..nthreads (HP[tid]), which
// nothing else indexes, or of the [thread] dimensions of per-thread arrays
// (RL[tid][i], PL[tid][j]). The action then also renames the thread ids
// held in those locations (a value i ≠ 0 becomes π[i-1]+1) and the visited
// sets of the loops over threads (bit i to bit π[i]), and a step of π[t]
// from π·s reads, compares and indexes exactly as t's step from s. It
// refuses a [1..nthreads] array indexed by other values: a loop over its
// slots visits the threads in a fixed order, and a thread's state half-way
// through such a loop is not mapped to a reachable state by a
// permutation. A loop over threads (for j in others) takes its threads in
// any order instead — each iteration any thread not yet visited, chosen
// nondeterministically — so from π·s thread π[t] can pick π[j] wherever t
// picks j from s, with the visited set renamed. The allocator
// offers every freed node of a type, whatever their numbers, and the check
// of private nodes (machine.private) looks at all the other threads alike,
// so neither depends on the threads' order. The init block is exempt: it
// runs once, before any thread, and builds the initial state; the argument
// above concerns the transitions only (the initial state need not be
// symmetric: a search starts from its representative, and a path from π·s
// lifts to a path from s with the labels renamed by π⁻¹).
//
// Verdicts. With the transition relation invariant under the group, the
// quotient (one representative per orbit, an edge rep(s) -π_s(a)->
// rep(s') for each s -a-> s') is bisimilar to the LTS up to the thread
// renaming, state by state (Emerson and Sistla, Thm 3.1). Linearizability
// and lock-freedom are invariant under thread renaming: the renamed trace
// of a linearizable history is linearizable (the sequential specification
// does not mention thread ids), and a τ-cycle with an operation pending is
// one after renaming. A τ-cycle of the quotient lifts to a path of the LTS
// that visits states of the cycle's orbits with composed permutations;
// the group being finite, some power of the composed permutation is the
// identity, so repeating the cycle that many times closes a τ-cycle of the
// LTS: divergences are preserved both ways.
//
// The representative. canon must return the same vector for every state
// of an orbit, or the reduction is incomplete (sound, but it stores
// several states per orbit). It sorts the threads by a key that no
// permutation changes: the thread's block and its elements of the
// tid-indexed arrays, with each reference replaced by the node's number in
// a depth-first search from the other shared references (which no
// permutation moves, so their nodes are found in the same order in every
// state of the orbit), or by a marker if that search does not reach it;
// each thread id replaced by "self", "other" (a marker) or 0, each visited
// set by whether it holds the thread and how many others (a marker if
// any); a [thread][thread] array's row by its diagonal element and the
// sorted values of the row and of the column without it (marked if any of
// those is not 0: exchanging the thread with another would move them);
// then, per shared thread-id variable, whether it holds the thread; and
// the number of the other threads' thread-id slots and visited sets that
// hold it. Threads with
// different keys are thus ordered the same way in every state of the
// orbit. Threads with equal keys and no marker, which no other thread
// names, have equal blocks up to their own ids, references included (the
// same numbers denote the same nodes), so their order does not matter. Among threads with equal keys and a marker, every
// order is tried and the lexicographically least vector is taken; so the
// representative is the least vector of a set of vectors that depends
// only on the orbit. When those orders are more than maxTiedOrders, canon
// takes the first one instead: a state of the orbit, but maybe not the
// same for every state of it (counted in symmetryCounts.fallbacks).

// maxTiedOrders bounds the orders of tied threads that canon tries (7!).
const maxTiedOrders = 5040

// symmetry is the thread symmetry of a compiled program: which slots the
// permutations move, and the buffers of canon and apply. Like a
// canonicaliser, it belongs to one goroutine; clone gives another its own.
type symmetry struct {
	p       *program
	threads int
	// tieOrder is the product of the factorials of the tie groups of the
	// last stabilizer call: the permutations it had to try.
	tieOrder int64
	// tidArrays: the shared arrays with a row per thread: those declared
	// with [thread] dimensions, and the [1..nthreads] arrays indexed by
	// thread ids (rows of one element); their rows move with the threads
	// (and the columns of square ones).
	tidArrays []threadArray
	// fixedRoots: the shared reference slots outside the tid-indexed
	// arrays, in layout order. No permutation moves them: the nodes they
	// reach are numbered alike in every state of an orbit (see key).
	fixedRoots []int32
	// tidLocals[m]: the local slots of method m that hold thread ids;
	// tidShared: the shared slots that do, tidScalars those of them
	// outside the tid-indexed arrays; threadIDs: there are some.
	tidLocals             []uint64
	tidShared, tidScalars []int32
	// setLocals[m]: the local slots of method m that hold the visited
	// sets of loops over threads (bit t-1 for thread t).
	setLocals []uint64
	threadIDs bool
	// maxOrders is maxTiedOrders, lowered by tests.
	maxOrders int
	counts    symmetryCounts

	// Buffers.
	moved    []int32 // apply's permuted vector, before the renumbering
	best     []int32 // canon: the least vector found so far
	fixedNum []int32 // key: per node, its number from the fixed roots, 0 if unreached
	stack    []int32 // key: the depth-first search's stack
	keys     []int32 // keys, keyLen per thread
	keyLen   int
	marked   []bool  // per thread: its key has a marker
	order    []uint8 // threads sorted by key
	perm     []uint8 // canon's result
	stab     []int32 // stabilizer's copy of its representative
	tryPerm  []uint8
	ties     []tieGroup
}

// tieGroup is a run of threads, in sorted order, with equal keys that
// hold a marker: their orders are enumerated.
type tieGroup struct {
	start, n int
}

// symmetryCounts counts the work of canon, for tests and measurements.
type symmetryCounts struct {
	canons int64 // calls of canon
	// enumerated: calls that tried several orders of tied threads;
	// orders: the orders tried by those calls.
	enumerated, orders int64
	// fallbacks: calls that had more than maxTiedOrders orders to try and
	// took one of them: their representative may not be canonical.
	fallbacks int64
}

// clone returns a symmetry of the same program with buffers and counts of
// its own, for another goroutine.
func (s *symmetry) clone() *symmetry {
	return &symmetry{p: s.p, threads: s.threads, tidArrays: s.tidArrays, fixedRoots: s.fixedRoots,
		tidLocals: s.tidLocals, tidShared: s.tidShared, setLocals: s.setLocals, tidScalars: s.tidScalars, threadIDs: s.threadIDs,
		maxOrders: s.maxOrders, keyLen: s.keyLen}
}

// apply returns the canonical vector of the state in which thread t's role
// is played by thread perm[t], st being a canonical vector (as stored):
// thread t's block and its elements of the tid-indexed arrays move to
// perm[t]'s place, the thread ids in thread-id locations are renamed, and
// the heap is renumbered by c. The result may be a
// buffer of s or of c, valid until the next call of apply or canon on s
// or of a renumbering on c; st is not modified.
func (s *symmetry) apply(st []int32, perm []uint8, c *canonicaliser) []int32 {
	lay := &s.p.lay
	s.moved = append(s.moved[:0], st...)
	moved := s.moved
	size := lay.threadSize
	for t, to := range perm {
		from := lay.threadBase(t)
		copy(moved[lay.threadBase(int(to)):][:size], st[from:from+size])
		for _, ta := range s.tidArrays {
			src, dst := ta.off+int32(t)*ta.rowLen, ta.off+int32(to)*ta.rowLen
			if !ta.square {
				copy(moved[dst:dst+ta.rowLen], st[src:src+ta.rowLen])
				continue
			}
			for u, tu := range perm {
				moved[dst+int32(tu)] = st[src+int32(u)]
			}
		}
	}
	if s.threadIDs {
		s.renameThreadIDs(moved, perm)
	}
	return c.renumber(moved)
}

// renameThreadIDs renames by perm the thread ids in the thread-id
// locations of st, whose threads have been moved already.
func (s *symmetry) renameThreadIDs(st []int32, perm []uint8) {
	rename := func(v int32) int32 {
		if v > 0 {
			return int32(perm[v-1]) + 1
		}
		return v
	}
	lay := &s.p.lay
	for t := range s.threads {
		base := lay.threadBase(t)
		pc := st[base+tPC]
		if pc == 0 {
			continue
		}
		method := s.p.code[pc].method
		for m := s.tidLocals[method]; m != 0; m &= m - 1 {
			i := base + tLocals + int32(bits.TrailingZeros64(m))
			st[i] = rename(st[i])
		}
		for m := s.setLocals[method]; m != 0; m &= m - 1 {
			i := base + tLocals + int32(bits.TrailingZeros64(m))
			set := uint32(0)
			for b := uint32(st[i]); b != 0; b &= b - 1 {
				set |= 1 << perm[bits.TrailingZeros32(b)]
			}
			st[i] = int32(set)
		}
	}
	for _, a := range s.tidShared {
		st[a] = rename(st[a])
	}
}

// canon returns the representative of the orbit of the canonical vector
// st and the permutation that maps st to it (rep = apply(st, perm)); see
// the design comment. rep may be st itself or a buffer of s or c, and perm
// a buffer of s, valid until the next call of apply or canon on s or of a
// renumbering on c.
func (s *symmetry) canon(st []int32, c *canonicaliser) (rep []int32, perm []uint8) {
	s.counts.canons++
	s.sortThreads(st)
	n := s.threads
	s.perm = slices.Grow(s.perm[:0], n)[:n]
	orders := 1
	for _, g := range s.ties {
		for k := 2; k <= g.n; k++ {
			orders *= k
			if orders > s.maxOrders {
				break
			}
		}
		if orders > s.maxOrders {
			break
		}
	}
	if orders > s.maxOrders {
		s.counts.fallbacks++
		orders = 1
	}
	if orders == 1 {
		identity := true
		for i, t := range s.order {
			s.perm[t] = uint8(i)
			identity = identity && int(t) == i
		}
		if identity {
			return st, s.perm
		}
		return s.apply(st, s.perm, c), s.perm
	}
	// Every order of the tied groups: an odometer of permutations, each
	// group's stepped in lexicographic order (slices of s.order).
	s.counts.enumerated++
	s.counts.orders += int64(orders)
	for _, g := range s.ties {
		slices.Sort(s.order[g.start : g.start+g.n])
	}
	s.tryPerm = slices.Grow(s.tryPerm[:0], n)[:n]
	s.best = s.best[:0]
	for {
		for i, t := range s.order {
			s.tryPerm[t] = uint8(i)
		}
		cand := s.apply(st, s.tryPerm, c)
		if len(s.best) == 0 || slices.Compare(cand, s.best) < 0 {
			s.best = append(s.best[:0], cand...)
			copy(s.perm, s.tryPerm)
		}
		g := len(s.ties) - 1
		for ; g >= 0; g-- {
			tie := s.ties[g]
			if nextPermutation(s.order[tie.start : tie.start+tie.n]) {
				break
			}
			// nextPermutation has wrapped the group round to its first order.
		}
		if g < 0 {
			return s.best, s.perm
		}
	}
}

// nextPermutation steps a to the next permutation in lexicographic order
// and reports true, or, at the last one, returns it to the first (sorted)
// and reports false.
func nextPermutation(a []uint8) bool {
	i := len(a) - 2
	for i >= 0 && a[i] >= a[i+1] {
		i--
	}
	if i < 0 {
		slices.Reverse(a)
		return false
	}
	j := len(a) - 1
	for a[j] <= a[i] {
		j--
	}
	a[i], a[j] = a[j], a[i]
	slices.Reverse(a[i+1:])
	return true
}

// sortThreads computes the threads' keys, sorts the threads by key into
// s.order (ties by thread), and finds the groups of tied threads whose
// keys hold a marker (s.ties).
func (s *symmetry) sortThreads(st []int32) {
	s.computeKeys(st)
	n := s.threads
	s.order = slices.Grow(s.order[:0], n)[:n]
	for t := range s.order {
		s.order[t] = uint8(t)
	}
	// Few threads: insertion sort, stable.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && s.compareKeys(s.order[j-1], s.order[j]) > 0; j-- {
			s.order[j-1], s.order[j] = s.order[j], s.order[j-1]
		}
	}
	s.ties = s.ties[:0]
	for i := 0; i < n; {
		j := i + 1
		for j < n && s.compareKeys(s.order[i], s.order[j]) == 0 {
			j++
		}
		if j-i > 1 && s.marked[s.order[i]] {
			s.ties = append(s.ties, tieGroup{start: i, n: j - i})
		}
		i = j
	}
}

// compareKeys compares the keys of threads a and b.
func (s *symmetry) compareKeys(a, b uint8) int {
	k := s.keyLen
	return slices.Compare(s.keys[int(a)*k:][:k], s.keys[int(b)*k:][:k])
}

// keyMarker stands in a key for a reference to a node that the fixed
// roots do not reach (node numbers are positive, null is 0), and for a
// thread id other than the thread's own; keySelf for its own.
const (
	keyMarker = -1
	keySelf   = -2
)

// computeKeys fills s.keys and s.marked: per thread, its block and its
// elements of the tid-indexed arrays, references replaced by the nodes'
// numbers from the fixed roots (s.fixedNum) or keyMarker, thread ids by
// keySelf or keyMarker; then, with thread ids, whether each shared
// thread-id scalar holds the thread, and the number of the other threads'
// slots that hold it (see the design comment).
func (s *symmetry) computeKeys(st []int32) {
	s.numberFromFixedRoots(st)
	lay := &s.p.lay
	n := s.threads
	s.keys = slices.Grow(s.keys[:0], n*s.keyLen)[:n*s.keyLen]
	s.marked = slices.Grow(s.marked[:0], n)[:n]
	clear(s.marked)
	if s.threadIDs {
		clear(s.keys)
	}
	// named counts, per thread, the other threads' slots that hold its id.
	named := s.keys[s.keyLen-1:]
	tidKey := func(t int, v int32) int32 {
		switch {
		case v == 0:
			return 0
		case v == int32(t)+1:
			return keySelf
		}
		named[int(v-1)*s.keyLen]++
		return keyMarker
	}
	for t := range n {
		key := s.keys[t*s.keyLen:][:s.keyLen]
		base := lay.threadBase(t)
		copy(key, st[base:base+lay.threadSize])
		pc := st[base+tPC]
		for m := s.p.refMask[pc]; m != 0; m &= m - 1 {
			i := tLocals + bits.TrailingZeros64(m)
			key[i] = s.refKey(key[i])
			s.marked[t] = s.marked[t] || key[i] == keyMarker
		}
		if s.threadIDs && pc != 0 {
			method := s.p.code[pc].method
			for m := s.tidLocals[method]; m != 0; m &= m - 1 {
				i := tLocals + bits.TrailingZeros64(m)
				key[i] = tidKey(t, key[i])
				s.marked[t] = s.marked[t] || key[i] == keyMarker
			}
			for m := s.setLocals[method]; m != 0; m &= m - 1 {
				i := tLocals + bits.TrailingZeros64(m)
				key[i] = s.setKey(t, uint32(key[i]), named)
				s.marked[t] = s.marked[t] || key[i] > 1
			}
		}
		pos := int(lay.threadSize)
		for _, ta := range s.tidArrays {
			pos += s.rowKey(st, t, ta, key[pos:], tidKey)
		}
		for i, a := range s.tidScalars {
			if st[a] == int32(t)+1 {
				key[pos+i] = 1
			}
		}
	}
	if s.threadIDs {
		for t := range n {
			s.marked[t] = s.marked[t] || named[t*s.keyLen] > 0
		}
	}
}

// isThreadIDSlot reports whether the shared slot a holds thread ids.
func (s *symmetry) isThreadIDSlot(a int32) bool {
	_, ok := slices.BinarySearch(s.tidShared, a)
	return ok
}

// isRefSlot reports whether the shared slot a holds a reference.
func (s *symmetry) isRefSlot(a int32) bool {
	_, ok := slices.BinarySearch(s.p.lay.refShared, a)
	return ok
}

// refKey is the key of a reference: null, a node's number from the fixed
// roots, or keyMarker.
func (s *symmetry) refKey(v int32) int32 {
	if v == 0 {
		return 0
	}
	if num := s.fixedNum[v]; num > 0 {
		return num
	}
	return keyMarker
}

// numberFromFixedRoots numbers, in s.fixedNum, the nodes reached from the
// fixed roots in the order of a depth-first search (pre-order), the roots
// taken in layout order: the numbers depend only on the heap's shape as
// seen from those roots, which no permutation of the threads changes.
func (s *symmetry) numberFromFixedRoots(st []int32) {
	lay := &s.p.lay
	count := st[lay.heapBase]
	s.fixedNum = slices.Grow(s.fixedNum[:0], int(count)+1)[:count+1]
	clear(s.fixedNum)
	next := int32(1)
	stack := s.stack[:0]
	for _, a := range s.fixedRoots {
		stack = append(stack, st[a])
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if id == 0 || s.fixedNum[id] != 0 {
				continue
			}
			s.fixedNum[id] = next
			next++
			node := lay.nodeAddr(id)
			offs := lay.nodeRefOffsets(st, node)
			for i := len(offs) - 1; i >= 0; i-- { // the first field on top
				stack = append(stack, st[node+offs[i]])
			}
		}
	}
	s.stack = stack
}

// factorial returns n!, saturating at math.MaxInt64.
func factorial(n int) int64 {
	f := int64(1)
	for k := 2; k <= n; k++ {
		f = satMul(f, int64(k))
	}
	return f
}

// satMul returns a·b for positive a and b, saturating at math.MaxInt64.
func satMul(a, b int64) int64 {
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// stabilizer returns the permutations π with apply(rep, π) = rep, the
// identity first, for a representative rep (as canon returns it) — for the
// product of the on-the-fly search: the pairs of one orbit that canon
// takes to rep carry the subsets σ·X of one subset X, σ in these, so the
// least of them is a canonical subset. It returns nil and false when they
// may be more than most (then take the identity alone: sound, maybe not
// canonical). A π of the stabiliser maps each thread to one with an equal
// key, so only the orders of the groups of threads with equal keys are
// tried. The permutations are fresh slices; rep is not modified and may be
// a buffer of s or c. It leaves in s.tieOrder the number of those orders,
// a bound on the stabiliser's size.
func (s *symmetry) stabilizer(rep []int32, c *canonicaliser, most int) ([][]uint8, bool) {
	s.stab = append(s.stab[:0], rep...)
	rep = s.stab
	s.sortThreads(rep)
	n := s.threads
	var groups []tieGroup
	orders := int64(1)
	for i := 0; i < n; {
		j := i + 1
		for j < n && s.compareKeys(s.order[i], s.order[j]) == 0 {
			j++
		}
		if j-i > 1 {
			groups = append(groups, tieGroup{start: i, n: j - i})
			orders = satMul(orders, factorial(j-i))
		}
		i = j
	}
	s.tieOrder = orders
	if orders > int64(most) {
		return nil, false
	}
	base := slices.Clone(s.order)
	arr := slices.Clone(base)
	for _, g := range groups {
		slices.Sort(arr[g.start : g.start+g.n])
		slices.Sort(base[g.start : g.start+g.n])
	}
	identity := make([]uint8, n)
	for t := range identity {
		identity[t] = uint8(t)
	}
	perms := [][]uint8{identity}
	perm := make([]uint8, n)
	for {
		for i, t := range base {
			perm[t] = arr[i]
		}
		if !slices.Equal(perm, identity) && slices.Equal(s.apply(rep, perm, c), rep) {
			perms = append(perms, slices.Clone(perm))
		}
		g := len(groups) - 1
		for ; g >= 0; g-- {
			if nextPermutation(arr[groups[g].start : groups[g].start+groups[g].n]) {
				break
			}
		}
		if g < 0 {
			return perms, true
		}
	}
}
