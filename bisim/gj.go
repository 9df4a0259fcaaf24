package bisim

import (
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
// Files: gj.go holds this comment, the refiner's records and its set-up;
// gj_slices.go the B_to_C slices and counters; gj_round.go the rounds
// (splitters and co-splitters); gj_split.go splitting a block (lockstep,
// detach, new bottom states); gj_stabilize.go fullCheck; gj_debug.go the
// counters and invariant checks that tests turn on. blocks.go holds the
// partition core shared with fastRefine.
//
// refineStats (the work counter) counts all these steps; bench_test.go
// reports them per kernel transition and per m·log₂ n.
func gjRefine(k *kernel, opts *Options) (block []int32, numBlocks int32) {
	return newGJRefiner(k).run(opts)
}

// run refines until the partition is stable.
func (r *gjRefiner) run(opts *Options) (block []int32, numBlocks int32) {
	for rounds := 1; ; rounds++ {
		c := r.stabilize()
		r.debug.sanity(r, rounds)
		if c < 0 {
			opts.recordWork(r.k, r.work)
			return r.block, r.numBlocks
		}
		r.round(c)
		if rounds%1024 == 0 {
			opts.progress("refine", int64(r.numBlocks))
			opts.poll()
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

// gjRefiner holds the state of gjRefine, in parts by job: the partition
// core shared with fastRefine, then what GJ adds.
type gjRefiner struct {
	blockPartition // blocks, bottom states and a round's marks (blocks.go)
	gjBlocks
	gjConstellations
	gjIncoming
	gjSlices
	gjRound
	gjSearch
	gjCheck
	debug *gjDebug // tests only: counters and invariant checks (gj_debug.go); nil otherwise
}

// gjBlocks is what gjRefiner keeps per block beside the core's.
type gjBlocks struct {
	constOf     []int32 // per block: its constellation
	dirty       []bool  // per block: it has bottom states fullCheck has not read
	dirtyList   []int32 // blocks marked dirty and not yet checked, a stack
	groupPos    []int32 // per block: byBlock's counting-sort position; 0 outside byBlock
	groupBlocks []int32 // byBlock: the blocks met, in order
}

// gjConstellations is the coarser partition: each constellation is a
// union of blocks contiguous in perm.
type gjConstellations struct {
	cbegin, cend []int32 // per constellation: its range of perm
	inStack      []bool  // per constellation: on nonTrivial
	nonTrivial   []int32 // constellations that may hold two or more blocks, a stack
}

// gjIncoming is the kernel's transitions by target, for the rounds.
type gjIncoming struct {
	inIndex []int32 // CSR index of in, by target state
	in      []gjIn  // all transitions by target, with their source and label

	// The sources of the τ-steps into d, read backwards over inert
	// τ-steps, are tauSrc[tauFrom[d]:tauTo[d]] (tauFrom and tauTo are
	// one index array, shifted by one). Set only where τ can be inert
	// (branching kernels).
	tauFrom, tauTo, tauSrc []int32
}

// tauInto returns the sources of the τ-steps into d.
func (r *gjRefiner) tauInto(d int32) []int32 { return r.tauSrc[r.tauFrom[d]:r.tauTo[d]] }

// gjSlices is the B_to_C slices (gj_slices.go) and the counters of the
// co-splitters.
type gjSlices struct {
	bt         []int32   // all transitions, those of one slice c contiguous: bt[sl[c].begin:sl[c].end]
	tr         []gjTrans // per transition: its cell, slice and position in bt
	sl         []gjSlice // per slice
	blockBC    []int32   // per block: the first of its unscheduled non-empty slices, -1 if none
	blockSched []int32   // per block: the first of its slices scheduled by the current fullCheck
	bcFree     []int32   // unused slice ids
	emptyBC    int32     // a slice that stays empty and in no list (a seed's old slice moved whole)
	cellCnt    []int32   // per counter cell (state, label, constellation): its transitions
	freeCells  []int32   // cells emptied by rounds, for reuse

	// The current operation (beginOp … endOp), which moves transitions
	// from their slices to new ones.
	opBlock   int32   // the block of the new slices; -1: the old slice's block
	bcTick    uint32  // the operation's stamp (gjSlice.stamp)
	bcTouched []int32 // the old slices given a new one
	bcEmpty   []int32 // slices emptied and unlinked, freed by freeBCs
	tsBC      []int32 // moveCells: per transition moved, its old slice
	whole     []int32 // moveCells: the slices all of whose transitions move
}

// gjRound is the state of a round (round, coSplit).
type gjRound struct {
	byLabel    [][]gjIn // per label: the transitions into the block B just moved
	labels     []int32  // the labels with transitions in byLabel, in the order met
	seed       []gjSeed // per state: its record as a source of the current label
	stampEpoch uint32   // the current label's stamp in seed
	seeds      []int32  // the sources of the current label's transitions into B
	inLabel    bool     // a label is under way: detach keeps the seeds' slices current
	markBuf    []int32  // splitMarked's groups (byBlock)
	coBuf      []int32  // coSplit's groups (byBlock)
}

// gjSearch is lockstep's scratch.
type gjSearch struct {
	uCount []gjCount // per state: what the U side knows of it
	nEpoch uint32    // the current search's stamp in uCount
	list   []int32   // the U side's states
	rList  []int32   // the R side's states; also the part a split without search moves
	oMark  []uint32  // per state: afterSplit's R marks, apart from the round's
	oEpoch uint32    // the current stamp in oMark
}

// gjCheck is fullCheck's agenda: the ranges of bt still to visit,
// bt[qLo[i]:qHi[i]], qHi shrinking as they are visited.
type gjCheck struct {
	qLo, qHi []int32 // per range: its bounds
	active   []int32 // the unfinished ranges, a stack
}

// newGJRefiner returns the refiner of k with one block, dirty.
func newGJRefiner(k *kernel) *gjRefiner {
	k.needSrc()
	n := k.n
	m := int32(len(k.src))
	r := &gjRefiner{blockPartition: newBlockPartition(k)}
	r.addGJBlock(0)
	r.oMark, r.uCount = make([]uint32, n), make([]gjCount, n)
	r.seed, r.byLabel = make([]gjSeed, n), make([][]gjIn, k.numLabels)
	r.bt, r.tr = make([]int32, m), make([]gjTrans, m)
	r.cbegin, r.cend, r.inStack = []int32{0}, []int32{n}, []bool{false}
	r.buildIncoming()
	// One cell per (state, label): the strong kernel is the input, whose
	// transitions are not sorted by label within a state.
	labOwner, labCell := make([]int32, k.numLabels), make([]int32, k.numLabels)
	for i := range labOwner {
		labOwner[i] = -1
	}
	for s := int32(0); s < n; s++ {
		if r.st[s].inertOut == 0 {
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
			if (r.st[s].inertOut == 0) == (pass == 0) {
				r.perm[i], r.where[s] = s, i
				i++
			}
		}
	}
	r.emptyBC = r.allocBC()
	r.markDirty(0)
	return r
}

// newBlock appends a block covering perm[lo:hi] in constellation c and
// returns it; the caller sets block[] of its states.
func (r *gjRefiner) newBlock(lo, hi, c int32) int32 {
	r.addGJBlock(c)
	return r.addBlock(lo, hi)
}

// addGJBlock appends an entry for one more block, in constellation c, to
// the per-block slices that gjRefiner adds to the core's.
func (r *gjRefiner) addGJBlock(c int32) {
	n := r.k.n
	r.constOf = appendBlockEntry(r.constOf, c, n)
	r.dirty = appendBlockEntry(r.dirty, false, n)
	r.blockBC = appendBlockEntry(r.blockBC, -1, n)
	r.blockSched = appendBlockEntry(r.blockSched, -1, n)
	r.groupPos = appendBlockEntry(r.groupPos, 0, n)
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

// gjCount is lockstep's count, for a state met by its U side, of the
// inert successors not yet known to be in U (valid where seen is the
// current epoch; -1 once the state is in U).
type gjCount struct {
	seen uint32
	left int32
}

// buildIncoming makes in (all transitions by target, with source and
// label) and, if τ can be inert, tauSrc (the sources of τ-steps by
// target), both by one counting sort, and counts inertOut (one block:
// every τ-step is inert).
func (r *gjRefiner) buildIncoming() {
	k, n := r.k, r.k.n
	r.inIndex = make([]int32, n+1)
	var tauIndex []int32
	if k.inert {
		tauIndex = make([]int32, n+1)
	}
	for t, d := range k.dst {
		r.inIndex[d+1]++
		if k.inert && k.lab[t] == lts.Tau {
			tauIndex[d+1]++
			r.st[k.src[t]].inertOut++
		}
	}
	fill := make([]int32, 2*n)
	inFill, tauFill := fill[:n], fill[n:]
	for s := int32(0); s < n; s++ {
		r.inIndex[s+1] += r.inIndex[s]
		inFill[s] = r.inIndex[s]
		if k.inert {
			tauIndex[s+1] += tauIndex[s]
			tauFill[s] = tauIndex[s]
		}
	}
	r.in = make([]gjIn, len(k.dst))
	if k.inert {
		r.tauSrc = make([]int32, tauIndex[n])
		r.tauFrom, r.tauTo = tauIndex[:n], tauIndex[1:]
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

// grow returns s with room for one more element, doubling its capacity
// when full (append grows large slices by only a quarter, and GJ makes up
// to n blocks and m slices one by one).
func grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return append(make([]T, 0, 2*cap(s)+16), s...)
}

// markDirty records that block b has bottom states fullCheck has not read.
func (r *gjRefiner) markDirty(b int32) {
	if !r.dirty[b] {
		r.dirty[b] = true
		r.dirtyList = append(r.dirtyList, b)
	}
}
