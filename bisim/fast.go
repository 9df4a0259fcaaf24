package bisim

import (
	"slices"

	"github.com/linbis/linbis/lts"
)

// fastRefine computes the same coarsest stable partition as gvRefine (see
// its comment for stability) with a worklist, touching only the parts of
// the graph next to the blocks that changed.
//
// Design. It borrows ideas of Groote, Jansen, Keiren and Wijs, "An
// O(m log n) algorithm for computing stuttering equivalence and branching
// bisimulation" (ACM TOCL 2017), and of its successors (Jansen et al.,
// TACAS 2020; Groote and Jansen, 2025), but NOT their constellations and
// "process the smaller half" accounting, so its worst case is O(n·m) like
// GV's, not O(m log n); bench_test.go and the package README give measured
// figures. The ideas it uses:
//
//   - Bottom states. The τ graph of the kernel is acyclic, so every state
//     reaches by inert τ-steps a bottom state of its block (one with no
//     inert τ-step). Hence a block B is stable under a splitter (a, C) iff
//     no state of B has a non-inert a-transition into C or every bottom
//     state of B has one (the bottom-state argument of GJKW 2017). That
//     needs only counts: a block that turns out stable costs nothing
//     beyond marking the sources of the transitions into C, and the
//     backward closure over inert τ-steps runs only in blocks that really
//     split.
//   - When B splits into the part P that reaches (a, C) — the closure of
//     the marked states — and the rest R, no state of R has a τ-step into
//     P, so R keeps its inert paths and stays stable. The states of P with
//     τ-steps into R may become new bottom states; P stays stable under
//     every other (a', C') iff each new bottom state has the same direct
//     (a', C') as an old bottom state ref of R, so checkNewBottom compares
//     them and makes C' target-dirty where they differ. A state becomes a
//     new bottom state at most once.
//   - A split moves the smaller side to a fresh block.
//
// Data (flat int32 slices, allocated once): block[s]; perm holds the states
// grouped by block, block b occupying perm[begin[b]:end[b]], and where[s] is
// the index of s in perm; inArc is the CSR by target of the transitions,
// each packed as label<<32 | source so that processTarget reads one stream,
// and tauSrc that of τ-transition sources by target; inertOut[s] counts the
// inert τ-steps of s and bottom[b] the bottom states of b.
//
// Worklist: a target-dirty block C may make blocks with transitions into it
// unstable under (a, C) for some a; processTarget groups the transitions
// into C by label and splits under each (a, C). Both halves of every split
// become target-dirty.
//
// Invariants: (1) the partition is always coarser than the coarsest stable
// one, because every splitter used is a union of current blocks and only
// non-inert transitions are marked (such a splitter never separates
// bisimilar states); (2) every block is
// stable under every (a, C) with C not target-dirty: a block's stability
// can be broken only by a split of a block its transitions enter (which is
// then target-dirty) or by a change of its own inert paths, which happens
// only to P above and is handled by checkNewBottom. When the worklist is
// empty the partition is stable, hence the coarsest stable partition.
// inertOut and bottom are exact between rounds.
//
// Known weakness, measured on random LTSs with half their transitions τ
// (bench_test.go), where doubling the size still multiplies the time by
// 3–4. Counting on benchRandom(10k/20k/40k) (kernel 16.5k/32k/63.5k
// transitions) showed where: a contracted giant τ-SCC G holding a sixth
// of the kernel's transitions is the only old bottom state of its block, so it is ref at nearly
// every checkNewBottom (840/1 400/2 760 calls reading 2.4 M/8.0 M/31 M
// transitions of ref), and the new bottom states lack most of G's keys, so
// their targets, made target-dirty one by one, were re-read by
// processTarget (1.0 M/3.5 M/11.9 M arcs; the targets made dirty by splits
// cost only 52 k/119 k/248 k). Both terms are out-degree of G times the
// number of splits next to it. The O(m log n) algorithms avoid them with
// per-(block, label, constellation) transition slices and "process the
// smaller half" accounting for new bottom states as well; this refinement
// has neither. Re-splitting reach locally from its own out-transitions
// instead of making the targets dirty was tried and measured no faster:
// reading ref is the remaining term.
func fastRefine(k *kernel, opts *Options) (block []int32, numBlocks int32) {
	r := newRefiner(k)
	r.pushTarget(0)
	steps := 0
	for len(r.targets) > 0 {
		c := r.targets[len(r.targets)-1]
		r.targets = r.targets[:len(r.targets)-1]
		r.inTargets[c] = false
		r.processTarget(c)
		if steps++; steps&1023 == 0 {
			opts.progress("refine", int64(r.numBlocks))
		}
	}
	return r.block, r.numBlocks
}

// refiner holds the state of fastRefine.
type refiner struct {
	k                  *kernel
	block, perm, where []int32
	begin, end         []int32 // range of each block in perm
	numBlocks          int32
	inIndex            []int32  // CSR index of inArc
	inArc              []uint64 // all transitions by target, label<<32 | source
	tauIndex, tauSrc   []int32  // sources of τ-transitions by target
	inertOut           []int32  // inert τ-steps per state
	bottom             []int32  // bottom states per block
	rep                []int32  // a bottom state of each block, of small out-degree if possible; -1 if not known
	mark               []uint32
	epoch              uint32
	count, bcount      []int32 // marked states, marked bottom states per block in this round
	targets            []int32
	inTargets          []bool
	// scratch buffers, reused
	queue, touched, newBottom []int32
	group                     []uint64 // arcs into the target of processTarget, by label
	labelStart                []int32  // counting sort of processTarget, numLabels+1
	// checkNewBottom's per-block key counters, valid where keyTick == tick
	cursor, keyBlocks []int32
	keyTick           []uint32
	tick              uint32
	refHas            []bool
	nbCount, lastNB   []int32
}

func newRefiner(k *kernel) *refiner {
	n := k.n
	r := &refiner{k: k, numBlocks: 1,
		block: make([]int32, n), perm: make([]int32, n), where: make([]int32, n),
		begin: make([]int32, n), end: make([]int32, n), inertOut: make([]int32, n), bottom: make([]int32, n),
		rep:  make([]int32, n),
		mark: make([]uint32, n), count: make([]int32, n), bcount: make([]int32, n),
		inTargets: make([]bool, n), labelStart: make([]int32, k.numLabels+1),
		keyTick: make([]uint32, n), refHas: make([]bool, n), nbCount: make([]int32, n), lastNB: make([]int32, n)}
	for s := int32(0); s < n; s++ {
		r.perm[s], r.where[s] = s, s
	}
	r.end[0] = n
	var ids []int32
	r.inIndex, ids = k.incoming(func(int32) bool { return true })
	r.inArc = make([]uint64, len(ids))
	for i, t := range ids {
		r.inArc[i] = uint64(k.lab[t])<<32 | uint64(k.src[t])
	}
	if k.inert {
		r.tauIndex, ids = k.incoming(k.isTau)
		r.tauSrc = ids
		for i, t := range ids {
			r.tauSrc[i] = k.src[t]
			r.inertOut[k.src[t]]++ // one block: every τ-step is inert
		}
	}
	r.rep[0] = -1
	for s := int32(0); s < n; s++ {
		if r.inertOut[s] == 0 {
			r.bottom[0]++
			r.rep[0] = r.lighter(r.rep[0], s)
		}
	}
	return r
}

// lighter returns whichever of the states a (-1: none) and b has fewer
// transitions.
func (r *refiner) lighter(a, b int32) int32 {
	if a < 0 || r.k.out[b+1]-r.k.out[b] < r.k.out[a+1]-r.k.out[a] {
		return b
	}
	return a
}

func (r *refiner) pushTarget(b int32) {
	if !r.inTargets[b] {
		r.inTargets[b] = true
		r.targets = append(r.targets, b)
	}
}

func (r *refiner) size(b int32) int32 { return r.end[b] - r.begin[b] }

// inert reports whether transition t is inert in the current partition.
func (r *refiner) inert(t int32) bool {
	return r.k.isTau(t) && r.block[r.k.src[t]] == r.block[r.k.dst[t]]
}

// startRound begins a new marked set.
func (r *refiner) startRound() {
	r.epoch++
	if r.epoch == 0 { // wrapped: clear stale marks
		clear(r.mark)
		r.epoch = 1
	}
	r.queue = r.queue[:0]
	r.touched = r.touched[:0]
}

// markState adds s to the current marked set.
func (r *refiner) markState(s int32) {
	if r.mark[s] == r.epoch {
		return
	}
	r.mark[s] = r.epoch
	r.queue = append(r.queue, s)
	b := r.block[s]
	if r.count[b] == 0 {
		r.touched = append(r.touched, b)
	}
	r.count[b]++
	if r.inertOut[s] == 0 {
		r.bcount[b]++
	}
}

// splitRound finishes a round whose marked set holds the sources of the
// non-inert transitions of one splitter: it splits every touched block in
// which some bottom state is unmarked into the states that reach the
// splitter (the backward closure of the marks over inert τ-steps) and the
// rest. Touched blocks whose bottom states are all marked are stable and
// skipped. It reports whether anything was split.
func (r *refiner) splitRound() bool {
	touched := r.touched[:0]
	for _, b := range r.touched {
		if r.bcount[b] < r.bottom[b] {
			touched = append(touched, b)
		} else {
			r.count[b] = 0
		}
		r.bcount[b] = 0
	}
	r.touched = touched
	if len(touched) == 0 {
		return false
	}
	// Closure, from the marked states of the blocks that split. A block
	// that is skipped has count 0 now, which is how it is recognized.
	queue := r.queue[:0]
	for _, s := range r.queue {
		if r.count[r.block[s]] > 0 {
			queue = append(queue, s)
		}
	}
	r.queue = queue
	if r.k.inert {
		for i := 0; i < len(r.queue); i++ {
			s := r.queue[i]
			b := r.block[s]
			for _, u := range r.tauSrc[r.tauIndex[s]:r.tauIndex[s+1]] {
				if r.block[u] == b && r.mark[u] != r.epoch {
					r.mark[u] = r.epoch
					r.queue = append(r.queue, u)
					r.count[b]++
				}
			}
		}
	}
	for _, b := range r.touched {
		r.split(b)
	}
	return true
}

// split splits block b into its marked states (those reaching the current
// splitter) and the rest; some bottom state is unmarked, so both are
// non-empty. The smaller side moves to a fresh block.
func (r *refiner) split(b int32) {
	c, size := r.count[b], r.size(b)
	r.count[b] = 0
	movingMarked := c <= size-c
	nb := r.numBlocks
	r.numBlocks++
	lo, hi := r.begin[b], r.end[b]
	if movingMarked {
		for _, s := range r.queue {
			if r.block[s] == b {
				hi--
				r.swap(r.where[s], hi)
			}
		}
	} else {
		for i := lo; i < hi; {
			if s := r.perm[i]; r.mark[s] != r.epoch {
				hi--
				r.swap(i, hi)
			} else {
				i++
			}
		}
	}
	r.begin[nb], r.end[nb] = hi, r.end[b]
	r.end[b] = hi
	moved, repMoved := int32(0), int32(-1)
	for _, s := range r.perm[hi:r.end[nb]] {
		r.block[s] = nb
		if r.inertOut[s] == 0 {
			moved++
			repMoved = r.lighter(repMoved, s)
		}
	}
	r.bottom[nb] = moved
	r.bottom[b] -= moved
	r.rep[nb] = repMoved
	if rb := r.rep[b]; rb >= 0 && r.block[rb] != b {
		r.rep[b] = -1
	}
	r.pushTarget(b)
	r.pushTarget(nb)
	// The τ-steps from the reaching part into the rest are no longer
	// inert; their sources may become bottom states.
	reach, rest := nb, b
	if !movingMarked {
		reach, rest = b, nb
	}
	if !r.k.inert {
		return
	}
	k := r.k
	r.newBottom = r.newBottom[:0]
	oldRep := r.rep[reach] // an old bottom state of reach, if known
	for _, s := range r.perm[r.begin[reach]:r.end[reach]] {
		for t := k.out[s]; t < k.out[s+1] && k.lab[t] == 0; t++ { // τ first, see newKernel
			if r.block[k.dst[t]] == rest {
				if r.inertOut[s]--; r.inertOut[s] == 0 {
					r.bottom[reach]++
					r.newBottom = append(r.newBottom, s)
				}
			}
		}
	}
	if len(r.newBottom) > 0 {
		if r.rep[reach] < 0 {
			for _, s := range r.newBottom {
				r.rep[reach] = r.lighter(r.rep[reach], s)
			}
		}
		r.checkNewBottom(reach, rest, oldRep)
	}
}

// repOf returns rep[b], finding a bottom state of b first if none is known
// by following inert τ-steps down from some state of b.
func (r *refiner) repOf(b int32) int32 {
	if r.rep[b] >= 0 {
		return r.rep[b]
	}
	k := r.k
	s := r.perm[r.begin[b]]
	for r.inertOut[s] > 0 {
		for t := k.out[s]; t < k.out[s+1] && k.lab[t] == 0; t++ {
			if r.block[k.dst[t]] == b {
				s = k.dst[t]
				break
			}
		}
	}
	r.rep[b] = s
	return s
}

// checkNewBottom handles the new bottom states of reach, the part of a
// block that reached a splitter, just split off rest. A state of rest keeps
// its inert paths, so every bottom state of rest is an old bottom state,
// which (the old block being stable) has a direct transition for every
// (a, C) the old block reached; a new bottom state must have the same ones
// for reach to stay stable (only bottom states matter, see fastRefine). So
// every (a, C), C not reach or rest, on which a new bottom state and an old
// bottom state ref differ makes C target-dirty, which re-checks reach under
// (a, C). Each state becomes a new bottom state at most once, so this costs
// O(m) in all, plus reading ref: ref is the lighter of a bottom state of
// rest and an old bottom state of reach (oldRep, -1 if none), since a big
// contracted τ-SCC as ref would be read at every split.
//
// The comparison needs no sorting: the transitions of every kernel state
// are sorted by label (see kernel.dedupe), so it walks the labels in order
// with a cursor per state, and within one label counts per target block
// how many new bottom states have it, against a mark for ref's targets.
func (r *refiner) checkNewBottom(reach, rest, oldRep int32) {
	k := r.k
	ref := r.repOf(rest)
	if oldRep >= 0 {
		ref = r.lighter(ref, oldRep)
	}
	nb := r.newBottom
	r.cursor = r.cursor[:0]
	for _, s := range nb {
		r.cursor = append(r.cursor, k.out[s])
	}
	rt, rEnd := k.out[ref], k.out[ref+1]
	need := int32(len(nb))
	for {
		a := int32(-1) // the smallest label not yet walked
		if rt < rEnd {
			a = k.lab[rt]
		}
		for i, s := range nb {
			if t := r.cursor[i]; t < k.out[s+1] && (a < 0 || k.lab[t] < a) {
				a = k.lab[t]
			}
		}
		if a < 0 {
			return
		}
		r.nextTick()
		r.keyBlocks = r.keyBlocks[:0]
		for ; rt < rEnd && k.lab[rt] == a; rt++ {
			if c := r.block[k.dst[rt]]; c != reach && c != rest && !r.inTargets[c] {
				r.touchKey(c)
				r.refHas[c] = true
			}
		}
		for i, s := range nb {
			t := r.cursor[i]
			for ; t < k.out[s+1] && k.lab[t] == a; t++ {
				if c := r.block[k.dst[t]]; c != reach && c != rest && !r.inTargets[c] {
					r.touchKey(c)
					if r.lastNB[c] != int32(i) {
						r.lastNB[c] = int32(i)
						r.nbCount[c]++
					}
				}
			}
			r.cursor[i] = t
		}
		for _, c := range r.keyBlocks {
			if r.refHas[c] && r.nbCount[c] < need || !r.refHas[c] && r.nbCount[c] > 0 {
				r.pushTarget(c)
			}
		}
	}
}

// nextTick starts a new set of per-block key counters for checkNewBottom.
func (r *refiner) nextTick() {
	r.tick++
	if r.tick == 0 {
		clear(r.keyTick)
		r.tick = 1
	}
}

// touchKey resets the key counters of block c on its first use in this tick.
func (r *refiner) touchKey(c int32) {
	if r.keyTick[c] == r.tick {
		return
	}
	r.keyTick[c] = r.tick
	r.refHas[c], r.nbCount[c], r.lastNB[c] = false, 0, -1
	r.keyBlocks = append(r.keyBlocks, c)
}

// swap exchanges the states at positions i and j of perm.
func (r *refiner) swap(i, j int32) {
	si, sj := r.perm[i], r.perm[j]
	r.perm[i], r.perm[j] = sj, si
	r.where[si], r.where[sj] = j, i
}

// processTarget splits every block under (a, C) for every label a of a
// transition into C. The transitions into C are grouped by label with a
// counting sort (labels are few and dense). Sources in singleton blocks
// are not marked: such a block cannot split.
func (r *refiner) processTarget(c int32) {
	k := r.k
	clear(r.labelStart)
	n := 0
	for _, d := range r.perm[r.begin[c]:r.end[c]] {
		for _, arc := range r.inArc[r.inIndex[d]:r.inIndex[d+1]] {
			r.labelStart[arc>>32+1]++
		}
		n += int(r.inIndex[d+1] - r.inIndex[d])
	}
	for a := range k.numLabels {
		r.labelStart[a+1] += r.labelStart[a]
	}
	r.group = slices.Grow(r.group[:0], n)[:n]
	for _, d := range r.perm[r.begin[c]:r.end[c]] {
		for _, arc := range r.inArc[r.inIndex[d]:r.inIndex[d+1]] {
			a := arc >> 32
			r.group[r.labelStart[a]] = arc
			r.labelStart[a]++
		}
	}
	group := r.group
	for i := 0; i < len(group); {
		a := int32(group[i] >> 32)
		r.startRound()
		for ; i < len(group) && int32(group[i]>>32) == a; i++ {
			src := int32(uint32(group[i]))
			b := r.block[src]
			if r.end[b]-r.begin[b] > 1 && !(k.inert && a == lts.Tau && b == c) {
				r.markState(src)
			}
		}
		r.splitRound()
	}
}
