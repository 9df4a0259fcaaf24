package bisim

import "github.com/linbis/linbis/lts"

// A round of gjRefine: a block B leaves its constellation C, and blocks
// are split under the splitters (a, B) and co-splitters (a, C \ B).

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
		if !r.dirty[x] && r.st[s].inertOut == 0 && r.cellCnt[r.seed[s].oldCell] == 0 && !(own && (r.constOf[x] == c || r.constOf[x] == nc)) {
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
				r.nextMarkEpoch()
				part, reach = r.rList[:0], true
				r.work += int64(r.sl[bc].end - r.sl[bc].begin)
				for _, t := range r.bt[r.sl[bc].begin:r.sl[bc].end] {
					if s := k.src[t]; r.st[s].mark != r.epoch {
						r.st[s].mark = r.epoch
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
