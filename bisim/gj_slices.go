package bisim

import "slices"

// The B_to_C slices of gjRefine (see its design comment): every transition
// is in the slice of its (source block, label, target constellation), a
// range of bt, and in a counter cell of its (source, label, target
// constellation). An operation (beginOp … endOp) moves transitions to new
// slices carved from the tails of their old ones.

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
			r.debug.note(pathWholeSlices)
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
