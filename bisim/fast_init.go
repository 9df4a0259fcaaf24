package bisim

// splitByEnabledLabels replaces the refiner's single initial block by the
// classes of an abstraction of each state's weakly enabled labels: the
// labels a for which the state reaches an a-transition by τ-steps (τ
// itself excluded under branching, where every τ-step of the one initial
// block is inert), each label a folded onto bit a mod 64 of a mask.
// Bisimilar states have the same weakly enabled labels, hence the same
// mask, so the split never separates bisimilar states and the partition
// stays coarser than the coarsest stable one (invariant (1) of
// fastRefine); every block becomes target-dirty, so invariant (2) holds
// trivially.
//
// Why: starting from one block, the first target (all states) splits
// under every label in turn, each time closing the marked sources
// backwards over inert τ-steps through most of the LTS. On the Treiber
// stack LTSs that model checking produces this was about two thirds of
// the refinement's work (Treiber 4/2: 346 M of 551 M steps). The masks
// cost one pass over the transitions in the kernel's order, which is
// reverse topological for τ (newKernel): the τ-successors of a state come
// before it, so their masks are final when it is reached.
func (r *refiner) splitByEnabledLabels() {
	k := r.k
	n := k.n
	mask := make([]uint64, n)
	r.work += int64(n) + int64(len(k.dst))
	for s := int32(0); s < n; s++ {
		m := uint64(0)
		for t := k.out[s]; t < k.out[s+1]; t++ {
			if k.isTau(t) {
				m |= mask[k.dst[t]]
			} else {
				m |= 1 << (uint32(k.lab[t]) % 64)
			}
		}
		mask[s] = m
	}
	// The classes of the masks, numbered in order of their smallest
	// state, stored in block; then their sizes.
	class := make(map[uint64]int32)
	var size []int32
	last, lastClass := uint64(0), int32(-1)
	for s, m := range mask {
		if lastClass < 0 || m != last {
			c, ok := class[m]
			if !ok {
				c = int32(len(size))
				class[m] = c
				size = append(size, 0)
			}
			last, lastClass = m, c
		}
		r.block[s] = lastClass
		size[lastClass]++
	}
	mask = nil
	if r.sigWorkers > 0 {
		classes, stable := r.sigRounds(int32(len(size)), r.sigWorkers)
		r.sigStable = stable
		size = make([]int32, classes)
		for _, c := range r.block {
			size[c]++
		}
	}
	if len(size) == 1 {
		return
	}
	// The states grouped by class (counting sort, stable); class 0 stays
	// block 0, the others become new blocks.
	start := make([]int32, len(size)+1)
	for c, sz := range size {
		start[c+1] = start[c] + sz
	}
	fill := append([]int32(nil), start[:len(size)]...)
	for s := int32(0); s < n; s++ {
		c := r.block[s]
		r.perm[fill[c]], r.where[s] = s, fill[c]
		fill[c]++
	}
	r.end[0] = start[1]
	for c := 1; c < len(size); c++ {
		r.newBlock(start[c], start[c+1])
	}
	if r.sigWorkers > 0 && !r.sigStable && r.sigDirty == nil {
		r.dropAllDeadArcs()
	}
	// Per state, the τ-steps that stay inert; per block, its bottom
	// states, a light one of them, and its transitions out and in.
	r.work += 2*int64(n) + int64(len(k.dst))
	r.bottom[0], r.rep[0], r.blockOut[0], r.blockIn[0] = 0, -1, 0, 0
	for s := int32(0); s < n; s++ {
		b := r.block[s]
		inert := int32(0)
		for t := k.out[s]; t < k.out[s+1] && k.isTau(t); t++ {
			if r.block[k.dst[t]] == b {
				inert++
			}
		}
		r.st[s].inertOut = inert
		if inert == 0 {
			r.bottom[b]++
			r.rep[b] = r.lighter(r.rep[b], s)
		}
		r.blockOut[b] += k.out[s+1] - k.out[s]
		r.blockIn[b] += r.into[s].live - r.into[s].from
	}
}

// dropAllDeadArcs drops every dead arc (one whose source is a singleton
// block, see dropDeadArcs) before the worklist starts, on every worker,
// each a range of targets. After the signature rounds most blocks are
// singletons (on a random LTS of 1 M states, 5 M transitions, 985 924 of
// 985 963 strong blocks, 609 830 of 610 460 branching ones), and where
// every block is a target (not after strong rounds, which leave only the
// parts split last to the worklist: sigDirty), processTarget would read
// every arc once more only to drop it, on one core. The arcs left are the
// ones processTarget would keep, in the same order, so the worklist
// splits the same way.
func (r *refiner) dropAllDeadArcs() {
	bounds := ranges(len(r.inArc), r.k.n)
	moved := make([]int64, len(bounds)-1)
	forEachRange(bounds, func(p int, lo, hi int32) {
		for d := lo; d < hi; d++ {
			x := &r.into[d]
			w, tauEnd := x.from, x.from
			for i := x.from; i < x.live; i++ {
				_, src := r.arc(i)
				if b := r.block[src]; r.end[b]-r.begin[b] == 1 {
					continue
				}
				r.inArc[w] = r.inArc[i]
				if r.inLab != nil {
					r.inLab[w] = r.inLab[i]
				}
				w++
				if i < x.tauEnd {
					tauEnd = w
				}
			}
			moved[p] += int64(x.live - x.from)
			x.live, x.tauEnd = w, tauEnd
		}
	})
	for _, m := range moved {
		r.work += m
	}
}
