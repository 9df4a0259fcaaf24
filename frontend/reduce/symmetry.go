package reduce

import (
	"cmp"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"iter"
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
// When the group acts by automorphisms (NewSymmetry, symcheck.go). π is
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

// Symmetry is the thread symmetry of a compiled program: which slots the
// permutations move, and the buffers of canon and apply. Like a
// canonicaliser, it belongs to one goroutine; Clone gives another its own.
type Symmetry struct {
	P       *ir.Program // the program whose states it permutes
	Threads int         // the number of threads permuted
	// TieOrder is the product of the factorials of the sizes of the
	// groups of threads with equal keys of the last canon call: the
	// permutations that keep the keys.
	TieOrder int64
	// TidArrays: the shared arrays with a row per thread: those declared
	// with [thread] dimensions, and the [1..nthreads] arrays indexed by
	// thread ids (rows of one element); their rows move with the threads
	// (and the columns of square ones).
	TidArrays []ir.ThreadArray
	// FixedRoots: the shared reference slots outside the tid-indexed
	// arrays, in layout order. No permutation moves them: the nodes they
	// reach are numbered alike in every state of an orbit (see key).
	FixedRoots []int32
	// tidLocals[m]: the local slots of method m that hold thread ids;
	// tidShared: the shared slots that do, tidScalars those of them
	// outside the tid-indexed arrays; threadIDs: there are some.
	TidLocals  []uint64
	TidShared  []int32 // the shared slots that hold thread ids
	TidScalars []int32 // those of TidShared outside the tid-indexed arrays
	// setLocals[m]: the local slots of method m that hold the visited
	// sets of loops over threads (bit t-1 for thread t).
	SetLocals []uint64
	ThreadIDs bool // some local or shared slot holds thread ids
	// kinds[a]: what shared slot a holds (sharedKinds).
	Kinds []uint8
	// MaxOrders is maxTiedOrders, lowered by tests.
	MaxOrders int
	counts    symmetryCounts

	// Buffers.
	Moved    []int32 // apply's permuted vector, before the renumbering
	Best     []int32 // canon: the least vector found so far
	FixedNum []int32 // key: per node, its number from the fixed roots, 0 if unreached
	Stack    []int32 // key: the depth-first search's stack
	// Keys: keyLen slots per thread, whole only for the threads whose
	// blocks' keys tie, as far as it takes to order the others (see
	// sortThreads); Marked: whether the whole ones hold a marker.
	Keys   []int32
	KeyLen int    // the slots of one thread's key
	Marked []bool // per thread: its key holds a marker
	// names[t·n+u]: the number of thread t's slots that hold u's id;
	// blocked[t]: blockKey has keyed thread t's block (sortThreads).
	names   []int32
	blocked []bool
	heads   []threadHead // per thread: the start of its key (sortThreads)
	// rowKinds[i]: the kind of every slot of TidArrays[i] when they are
	// all of one kind, else kindMixed; namesInRows: some row slot may
	// hold a thread id (see sortThreads).
	rowKinds    []uint8
	namesInRows bool
	Order       []uint8 // threads sorted by key
	Perm        []uint8 // canon's result
	TryPerm     []uint8 // canon: the permutation being tried
	ties        []tieGroup
	free        []tieGroup // groups of tied threads without a marker
	// What canon found of the stabiliser of its representative (see
	// stabilizer): stabKnown, unless it fell back; stabMarked, the
	// permutations of the marked groups that fix it, flat, the identity
	// first; equal, the orders that gave the least vector.
	StabKnown  bool
	StabMarked []uint8 // the permutations of the marked groups that fix the representative, flat, the identity first
	Equal      []uint8 // the orders tried that gave the least vector, flat
	runs       []uint8 // Stabilizer's buffer of the free groups (StabilizerParts)
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
	// blockKeys, rowKeys: the threads' blocks keyed by blockKey and keys
	// completed by restKey (the others are ordered by less).
	blockKeys, rowKeys int64
}

// Clone returns a symmetry of the same program with buffers and counts of
// its own, for another goroutine.
func (s *Symmetry) Clone() *Symmetry {
	return &Symmetry{P: s.P, Threads: s.Threads, TidArrays: s.TidArrays, FixedRoots: s.FixedRoots,
		TidLocals: s.TidLocals, TidShared: s.TidShared, SetLocals: s.SetLocals, TidScalars: s.TidScalars, ThreadIDs: s.ThreadIDs, Kinds: s.Kinds,
		MaxOrders: s.MaxOrders, KeyLen: s.KeyLen, rowKinds: s.rowKinds, namesInRows: s.namesInRows}
}

// Apply returns the canonical vector of the state in which thread t's role
// is played by thread perm[t], st being a canonical vector (as stored):
// thread t's block and its elements of the tid-indexed arrays move to
// perm[t]'s place, the thread ids in thread-id locations are renamed, and
// the heap is renumbered by c. The result may be a
// buffer of s or of c, valid until the next call of apply or canon on s
// or of a renumbering on c; st is not modified.
func (s *Symmetry) Apply(st []int32, perm []uint8, c *semantics.Canonicaliser) []int32 {
	lay := &s.P.Layout
	s.Moved = append(s.Moved[:0], st...)
	moved := s.Moved
	size := lay.ThreadSize
	for t, to := range perm {
		from := lay.ThreadBase(t)
		copy(moved[lay.ThreadBase(int(to)):][:size], st[from:from+size])
		for _, ta := range s.TidArrays {
			src, dst := ta.Off+int32(t)*ta.RowLen, ta.Off+int32(to)*ta.RowLen
			if !ta.Square {
				copy(moved[dst:dst+ta.RowLen], st[src:src+ta.RowLen])
				continue
			}
			for u, tu := range perm {
				moved[dst+int32(tu)] = st[src+int32(u)]
			}
		}
	}
	if s.ThreadIDs {
		s.renameThreadIDs(moved, perm)
	}
	return c.Renumber(moved)
}

// renameThreadIDs renames by perm the thread ids in the thread-id
// locations of st, whose threads have been moved already.
func (s *Symmetry) renameThreadIDs(st []int32, perm []uint8) {
	rename := func(v int32) int32 {
		if v > 0 {
			return int32(perm[v-1]) + 1
		}
		return v
	}
	lay := &s.P.Layout
	for t := range s.Threads {
		base := lay.ThreadBase(t)
		pc := st[base+ir.TPC]
		if pc == 0 {
			continue
		}
		method := s.P.Code[pc].Method
		for m := s.TidLocals[method]; m != 0; m &= m - 1 {
			i := base + ir.TLocals + int32(bits.TrailingZeros64(m))
			st[i] = rename(st[i])
		}
		for m := s.SetLocals[method]; m != 0; m &= m - 1 {
			i := base + ir.TLocals + int32(bits.TrailingZeros64(m))
			set := uint32(0)
			for b := uint32(st[i]); b != 0; b &= b - 1 {
				set |= 1 << perm[bits.TrailingZeros32(b)]
			}
			st[i] = int32(set)
		}
	}
	for _, a := range s.TidShared {
		st[a] = rename(st[a])
	}
}

// Canon returns the representative of the orbit of the canonical vector
// st and the permutation that maps st to it (rep = apply(st, perm)); see
// the design comment. rep may be st itself or a buffer of s or c, and perm
// a buffer of s, valid until the next call of apply or canon on s or of a
// renumbering on c. It leaves in s what stabilizer needs to list the
// stabiliser of rep.
func (s *Symmetry) Canon(st []int32, c *semantics.Canonicaliser) (rep []int32, perm []uint8) {
	s.counts.canons++
	s.sortThreads(st)
	n := s.Threads
	s.Perm = slices.Grow(s.Perm[:0], n)[:n]
	s.StabKnown = true
	s.StabMarked = s.StabMarked[:0]
	orders := 1
	for _, g := range s.ties {
		for k := 2; k <= g.n; k++ {
			orders *= k
			if orders > s.MaxOrders {
				break
			}
		}
		if orders > s.MaxOrders {
			break
		}
	}
	if orders > s.MaxOrders {
		s.counts.fallbacks++
		s.StabKnown = false
		orders = 1
	}
	if orders == 1 {
		identity := true
		for i, t := range s.Order {
			s.Perm[t] = uint8(i)
			identity = identity && int(t) == i
		}
		s.StabMarked = appendIdentity(s.StabMarked, n)
		if identity {
			return st, s.Perm
		}
		return s.Apply(st, s.Perm, c), s.Perm
	}
	// Every order of the tied groups: an odometer of permutations, each
	// group's stepped in lexicographic order (slices of s.order).
	s.counts.enumerated++
	s.counts.orders += int64(orders)
	for _, g := range s.ties {
		slices.Sort(s.Order[g.start : g.start+g.n])
	}
	s.TryPerm = slices.Grow(s.TryPerm[:0], n)[:n]
	s.Best = s.Best[:0]
	// s.equal: the orders tried that give the least vector so far, flat.
	s.Equal = s.Equal[:0]
	for {
		for i, t := range s.Order {
			s.TryPerm[t] = uint8(i)
		}
		cand := s.Apply(st, s.TryPerm, c)
		cmp := -1
		if len(s.Best) > 0 {
			cmp = slices.Compare(cand, s.Best)
		}
		if cmp < 0 {
			s.Best = append(s.Best[:0], cand...)
			copy(s.Perm, s.TryPerm)
			s.Equal = s.Equal[:0]
		}
		if cmp <= 0 {
			s.Equal = append(s.Equal, s.TryPerm...)
		}
		g := len(s.ties) - 1
		for ; g >= 0; g-- {
			tie := s.ties[g]
			if nextPermutation(s.Order[tie.start : tie.start+tie.n]) {
				break
			}
			// nextPermutation has wrapped the group round to its first order.
		}
		if g < 0 {
			break
		}
	}
	// Each order p that gives the least vector too yields g = p∘perm⁻¹,
	// which fixes it: apply(rep, g) = apply(st, p) = rep. The first is
	// perm itself: the identity.
	for k := 0; k < len(s.Equal); k += n {
		p := s.Equal[k : k+n]
		g := len(s.StabMarked)
		s.StabMarked = slices.Grow(s.StabMarked, n)[:g+n]
		for t := range n {
			s.StabMarked[g+int(s.Perm[t])] = p[t]
		}
	}
	return s.Best, s.Perm
}

// appendIdentity appends the identity permutation of n threads to ps.
func appendIdentity(ps []uint8, n int) []uint8 {
	for t := range n {
		ps = append(ps, uint8(t))
	}
	return ps
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
// keys hold a marker (s.ties), those whose keys do not (s.free), and the
// product of the factorials of all those groups' sizes (s.tieOrder).
//
// A key is computed only as far as it takes to order the threads. It
// starts with the thread's block: its pc, operations done and return
// value as they are, then its locals (blockKey); the rest — the thread's
// rows of the tid-indexed arrays and the count of the slots that name it
// (restKey, nameKey) — follows. Two threads whose keys differ in a part
// are ordered by it alone, so the threads are sorted by the first three
// slots, then each run of equal ones by their blocks' keys, then each run
// of equal blocks' keys by the whole keys: the order, the groups and the
// markers of the groups are those of the whole keys. The count of the
// slots that name a thread needs every thread's block (blockNames for
// those not keyed), and every row when the rows may hold thread ids
// (namesInRows): then all keys are computed whole.
func (s *Symmetry) sortThreads(st []int32) {
	s.numberFromFixedRoots(st)
	lay := &s.P.Layout
	n, kl := s.Threads, s.KeyLen
	if len(s.Keys) != n*kl || len(s.names) != n*n || len(s.blocked) != n {
		s.Keys = make([]int32, n*kl)
		s.Marked = make([]bool, n)
		s.names = make([]int32, n*n)
		s.blocked = make([]bool, n)
	}
	s.Order = slices.Grow(s.Order[:0], n)[:n]
	for t := range s.Order {
		s.Order[t] = uint8(t)
	}
	s.ties, s.free = s.ties[:0], s.free[:0]
	s.TieOrder = 1
	if s.namesInRows {
		for t := range n {
			s.blockKey(st, t)
			s.restKey(st, t)
		}
		for t := range n {
			s.nameKey(t)
		}
		s.sortRun(0, n, kl)
		return
	}
	s.heads = slices.Grow(s.heads[:0], n)[:n]
	for t := range n {
		base := lay.ThreadBase(t)
		s.heads[t] = threadHead{st[base+ir.TPC], st[base+ir.TOps], st[base+ir.TRet]}
		s.blocked[t] = false
	}
	// Insertion sort by the heads, stable: there are few threads.
	for a := 1; a < n; a++ {
		for b := a; b > 0 && s.heads[s.Order[b-1]].compare(s.heads[s.Order[b]]) > 0; b-- {
			s.Order[b-1], s.Order[b] = s.Order[b], s.Order[b-1]
		}
	}
	named := !s.ThreadIDs // every thread's names are counted
	bl := int(lay.ThreadSize)
	for i := 0; i < n; {
		j := i + 1
		for j < n && s.heads[s.Order[j]] == s.heads[s.Order[i]] {
			j++
		}
		if j-i < 2 {
			i = j
			continue
		}
		for _, t := range s.Order[i:j] {
			s.blockKey(st, int(t))
			s.blocked[t] = true
		}
		if kl == bl {
			// The block's key is the whole key (no rows, no thread ids:
			// Treiber's stack): one sort.
			s.sortRun(i, j, kl)
			i = j
			continue
		}
		s.insertionSort(i, j, bl)
		for a := i; a < j; {
			b := s.runEnd(a, j, bl)
			if b-a < 2 {
				a = b
				continue
			}
			if !named {
				for t := range n {
					if !s.blocked[t] {
						s.blockNames(st, t)
					}
				}
				named = true
			}
			for _, t := range s.Order[a:b] {
				s.restKey(st, int(t))
				s.nameKey(int(t))
			}
			s.sortRun(a, b, kl)
			a = b
		}
		i = j
	}
}

// threadHead is the start of a thread's key: its pc, operations done and
// return value, which the key holds as they are (blockKey).
type threadHead struct{ pc, ops, ret int32 }

// compare compares two heads as the keys' slots compare.
func (h threadHead) compare(o threadHead) int {
	switch {
	case h.pc != o.pc:
		return cmp.Compare(h.pc, o.pc)
	case h.ops != o.ops:
		return cmp.Compare(h.ops, o.ops)
	}
	return cmp.Compare(h.ret, o.ret)
}

// insertionSort sorts s.order[i:j] by the first k slots of the threads'
// keys, stable: there are few threads.
func (s *Symmetry) insertionSort(i, j, k int) {
	for a := i + 1; a < j; a++ {
		for b := a; b > i && s.compareKeys(s.Order[b-1], s.Order[b], k) > 0; b-- {
			s.Order[b-1], s.Order[b] = s.Order[b], s.Order[b-1]
		}
	}
}

// runEnd returns the end of the run of threads of s.order[i:j] whose keys'
// first k slots equal those of s.order[i]'s.
func (s *Symmetry) runEnd(i, j, k int) int {
	b := i + 1
	for b < j && s.compareKeys(s.Order[i], s.Order[b], k) == 0 {
		b++
	}
	return b
}

// sortRun sorts s.order[i:j], whose threads' keys are whole, by key
// (stable), and appends its groups of equal keys to s.ties and s.free.
func (s *Symmetry) sortRun(i, j, kl int) {
	s.insertionSort(i, j, kl)
	for a := i; a < j; {
		b := s.runEnd(a, j, kl)
		if b-a > 1 {
			g := tieGroup{start: a, n: b - a}
			if s.Marked[s.Order[a]] {
				s.ties = append(s.ties, g)
			} else {
				s.free = append(s.free, g)
			}
			s.TieOrder = satMul(s.TieOrder, Factorial(b-a))
		}
		a = b
	}
}

// compareKeys compares the first k slots of the keys of threads a and b.
func (s *Symmetry) compareKeys(a, b uint8, k int) int {
	x, y := s.Keys[int(a)*s.KeyLen:][:k], s.Keys[int(b)*s.KeyLen:][:k]
	for i, v := range x {
		if w := y[i]; v != w {
			if v < w {
				return -1
			}
			return 1
		}
	}
	return 0
}

// keyMarker stands in a key for a reference to a node that the fixed
// roots do not reach (node numbers are positive, null is 0), and for a
// thread id other than the thread's own; keySelf for its own.
const (
	keyMarker = -1
	keySelf   = -2
)

// The key of a thread (s.keys, s.keyLen slots a thread; s.marked): its
// block and its elements of the tid-indexed arrays, references replaced by
// the nodes' numbers from the fixed roots (s.fixedNum) or keyMarker,
// thread ids by keySelf or keyMarker; then, with thread ids, whether each
// shared thread-id scalar holds the thread, and the number of the other
// threads' slots that hold it (see the design comment). blockKey computes
// the block's part, restKey the rest.

// blockKey computes the key of thread t's block in s.keys, whether it
// holds a marker (s.marked[t], for now), and in s.names[t·n+u] the number
// of the block's slots that hold u's id, for u ≠ t.
func (s *Symmetry) blockKey(st []int32, t int) {
	lay := &s.P.Layout
	n := s.Threads
	key := s.Keys[t*s.KeyLen:][:s.KeyLen]
	names := s.names[t*n:][:n]
	clear(names)
	base := lay.ThreadBase(t)
	copy(key, st[base:base+lay.ThreadSize])
	fixed := s.FixedNum
	marked := false
	pc := key[ir.TPC]
	for m := s.P.RefMask[pc]; m != 0; m &= m - 1 {
		i := ir.TLocals + bits.TrailingZeros64(m)
		if v := key[i]; v != 0 {
			if num := fixed[v]; num > 0 {
				key[i] = num
			} else {
				key[i] = keyMarker
				marked = true
			}
		}
	}
	if s.ThreadIDs && pc != 0 {
		method := s.P.Code[pc].Method
		for m := s.TidLocals[method]; m != 0; m &= m - 1 {
			i := ir.TLocals + bits.TrailingZeros64(m)
			key[i] = s.tidKey(t, key[i], names)
			marked = marked || key[i] == keyMarker
		}
		for m := s.SetLocals[method]; m != 0; m &= m - 1 {
			i := ir.TLocals + bits.TrailingZeros64(m)
			key[i] = setKey(t, uint32(key[i]), names)
			marked = marked || key[i] > 1
		}
	}
	s.Marked[t] = marked
	s.counts.blockKeys++
}

// blockNames counts in s.names[t·n+u], as blockKey does, the slots of
// thread t's block that hold u's id, for u ≠ t, without its key.
func (s *Symmetry) blockNames(st []int32, t int) {
	lay := &s.P.Layout
	n := s.Threads
	names := s.names[t*n:][:n]
	clear(names)
	base := lay.ThreadBase(t)
	pc := st[base+ir.TPC]
	if pc == 0 {
		return
	}
	method := s.P.Code[pc].Method
	loc := st[base+ir.TLocals:]
	for m := s.TidLocals[method]; m != 0; m &= m - 1 {
		s.tidKey(t, loc[bits.TrailingZeros64(m)], names)
	}
	for m := s.SetLocals[method]; m != 0; m &= m - 1 {
		setKey(t, uint32(loc[bits.TrailingZeros64(m)]), names)
	}
}

// restKey completes the key of thread t, whose block's part blockKey has
// computed, but for the last slot (nameKey): its rows of the tid-indexed
// arrays and the shared thread-id scalars that hold it; it counts in
// s.names the threads its rows name and sets s.marked[t] as far as the key
// goes.
func (s *Symmetry) restKey(st []int32, t int) {
	n := s.Threads
	key := s.Keys[t*s.KeyLen:][:s.KeyLen]
	names := s.names[t*n:][:n]
	fixed := s.FixedNum
	marked := s.Marked[t]
	pos := int(s.P.Layout.ThreadSize)
	for i := range s.TidArrays {
		ta := &s.TidArrays[i]
		if ta.Square {
			w, m := s.squareKey(st, t, ta, key[pos:], names)
			pos += w
			marked = marked || m
			continue
		}
		row := ta.Off + int32(t)*ta.RowLen
		src := st[row : row+ta.RowLen]
		dst := key[pos : pos+len(src)]
		pos += len(src)
		if s.rowKinds[i] == kindRef {
			// The common row: references (HP[tid], RL[tid][…]).
			for k, v := range src {
				if v != 0 {
					if num := fixed[v]; num > 0 {
						v = num
					} else {
						v = keyMarker
						marked = true
					}
				}
				dst[k] = v
			}
			continue
		}
		for k, v := range src {
			dst[k] = s.slotKey(row+int32(k), v, t, names)
			marked = marked || dst[k] == keyMarker
		}
	}
	for i, a := range s.TidScalars {
		key[pos+i] = 0
		if st[a] == int32(t)+1 {
			key[pos+i] = 1
		}
	}
	s.Marked[t] = marked
	s.counts.rowKeys++
}

// nameKey sets the last slot of thread t's key, with thread ids: the
// number of the other threads' slots that name it (s.names, which must be
// whole), a marker if not 0.
func (s *Symmetry) nameKey(t int) {
	if !s.ThreadIDs {
		return
	}
	n := s.Threads
	named := int32(0)
	for v := range n {
		named += s.names[v*n+t]
	}
	s.Keys[t*s.KeyLen+s.KeyLen-1] = named
	s.Marked[t] = s.Marked[t] || named > 0
}

// slotKey is the key of the value v of the shared slot a in thread t's
// row of a tid-indexed array: a reference's number from the fixed roots
// (or keyMarker), a thread id's key (tidKey), or v itself.
func (s *Symmetry) slotKey(a, v int32, t int, names []int32) int32 {
	switch s.Kinds[a] {
	case kindRef:
		if v != 0 {
			if num := s.FixedNum[v]; num > 0 {
				return num
			}
			return keyMarker
		}
	case kindThreadID:
		return s.tidKey(t, v, names)
	}
	return v
}

// tidKey is the key of the thread id v in a slot of thread t: 0, keySelf,
// or keyMarker for another thread u's, counted in names[u].
func (s *Symmetry) tidKey(t int, v int32, names []int32) int32 {
	switch {
	case v == 0:
		return 0
	case v == int32(t)+1:
		return keySelf
	}
	names[v-1]++
	return keyMarker
}

// What a shared slot holds, for the keys (sharedKinds).
const (
	kindPlain uint8 = iota
	kindRef
	kindThreadID
	kindMixed // rowKinds: slots of several kinds
)

// sharedKinds returns, per shared slot, whether it holds a reference, a
// thread id or neither: rowKey asks for every slot of every row of every
// candidate state, so a lookup beats a search of refShared and tidShared.
func (s *Symmetry) sharedKinds() []uint8 {
	kinds := make([]uint8, s.P.Layout.Nshared)
	for _, a := range s.P.Layout.RefShared {
		kinds[a] = kindRef
	}
	for _, a := range s.TidShared {
		kinds[a] = kindThreadID
	}
	return kinds
}

// numberFromFixedRoots numbers, in s.fixedNum, the nodes reached from the
// fixed roots in the order of a depth-first search (pre-order), the roots
// taken in layout order: the numbers depend only on the heap's shape as
// seen from those roots, which no permutation of the threads changes.
func (s *Symmetry) numberFromFixedRoots(st []int32) {
	lay := &s.P.Layout
	count := st[lay.HeapBase]
	s.FixedNum = slices.Grow(s.FixedNum[:0], int(count)+1)[:count+1]
	clear(s.FixedNum)
	next := int32(1)
	stack := s.Stack[:0]
	for _, a := range s.FixedRoots {
		stack = append(stack, st[a])
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if id == 0 || s.FixedNum[id] != 0 {
				continue
			}
			s.FixedNum[id] = next
			next++
			node := lay.NodeAddr(id)
			offs := lay.NodeRefOffsets(st, node)
			for i := len(offs) - 1; i >= 0; i-- { // the first field on top
				stack = append(stack, st[node+offs[i]])
			}
		}
	}
	s.Stack = stack
}

// Factorial returns n!, saturating at math.MaxInt64.
func Factorial(n int) int64 {
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

// Stabilizer lists the stabiliser of the representative rep that canon
// returned last: the permutations π with apply(rep, π) = rep, the identity
// first — for the product of the on-the-fly search: the pairs of one orbit
// that canon takes to rep carry the subsets σ·X of one subset X, σ in
// these, so the least of them is a canonical subset. It appends them to
// dst (n entries each: π[t] for each thread t) and returns their number,
// the stabiliser's order and whether that is exact; when the order is more
// than most it lists none (then take the identity alone: sound, maybe not
// canonical). When canon fell back (too many tied orders), the order is
// not known: it returns the number of permutations that preserve the
// threads' keys, a bound.
//
// canon has found the stabiliser already. A π of the stabiliser keeps
// each thread's key, so it permutes the groups of threads with equal
// keys. On a group without a marker every permutation fixes rep (the
// design comment: such threads are interchangeable); on the groups with
// one, canon tried every order, and each that gave rep again is an element
// (see canon). The stabiliser is the product of the two parts, which act
// on different threads.
func (s *Symmetry) Stabilizer(dst []uint8, most int) (out []uint8, count int, order int64, exact bool) {
	var marked []uint8
	s.runs, marked, order, exact = s.StabilizerParts(s.runs[:0])
	if !exact {
		return dst, 0, order, false
	}
	if order > int64(most) {
		return dst, 0, order, true
	}
	n := s.Threads
	s.TryPerm = slices.Grow(s.TryPerm[:0], n)[:n]
	for g := range Product(s.runs, marked, s.TryPerm) {
		dst = append(dst, g...)
	}
	return dst, int(order), order, true
}

// StabilizerParts returns the stabiliser of the representative that canon
// returned last in the two parts that Stabilizer multiplies: it appends
// to runs the groups of tied threads without a marker, each as its first
// position in rep and its length (every permutation within a group fixes
// rep), and returns the permutations of the marked groups that fix rep
// (StabMarked, the identity first), with the stabiliser's order, exact.
// When canon fell back it returns no parts, a bound on the order and
// false. An on-the-fly search keeps a successor's stabiliser so, and lists
// its elements (Product) only when a run or a marked permutation moves
// the threads of its subset.
func (s *Symmetry) StabilizerParts(runs []uint8) (out, marked []uint8, order int64, exact bool) {
	if !s.StabKnown {
		return runs, nil, s.TieOrder, false
	}
	order = int64(len(s.StabMarked) / s.Threads)
	for _, g := range s.free {
		order = satMul(order, Factorial(g.n))
		runs = append(runs, uint8(g.start), uint8(g.n))
	}
	return runs, s.StabMarked, order, true
}

// Product yields the permutations f∘m of a stabiliser given in parts
// (StabilizerParts): f any permutation within each run of runs (pairs:
// first position, length), m each of marked (flat, the identity first).
// The order is Stabilizer's, the identity first: an odometer over the
// runs' orders, each run's in lexicographic order and the last run's
// fastest, each order with every m in turn. free is a buffer of a
// permutation's length, which it overwrites; the permutation yielded is
// valid until the next.
func Product(runs, marked, free []uint8) iter.Seq[[]uint8] {
	return func(yield func([]uint8) bool) {
		n := len(free)
		g := make([]uint8, n)
		for t := range free {
			free[t] = uint8(t)
		}
		for {
			for k := 0; k < len(marked); k += n {
				for t, u := range marked[k : k+n] {
					g[t] = free[u]
				}
				if !yield(g) {
					return
				}
			}
			r := len(runs)/2 - 1
			for ; r >= 0; r-- {
				start, length := int(runs[2*r]), int(runs[2*r+1])
				if nextPermutation(free[start : start+length]) {
					break
				}
			}
			if r < 0 {
				return
			}
		}
	}
}
