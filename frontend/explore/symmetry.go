package explore

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/linbis/linbis/frontend/syntax"
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
// t+1 of each tid-indexed array (see below) to π[t]+1, and the heap is
// then renumbered canonically (canonicaliser.renumber), since its
// numbering follows the threads' order.
//
// When the group acts by automorphisms (newSymmetry). π is an automorphism
// of the LTS, up to the renaming of thread ids in labels, when every
// transition s -a-> s' of thread t gives π·s -π(a)-> π·s' of thread π[t],
// and conversely (π⁻¹ is a permutation too). A step of thread t reads and
// writes its own block, the shared variables and the heap; it depends on
// t only through the client (which methods t may call: the same for all
// threads unless an `only` clause says otherwise) and through the value of
// tid. newSymmetry accepts a program only when tid occurs nowhere but as
// the index of a shared array with indices exactly 1..nthreads (HP[tid]),
// and such an array is indexed by nothing else. Then thread t reaches
// exactly element t+1 of those arrays, which the action moves with its
// block, and a thread id is never stored, compared or computed with, so no
// other slot of the state holds one. It also refuses nthreads in the
// methods: a loop over the thread indices visits them in a fixed order,
// and a thread's state half-way through such a loop is not mapped to a
// reachable state by a permutation. The allocator offers every freed node
// of a type, whatever their numbers, and the check of private nodes
// (machine.private) looks at all the other threads alike, so neither
// depends on the threads' order. The init block is exempt: it runs once,
// before any thread, and builds the initial state; the argument above
// concerns the transitions only (the initial state need not be
// symmetric: a search starts from its representative, and a path from
// π·s lifts to a path from s with the labels renamed by π⁻¹).
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
// state of the orbit), or by a marker if that search does not reach it.
// Threads with different keys are thus ordered the same way in every state
// of the orbit. Threads with equal keys and no marker have equal blocks,
// references included (the same numbers denote the same nodes), so their
// order does not matter. Among threads with equal keys and a marker, every
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
	// tidArrays: the offsets in the state vector of the shared arrays
	// indexed by tid (element 1 first); their elements move with the
	// threads.
	tidArrays []int32
	// fixedRoots: the shared reference slots outside the tid-indexed
	// arrays, in layout order. No permutation moves them: the nodes they
	// reach are numbered alike in every state of an orbit (see key).
	fixedRoots []int32
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

// newSymmetry returns the thread symmetry of p under bounds b, or nil and
// a one-line reason, naming the source position of the offending use, if
// it cannot show that permuting threads maps the LTS onto itself (see the
// design comment above). It is meant for both the implementation and the
// specification.
func newSymmetry(p *program, b Bounds) (*symmetry, string) {
	if len(b.Only) > 0 {
		where := ""
		if p.client != nil && len(p.client.Only) > 0 {
			where = p.file.Position(p.client.Only[0].Pos).String() + ": "
		}
		return nil, where + "the client's only clause gives threads different methods; thread symmetry needs them interchangeable"
	}
	c := symChecker{p: p, tidIndexed: map[int32]bool{}, otherIndex: map[int32]syntax.Pos{}}
	initMethod := int32(-1)
	if p.initMethod != nil {
		initMethod = p.initMethod.index
	}
	for pc := 1; pc < len(p.code) && c.reason == ""; pc++ {
		in := &p.code[pc]
		if in.method == initMethod {
			continue
		}
		ctx := "stored"
		switch in.op {
		case opBranch, opAssert, opAwait:
			ctx = "as a condition"
		case opReturn:
			ctx = "returned"
		case opLin:
			ctx = "as a linearization value"
		case opFree:
			ctx = "freed"
		}
		c.expr(in.lhs, "as a location")
		c.expr(in.x, ctx)
	}
	if c.reason != "" {
		return nil, c.reason
	}
	s := &symmetry{p: p, threads: p.threads, maxOrders: maxTiedOrders}
	for off := range c.tidIndexed {
		if pos, ok := c.otherIndex[off]; ok {
			return nil, fmt.Sprintf("%s: %s is indexed by tid elsewhere and by another index here; thread symmetry needs it indexed by tid only",
				p.file.Position(pos), c.names[off])
		}
		s.tidArrays = append(s.tidArrays, off)
	}
	slices.Sort(s.tidArrays)
	for _, a := range p.lay.refShared {
		if !s.inTidArray(a) {
			s.fixedRoots = append(s.fixedRoots, a)
		}
	}
	s.keyLen = int(p.lay.threadSize) + len(s.tidArrays)
	return s, ""
}

// inTidArray reports whether the shared slot a is an element of a
// tid-indexed array.
func (s *symmetry) inTidArray(a int32) bool {
	for _, off := range s.tidArrays {
		if a >= off && a < off+int32(s.threads) {
			return true
		}
	}
	return false
}

// symChecker walks the methods' expressions for newSymmetry.
type symChecker struct {
	p *program
	// tidIndexed: the offsets of the arrays indexed by tid; otherIndex:
	// of those indexed otherwise, with the position of the first such
	// index; names: the arrays' names.
	tidIndexed map[int32]bool
	otherIndex map[int32]syntax.Pos
	names      map[int32]string
	reason     string // the first use that breaks symmetry, "" if none yet
}

// expr checks e, found in the context ctx (how its value is used, for the
// message).
func (c *symChecker) expr(e *expr, ctx string) {
	if e == nil || c.reason != "" {
		return
	}
	switch e.k {
	case eTid:
		c.refuse(e.pos, "tid is used "+ctx+"; thread symmetry needs tid only as the index of a shared [1..nthreads] array (HP[tid])")
		return
	case eConst:
		if e.name == "nthreads" {
			c.refuse(e.pos, "nthreads is used in a method; a loop over the thread ids visits them in an order that breaks thread symmetry")
		}
		return
	case eElem:
		if c.names == nil {
			c.names = map[int32]string{}
		}
		c.names[e.v] = e.name
		if e.a.k == eTid {
			if e.lo != 1 || e.n != int32(c.p.threads) {
				c.refuse(e.a.pos, fmt.Sprintf("tid indexes %s, whose indices are %d..%d, not 1..nthreads; thread symmetry needs tid only as the index of a shared [1..nthreads] array",
					e.name, e.lo, e.lo+e.n-1))
				return
			}
			c.tidIndexed[e.v] = true
			return
		}
		if _, ok := c.otherIndex[e.v]; !ok {
			c.otherIndex[e.v] = e.a.pos
		}
		c.expr(e.a, "in an index other than tid alone")
		return
	case eUnary:
		c.expr(e.a, "in arithmetic")
		return
	case eBinary:
		ctx := "in arithmetic"
		switch e.op {
		case syntax.EQL, syntax.NEQ:
			ctx = "in a comparison"
		case syntax.LSS, syntax.LEQ, syntax.GTR, syntax.GEQ:
			ctx = "in an order comparison"
		case syntax.LAND, syntax.LOR:
			ctx = "as a condition"
		}
		c.expr(e.a, ctx)
		c.expr(e.b, ctx)
		return
	case eCas:
		c.expr(e.a, "as a location")
		c.expr(e.b, "in a cas")
		c.expr(e.c, "stored")
		return
	case eField:
		c.expr(e.a, "as a node")
		return
	case eNew:
		for _, fi := range e.inits {
			c.expr(fi.x, "stored")
		}
		return
	}
}

func (c *symChecker) refuse(pos syntax.Pos, msg string) {
	if c.reason == "" {
		c.reason = c.p.file.Position(pos).String() + ": " + msg
	}
}

// clone returns a symmetry of the same program with buffers and counts of
// its own, for another goroutine.
func (s *symmetry) clone() *symmetry {
	return &symmetry{p: s.p, threads: s.threads, tidArrays: s.tidArrays, fixedRoots: s.fixedRoots,
		maxOrders: s.maxOrders, keyLen: s.keyLen}
}

// apply returns the canonical vector of the state in which thread t's role
// is played by thread perm[t], st being a canonical vector (as stored):
// thread t's block and its elements of the tid-indexed arrays move to
// perm[t]'s place, and the heap is renumbered by c. The result may be a
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
		for _, off := range s.tidArrays {
			moved[off+int32(to)] = st[off+int32(t)]
		}
	}
	return c.renumber(moved)
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
// roots do not reach (node numbers are positive, null is 0).
const keyMarker = -1

// computeKeys fills s.keys and s.marked: per thread, its block and its
// elements of the tid-indexed arrays, references replaced by the nodes'
// numbers from the fixed roots (s.fixedNum) or keyMarker.
func (s *symmetry) computeKeys(st []int32) {
	s.numberFromFixedRoots(st)
	lay := &s.p.lay
	n := s.threads
	s.keys = slices.Grow(s.keys[:0], n*s.keyLen)[:n*s.keyLen]
	s.marked = slices.Grow(s.marked[:0], n)[:n]
	for t := range n {
		key := s.keys[t*s.keyLen:][:s.keyLen]
		base := lay.threadBase(t)
		copy(key, st[base:base+lay.threadSize])
		marked := false
		for m := s.p.refMask[st[base+tPC]]; m != 0; m &= m - 1 {
			i := tLocals + bits.TrailingZeros64(m)
			key[i] = s.refKey(key[i])
			marked = marked || key[i] == keyMarker
		}
		for i, off := range s.tidArrays {
			v := st[off+int32(t)]
			if s.isRefSlot(off) {
				v = s.refKey(v)
				marked = marked || v == keyMarker
			}
			key[int(lay.threadSize)+i] = v
		}
		s.marked[t] = marked
	}
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
