package bisim

import (
	"slices"
)

// fastRefine computes the same coarsest stable partition as gvRefine (see
// its comment for stability) with a worklist, touching only the parts of
// the graph next to the blocks that changed.
//
// Design. The stable-partition condition of Groote and Vaandrager is
// re-established locally after every split, in the spirit of Groote,
// Jansen, Keiren and Wijs, "An O(m log n) algorithm for computing stuttering
// equivalence and branching bisimulation" (ACM TOCL 2017), but WITHOUT their
// constellations, "process the smaller half" accounting and coroutines. The
// worst case is therefore O(n·m), like GV; in practice most work is local.
// Measured figures are in the package README / report.
//
// Data (flat int32 slices, allocated once): block[s]; perm holds the states
// grouped by block, block b occupying perm[begin[b]:end[b]], and where[s] is
// the index of s in perm; inIDs is the CSR of transitions by target and
// tauIn that of τ-transitions by target.
//
// Two worklists hold the blocks whose neighbourhood changed:
//
//   - target-dirty C: blocks with a transition into C may be unstable with
//     respect to (a, C). processTarget groups the transitions into C by
//     label; for each label a it marks the sources of non-inert
//     a-transitions, closes the mark backwards over inert τ-steps (τ-steps
//     inside one block), and splits every block that is partly marked into
//     its marked part (moved to a fresh block) and the rest.
//   - source-dirty P: after a block B is split into a marked part P and a
//     rest R, the states of R keep all their inert paths (a state of R with
//     a τ-step into P would have been marked), but a state of P may have
//     lost an inert path that ran through R. If P has a τ-step into R,
//     processSource re-checks P against every (a, C) that its own
//     transitions leave by.
//
// Invariants: (1) the partition is always coarser than the coarsest stable
// one, because every splitter used is a union of current blocks and only
// non-inert transitions are marked (GV Lemma 3.5); (2) a block not on
// either worklist is stable with respect to every (a, C) with C not on the
// target worklist: its stability can only be broken by a change of itself
// (handled by the source worklist, or by the argument about R above) or of
// a block its transitions enter (handled by pushing both halves of every
// split on the target worklist). When both lists are empty the partition is
// stable, hence it is the coarsest stable partition.
func fastRefine(k *kernel, opts *Options) (block []int32, numBlocks int32) {
	r := newRefiner(k)
	r.pushTarget(0)
	steps := 0
	for len(r.targets)+len(r.sources) > 0 {
		if n := len(r.sources); n > 0 {
			p := r.sources[n-1]
			r.sources = r.sources[:n-1]
			r.inSources[p] = false
			r.processSource(p)
		} else {
			c := r.targets[len(r.targets)-1]
			r.targets = r.targets[:len(r.targets)-1]
			r.inTargets[c] = false
			r.processTarget(c)
		}
		if steps++; steps&1023 == 0 {
			opts.progress("refine", int64(r.numBlocks))
		}
	}
	return r.block, r.numBlocks
}

// refiner holds the state of fastRefine.
type refiner struct {
	k                    *kernel
	block, perm, where   []int32
	begin, end           []int32 // range of each block in perm
	numBlocks            int32
	inIndex, inIDs       []int32 // all transitions by target
	tauIndex, tauSrc     []int32 // sources of τ-transitions by target
	mark                 []uint32
	epoch                uint32
	count                []int32 // marked states per block in the current round
	targets, sources     []int32
	inTargets, inSources []bool
	// scratch buffers, reused
	group, queue, touched []int32
	keys                  []splitterKey
}

func newRefiner(k *kernel) *refiner {
	n := k.n
	r := &refiner{k: k, numBlocks: 1,
		block: make([]int32, n), perm: make([]int32, n), where: make([]int32, n),
		begin: make([]int32, n), end: make([]int32, n),
		mark: make([]uint32, n), count: make([]int32, n),
		inTargets: make([]bool, n), inSources: make([]bool, n)}
	for s := int32(0); s < n; s++ {
		r.perm[s], r.where[s] = s, s
	}
	r.end[0] = n
	r.inIndex, r.inIDs = k.incoming(func(int32) bool { return true })
	if k.inert {
		var ids []int32
		r.tauIndex, ids = k.incoming(k.isTau)
		r.tauSrc = ids
		for i, t := range ids {
			r.tauSrc[i] = k.src[t]
		}
	}
	return r
}

func (r *refiner) pushTarget(b int32) {
	if !r.inTargets[b] {
		r.inTargets[b] = true
		r.targets = append(r.targets, b)
	}
}

func (r *refiner) pushSource(b int32) {
	if !r.inSources[b] {
		r.inSources[b] = true
		r.sources = append(r.sources, b)
	}
}

func (r *refiner) size(b int32) int32 { return r.end[b] - r.begin[b] }

// inert reports whether transition t is inert in the current partition.
func (r *refiner) inert(t int32) bool {
	return r.k.isTau(t) && r.block[r.k.src[t]] == r.block[r.k.dst[t]]
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
}

// closeMarks extends the marked set backwards over inert τ-steps.
func (r *refiner) closeMarks() {
	if !r.k.inert {
		return
	}
	for i := 0; i < len(r.queue); i++ {
		s := r.queue[i]
		b := r.block[s]
		for _, u := range r.tauSrc[r.tauIndex[s]:r.tauIndex[s+1]] {
			if r.block[u] == b {
				r.markState(u)
			}
		}
	}
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

// splitMarked splits every partly marked block: its marked states move to
// a fresh block. Both halves become target-dirty; the marked half becomes
// source-dirty when it has a τ-step into the rest. It reports whether
// anything was split.
func (r *refiner) splitMarked() bool {
	split := false
	for _, b := range r.touched {
		c := r.count[b]
		r.count[b] = 0
		size := r.size(b)
		if c == size {
			continue
		}
		split = true
		// Move the smaller side to a fresh block nb: partition b's range
		// so that the moving states end up at its tail.
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
		for _, s := range r.perm[hi:r.end[nb]] {
			r.block[s] = nb
		}
		r.pushTarget(b)
		r.pushTarget(nb)
		pos, rest := nb, b
		if !movingMarked {
			pos, rest = b, nb
		}
		if r.hasTauInto(pos, rest) {
			r.pushSource(pos)
		}
	}
	return split
}

// swap exchanges the states at positions i and j of perm.
func (r *refiner) swap(i, j int32) {
	si, sj := r.perm[i], r.perm[j]
	r.perm[i], r.perm[j] = sj, si
	r.where[si], r.where[sj] = j, i
}

// hasTauInto reports whether a state of block p has a τ-step into block
// q, looking from the smaller of the two.
func (r *refiner) hasTauInto(p, q int32) bool {
	if !r.k.inert {
		return false
	}
	k := r.k
	if r.size(p) <= r.size(q) {
		for _, s := range r.perm[r.begin[p]:r.end[p]] {
			for t := k.out[s]; t < k.out[s+1] && k.lab[t] == 0; t++ { // τ first, see newKernel
				if r.block[k.dst[t]] == q {
					return true
				}
			}
		}
		return false
	}
	for _, s := range r.perm[r.begin[q]:r.end[q]] {
		for _, u := range r.tauSrc[r.tauIndex[s]:r.tauIndex[s+1]] {
			if r.block[u] == p {
				return true
			}
		}
	}
	return false
}

// processTarget splits every block with respect to (a, C) for every label a
// of a transition into C.
func (r *refiner) processTarget(c int32) {
	k := r.k
	r.group = r.group[:0]
	for _, d := range r.perm[r.begin[c]:r.end[c]] {
		r.group = append(r.group, r.inIDs[r.inIndex[d]:r.inIndex[d+1]]...)
	}
	slices.SortFunc(r.group, func(x, y int32) int { return int(k.lab[x] - k.lab[y]) })
	group := r.group
	for i := 0; i < len(group); {
		a := k.lab[group[i]]
		r.startRound()
		for ; i < len(group) && k.lab[group[i]] == a; i++ {
			if t := group[i]; !r.inert(t) {
				r.markState(k.src[t])
			}
		}
		r.closeMarks()
		r.splitMarked()
	}
}

// processSource re-checks block p against every (a, C) that a non-inert
// transition of p leaves by. On the first split it stops and makes both
// halves source-dirty, so that the remaining splitters are checked on each.
func (r *refiner) processSource(p int32) {
	k := r.k
	r.keys = r.keys[:0]
	for _, s := range r.perm[r.begin[p]:r.end[p]] {
		for t := k.out[s]; t < k.out[s+1]; t++ {
			if !r.inert(t) {
				r.keys = append(r.keys, splitterKey{uint64(k.lab[t])<<32 | uint64(r.block[k.dst[t]]), s})
			}
		}
	}
	slices.SortFunc(r.keys, func(x, y splitterKey) int {
		if x.key != y.key {
			if x.key < y.key {
				return -1
			}
			return 1
		}
		return 0
	})
	for i := 0; i < len(r.keys); {
		key := r.keys[i].key
		r.startRound()
		for ; i < len(r.keys) && r.keys[i].key == key; i++ {
			r.markState(r.keys[i].src)
		}
		r.closeMarks()
		nb := r.numBlocks
		if r.splitMarked() {
			r.pushSource(p)
			r.pushSource(nb)
			return
		}
	}
}

// splitterKey is a (label, target block) pair, packed, with a source state
// that has such a transition.
type splitterKey struct {
	key uint64
	src int32
}
