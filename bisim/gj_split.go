package bisim

import "slices"

// Splitting a block of gjRefine: marking, the lockstep search of the two
// sides, moving the smaller side to a new block (detach) and the new
// bottom states a split makes (afterSplit).

// markState adds s to the current marked set. A marked bottom state moves
// to the front of its block's bottom states, so that the unmarked ones are
// perm[begin+bcount : begin+bottom].
func (r *gjRefiner) markState(s int32) {
	r.work++
	if r.st[s].mark == r.epoch {
		return
	}
	b := r.block[s]
	if r.size(b) == 1 {
		return // a singleton cannot split
	}
	r.st[s].mark = r.epoch
	r.queue = append(r.queue, s)
	if r.count[b] == 0 {
		r.touched = append(r.touched, b)
	}
	r.count[b]++
	if r.st[s].inertOut == 0 {
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
				return r.st[s].mark == r.epoch, 1
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
		if r.st[s].inertOut > 0 {
			q--
			r.swap(r.where[s], q)
		}
	}
	for _, s := range part {
		if r.st[s].inertOut == 0 {
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
		if r.st[s].inertOut == 0 {
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
		if r.st[s].inertOut--; r.st[s].inertOut == 0 {
			r.swap(r.where[s], r.begin[reach]+r.bottom[reach]) // into the bottom states
			r.bottom[reach]++
			r.newBottom = append(r.newBottom, s)
		}
	}
	r.tauStepsBetween(reach, rest, r.tauInto, lose)
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
	r.debug.note(pathNewBottomSplitN + gjPath(b2i(isO)))
	o, n := reach, nb
	if isO {
		o, n = nb, reach
	}
	r.markDirty(n)
	r.tauStepsBetween(o, n, r.tauInto, func(s int32) { r.st[s].inertOut-- })
}

// rMarks selects the marks of lockstep's R side.
type rMarks int

const (
	roundMarks rMarks = iota // mark/epoch of the current round; rSeeds are marked already
	freshMarks               // mark with a new epoch
	ownMarks                 // oMark/oEpoch, leaving the round's marks alone
)

// lockstep splits block x by two searches run in alternation, one step
// each, stopping when either is complete (the coroutines of the 2017
// paper): U, the states that cannot reach the splitter by inert τ-steps,
// grows backwards from uSeeds (all the bottom states that cannot), taking
// a state when all its inert successors are in U and has(state) is false;
// R, the states that can, grows backwards from rSeeds and the sources of
// slice bc (if bc ≥ 0). marks says how R is marked (see
// rMarks). has returns the cost of its answer as well, counted as U's steps.
// It returns the complete side and whether it is R; both sides must be
// non-empty.
func (r *gjRefiner) lockstep(x int32, rSeeds []int32, bc int32, uSeeds []int32, marks rMarks,
	has func(s int32) (bool, int32)) (part []int32, reach bool) {
	k := r.k
	if r.nEpoch++; r.nEpoch == 0 { // U: uCount, left < 0 for a member
		clear(r.uCount)
		r.nEpoch = 1
	}
	uList := r.list[:0]
	uS, uI, uArc, uArcEnd, uDebt := 0, 0, int32(0), int32(0), int32(0)
	switch marks {
	case freshMarks:
		r.nextMarkEpoch()
	case ownMarks:
		nextEpoch(&r.oEpoch, r.oMark)
	}
	// R's marks: the round's, in the core's state records, or oMark.
	own := marks == ownMarks
	marked := func(u int32) bool {
		if own {
			return r.oMark[u] == r.oEpoch
		}
		return r.st[u].mark == r.epoch
	}
	setMark := func(u int32) {
		if own {
			r.oMark[u] = r.oEpoch
		} else {
			r.st[u].mark = r.epoch
		}
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
				uc.seen, uc.left = r.nEpoch, r.st[y].inertOut
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
			uArc, uArcEnd = r.tauFrom[s], r.tauTo[s]
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
			if r.block[u] == x && !marked(u) {
				setMark(u)
				rList = append(rList, u)
			}
		case rI < len(rList):
			s := rList[rI]
			rI++
			rArc, rArcEnd = r.tauFrom[s], r.tauTo[s]
		case rS < len(rSeeds):
			setMark(rSeeds[rS])
			rList = append(rList, rSeeds[rS])
			rS++
		case rT < rTEnd:
			s := k.src[r.bt[rT]]
			rT++
			if !marked(s) {
				setMark(s)
				rList = append(rList, s)
			}
		default:
			return rList, true
		}
	}
}
