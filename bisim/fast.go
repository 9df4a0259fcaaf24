package bisim

import (
	"math/bits"
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
// GV's, not O(m log n); bench_test.go measures it (figures in
// benchmarks/RESULTS.md). The ideas it uses:
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
//     τ-steps into R may become new bottom states, after which P may be
//     unstable under some other (a', C'). split handles them in one of
//     three ways, never reading more than it must: if P keeps old bottom
//     states, separateNewBottom splits off the part N of P that reaches
//     only new bottom states (a valid split: no new bottom state is
//     bisimilar to an old one) and checks N alone; otherwise it checks
//     P. Either way checkNewBottom reads all transitions of the part
//     checked or compares its new bottom states with an old bottom state
//     ref (of R, or of what is left of P), whichever reads fewer.
//     checkBottomKeys does the reading. Where it
//     read all of a block X and X is unstable under (a', C'), it knows all
//     sources in X of a'-steps into C' and records them as a local
//     splitter of X (splitLocal); where it compared with ref, C' becomes
//     target-dirty, unless the transitions into such C' outnumber those
//     out of P, and then P is read whole (resolveKeys). A state becomes a
//     new bottom state at most once.
//   - A split moves the smaller side to a fresh block. splitRound moves
//     the marked states of all blocks split in a round in one pass over the
//     marked states, and split finds the τ-steps that stop being inert from
//     whichever side of the split is smaller.
//
// Data (flat slices, allocated once): block[s]; perm holds the states
// grouped by block, block b occupying perm[begin[b]:end[b]], and where[s] is
// the index of s in perm; inArc holds the transitions by target (where
// those into d lie: into[d]), each label and source packed into 4 bytes
// where they fit, so that processTarget reads one stream, with the
// τ-steps first, so that the backward closure over inert τ-steps reads
// the same array (buildArcs); st[s].inertOut counts the inert τ-steps of s
// and bottom[b] the bottom states of b.
//
// Start: not one block but the classes of the states' weakly enabled
// labels (splitByEnabledLabels, fast_init.go), all target-dirty; on model
// checkers' LTSs this halves the work, which one block, split under every
// label in turn, spent mostly in backward closures through the whole LTS.
//
// Worklist: a target-dirty block C may make blocks with transitions into it
// unstable under (a, C) for some a; processTarget groups the transitions
// into C by label and splits under each (a, C). Both halves of every split
// become target-dirty. The smallest dirty block is processed first (by
// bit length of its size): a big dirty block that waits may split further,
// and then its transitions are read once rather than once before and once
// after the split. On a Treiber stack LTS of 3.5 M transitions this reads
// 3.0 transitions per transition of the kernel, against 4.4 for a stack of
// dirty blocks and 9.6 for largest first.
//
// Invariants: (1) the partition is always coarser than the coarsest stable
// one, because every splitter used is a union of current blocks and only
// non-inert transitions are marked (such a splitter never separates
// bisimilar states; a local splitter holds all the sources of a block's
// a-steps into C, so it is such a splitter for the parts of that block);
// (2) between targets, once the local splitters are done, every block is
// stable under every (a, C) with C not target-dirty, and under every (a,
// K) with K the union of the parts of a group (fast_group.go; τ-steps
// between the parts aside): a block's stability can be broken only by a
// split of a block its transitions enter (which is then target-dirty) or
// by a change of its own inert paths, which happens only to P above and
// is handled there. When the worklist is empty the partition is stable,
// hence the coarsest stable partition.
// inertOut and bottom are exact between rounds.
//
// Complexity. This is still not O(m log n) in the worst case: both halves
// of a split are read as targets, unless the block was not target-dirty
// and deriving the stability of its last part costs less than reading it
// (groups, fast_group.go), the backward closure over inert
// τ-steps costs the side that reaches the splitter, however large, and the
// part a split reads to check new bottom states is not bounded by the
// smaller half. In practice doubling the input about doubles the work on
// every benchmark family, and the random family's work per transition
// grows as log n (the factors per doubling, and how they came down:
// benchmarks/RESULTS.md, "Fast's refinement"). Four costs once made a
// family superlinear; their fixes keep it near linear:
//   - a contracted giant τ-SCC as the reference of nearly every new-bottom
//     check (random): separateNewBottom and the choice in split;
//   - a τ-SCC that half the transitions enter made target-dirty again and
//     again (tauscc): checkBottomKeys records local splitters instead;
//   - every label looped over for every target, and the labels walked in
//     order with a cursor per state (labelchain): processTarget and
//     checkBottomKeys visit only the labels they meet;
//   - the bigger half of a split re-read after every peel of a few states
//     (tauscc, random): dropDeadArcs, popTarget's first in, first out
//     within a size class, and the groups (fast_group.go).
func fastRefine(k *kernel, opts *Options) (block []int32, numBlocks int32) {
	sig := 0
	if opts.history == nil {
		sig = opts.sigWorkers(len(k.dst))
	}
	r := newRefinerWith(k, !packable(k), sig)
	if opts.history != nil && !k.inert { // strong only: every split is one (a, C)
		r.history = opts.history
		r.history.start(r.numBlocks)
	}
	r.refine(opts)
	opts.recordWork(k, r.work)
	return r.block, r.numBlocks
}

// refine splits until the worklist and the local splitters are empty.
func (r *refiner) refine(opts *Options) {
	if r.sigStable {
		return
	}
	for b := range r.numBlocks {
		if r.sigDirty == nil || r.sigDirty[b] {
			r.pushTarget(b)
		}
	}
	r.sigDirty = nil
	steps := 0
	for {
		r.splitLocal()
		if r.debug != nil {
			r.debug.check(r)
		}
		c := r.popTarget()
		if c < 0 {
			return
		}
		if r.groupOf[c] >= 0 {
			r.processMember(c)
		} else {
			r.processTarget(c)
			r.dropSources()
		}
		if steps++; steps&1023 == 0 {
			opts.progress("refine", int64(r.numBlocks))
			opts.poll()
		}
	}
}

// refiner holds the state of fastRefine: the partition core shared with
// gjRefine and what the worklist adds.
type refiner struct {
	blockPartition // blocks, bottom states and a round's marks (blocks.go)

	// history, when not nil, records every split for the distinguishing
	// formulas of strong bisimilarity (formula_history.go).
	history *splitHistory

	// The transitions by target, those into d in inArc from into[d].from
	// on, τ-steps first (up to into[d].tauEnd, read backwards over inert
	// τ-steps through tauInto), each in 4 bytes: the source, or-ed with
	// label<<labelShift when every label and state fit in 32 bits
	// together (then inLab is nil), else with the labels in inLab.
	// Read through arc. into[d].live ends the arcs into d still worth
	// reading: processTarget drops those whose source is in a singleton
	// block (dropDeadArcs), so the live ones are inArc[into[d].from:
	// into[d].live], and tauEnd moves down with them.
	into       []inRange
	inArc      []int32
	inLab      []int32
	labelShift uint32
	srcMask    uint32

	// Per block, beside the core's.
	rep      []int32 // a bottom state of each block, of small out-degree if possible; -1 if not known
	blockOut []int32 // transitions out of the states of each block
	blockIn  []int32 // transitions into the states of each block

	// The worklist of target-dirty blocks.
	targets    [33][]int32 // target-dirty blocks by bit length of their size when pushed
	targetHead [33]int     // targets[i][:targetHead[i]] are popped already (first in, first out)
	minTarget  int         // no lower index of targets is non-empty
	inTargets  []bool      // per block: in targets

	// processTarget: per label, the sources of the transitions into its
	// target; labels, the labels with some, in the order met.
	byLabel [][]int32
	labels  []int32

	// Groups (fast_group.go): the parts, not read yet, of a block that
	// split while not target-dirty. groupOf[b] is b's group, -1 if none;
	// groupPrev and groupNext link a group's parts, -1 at the ends.
	// Per group: groups[g] its first part, -1 once it has ended, and
	// groupSpent[g] what bigStable has read for it. scanFrom and hubHit
	// keep what hasStepInto found; hubs the hubs' successor sets, by the
	// first transition of their range, and hubStates the hubs that have one.
	groupOf, groupPrev, groupNext []int32
	groups                        []int32
	groupSpent                    []int64
	scanFrom, hubHit              map[int32]scanCursor
	hubs                          map[int32][]uint64
	hubStates                     map[int32]bool
	// The fewest transitions into a block whose parts form a group
	// (groupMinIn; tests lower it to exercise groups on small LTSs).
	minGroupIn int32
	// processMember: the states of the part read (leftStates); those of
	// the blocks that got new bottom states meanwhile (eventStates, up to
	// eventCap; -1 outside, -2 past the cap); the blocks to read whole
	// (unsure).
	leftStates, eventStates, unsure []int32
	eventCap                        int64

	debug *fastDebug // tests only: see fast_debug.go

	// The goroutines of the signature rounds that refine the initial
	// partition (sigref.go; 0: none), and whether they found it stable,
	// which leaves the worklist nothing to do, or else, under strong
	// bisimilarity, the blocks they leave target-dirty (nil: all).
	sigWorkers int
	sigStable  bool
	sigDirty   []bool

	// checkBottomKeys: the transitions read, by label, and the labels met;
	// per-block key counters, valid where keyTick == tick: bottom states
	// with the key (nbCount, lastNB the last one counted), transitions with
	// it and then their fill position in localSrc (keyFill).
	keyByLabel               [][]uint64 // source<<32 | transition
	keyLabels                []int32
	keyBlocks, keyStates     []int32
	keyTick                  []uint32
	tick                     uint32
	nbCount, lastNB, keyFill []int32

	// Local splitters recorded by checkBottomKeys, to be split under by
	// splitLocal: the i-th is localSrc[localEnd[i-1]:localEnd[i]].
	localSrc, localEnd []int32

	// The blocks checkBottomKeys found for resolveKeys, and a flag per
	// block for those listed.
	keyDiff   []int32
	keyListed []bool

	// separateNewBottom: nLeft[s] counts the inert successors of s not yet
	// known to be in N, valid where nSeen == nEpoch.
	nList, nLeft []int32
	nSeen        []uint32
	nEpoch       uint32
}

// inRange is where the arcs into one state lie in inArc (see refiner),
// in one record: processTarget reads from and live of each state of a
// target, a round's closure from and tauEnd of each marked state, detach
// from and live of each moved state, in no order that caches favour, and
// three arrays cost a cache miss each (two per state in those loops).
type inRange struct {
	from   int32 // its first arc
	tauEnd int32 // the end of its live τ-arcs
	live   int32 // the end of its live arcs
}

// newRefiner returns the refiner of k, its states in the blocks of their
// weakly enabled labels (splitByEnabledLabels), with 4-byte arcs where
// labels and states fit (packable).
func newRefiner(k *kernel) *refiner { return newRefinerArcs(k, !packable(k)) }

// newRefinerArcs is newRefiner with the labels of the arcs beside them
// (wide) or packed into them; tests use both layouts.
func newRefinerArcs(k *kernel, wide bool) *refiner { return newRefinerWith(k, wide, 0) }

// newRefinerWith is newRefinerArcs whose initial partition is refined
// further by signature rounds on sigWorkers goroutines (sigref.go), none
// when it is 0.
func newRefinerWith(k *kernel, wide bool, sigWorkers int) *refiner {
	n := k.n
	r := &refiner{blockPartition: newBlockPartition(k), sigWorkers: sigWorkers,
		nSeen: make([]uint32, n), nLeft: make([]int32, n),
		byLabel: make([][]int32, k.numLabels), keyByLabel: make([][]uint64, k.numLabels)}
	r.addFastBlock()
	for s := int32(0); s < n; s++ {
		r.perm[s], r.where[s] = s, s
	}
	r.blockOut[0] = int32(len(k.dst))
	r.blockIn[0] = int32(len(k.dst))
	r.buildArcs(wide)
	r.rep[0] = -1
	for s := int32(0); s < n; s++ {
		if r.st[s].inertOut == 0 {
			r.bottom[0]++
			r.rep[0] = r.lighter(r.rep[0], s)
		}
	}
	r.splitByEnabledLabels()
	r.eventCap, r.minGroupIn = -1, groupMinIn
	r.scanFrom = make(map[int32]scanCursor)
	r.hubs = make(map[int32][]uint64)
	r.hubStates = make(map[int32]bool)
	r.hubHit = make(map[int32]scanCursor)
	return r
}

// packable reports whether every label and state of the kernel fit in
// one 32-bit arc together: on the LTSs model checkers make they do (the
// MGC file: 9 labels, 2 M states), and an arc then costs 4 bytes instead
// of 8, which halves what processTarget reads.
func packable(k *kernel) bool {
	return bits.Len32(uint32(k.numLabels-1))+bits.Len32(uint32(k.n-1)) <= 32
}

// buildArcs makes into, inArc (with inLab when wide or the labels do
// not fit) by a counting sort in which each target's τ-steps come first;
// the sources are read from out (the kernel keeps no src for Fast).
// Within a label the arcs into a target stay in order of their sources,
// as processTarget relies on for its order of marking. It also counts
// inertOut (one block: every τ-step is inert).
//
// On a large kernel both passes run on several goroutines, each owning a
// range of targets (and of sources, for inertOut): every worker reads all
// transitions in order, which is cheap, and writes only its own targets'
// counts and arcs, the random accesses that cost; so each target's arcs
// come in the order of a sequential pass, and no worker needs a copy of
// the counts.
func (r *refiner) buildArcs(wide bool) {
	k, n := r.k, r.k.n
	r.labelShift, r.srcMask = 32, ^uint32(0)
	if !wide {
		r.labelShift = uint32(bits.Len32(uint32(n - 1)))
		r.srcMask = uint32(1)<<r.labelShift - 1
	}
	bounds := ranges(len(k.dst), n)
	// Count the arcs into each target in live and its τ-arcs in tauEnd.
	r.into = make([]inRange, n)
	forEachRange(bounds, func(_ int, lo, hi int32) {
		for s := int32(0); s < n; s++ {
			own := lo <= s && s < hi
			for t := k.out[s]; t < k.out[s+1]; t++ {
				tau := k.isTau(t)
				if tau && own {
					r.st[s].inertOut++
				}
				if d := k.dst[t]; lo <= d && d < hi {
					r.into[d].live++
					if tau {
						r.into[d].tauEnd++
					}
				}
			}
		}
	})
	// The fill positions: τ-arcs from from (in tauEnd), the others after
	// them (in live); each reaches the end of its part.
	next := int32(0)
	for d := range r.into {
		x := &r.into[d]
		x.from, x.tauEnd, x.live, next = next, next, next+x.tauEnd, next+x.live
	}
	r.inArc = make([]int32, len(k.dst))
	if wide {
		r.inLab = make([]int32, len(k.dst))
	}
	forEachRange(bounds, func(_ int, lo, hi int32) {
		for s := int32(0); s < n; s++ {
			for t := k.out[s]; t < k.out[s+1]; t++ {
				d := k.dst[t]
				if d < lo || d >= hi {
					continue
				}
				a := k.lab[t]
				var i int32
				if k.isTau(t) {
					i = r.into[d].tauEnd
					r.into[d].tauEnd++
				} else {
					i = r.into[d].live
					r.into[d].live++
				}
				if wide {
					r.inArc[i], r.inLab[i] = s, a
				} else {
					r.inArc[i] = int32(uint32(a)<<r.labelShift | uint32(s))
				}
			}
		}
	})
}

// tauInto returns the sources of the τ-steps into d still live (see
// dropDeadArcs): the front of its arcs, whose label is 0.
func (r *refiner) tauInto(d int32) []int32 { return r.inArc[r.into[d].from:r.into[d].tauEnd] }

// arc returns the label and the source of inArc[i].
func (r *refiner) arc(i int32) (a, src int32) {
	w := uint32(r.inArc[i])
	if r.inLab != nil {
		return r.inLab[i], int32(w)
	}
	return int32(w >> r.labelShift), int32(w & r.srcMask)
}

// newBlock appends a block covering perm[lo:hi] to the core and to the
// worklist's per-block slices, and returns it.
func (r *refiner) newBlock(lo, hi int32) int32 {
	r.addFastBlock()
	return r.addBlock(lo, hi)
}

// addFastBlock appends an entry for one more block to the per-block slices
// that fastRefine adds to the core's.
func (r *refiner) addFastBlock() {
	n := r.k.n
	r.rep = appendBlockEntry(r.rep, -1, n)
	r.blockOut = appendBlockEntry(r.blockOut, 0, n)
	r.blockIn = appendBlockEntry(r.blockIn, 0, n)
	r.keyListed = appendBlockEntry(r.keyListed, false, n)
	r.inTargets = appendBlockEntry(r.inTargets, false, n)
	r.keyTick = appendBlockEntry(r.keyTick, 0, n)
	r.nbCount = appendBlockEntry(r.nbCount, 0, n)
	r.lastNB = appendBlockEntry(r.lastNB, 0, n)
	r.keyFill = appendBlockEntry(r.keyFill, 0, n)
	r.groupOf = appendBlockEntry(r.groupOf, -1, n)
	r.groupPrev = appendBlockEntry(r.groupPrev, -1, n)
	r.groupNext = appendBlockEntry(r.groupNext, -1, n)
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
		i := bits.Len32(uint32(r.size(b)))
		r.targets[i] = append(r.targets[i], b)
		r.minTarget = min(r.minTarget, i)
	}
}

// popTarget removes and returns a target-dirty block, or -1 if there is
// none. Smaller blocks come first: a big dirty block that waits may split
// further before it is read, and then its transitions are read once
// instead of once before and once after the split. Within a size class
// the block pushed first comes first: a block that has just been read,
// split and pushed again waits behind the others of its size, which may
// split it further meanwhile (last in, first out re-read the same few big
// blocks of benchTauSCC after every peel of a few states: 11–17 reads of
// blocks of 3 300 states at 200 k states).
func (r *refiner) popTarget() int32 {
	for ; r.minTarget < len(r.targets); r.minTarget++ {
		t, h := r.targets[r.minTarget], r.targetHead[r.minTarget]
		if h == len(t) {
			continue
		}
		c := t[h]
		if h+1 == len(t) {
			r.targets[r.minTarget], r.targetHead[r.minTarget] = t[:0], 0
		} else {
			r.targetHead[r.minTarget] = h + 1
		}
		if !r.inTargets[c] { // taken out by processMember
			r.minTarget--
			continue
		}
		r.inTargets[c] = false
		return c
	}
	return -1
}

// inert reports whether transition t, from state s, is inert in the
// current partition.
func (r *refiner) inert(s, t int32) bool {
	return r.k.isTau(t) && r.block[s] == r.block[r.k.dst[t]]
}

// markState adds s to the current marked set.
func (r *refiner) markState(s int32) {
	r.work++
	if r.st[s].mark == r.epoch {
		return
	}
	r.st[s].mark = r.epoch
	r.queue = append(r.queue, s)
	b := r.block[s]
	if r.count[b] == 0 {
		r.touched = append(r.touched, b)
	}
	r.count[b]++
	if r.st[s].inertOut == 0 {
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
	r.work += int64(len(r.touched) + len(r.queue))
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
			x := r.into[s]
			r.work += 1 + int64(x.tauEnd-x.from)
			for _, u := range r.inArc[x.from:x.tauEnd] { // τ-arcs: the sources alone
				if r.block[u] == b && r.st[u].mark != r.epoch {
					r.st[u].mark = r.epoch
					r.queue = append(r.queue, u)
					r.count[b]++
				}
			}
		}
	}
	// Move the marked states of the blocks where they are the smaller side
	// to the end of their block in one pass over the queue (a pass per
	// block would cost the whole queue for each touched block).
	r.work += int64(len(r.queue))
	for _, b := range r.touched {
		r.cut[b] = -1
		if c := r.count[b]; c <= r.size(b)-c {
			r.cut[b] = r.end[b]
		}
	}
	for _, s := range r.queue {
		if b := r.block[s]; r.cut[b] >= 0 {
			r.cut[b]--
			r.swap(r.where[s], r.cut[b])
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
	r.count[b] = 0
	movingMarked := r.cut[b] >= 0
	lo, hi := r.begin[b], r.end[b]
	if movingMarked {
		hi = r.cut[b] // splitRound moved the marked states to the end
	} else {
		r.work += int64(hi - lo)
		for i := lo; i < hi; {
			if s := r.perm[i]; r.st[s].mark != r.epoch {
				hi--
				r.swap(i, hi)
			} else {
				i++
			}
		}
	}
	nb := r.detach(b, hi)
	// The τ-steps from the reaching part into the rest are no longer
	// inert; their sources may become bottom states.
	reach, rest := nb, b
	if !movingMarked {
		reach, rest = b, nb
	}
	if r.history != nil {
		r.history.split(b, nb, reach == nb)
	}
	if !r.k.inert {
		return
	}
	r.newBottom = r.newBottom[:0]
	oldRep := r.rep[reach] // an old bottom state of reach, if known
	// The τ-steps from reach into rest are found from the smaller side.
	lose := func(s int32) {
		if r.st[s].inertOut--; r.st[s].inertOut == 0 {
			r.bottom[reach]++
			r.newBottom = append(r.newBottom, s)
		}
	}
	r.tauStepsBetween(reach, rest, r.tauInto, lose)
	if len(r.newBottom) == 0 {
		return
	}
	r.noteEvent(reach)
	r.work += int64(len(r.newBottom))
	if r.bottom[reach] > int32(len(r.newBottom)) {
		r.separateNewBottom(reach)
		return
	}
	// No old bottom state left in reach: compare the new ones with an old
	// one of rest (or of reach, gone from it now).
	ref := r.repOf(rest)
	if oldRep >= 0 {
		ref = r.lighter(ref, oldRep)
	}
	r.checkNewBottom(reach, ref)
	if r.rep[reach] < 0 {
		for _, s := range r.newBottom {
			r.rep[reach] = r.lighter(r.rep[reach], s)
		}
	}
}

// detach moves the states perm[hi:end[b]] of block b to a fresh block,
// which it returns; both become target-dirty.
func (r *refiner) detach(b, hi int32) int32 {
	clean := !r.inTargets[b] && r.history == nil && r.k.inert && r.blockIn[b] >= r.minGroupIn
	nb := r.newBlock(hi, r.end[b])
	r.end[b] = hi
	moved, repMoved, out, in := int32(0), int32(-1), int32(0), int32(0)
	r.work += int64(r.end[nb] - hi)
	for _, s := range r.perm[hi:r.end[nb]] {
		r.block[s] = nb
		out += r.k.out[s+1] - r.k.out[s]
		in += r.into[s].live - r.into[s].from
		if r.st[s].inertOut == 0 {
			moved++
			repMoved = r.lighter(repMoved, s)
		}
	}
	r.bottom[nb] = moved
	r.bottom[b] -= moved
	r.blockOut[nb] = out
	r.blockOut[b] -= out
	r.blockIn[nb] = in
	r.blockIn[b] -= in
	r.rep[nb] = repMoved
	if rb := r.rep[b]; rb >= 0 && r.block[rb] != b {
		r.rep[b] = -1
	}
	r.pushTarget(b)
	r.pushTarget(nb)
	r.joinGroup(b, nb, clean)
	return nb
}

// separateNewBottom handles the new bottom states of reach when reach still
// has old bottom states. No new bottom state s is branching bisimilar to an
// old bottom state o: s has a τ-step into rest, which o (bottom in the old
// block, so without τ-steps into it) cannot match. Hence the states of reach
// that can reach an old bottom state by inert steps (O) are not bisimilar
// to those that cannot (N): a state of N equivalent to one of O would reach
// a state equivalent to o, and from there by inert steps, all equivalent to
// o, only new bottom states. So N moves to a block of its own, which takes
// no new bottom state from the move: no state of N has a τ-step into O, and
// every state of O keeps an inert path to its old bottom state. Then O is
// stable under every (a, C) that is not target-dirty: its bottom states are
// the old ones, which have every key any state of the old block has. N,
// whose bottom states are all new, is checked by checkNewBottom, against
// an old bottom state of O only where that reads fewer transitions than N
// has: old bottom states are where contracted τ-SCCs of huge out-degree
// sit (the Groote–Jansen algorithm separates new bottom states in the same
// way, its "NewBotSt" part).
//
// N is found from the new bottom states backwards over inert τ-steps: a
// state joins when all its inert successors have.
func (r *refiner) separateNewBottom(reach int32) {
	nextEpoch(&r.nEpoch, r.nSeen)
	list := closeInertBackward(append(r.nList[:0], r.newBottom...), r.block, reach,
		r.tauInto, r.st, r.nSeen, r.nLeft, r.nEpoch, &r.work, nil)
	r.nList = list
	r.work += int64(len(list))
	hi := r.end[reach]
	for _, s := range list {
		hi--
		r.swap(r.where[s], hi)
	}
	n := r.detach(reach, hi)
	for _, y := range list { // τ-steps from O into N are no longer inert
		src := r.tauInto(y)
		r.work += int64(len(src))
		for _, x := range src {
			if r.block[x] == reach {
				r.st[x].inertOut-- // stays positive, see above
			}
		}
	}
	r.checkNewBottom(n, r.repOf(reach))
}

// checkNewBottom checks block part, whose bottom states are the new ones
// (newBottom) and which was stable before they lost their last inert
// τ-step, with ref an old bottom state of the block it was part of: it
// reads either all transitions of part (checkBottomKeys, whole) or those
// of ref and of the new bottom states, comparing them (then resolveKeys),
// whichever is fewer. The old bottom state may be a contracted τ-SCC of
// huge out-degree, and part may hold one that is not bottom: on
// benchRandom(160 k), branching, separateNewBottom read an N of 25 781
// states and 177 735 transitions whole, the giant τ-SCC among them, for
// its 2 new bottom states (2.15 steps per kernel transition), before it
// chose as split does.
func (r *refiner) checkNewBottom(part, ref int32) {
	k := r.k
	cost := k.out[ref+1] - k.out[ref]
	for _, s := range r.newBottom {
		cost += k.out[s+1] - k.out[s]
	}
	if r.blockOut[part] <= cost {
		r.checkBottomKeys(r.perm[r.begin[part]:r.end[part]], true)
		return
	}
	r.keyStates = append(append(r.keyStates[:0], ref), r.newBottom...)
	r.checkBottomKeys(r.keyStates, false)
	r.resolveKeys(part)
}

// repOf returns rep[b], finding a bottom state of b first if none is known
// by following inert τ-steps down from some state of b.
func (r *refiner) repOf(b int32) int32 {
	if r.rep[b] >= 0 {
		return r.rep[b]
	}
	k := r.k
	s := r.perm[r.begin[b]]
	for r.st[s].inertOut > 0 {
		for t := k.out[s]; t < k.out[s+1] && k.lab[t] == 0; t++ {
			r.work++
			if r.block[k.dst[t]] == b {
				s = k.dst[t]
				break
			}
		}
	}
	r.rep[b] = s
	return s
}

// checkBottomKeys finds every block C such that, for some label a, some
// state of states has a non-inert a-transition into C but not every bottom
// state among states has one; targets already dirty are skipped. Called
// with an old bottom state ref of a block and new bottom states of a part
// of it (whole false), it finds every (a, C) on which they differ — the
// old block was stable, so ref has every (a, C) any state of it has, and
// the new bottom states must have the same ones — and makes C
// target-dirty (resolveKeys). Called with all the states of a block X (whole), it finds
// every (a, C) under which X may be unstable (a block is stable under
// (a, C) iff no state or every bottom state has such a transition), and,
// having read every transition of X, records the sources of X's a-steps
// into C as a local splitter of X (splitLocal) instead of making C
// target-dirty: re-reading every transition into C for the sake of one
// block was quadratic where C is a contracted τ-SCC that half the
// transitions enter (benchTauSCC).
//
// The transitions of states are grouped by label in one pass (keyByLabel,
// the labels in the order met): walking the labels in increasing order
// with a cursor per state cost |states| per label, quadratic where labels
// carry data. Within one label it counts per target block how many bottom
// states have it (the transitions of a state are contiguous).
func (r *refiner) checkBottomKeys(states []int32, whole bool) {
	k := r.k
	need := int32(0)
	labels := r.keyLabels[:0]
	for _, s := range states {
		if r.st[s].inertOut == 0 {
			need++
		}
		r.work += 1 + int64(k.out[s+1]-k.out[s])
		for t := k.out[s]; t < k.out[s+1]; t++ {
			a := k.lab[t]
			if len(r.keyByLabel[a]) == 0 {
				labels = append(labels, a)
			}
			r.keyByLabel[a] = append(r.keyByLabel[a], uint64(s)<<32|uint64(t))
		}
	}
	r.keyLabels = labels
	for _, a := range labels {
		ts := r.keyByLabel[a]
		r.keyByLabel[a] = ts[:0]
		r.nextTick()
		r.keyBlocks = r.keyBlocks[:0]
		r.work += int64(len(ts))
		for _, e := range ts {
			s, t := int32(e>>32), int32(uint32(e))
			if c := r.keyBlock(s, t, r.block[k.dst[t]]); c >= 0 && !r.inert(s, t) {
				r.touchKey(c)
				r.keyFill[c]++
				if r.st[s].inertOut == 0 && r.lastNB[c] != s {
					r.lastNB[c] = s
					r.nbCount[c]++
				}
			}
		}
		local := false
		for _, c := range r.keyBlocks {
			switch {
			case r.nbCount[c] == need:
				r.keyFill[c] = -1
			case whole:
				// Room for the sources of X's a-steps into C, filled below.
				start := int32(len(r.localSrc))
				r.localSrc = slices.Grow(r.localSrc, int(r.keyFill[c]))[:start+r.keyFill[c]]
				r.localEnd = append(r.localEnd, start+r.keyFill[c])
				r.keyFill[c] = start
				local = true
			default:
				r.keyFill[c] = -1
				if !r.keyListed[c] {
					r.keyListed[c] = true
					r.keyDiff = append(r.keyDiff, c)
				}
			}
		}
		if !local {
			continue
		}
		r.work += int64(len(ts))
		for _, e := range ts {
			s, t := int32(e>>32), int32(uint32(e))
			if c := r.keyBlock(s, t, r.block[k.dst[t]]); c >= 0 && !r.inert(s, t) && r.keyTick[c] == r.tick && r.keyFill[c] >= 0 {
				r.localSrc[r.keyFill[c]] = s
				r.keyFill[c]++
			}
		}
	}
}

// resolveKeys handles the blocks C that checkBottomKeys listed in keyDiff
// for part reach of a split, on which its new bottom states differ from
// an old bottom state: reach is unstable under some (a, C). If the
// transitions into those blocks are more than those out of reach, it
// reads reach whole to split it under local splitters (a contracted
// τ-SCC that half the transitions enter would otherwise be re-read after
// every such split); otherwise each C becomes target-dirty.
func (r *refiner) resolveKeys(reach int32) {
	in := int64(0)
	for _, c := range r.keyDiff {
		r.keyListed[c] = false
		if g := r.groupOf[c]; g >= 0 {
			// c stands for its group; ending it costs a read of the
			// part that would not have been read.
			_, most := r.groupIn(g)
			in += most
		} else {
			in += int64(r.blockIn[c])
		}
	}
	r.work += int64(len(r.keyDiff))
	if len(r.keyDiff) > 0 && in > int64(r.blockOut[reach]) {
		r.checkBottomKeys(r.perm[r.begin[reach]:r.end[reach]], true)
	} else {
		for _, c := range r.keyDiff {
			if g := r.groupOf[c]; g >= 0 {
				r.endGroup(g) // its parts stay target-dirty
			} else {
				r.pushTarget(c)
			}
		}
	}
	r.keyDiff = r.keyDiff[:0]
}

// splitLocal splits under the local splitters recorded by checkBottomKeys
// (each the sources of a block's a-steps into a block C, all of them, so
// that marking them splits the block's parts correctly even after other
// splits of it), in the order recorded, including those that its own
// splits record. Then every block is again stable under every (a, C) with
// C not target-dirty.
func (r *refiner) splitLocal() {
	for i := 0; i < len(r.localEnd); i++ {
		start := int32(0)
		if i > 0 {
			start = r.localEnd[i-1]
		}
		r.startRound()
		for _, s := range r.localSrc[start:r.localEnd[i]] {
			r.markState(s)
		}
		r.splitRound()
	}
	r.localSrc, r.localEnd = r.localSrc[:0], r.localEnd[:0]
}

// nextTick starts a new set of per-block key counters for checkBottomKeys.
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
	r.nbCount[c], r.lastNB[c], r.keyFill[c] = 0, -1, 0
	r.keyBlocks = append(r.keyBlocks, c)
}

// processTarget splits every block under (a, C) for every label a of a
// transition into C. One pass over the transitions into C gathers their
// sources by label. Sources in singleton blocks are left out: such a block
// cannot split, and blocks only shrink, so their arcs are dropped for good
// (see inRange.live). τ (label 0) comes first, while C
// is still one block: its τ-steps from C into C are inert and left out,
// and no earlier split of this call can have split C. The other labels are
// taken in the order met: a loop over all labels would cost |labels| per
// target, quadratic on LTSs with data in their labels (a chain of n states
// with a label per step has n labels and n targets), and sorting the
// labels met would add a log factor. Any order finds the same partition.
func (r *refiner) processTarget(c int32) {
	if r.history != nil {
		r.history.readTarget(c)
	}
	for _, d := range r.perm[r.begin[c]:r.end[c]] {
		x := r.into[d]
		lo, hi := x.from, x.live
		r.work += 1 + int64(hi-lo)
		for i := lo; i < hi; i++ {
			a, src := r.arc(i)
			b := r.block[src]
			if r.end[b]-r.begin[b] == 1 {
				r.dropDeadArcs(d, c, i)
				break
			}
			r.gather(a, src, b, c)
		}
	}
	if len(r.byLabel[lts.Tau]) > 0 {
		r.splitUnderLabel(lts.Tau)
	}
	for _, a := range r.labels {
		if a != lts.Tau {
			r.splitUnderLabel(a)
		}
	}
}

// dropSources empties what processTarget gathered.
func (r *refiner) dropSources() {
	for _, a := range r.labels {
		r.byLabel[a] = r.byLabel[a][:0]
	}
	r.labels = r.labels[:0]
}

// gather adds src, in block b, to the sources of a-steps into target
// block c, unless the step is an inert τ-step (inside c).
func (r *refiner) gather(a, src, b, c int32) {
	if a == lts.Tau && b == c && r.k.inert {
		return
	}
	if len(r.byLabel[a]) == 0 {
		r.labels = append(r.labels, a)
	}
	r.byLabel[a] = append(r.byLabel[a], src)
}

// dropDeadArcs finishes processTarget's pass over the arcs into d, a
// state of target block c, from the first dead one, inArc[dead]: it
// gathers the live arcs that follow and moves them down over the dead
// ones, keeping their order (τ-steps first), each move one step of the
// work counter. An arc is dead when its source is in a singleton block:
// such a block cannot split, and blocks only shrink, so no reader needs
// the arc again (processTarget skips it, and the backward searches over
// inert τ-steps, the closure in splitRound, separateNewBottom and
// tauStepsBetween from the rest's side, look for sources in blocks of two
// or more states; a block that has just split into a singleton reads its
// τ-steps forwards, as the smaller side). Without this every re-read of a
// target re-read them: on benchTauSCC 1.7 → 3.1 dead arcs per kernel
// transition from 20 k to 320 k states, 1.3 of the 5.0 steps per
// transition that the work grew by.
func (r *refiner) dropDeadArcs(d, c, dead int32) {
	hi := r.into[d].live
	w, tau := dead, int32(0) // w: the next live slot; tau: live τ-steps from dead on
	for i := dead + 1; i < hi; i++ {
		a, src := r.arc(i)
		b := r.block[src]
		if r.end[b]-r.begin[b] == 1 {
			continue
		}
		r.work++
		r.inArc[w] = r.inArc[i]
		if r.inLab != nil {
			r.inLab[w] = r.inLab[i]
		}
		w++
		if a == lts.Tau {
			tau++
		}
		r.gather(a, src, b, c)
	}
	r.into[d].live = w
	r.blockIn[c] -= hi - w
	if dead < r.into[d].tauEnd {
		r.into[d].tauEnd = dead + tau
	}
}

// splitUnderLabel splits every block under (a, C), the sources of the
// a-transitions into C being byLabel[a], and empties byLabel[a].
func (r *refiner) splitUnderLabel(a int32) {
	r.startRound()
	for _, src := range r.byLabel[a] {
		r.markState(src)
	}
	if r.history != nil {
		r.history.label = a
	}
	r.splitRound()
}
