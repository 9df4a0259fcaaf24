package bisim

import "github.com/linbis/linbis/lts"

// fullCheck of gjRefine: making a block with new bottom states stable
// under every pair again (the papers' stabilisation).

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
		r.debug.note(pathVisits)
		if !r.sl[c].sched {
			r.debug.note(pathVisitUnscheduled) // never: every slice in a range is
		}
		r.qHi[i] = r.sl[c].begin
		if r.size(y) == 1 {
			r.schedule(c, false)
			r.debug.note(pathSkipped)
			if d := r.debug; d != nil {
				d.visitReads[t]++ // the witness of a skipped visit
			}
			continue
		}
		if r.dirty[y] { // c, still scheduled, is not recorded again
			r.debug.note(pathRegistered)
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
	r.debug.note(pathRegistrations)
	bottoms := r.perm[r.begin[y] : r.begin[y]+r.bottom[y]]
	if d := r.debug; d != nil {
		for _, s := range bottoms {
			d.bottomReads[s]++
		}
	}
	for c := r.blockBC[y]; c >= 0; c = r.sl[c].next {
		r.work++
		r.sl[c].cnt = 0
	}
	for _, s := range bottoms {
		r.work += 1 + int64(k.out[s+1]-k.out[s])
		r.debug.add(pathBottomOut, int(k.out[s+1]-k.out[s]))
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
		r.debug.note(pathRegWalk)
		if r.sl[c].cnt > 0 {
			r.debug.note(pathRegHad) // charged to a bottom state's transition
		}
		if r.sl[c].cnt == r.bottom[y] {
			continue
		}
		if t := r.bt[r.sl[c].begin]; k.inert && k.lab[t] == lts.Tau && r.constOf[r.block[k.dst[t]]] == cy {
			r.debug.note(pathRegInert) // at most one per registration
			continue                   // constellation-inert
		}
		if r.sl[c].cnt == 0 {
			r.debug.note(pathNoBottomSlices)
		}
		r.debug.note(pathScheduled)
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
		if d := r.debug; d != nil {
			d.visitReads[t]++
		}
	}
	marked, bottom := r.bcount[y], r.bottom[y]
	r.count[y], r.bcount[y] = 0, 0
	if marked == bottom {
		r.debug.note(pathStable)
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
		r.debug.note(pathNoBottomWith)
	}
	r.debug.note(pathSplitWithout + gjPath(b2i(reach)))
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
