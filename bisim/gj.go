package bisim

import (
	"slices"

	"github.com/linbis/linbis/lts"
)

// gjRefine computes the same coarsest stable partition as gvRefine and
// fastRefine, refining against constellations as in Groote, Jansen,
// Keiren and Wijs, "An O(m log n) algorithm for computing stuttering
// equivalence and branching bisimulation" (ACM TOCL 2017), Jansen et al.,
// "An O(m log n) algorithm for branching bisimilarity on labelled
// transition systems" (TACAS 2020), and Groote and Jansen, "A state-based
// O(m log n) partitioning algorithm for branching bisimilarity" (CONCUR
// 2025). It has their constellations, counters, B_to_C slices, bottom
// states kept together, lockstep splitting and their handling of new
// bottom states; "Complexity" below says which cost is charged to what.
//
// Design. Besides the partition into blocks there is a coarser partition
// into constellations, each a union of blocks. Invariant between rounds:
// every block X is stable under every (a, D), D a constellation, except
// (τ, the constellation of X) — that is, if some state of X has an a-step
// into D (non-inert, automatically so for these pairs), every bottom state
// of X has one (bottom state: no τ-step inside its block). When every
// constellation is a single block this is the stability of gvRefine, so
// the partition is the coarsest stable one (every split made is by a
// union of blocks and so never separates bisimilar states).
//
// A round takes a constellation C of two or more blocks and moves its
// first or last block B, whichever is smaller (at most half of C), to a
// constellation of its own. B, stable under every pair but (τ, C), is
// split under (τ, C \ B) from its own τ-steps. Then only B's incoming
// transitions are read: for every label a, every block X with an a-step
// into B is split under (a, B), and then under the co-splitter (a, C \ B)
// without reading C \ B. X was stable under (a, C), so its bottom states
// lacking an a-step into C \ B are exactly the bottom sources of a-steps
// into B whose counter for (state, a, C) dropped to 0 when those steps
// moved to B (the 2017 paper's counters; here cellCnt[tr[t].cell], one
// cell per (state, label, constellation)); if X's slice (X, a, C \ B) is
// empty, nothing splits. Blocks that had no a-step into B stay stable
// under (a, C \ B) and are not visited.
//
// Every split of a block X runs two searches in lockstep (lockstep):
// backwards over inert τ-steps from the bottom states without the
// splitter, the states that cannot reach it, and backwards from the
// states with it (the marked sources, or the sources of the slice), those
// that can; the first to finish, or the one that does not grow past half
// of X, is moved to a new block. (If every state of X is a bottom state,
// as always under strong bisimilarity, the two parts are known without a
// search and the smaller is moved.) The bottom states of every block come
// first in its range of perm, and the marked ones first among those, so
// the unmarked bottom states are a range (markState, moveToTail).
//
// New bottom states. A split can make states of the part that reaches the
// splitter lose their last inert τ-step. If that part keeps old bottom
// states, it is split (afterSplit, by lockstep, moving the smaller side)
// into the states that reach an old bottom state and those that reach only
// new ones (these are not bisimilar to old bottom states, see
// separateNewBottom in fast.go; the 2025 paper's four-way split isolates
// them as NewBotSt), and only the latter is marked dirty; otherwise the
// whole part is. So every bottom state of a dirty block is new: never read
// by fullCheck before. A dirty block may be unstable under any pair;
// fullCheck reads the transitions of its bottom states, marks them in
// their slices, and splits under each slice some bottom state lacks by
// lockstep, reading the slice only as the search of the states that reach
// it grows; a part that gets new bottom states meanwhile is registered as
// soon as one of its slices is visited (as in the papers' stabilisation
// and mCRL2's stabilizeB). It also does the initial split of the single
// starting block.
//
// Mapping to the papers: blocks are ranges begin[b]..end[b] of perm and
// constellations ranges cbegin[c]..cend[c] of the same perm (blocks of a
// constellation are contiguous, so its first and last block are found in
// O(1)); the non-trivial constellations are the stack nonTrivial; the
// B_to_C slices are bt[sl[x].begin:sl[x].end] with tr[t].bc the slice of
// transition t: moving transitions to a new constellation or with their
// source to a new block moves each to a new slice carved from the tail of
// its old one (mapBC, relink), as in TACAS 2020, except that a slice all
// of whose transitions move to the new constellation is kept as the new
// slice (moveCells); the non-empty slices of a block form two linked
// lists, those scheduled by the current fullCheck (blockSched[b]) and the
// others (blockBC[b]); an emptied slice is unlinked at once (endOp).
// What relink and moveCells touch together is kept in one record per
// transition (gjTrans: cell, slice, position), per slice (gjSlice) and
// per source state of a round (gjSeed), for fewer cache misses.
//
// Complexity, charged as in the papers:
//   - A round reads B's incoming and τ-outgoing transitions, visits the
//     labels among them, moves their counters and slices, marks and groups
//     (counting sort) their sources: O(in(B) + out(B)). B is at most half
//     of its constellation and constellations only shrink, so a state is
//     in such a B at most log₂ n times: O(m log n) in all.
//   - A lockstep alternates one step of each search, so it costs at most
//     twice the steps of the side that finishes, which is at most half of
//     the block (a side growing past half is dropped). A side's steps are
//     its states, the inert τ-steps into them, for R the splitter's
//     transitions from them, and for U the answers of has (a binary search
//     for the label, then a scan): for a state that joins U its
//     transitions with the label, for one that does not (it has the
//     splitter, and all its inert successors are in U) the same scan, but
//     such a state becomes a new bottom state of R, which happens once per
//     state in the whole run. Moving the finished part relinks its states'
//     transitions (O(1) each, marks included), and the τ-steps that stop
//     being inert are read from the side with fewer states. Every part
//     moved is at most half of its block, so a state is moved at most
//     log₂ n times: O(m log n).
//   - register reads each state as a bottom state at most once in the
//     whole run (gj_test.go checks it) and marks one transition per state
//     and slice: O(m). A block is registered only when it has bottom states
//     never read, so there are at most n registrations.
//   - A slice is scheduled (its range recorded) only by register, and is
//     then visited, piece by piece, before the check ends: the slices of
//     its block's parts carved from it while it waits are scheduled too
//     (mapBC) and tile its range. A visit unschedules the piece, so every
//     visit is of a distinct (scheduling, piece), and it is one of: a
//     split (at most n − 1 in all); a piece of a one-state block, whose
//     transitions no visit reads again (such a block is never
//     registered); or finds the block stable, reading its marked
//     transitions — at least one, as every block has a bottom state. A
//     marked transition t of bottom state s is read by at most one visit:
//     t is marked when s is registered, s stays bottom and its block is
//     never dirty again (afterSplit puts new bottom states apart from old
//     ones), so a slice holding t is scheduled at most once afterwards
//     (or was already waiting). Hence visits ≤ n + 2m, and the pieces
//     beyond the first of a range were each made by a relink.
//   - register walks only its block's unscheduled, non-empty slices (a
//     scheduled one will be visited anyway; so the registrations of parts
//     of a block while its check is under way never walk it again). A
//     walked slice is one that some bottom state has (charged to that
//     state's transition, read once), the constellation-inert one (τ into
//     the block's own constellation; one per registration, so at most n),
//     or one it schedules, which is followed by at least one visit (its
//     range is not empty), so at most n + 2m. The walks cost O(n + m) in
//     all; checkWalkBound in gj_test.go checks each of these charges.
//
// refineStats (the work counter) counts all these steps; the README has
// its figures per doubling next to the CPU times.
func gjRefine(k *kernel, opts *Options) (block []int32, numBlocks int32) {
	return newGJRefiner(k).run(opts)
}

// run refines until the partition is stable.
func (r *gjRefiner) run(opts *Options) (block []int32, numBlocks int32) {
	for rounds := 1; ; rounds++ {
		c := r.stabilize()
		if c < 0 {
			opts.recordWork(r.k, r.work)
			return r.block, r.numBlocks
		}
		r.round(c)
		if rounds%1024 == 0 {
			opts.progress("refine", int64(r.numBlocks))
		}
	}
}

// stabilize checks every dirty block, then returns a constellation of two
// or more blocks, or -1 if there is none (the partition is then stable).
func (r *gjRefiner) stabilize() int32 {
	for len(r.dirtyList) > 0 {
		x := r.dirtyList[len(r.dirtyList)-1]
		r.dirtyList = r.dirtyList[:len(r.dirtyList)-1]
		if r.dirty[x] {
			r.fullCheck(x)
		}
	}
	return r.nextConstellation()
}

// gjRefiner holds the state of gjRefine.
type gjRefiner struct {
	k                  *kernel
	block, perm, where []int32
	numBlocks          int32
	// per block
	begin, end, constOf, bottom, count, bcount, cut []int32
	dirty                                           []bool
	dirtyList                                       []int32
	groupPos, groupBlocks                           []int32 // byBlock's counting sort
	// per constellation
	cbegin, cend []int32
	inStack      []bool
	nonTrivial   []int32
	// transitions by target, and τ-sources by target
	inIndex          []int32
	in               []gjIn // transitions by target, with their source and label
	tauIndex, tauSrc []int32
	inertOut         []int32
	// counters per (state, label, constellation)
	cellCnt, freeCells []int32
	// B_to_C slices: bt holds all transitions, those of one (source block,
	// label, target constellation) contiguous in bt[sl[c].begin:sl[c].end]
	bt []int32
	tr []gjTrans // per transition: its cell, slice and position in bt
	sl []gjSlice // per slice
	// the non-empty slices of each block, in two doubly linked lists:
	// from blockSched[b] those scheduled by the current fullCheck (in a
	// range still to be visited, gjSlice.sched), from blockBC[b] the others
	blockBC, blockSched []int32
	opBlock             int32 // block of the new slices of an operation; -1: same as old
	bcTick              uint32
	bcTouched, bcEmpty  []int32
	bcFree              []int32
	inLabel             bool // seeds of the current label must follow splits
	rList               []int32
	markBuf, coBuf      []int32
	tsBC, whole         []int32 // moveCells: slice per transition; slices moved whole
	emptyBC             int32   // a slice that stays empty and in no list
	// marking for a split round
	mark           []uint32
	epoch          uint32
	oMark          []uint32 // afterSplit's lockstep, inside a round
	oEpoch         uint32
	queue, touched []int32
	newBottom      []int32
	byLabel        [][]gjIn // round: B's incoming transitions by label
	labels         []int32  // round: the labels with transitions in byLabel
	seed           []gjSeed // per state: its record as a source of the current label of a round
	stampEpoch     uint32
	seeds          []int32
	uCount         []gjCount // lockstep's U side, per state
	nEpoch         uint32
	list           []int32
	// fullCheck: ranges of bt still to visit, bt[qLo[i]:qHi[i]], qHi
	// shrinking as they are visited; active holds the unfinished ones, a
	// stack.
	qLo, qHi, active []int32
	bottomReads      []int32 // tests: per state, how often fullCheck read it as a bottom state
	visitReads       []int32 // tests: per transition, how often a visit read it (marked, or a skipped visit's witness)
	paths            gjPaths // tests: how often fullCheck's cases occurred
	work             int64   // elementary steps: states and transitions read or moved (see refineStats)
}

func newGJRefiner(k *kernel) *gjRefiner {
	n := k.n
	m := int32(len(k.src))
	r := &gjRefiner{k: k, block: make([]int32, n), perm: make([]int32, n), where: make([]int32, n),
		inertOut: make([]int32, n), mark: make([]uint32, n), oMark: make([]uint32, n), seed: make([]gjSeed, n),
		uCount:  make([]gjCount, n),
		byLabel: make([][]gjIn, k.numLabels),
		bt:      make([]int32, m), tr: make([]gjTrans, m)}
	r.newBlock(0, n, 0)
	r.cbegin, r.cend, r.inStack = []int32{0}, []int32{n}, []bool{false}
	r.buildIncoming()
	// One cell per (state, label): the strong kernel is the input, whose
	// transitions are not sorted by label within a state.
	labOwner, labCell := make([]int32, k.numLabels), make([]int32, k.numLabels)
	for i := range labOwner {
		labOwner[i] = -1
	}
	for s := int32(0); s < n; s++ {
		if r.inertOut[s] == 0 {
			r.bottom[0]++
		}
		for t := k.out[s]; t < k.out[s+1]; t++ {
			a := k.lab[t]
			if labOwner[a] != s {
				labOwner[a], labCell[a] = s, int32(len(r.cellCnt))
				r.cellCnt = append(grow(r.cellCnt), 0)
			}
			r.tr[t].cell = labCell[a]
			r.cellCnt[labCell[a]]++
		}
	}
	// One slice per label: one block, one constellation.
	for a := int32(0); a < k.numLabels; a++ {
		r.linkBC(r.allocBC(), 0, false)
	}
	for _, a := range k.lab {
		r.sl[a].end++
	}
	for a := int32(1); a < k.numLabels; a++ {
		r.sl[a].end += r.sl[a-1].end
	}
	for t := m - 1; t >= 0; t-- {
		a := k.lab[t]
		r.sl[a].end--
		r.bt[r.sl[a].end], r.tr[t].pos, r.tr[t].bc = t, r.sl[a].end, a
	}
	for a := int32(0); a < k.numLabels; a++ {
		r.sl[a].begin = r.sl[a].end
		if a+1 < k.numLabels {
			r.sl[a].end = r.sl[a+1].end
		} else {
			r.sl[a].end = m
		}
		r.sl[a].mark = r.sl[a].end
		if r.sl[a].begin == r.sl[a].end { // no such transition: no slice
			r.unlinkBC(a)
			r.bcFree = append(r.bcFree, a)
		}
	}
	// perm: bottom states first, as in every block (see moveToTail).
	i := int32(0)
	for pass := 0; pass < 2; pass++ {
		for s := int32(0); s < n; s++ {
			if (r.inertOut[s] == 0) == (pass == 0) {
				r.perm[i], r.where[s] = s, i
				i++
			}
		}
	}
	r.emptyBC = r.allocBC()
	r.markDirty(0)
	return r
}

// gjTrans is what gjRefiner keeps per transition, in one record because
// relink and moveCells read and write all of it for the same transition:
// its counter cell (cellCnt), its B_to_C slice and its position in bt.
type gjTrans struct{ cell, bc, pos int32 }

// gjSlice is a B_to_C slice: its transitions are bt[begin:end], the
// marked ones bt[mark:end] (one per bottom state of its block that
// fullCheck read, see register and relink); mapTo is its new slice in the
// current operation if stamp == bcTick (mapBC). One record, as relink
// reads and writes most of it (and one array grows faster than many).
type gjSlice struct {
	begin, end, mark, mapTo int32
	stamp                   uint32
	block, prev, next       int32 // its block and its neighbours in the block's list
	cnt, seen               int32 // register: bottom states with a transition in it, the last one counted
	sched, linked           bool  // scheduled by the current fullCheck; in a list
}

// buildIncoming makes in (all transitions by target, with source and
// label) and, if τ can be inert, tauSrc (the sources of τ-steps by
// target), both by one counting sort, and counts inertOut (one block:
// every τ-step is inert).
func (r *gjRefiner) buildIncoming() {
	k, n := r.k, r.k.n
	r.inIndex = make([]int32, n+1)
	if k.inert {
		r.tauIndex = make([]int32, n+1)
	}
	for t, d := range k.dst {
		r.inIndex[d+1]++
		if k.inert && k.lab[t] == lts.Tau {
			r.tauIndex[d+1]++
			r.inertOut[k.src[t]]++
		}
	}
	fill := make([]int32, 2*n)
	inFill, tauFill := fill[:n], fill[n:]
	for s := int32(0); s < n; s++ {
		r.inIndex[s+1] += r.inIndex[s]
		inFill[s] = r.inIndex[s]
		if k.inert {
			r.tauIndex[s+1] += r.tauIndex[s]
			tauFill[s] = r.tauIndex[s]
		}
	}
	r.in = make([]gjIn, len(k.dst))
	if k.inert {
		r.tauSrc = make([]int32, r.tauIndex[n])
	}
	for t, d := range k.dst {
		src, a := k.src[t], k.lab[t]
		r.in[inFill[d]] = gjIn{int32(t), src, a}
		inFill[d]++
		if k.inert && a == lts.Tau {
			r.tauSrc[tauFill[d]] = src
			tauFill[d]++
		}
	}
}

// allocBC returns an unused slice id, its range unset.
func (r *gjRefiner) allocBC() int32 {
	if f := len(r.bcFree); f > 0 {
		c := r.bcFree[f-1]
		r.bcFree = r.bcFree[:f-1]
		r.sl[c].sched = false
		return c
	}
	r.sl = append(grow(r.sl), gjSlice{block: -1, prev: -1, next: -1, seen: -1})
	return int32(len(r.sl) - 1)
}

// linkBC adds slice c to a list of block b: the scheduled ones if sched.
func (r *gjRefiner) linkBC(c, b int32, sched bool) {
	head := &r.blockBC[b]
	if sched {
		head = &r.blockSched[b]
	}
	r.sl[c].block, r.sl[c].prev, r.sl[c].next, r.sl[c].sched, r.sl[c].linked = b, -1, *head, sched, true
	if h := *head; h >= 0 {
		r.sl[h].prev = c
	}
	*head = c
}

// unlinkBC removes slice c from its block's list.
func (r *gjRefiner) unlinkBC(c int32) {
	p, n := r.sl[c].prev, r.sl[c].next
	if p >= 0 {
		r.sl[p].next = n
	} else if r.sl[c].sched {
		r.blockSched[r.sl[c].block] = n
	} else {
		r.blockBC[r.sl[c].block] = n
	}
	if n >= 0 {
		r.sl[n].prev = p
	}
	r.sl[c].linked = false
}

// schedule moves slice c of block b to b's scheduled list or back.
func (r *gjRefiner) schedule(c int32, sched bool) {
	if r.sl[c].sched != sched {
		r.unlinkBC(c)
		r.linkBC(c, r.sl[c].block, sched)
	}
}

// beginOp starts an operation that moves transitions from slices to new
// ones (one new slice per old one): a constellation move or a detach.
func (r *gjRefiner) beginOp(b int32) {
	r.opBlock = b
	if r.bcTick++; r.bcTick == 0 {
		for i := range r.sl {
			r.sl[i].stamp = 0
		}
		r.bcTick = 1
	}
	r.bcTouched = r.bcTouched[:0]
}

// mapBC returns the new slice of the current operation for old slice c,
// starting empty right after c's range: transitions moved into it are
// taken from c's tail.
func (r *gjRefiner) mapBC(c int32) int32 {
	if r.sl[c].stamp == r.bcTick {
		return r.sl[c].mapTo
	}
	nc := r.allocBC()
	r.sl[nc].begin, r.sl[nc].end, r.sl[nc].mark = r.sl[c].end, r.sl[c].end, r.sl[c].end
	// Carved from c's range, nc is scheduled iff c is (see fullCheck).
	if b := r.opBlock; b >= 0 {
		r.linkBC(nc, b, r.sl[c].sched)
	} else {
		r.linkBC(nc, r.sl[c].block, r.sl[c].sched)
	}
	r.sl[c].stamp, r.sl[c].mapTo = r.bcTick, nc
	r.bcTouched = append(r.bcTouched, c)
	return nc
}

// relink moves transition t to the new slice of its slice, keeping the
// marked transitions of both at their ends: an unmarked t goes to the end
// of c's unmarked ones and is then swapped past c's marked ones, to c's
// last position, which becomes the first of the new slice; a marked t goes
// to that position directly and is then swapped to the front of the new
// slice's marked ones. Each pair of swaps is done as one rotation of three
// positions, and a swap of a position with itself is skipped.
func (r *gjRefiner) relink(t int32) {
	r.work++
	tr := &r.tr[t]
	c := tr.bc
	nc := r.mapBC(c)
	p, m, e := tr.pos, r.sl[c].mark, r.sl[c].end
	if p < m { // unmarked: u (last unmarked) to p, w (last) to m-1, t to e-1
		if m < e {
			if p != m-1 {
				r.btPut(p, r.bt[m-1])
			}
			r.btPut(m-1, r.bt[e-1])
			r.btPut(e-1, t)
		} else if p != e-1 {
			r.btPut(p, r.bt[e-1])
			r.btPut(e-1, t)
		}
		r.sl[c].mark = m - 1
	} else { // marked: w (last) to p, z (last unmarked of nc) to e-1, t to mm-1
		mm := r.sl[nc].mark
		if p != e-1 {
			r.btPut(p, r.bt[e-1])
		}
		if mm-1 != e-1 {
			r.btPut(e-1, r.bt[mm-1])
		}
		r.btPut(mm-1, t)
		r.sl[nc].mark = mm - 1
	}
	r.sl[c].end = e - 1
	r.sl[nc].begin = e - 1
	tr.bc = nc
}

// btPut puts transition t at position i of bt.
func (r *gjRefiner) btPut(i, t int32) {
	r.bt[i] = t
	r.tr[t].pos = i
}

// btSwap exchanges the transitions at positions i and j of bt.
func (r *gjRefiner) btSwap(i, j int32) {
	u, v := r.bt[i], r.bt[j]
	r.btPut(i, v)
	r.btPut(j, u)
}

// markBC marks transition t in its slice (see gjSlice.mark).
func (r *gjRefiner) markBC(t int32) {
	c := r.tr[t].bc
	if m := r.sl[c].mark; r.tr[t].pos < m {
		r.btSwap(r.tr[t].pos, m-1)
		r.sl[c].mark = m - 1
	}
}

// endOp unlinks the slices the operation emptied (an empty slice never
// fills again), so that no list walk meets them, and records them to be
// freed by freeBCs.
func (r *gjRefiner) endOp() {
	r.work += int64(len(r.bcTouched))
	for _, c := range r.bcTouched {
		for _, d := range [2]int32{c, r.sl[c].mapTo} { // a new slice stays empty when made for a seed (detach)
			if r.sl[d].begin == r.sl[d].end && r.sl[d].linked {
				r.unlinkBC(d)
				r.bcEmpty = append(r.bcEmpty, d)
			}
		}
	}
}

// freeBCs frees the emptied slices; called where no seed refers to one.
func (r *gjRefiner) freeBCs() {
	r.work += int64(len(r.bcEmpty))
	r.bcFree = append(r.bcFree, r.bcEmpty...)
	r.bcEmpty = r.bcEmpty[:0]
}

// newBlock appends block id len(begin) covering perm[lo:hi] in
// constellation c; the caller sets block[] of its states.
func (r *gjRefiner) newBlock(lo, hi, c int32) int32 {
	b := r.numBlocks
	r.numBlocks++
	r.begin = append(grow(r.begin), lo)
	r.end = append(grow(r.end), hi)
	r.constOf = append(grow(r.constOf), c)
	r.bottom = append(grow(r.bottom), 0)
	r.count = append(grow(r.count), 0)
	r.bcount = append(grow(r.bcount), 0)
	r.cut = append(grow(r.cut), 0)
	r.dirty = append(grow(r.dirty), false)
	r.blockBC = append(grow(r.blockBC), -1)
	r.blockSched = append(grow(r.blockSched), -1)
	r.groupPos = append(grow(r.groupPos), 0)
	return b
}

// grow returns s with room for one more element, doubling its capacity
// when full (append grows large slices by only a quarter, and GJ makes up
// to n blocks and m slices one by one).
func grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return append(make([]T, 0, 2*cap(s)+16), s...)
}

func (r *gjRefiner) size(b int32) int32 { return r.end[b] - r.begin[b] }

func (r *gjRefiner) markDirty(b int32) {
	if !r.dirty[b] {
		r.dirty[b] = true
		r.dirtyList = append(r.dirtyList, b)
	}
}

// pushConstellation records that c may hold more than one block.
func (r *gjRefiner) pushConstellation(c int32) {
	if !r.inStack[c] {
		r.inStack[c] = true
		r.nonTrivial = append(r.nonTrivial, c)
	}
}

// nextConstellation returns a constellation of two or more blocks, or -1.
func (r *gjRefiner) nextConstellation() int32 {
	for len(r.nonTrivial) > 0 {
		r.work++
		c := r.nonTrivial[len(r.nonTrivial)-1]
		if r.block[r.perm[r.cbegin[c]]] != r.block[r.perm[r.cend[c]-1]] {
			return c
		}
		r.nonTrivial = r.nonTrivial[:len(r.nonTrivial)-1]
		r.inStack[c] = false
	}
	return -1
}

func (r *gjRefiner) swap(i, j int32) {
	r.work++
	si, sj := r.perm[i], r.perm[j]
	r.perm[i], r.perm[j] = sj, si
	r.where[si], r.where[sj] = j, i
}

// detach moves perm[hi:end[b]] to a fresh block of the same constellation
// and dirtiness, which it returns.
func (r *gjRefiner) detach(b, hi int32) int32 {
	nb := r.newBlock(hi, r.end[b], r.constOf[b])
	r.end[b] = hi
	moved := int32(0)
	k := r.k
	r.beginOp(nb)
	r.work += int64(r.end[nb] - hi)
	for _, s := range r.perm[hi:r.end[nb]] {
		r.block[s] = nb
		if r.inertOut[s] == 0 {
			moved++
		}
		for t := k.out[s]; t < k.out[s+1]; t++ {
			r.relink(t)
		}
		if r.inLabel && r.seed[s].stamp == r.stampEpoch && r.seed[s].bc != r.emptyBC {
			r.seed[s].bc = r.mapBC(r.seed[s].bc)
		}
	}
	r.endOp()
	r.bottom[nb] = moved
	r.bottom[b] -= moved
	if r.dirty[b] {
		r.dirty[nb] = true
		r.dirtyList = append(r.dirtyList, nb)
	}
	r.pushConstellation(r.constOf[b])
	return nb
}

func (r *gjRefiner) startRound() {
	nextEpoch(&r.epoch, r.mark)
	r.queue = r.queue[:0]
	r.touched = r.touched[:0]
}

// markState adds s to the current marked set. A marked bottom state moves
// to the front of its block's bottom states, so that the unmarked ones are
// perm[begin+bcount : begin+bottom].
func (r *gjRefiner) markState(s int32) {
	r.work++
	if r.mark[s] == r.epoch {
		return
	}
	b := r.block[s]
	if r.size(b) == 1 {
		return // a singleton cannot split
	}
	r.mark[s] = r.epoch
	r.queue = append(r.queue, s)
	if r.count[b] == 0 {
		r.touched = append(r.touched, b)
	}
	r.count[b]++
	if r.inertOut[s] == 0 {
		r.swap(r.where[s], r.begin[b]+r.bcount[b])
		r.bcount[b]++
	}
}

// splitMarked splits every touched block in which some bottom state is
// unmarked into the states that reach a marked one by inert τ-steps and
// the rest, found by a lockstep search that stops with the cheaper side.
// A touched block whose bottom states are all marked is stable under the
// splitter and left alone.
func (r *gjRefiner) splitMarked() {
	queue := r.queue[:0]
	r.work += int64(len(r.queue) + len(r.touched))
	for _, s := range r.queue {
		if b := r.block[s]; r.bcount[b] < r.bottom[b] {
			queue = append(queue, s)
		}
	}
	for _, b := range r.touched {
		r.cut[b] = r.bcount[b] // unmarked bottom states start at begin+cut
		r.count[b], r.bcount[b] = 0, 0
	}
	if len(queue) == 0 {
		return
	}
	r.byBlock(queue, &r.markBuf, func(x int32, m []int32) {
		unmarkedBottom := r.perm[r.begin[x]+r.cut[x] : r.begin[x]+r.bottom[x]]
		var part []int32
		reach := false
		if r.bottom[x] == r.size(x) { // all states are bottom states: no search
			r.countNoSearch()
			part = unmarkedBottom
			if len(m) < len(part) {
				part, reach = m, true
			}
			part = append(r.rList[:0], part...)
			r.rList = part
		} else {
			part, reach = r.lockstep(x, m, -1, unmarkedBottom, roundMarks, func(s int32) (bool, int32) {
				return r.mark[s] == r.epoch, 1
			})
		}
		r.splitOff(x, part, reach)
	})
}

// byBlock calls f for every block holding some of states, with those
// states, grouped in *buf by a counting sort in O(len(states)) (a
// comparison sort would add a log factor to every split round).
func (r *gjRefiner) byBlock(states []int32, buf *[]int32, f func(x int32, group []int32)) {
	r.work += 3 * int64(len(states))
	blocks := r.groupBlocks[:0]
	for _, s := range states {
		b := r.block[s]
		if r.groupPos[b] == 0 {
			blocks = append(blocks, b)
		}
		r.groupPos[b]++
	}
	r.groupBlocks = blocks
	start := int32(0)
	for _, b := range blocks { // groupPos: count -> start
		start, r.groupPos[b] = start+r.groupPos[b], start
	}
	g := slices.Grow((*buf)[:0], len(states))[:len(states)]
	*buf = g
	for _, s := range states { // groupPos: start -> end
		b := r.block[s]
		g[r.groupPos[b]] = s
		r.groupPos[b]++
	}
	start = 0
	for _, b := range blocks {
		end := r.groupPos[b]
		r.groupPos[b] = 0
		f(b, g[start:end])
		start = end
	}
}

// splitOff moves the states part of block x to a new block; reach tells
// whether part is the side that reaches the splitter.
func (r *gjRefiner) splitOff(x int32, part []int32, reach bool) {
	r.moveToTail(x, part)
	nb := r.detach(x, r.end[x]-int32(len(part)))
	if reach {
		r.afterSplit(nb, x)
	} else {
		r.afterSplit(x, nb)
	}
}

// moveToTail moves the states part of block b (distinct) to the end of
// b's range in perm, keeping bottom states first both in part and in the
// rest, in O(len(part)): every block is [bottom states | others] in perm.
func (r *gjRefiner) moveToTail(b int32, part []int32) {
	r.work += 2 * int64(len(part))
	q := r.end[b] // the non-bottom states of part go to [q, end)
	e := r.begin[b] + r.bottom[b]
	bot := e // the bottom states of part go to [e', bot), e' = e after the loop
	for _, s := range part {
		if r.inertOut[s] > 0 {
			q--
			r.swap(r.where[s], q)
		}
	}
	for _, s := range part {
		if r.inertOut[s] == 0 {
			e--
			r.swap(r.where[s], e)
		}
	}
	// [e, bot) holds part's bottom states, [bot, q) the rest's others:
	// swap the shorter run across so the bottom states end right before q.
	k, l := bot-e, q-bot
	m := min(k, l)
	for i := int32(0); i < m; i++ {
		r.swap(e+i, e+k+l-m+i)
	}
}

// afterSplit handles the τ-steps from reach into rest, which stopped being
// inert when a block split into reach (states reaching the splitter) and
// rest. Their sources may become new bottom states of reach; then reach is
// dirty, or, if it keeps old bottom states, the part of it reaching only
// new bottom states is split off and is dirty.
func (r *gjRefiner) afterSplit(reach, rest int32) {
	k := r.k
	if !k.inert {
		return
	}
	r.newBottom = r.newBottom[:0]
	lose := func(s int32) {
		if r.inertOut[s]--; r.inertOut[s] == 0 {
			r.swap(r.where[s], r.begin[reach]+r.bottom[reach]) // into the bottom states
			r.bottom[reach]++
			r.newBottom = append(r.newBottom, s)
		}
	}
	k.tauStepsBetween(r.block, r.perm[r.begin[reach]:r.end[reach]], r.perm[r.begin[rest]:r.end[rest]],
		reach, rest, r.tauIndex, r.tauSrc, &r.work, lose)
	if len(r.newBottom) == 0 {
		return
	}
	if r.dirty[reach] || r.bottom[reach] == int32(len(r.newBottom)) {
		r.markDirty(reach)
		return
	}
	// Split reach into O, the states that reach an old bottom state by
	// inert τ-steps, and N, those whose inert paths all end in new bottom
	// states (no new bottom state is bisimilar to an old one, see
	// separateNewBottom in fast.go). lockstep finds them as R and U, from
	// the old and the new bottom states (after lose, the new ones end the
	// bottom zone), and moves the smaller: the 2025 paper's four-way split
	// likewise finds its NewBotSt part among the coroutines. Only N is
	// dirty; the τ-steps from O into N stop being inert, but every state
	// of O keeps an inert path to an old bottom state.
	lo, nNew := r.begin[reach], int32(len(r.newBottom))
	oldBottom := r.perm[lo : lo+r.bottom[reach]-nNew]
	newBottom := r.perm[lo+r.bottom[reach]-nNew : lo+r.bottom[reach]]
	part, isO := r.lockstep(reach, oldBottom, -1, newBottom, ownMarks, func(int32) (bool, int32) { return false, 1 })
	r.moveToTail(reach, part)
	nb := r.detach(reach, r.end[reach]-int32(len(part)))
	r.paths.newBottomSplit[b2i(isO)]++
	o, n := reach, nb
	if isO {
		o, n = nb, reach
	}
	r.markDirty(n)
	k.tauStepsBetween(r.block, r.perm[r.begin[o]:r.end[o]], r.perm[r.begin[n]:r.end[n]], o, n,
		r.tauIndex, r.tauSrc, &r.work, func(s int32) { r.inertOut[s]-- })
}

// round moves the first or last block of constellation c, whichever is
// smaller, to a constellation of its own and restores stability under the
// splitters (a, B) and co-splitters (a, c \ B).
func (r *gjRefiner) round(c int32) {
	k := r.k
	b1, b2 := r.block[r.perm[r.cbegin[c]]], r.block[r.perm[r.cend[c]-1]]
	bs := b1
	if r.size(b2) < r.size(b1) {
		bs = b2
	}
	nc := int32(len(r.cbegin))
	r.cbegin = append(grow(r.cbegin), r.begin[bs])
	r.cend = append(grow(r.cend), r.end[bs])
	r.inStack = append(grow(r.inStack), false)
	if bs == b1 {
		r.cbegin[c] = r.end[bs]
	} else {
		r.cend[c] = r.begin[bs]
	}
	r.constOf[bs] = nc
	if k.inert {
		// B's τ-steps into c \ B are no longer constellation-internal: B,
		// stable under every other pair, is split under (τ, c \ B).
		r.startRound()
		for _, s := range r.perm[r.begin[bs]:r.end[bs]] {
			r.work++
			for t := k.out[s]; t < k.out[s+1] && k.lab[t] == lts.Tau; t++ { // τ first, see newKernel
				r.work++
				if r.constOf[r.block[k.dst[t]]] == c {
					r.markState(s)
					break
				}
			}
		}
		r.splitMarked()
	}
	for _, d := range r.perm[r.cbegin[nc]:r.cend[nc]] { // B, perhaps split above
		r.work += 1 + int64(r.inIndex[d+1]-r.inIndex[d])
		for _, e := range r.in[r.inIndex[d]:r.inIndex[d+1]] {
			// A block of one state never splits again, so its counters
			// and slices are never read: they are left stale.
			if a := e.lab; r.size(r.block[e.src]) > 1 {
				if len(r.byLabel[a]) == 0 {
					r.labels = append(r.labels, a)
				}
				r.byLabel[a] = append(r.byLabel[a], e)
			}
		}
	}
	// Only the labels of B's incoming transitions are visited, in the
	// order met (any order will do): a loop over all labels would cost
	// |labels| per round, and sorting them a log factor.
	for _, a := range r.labels {
		ts := r.byLabel[a]
		r.byLabel[a] = ts[:0]
		r.moveCells(ts)
		r.inLabel = true
		r.startRound()
		for _, e := range ts {
			s := e.src
			if a == lts.Tau && k.inert && r.constOf[r.block[s]] == nc {
				continue // τ inside the new constellation
			}
			r.markState(s)
		}
		r.splitMarked()
		r.coSplit(a, c, nc)
		r.inLabel = false
		r.work += int64(len(r.seeds))
		for _, s := range r.seeds {
			if cell := r.seed[s].oldCell; r.cellCnt[cell] == 0 {
				r.freeCells = append(r.freeCells, cell)
			}
		}
		r.freeBCs()
	}
	r.labels = r.labels[:0]
}

// moveCells moves the transitions ts (all with one label, into the block
// just moved to a new constellation) from the counter cell of (source,
// label, old constellation) to a cell of (source, label, new
// constellation), recording the old cell and slice of each source in
// its seed record and the sources in seeds.
func (r *gjRefiner) moveCells(ts []gjIn) {
	if r.stampEpoch++; r.stampEpoch == 0 {
		clear(r.seed)
		r.stampEpoch = 1
	}
	r.seeds = r.seeds[:0]
	r.beginOp(-1)
	defer r.endOp()
	r.work += 2 * int64(len(ts))
	// First the cells, counting the transitions moved per slice
	// (sl[c].cnt, where sl[c].stamp == bcTick; the slices in whole).
	tsBC := slices.Grow(r.tsBC[:0], len(ts))
	whole := r.whole[:0]
	for _, e := range ts {
		t, s := e.t, e.src
		sd, tr := &r.seed[s], &r.tr[t]
		if sd.stamp != r.stampEpoch {
			sd.stamp, sd.oldCell, sd.bc = r.stampEpoch, tr.cell, tr.bc
			r.seeds = append(r.seeds, s)
			if f := len(r.freeCells); f > 0 {
				sd.newCell = r.freeCells[f-1]
				r.freeCells = r.freeCells[:f-1]
			} else {
				sd.newCell = int32(len(r.cellCnt))
				r.cellCnt = append(grow(r.cellCnt), 0)
			}
		}
		r.cellCnt[tr.cell]--
		r.cellCnt[sd.newCell]++
		tr.cell = sd.newCell
		c := tr.bc
		tsBC = append(tsBC, c)
		if sl := &r.sl[c]; sl.stamp != r.bcTick {
			sl.stamp = r.bcTick
			r.sl[c].cnt = 0
			whole = append(whole, c)
		}
		r.sl[c].cnt++
	}
	// A slice all of whose transitions move becomes the new slice as it
	// is (mapTo itself): (block, a, B) instead of (block, a, C), and the
	// seeds' slice (block, a, C) is then empty (emptyBC). The others are
	// mapped by mapBC as their transitions are relinked.
	n := 0
	for _, c := range whole {
		if sl := &r.sl[c]; r.sl[c].cnt == sl.end-sl.begin {
			r.paths.wholeSlices++
			sl.mapTo = c
			whole[n] = c
			n++
		} else {
			sl.stamp = 0
		}
	}
	r.whole = whole[:n]
	for i, e := range ts {
		if c := tsBC[i]; r.sl[c].stamp != r.bcTick || r.sl[c].mapTo != c {
			r.relink(e.t)
		}
	}
	r.tsBC = tsBC
	if n > 0 {
		for _, s := range r.seeds {
			if sd := &r.seed[s]; r.sl[sd.bc].stamp == r.bcTick && r.sl[sd.bc].mapTo == sd.bc {
				sd.bc = r.emptyBC
			}
		}
	}
}

// gjCount is lockstep's count, for a state met by its U side, of the
// inert successors not yet known to be in U (valid where seen is the
// current epoch; -1 once the state is in U).
type gjCount struct {
	seen uint32
	left int32
}

// gjIn is a transition as gjRefiner keeps it by target: the transition,
// its source and label in one record, read in one stream by round.
type gjIn struct{ t, src, lab int32 }

// gjSeed is what a round keeps per source of the current label's
// transitions into the block B just moved: valid if stamp == stampEpoch,
// its counter cells for (a, old constellation) and (a, B) and its slice
// (block, a, old constellation), kept up to date when the source moves
// (detach).
type gjSeed struct {
	stamp                uint32
	oldCell, newCell, bc int32
}

// coSplit splits, under (a, c) where c is the constellation B just left,
// the clean blocks holding sources of a-steps into B (r.seeds). Such a
// block was stable under (a, c ∪ B) and all its bottom states are seeds,
// so its bottom states without an a-step into c are the seeds whose old
// cell is empty. Clean blocks without seeds stay stable under (a, c).
func (r *gjRefiner) coSplit(a, c, nc int32) {
	k := r.k
	// Group the seeds lacking (a, c) by block; the queue is free now.
	r.startRound()
	// (τ, c) is no splitter for blocks of c, and the parts of B are already
	// stable under it.
	own := a == lts.Tau && k.inert
	r.work += int64(len(r.seeds))
	for _, s := range r.seeds {
		x := r.block[s]
		if !r.dirty[x] && r.inertOut[s] == 0 && r.cellCnt[r.seed[s].oldCell] == 0 && !(own && (r.constOf[x] == c || r.constOf[x] == nc)) {
			r.markState(s)
		}
	}
	if len(r.touched) == 0 {
		return
	}
	for _, x := range r.touched {
		r.count[x], r.bcount[x] = 0, 0
	}
	r.byBlock(r.queue, &r.coBuf, func(x int32, z []int32) {
		bc := r.seed[z[0]].bc // (x, a, c)
		if r.dirty[x] || r.sl[bc].begin == r.sl[bc].end {
			return // dirty, or no state of x has an a-step into c
		}
		var part []int32
		reach := false
		if r.bottom[x] == r.size(x) {
			r.countNoSearch()
			// Every state is bottom: z is the part without (a, c), the
			// sources of the slice the rest; move the smaller.
			part = z
			if r.sl[bc].end-r.sl[bc].begin < int32(len(z)) {
				nextEpoch(&r.epoch, r.mark)
				part, reach = r.rList[:0], true
				r.work += int64(r.sl[bc].end - r.sl[bc].begin)
				for _, t := range r.bt[r.sl[bc].begin:r.sl[bc].end] {
					if s := k.src[t]; r.mark[s] != r.epoch {
						r.mark[s] = r.epoch
						part = append(part, s)
					}
				}
				r.rList = part
			}
		} else {
			part, reach = r.lockstep(x, nil, bc, z, freshMarks, func(s int32) (bool, int32) { return r.hasStep(s, a, c) })
		}
		r.splitOff(x, part, reach)
	})
}

// firstWithLabel returns the first transition of s with label >= a (the
// transitions of a state are sorted by label), k.out[s+1] if none.
func (k *kernel) firstWithLabel(s, a int32) int32 {
	lo, hi := k.out[s], k.out[s+1]
	for lo < hi {
		mid := int32(uint32(lo+hi) >> 1)
		if k.lab[mid] < a {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// hasStep reports whether s has an a-step into constellation c, and what
// finding out cost: for a seed of the current label its counter says so.
func (r *gjRefiner) hasStep(s, a, c int32) (bool, int32) {
	k := r.k
	if sd := &r.seed[s]; sd.stamp == r.stampEpoch {
		return r.cellCnt[sd.oldCell] > 0, 1
	}
	cost := int32(1)
	for t := k.firstWithLabel(s, a); t < k.out[s+1] && k.lab[t] == a; t++ {
		cost++
		if r.constOf[r.block[k.dst[t]]] == c {
			return true, cost
		}
	}
	return false, cost
}

// lockstep splits block x by two searches run in alternation, one step
// each, stopping when either is complete (the coroutines of the 2017
// paper): U, the states that cannot reach the splitter by inert τ-steps,
// grows backwards from uSeeds (all the bottom states that cannot), taking
// a state when all its inert successors are in U and has(state) is false;
// R, the states that can, grows backwards from rSeeds (already marked) and
// the sources of slice bc (if bc ≥ 0). marks says how R is marked (see
// rMarks). has returns the cost of its answer as well, counted as U's steps.
// It returns the complete side and whether it is R; both sides must be
// non-empty.
// rMarks selects the marks of lockstep's R side.
type rMarks int

const (
	roundMarks rMarks = iota // mark/epoch of the current round; rSeeds are marked already
	freshMarks               // mark with a new epoch
	ownMarks                 // oMark/oEpoch, leaving the round's marks alone
)

func (r *gjRefiner) lockstep(x int32, rSeeds []int32, bc int32, uSeeds []int32, marks rMarks,
	has func(s int32) (bool, int32)) (part []int32, reach bool) {
	k := r.k
	if r.nEpoch++; r.nEpoch == 0 { // U: uCount, left < 0 for a member
		clear(r.uCount)
		r.nEpoch = 1
	}
	uList := r.list[:0]
	uS, uI, uArc, uArcEnd, uDebt := 0, 0, int32(0), int32(0), int32(0)
	mark, epoch := r.mark, &r.epoch
	switch marks {
	case freshMarks:
		nextEpoch(&r.epoch, r.mark)
	case ownMarks:
		mark, epoch = r.oMark, &r.oEpoch
		nextEpoch(epoch, mark)
	}
	rList := r.rList[:0]
	rS, rI, rArc, rArcEnd, rT, rTEnd := 0, 0, int32(0), int32(0), int32(0), int32(0)
	if bc >= 0 {
		rT, rTEnd = r.sl[bc].begin, r.sl[bc].end
	}
	defer func() { r.list, r.rList = uList, rList }()
	// A side that grows past half of x is dropped, and the other finishes
	// alone: the side returned, whose transitions detach relinks, is then
	// the smaller.
	half := int(r.size(x) / 2)
	uOn, rOn := true, true
	for {
		r.work++
		if len(uList) > half {
			uOn = false
		}
		if len(rList) > half {
			rOn = false
		}
		switch { // one step of U
		case !uOn:
		case uDebt > 0:
			uDebt--
		case uArc < uArcEnd:
			y := r.tauSrc[uArc]
			uArc++
			if r.block[y] != x {
				break
			}
			uc := &r.uCount[y]
			if uc.seen != r.nEpoch {
				uc.seen, uc.left = r.nEpoch, r.inertOut[y]
			}
			if uc.left--; uc.left == 0 {
				yes, cost := has(y)
				uDebt += cost - 1
				if !yes {
					uc.left = -1
					uList = append(uList, y)
				}
			}
		case uI < len(uList):
			s := uList[uI]
			uI++
			uArc, uArcEnd = r.tauIndex[s], r.tauIndex[s+1]
		case uS < len(uSeeds):
			s := uSeeds[uS]
			uS++
			r.uCount[s] = gjCount{r.nEpoch, -1}
			uList = append(uList, s)
		default:
			return uList, false
		}
		switch { // one step of R
		case !rOn:
		case rArc < rArcEnd:
			u := r.tauSrc[rArc]
			rArc++
			if r.block[u] == x && mark[u] != *epoch {
				mark[u] = *epoch
				rList = append(rList, u)
			}
		case rI < len(rList):
			s := rList[rI]
			rI++
			rArc, rArcEnd = r.tauIndex[s], r.tauIndex[s+1]
		case rS < len(rSeeds):
			mark[rSeeds[rS]] = *epoch
			rList = append(rList, rSeeds[rS])
			rS++
		case rT < rTEnd:
			s := k.src[r.bt[rT]]
			rT++
			if mark[s] != *epoch {
				mark[s] = *epoch
				rList = append(rList, s)
			}
		default:
			return rList, true
		}
	}
}

// fullCheck makes dirty block x, all of whose bottom states are new (never
// read by an earlier fullCheck), stable under every (a, D): x is stable iff
// every bottom state of x has a transition in every non-empty slice
// (x, a, D) but (τ, its own constellation).
//
// It works as mCRL2's stabilizeB (after Groote and Jansen 2025, and
// Jansen et al. 2020): register reads the transitions of the block's
// bottom states, marks in every slice one transition of each bottom state
// with one (marked transitions are kept at the end of their slice, see
// relink), and records the range of bt of every slice that some bottom
// state lacks. A split divides a slice among the parts of its block, each
// part's transitions carved from the tail of the slice's range (relink),
// so a recorded range is always tiled by the slices of the parts: they are
// visited from its end (the slice of bt[hi-1]). A visited slice's block is
// split under it by lockstep (splitUnder), R from the sources of its marked
// transitions, reading the rest of the slice only as it grows, U from the
// block's other bottom states. A block that got new bottom states
// meanwhile (dirty, all of them new) is registered first when one of its
// slices is visited, so every visit is a split or finds the block stable,
// and no slice is visited for nothing.
func (r *gjRefiner) fullCheck(x int32) {
	r.dirty[x] = false
	if r.size(x) == 1 {
		return // its slices may be stale, see round
	}
	r.qLo, r.qHi, r.active = r.qLo[:0], r.qHi[:0], r.active[:0]
	r.register(x)
	for len(r.active) > 0 {
		r.work++
		i := r.active[len(r.active)-1]
		if r.qHi[i] <= r.qLo[i] {
			r.active = r.active[:len(r.active)-1]
			continue
		}
		t := r.bt[r.qHi[i]-1]
		c := r.tr[t].bc
		y := r.sl[c].block
		r.paths.visits++
		if !r.sl[c].sched {
			r.paths.visitUnscheduled++ // never: every slice in a range is
		}
		r.qHi[i] = r.sl[c].begin
		if r.size(y) == 1 {
			r.schedule(c, false)
			r.paths.skipped++
			if r.visitReads != nil {
				r.visitReads[t]++ // the witness of a skipped visit
			}
			continue
		}
		if r.dirty[y] { // c, still scheduled, is not recorded again
			r.paths.registered++
			r.register(y)
		}
		r.schedule(c, false)
		r.splitUnder(y, c)
	}
	r.freeBCs()
}

// register reads the bottom states of dirty block y (all new, none read
// before): it marks one transition per bottom state and slice, and
// schedules every slice of y that some bottom state lacks, recording its
// range. It walks only y's unscheduled slices: the scheduled ones are
// visited anyway.
func (r *gjRefiner) register(y int32) {
	k := r.k
	r.dirty[y] = false
	r.paths.registrations++
	bottoms := r.perm[r.begin[y] : r.begin[y]+r.bottom[y]]
	if r.bottomReads != nil {
		for _, s := range bottoms {
			r.bottomReads[s]++
		}
	}
	for c := r.blockBC[y]; c >= 0; c = r.sl[c].next {
		r.work++
		r.sl[c].cnt = 0
	}
	for _, s := range bottoms {
		r.work += 1 + int64(k.out[s+1]-k.out[s])
		r.paths.bottomOut += int(k.out[s+1] - k.out[s])
		for t := k.out[s]; t < k.out[s+1]; t++ {
			// seen need not be reset: s is read only once.
			if c := r.tr[t].bc; r.sl[c].seen != s {
				r.sl[c].seen = s
				r.markBC(t) // in a scheduled slice too, for its visit
				if !r.sl[c].sched {
					r.sl[c].cnt++
				}
			}
		}
	}
	cy := r.constOf[y]
	for c, next := r.blockBC[y], int32(0); c >= 0; c = next {
		next = r.sl[c].next
		r.work++
		r.paths.regWalk++
		if r.sl[c].cnt > 0 {
			r.paths.regHad++ // charged to a bottom state's transition
		}
		if r.sl[c].cnt == r.bottom[y] {
			continue
		}
		if t := r.bt[r.sl[c].begin]; k.inert && k.lab[t] == lts.Tau && r.constOf[r.block[k.dst[t]]] == cy {
			r.paths.regInert++ // at most one per registration
			continue           // constellation-inert
		}
		if r.sl[c].cnt == 0 {
			r.paths.noBottomSlices++
		}
		r.paths.scheduled++
		r.schedule(c, true)
		r.active = append(r.active, int32(len(r.qLo)))
		r.qLo = append(r.qLo, r.sl[c].begin)
		r.qHi = append(r.qHi, r.sl[c].end)
	}
}

// splitUnder splits clean block y, all of whose bottom states have been
// registered, under its slice c: the bottom states with a transition in c
// are the sources of c's marked transitions.
func (r *gjRefiner) splitUnder(y, c int32) {
	k := r.k
	r.startRound()
	r.work += int64(r.sl[c].end - r.sl[c].mark)
	for _, t := range r.bt[r.sl[c].mark:r.sl[c].end] {
		r.markState(k.src[t])
		if r.visitReads != nil {
			r.visitReads[t]++
		}
	}
	marked, bottom := r.bcount[y], r.bottom[y]
	r.count[y], r.bcount[y] = 0, 0
	if marked == bottom {
		r.paths.stable++
		return // every bottom state has a transition in c: stable
	}
	unmarked := r.perm[r.begin[y]+marked : r.begin[y]+bottom]
	var part []int32
	reach := false
	if bottom == r.size(y) { // all states are bottom states: no search
		r.countNoSearch()
		part = unmarked
		if len(r.queue) < len(part) {
			part, reach = r.queue, true
		}
		part = append(r.rList[:0], part...)
		r.rList = part
	} else {
		a := k.lab[r.bt[r.sl[c].begin]]
		part, reach = r.lockstep(y, r.queue, c, unmarked, roundMarks, func(s int32) (bool, int32) { return r.inSlice(s, a, c) })
	}
	if marked == 0 {
		r.paths.noBottomWith++
	}
	r.paths.split[b2i(reach)]++
	r.splitOff(y, part, reach)
}

// inSlice reports whether s has an a-transition in slice c, and what
// finding out cost.
func (r *gjRefiner) inSlice(s, a, c int32) (bool, int32) {
	k := r.k
	cost := int32(1)
	for t := k.firstWithLabel(s, a); t < k.out[s+1] && k.lab[t] == a; t++ {
		cost++
		if r.tr[t].bc == c {
			return true, cost
		}
	}
	return false, cost
}

// gjPaths counts how often the cases of fullCheck's and afterSplit's splits occurred, so
// that tests can show they exercise each.
type gjPaths struct {
	visits           int    // slices visited by fullCheck
	visitUnscheduled int    // visits of a slice not scheduled (never)
	skipped          int    // a visited slice of a one-state block
	registrations    int    // calls of register
	bottomOut        int    // transitions of the bottom states register read
	regWalk          int    // slices register walked
	regHad           int    // of those, slices some bottom state has
	regInert         int    // of those, constellation-inert slices no bottom state has
	scheduled        int    // of those, slices scheduled (some bottom state lacks them)
	registered       int    // a visited slice of a block with new bottom states, registered then
	noBottomSlices   int    // an unstable slice of a dirty block that none of its bottom states has
	stable           int    // a visited slice every bottom state of its block has
	noBottomWith     int    // a split under a slice no bottom state has
	split            [2]int // splits moving the part without / with the slice
	wholeSlices      int    // slices kept whole by moveCells
	noSearch         int    // splits of blocks of bottom states only under branching (no lockstep)
	// afterSplit's splits of a part with old and new bottom states,
	// moving the states that reach only new ones / the others
	newBottomSplit [2]int
}

// countNoSearch counts a split without lockstep where τ-steps can be inert.
func (r *gjRefiner) countNoSearch() {
	if r.k.inert {
		r.paths.noSearch++
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
