package bisim

import (
	"math/bits"
	"slices"

	"github.com/linbis/linbis/lts"
)

// Groups: the bigger part of a split block is not re-read.
//
// When a block K that is not target-dirty splits, every block is stable
// under every (a, K) (invariant (2) of fastRefine), and its parts become
// target-dirty. Fast used to read every part as a target; where K holds
// a state of huge in-degree (benchRandom's contracted giant τ-SCC) and
// loses a few states at a time, that re-read the big part after each
// peel. As in Paige and Tarjan's three-way split, all parts but the last
// can be read and the last one's stability derived, here without counts.
//
// The parts of K not read yet form a group (branching kernels only, and
// not while a history of splits is recorded), standing for their union,
// also called K. Invariant: once the local splitters are done, every
// block is stable under every (a, K), τ-steps from a part into another
// part aside (below). checkBottomKeys keeps that through new bottom
// states by counting the keys into a group's parts as keys into one
// block (keyBlock); where those differ the group ends (resolveKeys).
// When part S is read (processMember), every block Y becomes stable
// under (a, S) and stays stable under (a, K), so the invariant holds for
// K' = K ∖ S: if no state of Y has an a-step into S, Y's a-steps into K
// go to K'. Otherwise every bottom state of Y has one, so it is among the
// sources read; if each of them also has an a-step into K', so does
// every bottom state of Y, and Y is stable under (a, K'). bigStable
// checks that forwards from those bottom states; a block Y where one
// lacks it may be unstable, and Y is read whole, which splits it under
// local splitters where it is. So is every block that got new bottom
// states while S was read (the argument needs Y stable under (a, K)
// before). When one part is left it is not read at all. Checking costs;
// once it has cost a group three times the transitions into its biggest
// part (reading a target costs about three steps per transition into it:
// the arc, the mark, the split) the group ends and its parts are read
// as before. A singleton is stable under everything: its new bottom
// states do not count, and it is not checked.
//
// A τ-step between two parts stopped being inert when they split; the
// part X it leaves, reaching the splitter, may be unstable under (τ, R),
// R the part it enters, while X's bottom states have none (they had no
// τ-step into K), which is no instability of (τ, K). So such steps are
// no keys of the group, like steps into any target-dirty block, and are
// settled when a part is read: either X is read, and its τ-steps into
// the parts left become a local splitter of its own (leaveSplitter), for
// it is no longer a part; or R is, which splits X like any block. When
// one part is left every other part has been read, so all such steps
// into it are settled.

// joinGroup puts the parts b and nb of a split in a group: a new one if b
// was not target-dirty (clean), b's if b is in one.
func (r *refiner) joinGroup(b, nb int32, clean bool) {
	if clean {
		g := int32(len(r.groups))
		r.groups = append(r.groups, b)
		r.groupSpent = append(r.groupSpent, 0)
		r.groupOf[b], r.groupPrev[b], r.groupNext[b] = g, -1, nb
		r.groupOf[nb], r.groupPrev[nb], r.groupNext[nb] = g, b, -1
		return
	}
	if g := r.groupOf[b]; g >= 0 {
		next := r.groupNext[b]
		r.groupOf[nb], r.groupPrev[nb], r.groupNext[nb] = g, b, next
		r.groupNext[b] = nb
		if next >= 0 {
			r.groupPrev[next] = nb
		}
	}
}

// leaveGroup takes part b out of its group.
func (r *refiner) leaveGroup(b int32) {
	g, prev, next := r.groupOf[b], r.groupPrev[b], r.groupNext[b]
	if prev >= 0 {
		r.groupNext[prev] = next
	} else {
		r.groups[g] = next
	}
	if next >= 0 {
		r.groupPrev[next] = prev
	}
	r.groupOf[b], r.groupPrev[b], r.groupNext[b] = -1, -1, -1
}

// endGroup ends group g; its parts stay target-dirty.
func (r *refiner) endGroup(g int32) {
	for m := r.groups[g]; m >= 0; {
		r.work++
		next := r.groupNext[m]
		r.groupOf[m], r.groupPrev[m], r.groupNext[m] = -1, -1, -1
		m = next
	}
	r.groups[g] = -1
}

// processMember reads the target-dirty part c of a group and keeps the
// group's invariant for the parts left, or ends the group (see above).
func (r *refiner) processMember(c int32) {
	g := r.groupOf[c]
	r.leaveGroup(c)
	r.work += int64(r.size(c))
	r.leftStates = append(r.leftStates[:0], r.perm[r.begin[c]:r.end[c]]...)
	r.eventStates = r.eventStates[:0]
	r.eventCap, _ = r.groupIn(g)
	r.processTarget(c)
	ok := r.eventCap >= 0 && r.bigStable(g)
	r.eventCap = -1
	r.dropSources()
	if !ok {
		r.endGroup(g)
		return
	}
	r.leaveSplitter(g)
	if d := r.groups[g]; r.groupNext[d] < 0 {
		r.endGroup(g)
		r.inTargets[d] = false // never read; its entry in targets is skipped
		if r.debug != nil {
			r.debug.unread++
		}
	}
	for _, s := range r.eventStates {
		r.unsure = append(r.unsure, r.block[s])
	}
	slices.Sort(r.unsure)
	for _, y := range slices.Compact(r.unsure) {
		r.checkBottomKeys(r.perm[r.begin[y]:r.end[y]], true)
	}
}

// noteEvent notes the states of block b, which has new bottom states,
// while processMember reads a part (eventCap >= 0), unless b is a
// singleton or they pass eventCap: then eventCap becomes -2, and the
// group ends.
func (r *refiner) noteEvent(b int32) {
	if r.eventCap < 0 || r.size(b) == 1 {
		return
	}
	states := r.perm[r.begin[b]:r.end[b]]
	if int64(len(r.eventStates)+len(states)) > r.eventCap {
		r.eventCap = -2
		return
	}
	r.work += int64(len(states))
	r.eventStates = append(r.eventStates, states...)
}

// leaveSplitter makes the sources among leftStates, the states of the
// part just read, of τ-steps into the parts of group g a local splitter
// of theirs (see above).
func (r *refiner) leaveSplitter(g int32) {
	k := r.k
	start := len(r.localSrc)
	for _, x := range r.leftStates {
		r.work++
		for t := k.out[x]; t < k.out[x+1] && k.lab[t] == lts.Tau; t++ {
			r.work++
			if r.groupOf[r.block[k.dst[t]]] == g {
				r.localSrc = append(r.localSrc, x)
				break
			}
		}
	}
	if len(r.localSrc) > start {
		r.localEnd = append(r.localEnd, int32(len(r.localSrc)))
	}
}

// bigStable reports whether every block is stable under every (a, K), K
// the parts of group g, once the blocks it lists in unsure are read
// whole, by the argument above, the sources of the a-steps into the part
// just read being byLabel[a]; false once that would cost the group more
// than its budget.
func (r *refiner) bigStable(g int32) bool {
	_, most := r.groupIn(g)
	budget, states := 3*most-r.groupSpent[g], int64(0)
	for m := r.groups[g]; m >= 0; m = r.groupNext[m] {
		states += int64(r.size(m))
	}
	w0 := r.work
	defer func() { r.groupSpent[g] += r.work - w0 }()
	// A first bound, a few steps per source: most small groups fail it.
	bound := int64(0)
	for _, a := range r.labels {
		r.work++
		bound += 4 * int64(len(r.byLabel[a]))
	}
	if bound > budget {
		return false
	}
	r.unsure = r.unsure[:0]
	for _, a := range r.labels {
		r.startRound()
		stable := true
		for _, s := range r.byLabel[a] {
			if r.st[s].inertOut != 0 || r.st[s].mark == r.epoch {
				continue
			}
			r.st[s].mark = r.epoch
			y := r.block[s]
			if a == lts.Tau && r.groupOf[y] == g || r.size(y) == 1 {
				continue // a τ-step between parts; a singleton is stable
			}
			if r.count[y] == 0 {
				r.touched = append(r.touched, y)
			}
			r.count[y]++
			has, cost, within := r.hasStepInto(s, a, g, states, budget)
			r.work += cost
			if budget -= cost; !within || budget < 0 {
				stable = false
				break
			}
			if has {
				r.bcount[y]++
			}
		}
		for _, y := range r.touched {
			if stable && r.bcount[y] < r.bottom[y] {
				if budget -= int64(r.blockOut[y]); budget < 0 {
					stable = false
				}
				r.unsure = append(r.unsure, y)
			}
			r.count[y], r.bcount[y] = 0, 0
		}
		if !stable {
			return false
		}
	}
	return true
}

// groupIn returns the transitions into the parts of group g, in all and
// into its biggest part.
func (r *refiner) groupIn(g int32) (total, most int64) {
	for m := r.groups[g]; m >= 0; m = r.groupNext[m] {
		r.work++
		total += int64(r.blockIn[m])
		most = max(most, int64(r.blockIn[m]))
	}
	return total, most
}

// hasStepInto reports whether state s has a non-inert a-step into a part
// of group g, whose parts hold states states in all, and what finding
// out cost; within is false where that would cost more than limit.
// Groups form only in branching kernels, whose transitions are sorted by
// label and target, so s's a-steps are a range found by binary search.
// A hub (hubSteps) has each state of the group looked up in its set of
// a-successors, where the group has fewer states than the range; other
// states scan the range, or look each state of the group up in it by
// binary search where that costs less. Since a group only shrinks, an
// a-step found not to enter it never does later: a long range is scanned
// on from where the last scan for g stopped (scanFrom), and a hub first
// tries the successor it found for g last time (hubHit).
func (r *refiner) hasStepInto(s, a, g int32, states, limit int64) (has bool, cost int64, within bool) {
	k := r.k
	lo, hi := k.out[s], k.out[s+1]
	i, _ := slices.BinarySearch(k.lab[lo:hi], a)
	j, _ := slices.BinarySearch(k.lab[lo+int32(i):hi], a+1)
	log := int64(bits.Len32(uint32(hi - lo)))
	cost = 1 + 2*log
	lo, hi = lo+int32(i), lo+int32(i+j)
	from := lo
	if hi-lo > longScan {
		if c, ok := r.scanFrom[lo]; ok && c.group == g {
			from = c.pos
		}
	}
	enters := func(d int32) bool { // d in g, the step not inert
		m := r.block[d]
		return r.groupOf[m] == g && !(a == lts.Tau && r.block[s] == m)
	}
	if hub := r.hubSteps(s, lo, hi); hub != nil && states < int64(hi-from) {
		if c, ok := r.hubHit[lo]; ok && c.group == g {
			cost++
			if c.pos < 0 {
				return false, cost, true
			}
			if enters(c.pos) {
				return true, cost, true
			}
		}
		if cost+states > limit {
			return false, cost, false
		}
		hit := int32(-1)
		for m := r.groups[g]; m >= 0 && hit < 0; m = r.groupNext[m] {
			for _, d := range r.perm[r.begin[m]:r.end[m]] {
				cost++
				if hub[d>>6]&(1<<(d&63)) != 0 && enters(d) {
					hit = d
					break
				}
			}
		}
		r.hubHit[lo] = scanCursor{g, hit}
		return hit >= 0, cost, true
	}
	if probe := states * log; probe < int64(hi-from) {
		if cost+probe > limit {
			return false, cost, false
		}
		dst := k.dst[lo:hi]
		for m := r.groups[g]; m >= 0 && !has; m = r.groupNext[m] {
			for _, d := range r.perm[r.begin[m]:r.end[m]] {
				cost += log
				if _, found := slices.BinarySearch(dst, d); found && enters(d) {
					has = true
					break
				}
			}
		}
		return has, cost, true
	}
	if cost+int64(hi-from) > limit {
		return false, cost, false
	}
	t := from
	for ; t < hi && !has; t++ {
		cost++
		has = enters(k.dst[t])
	}
	if hi-lo > longScan {
		if has {
			t-- // the step found, where to look first next time
		}
		r.scanFrom[lo] = scanCursor{g, t}
	}
	return has, cost, true
}

// longScan is the length of a range of a-steps above which hasStepInto
// keeps where its scan stopped.
const longScan = 32

// scanCursor is where hasStepInto goes on scanning a range of a-steps
// for group group, or for a hub the a-successor it found in the group
// (-1: none).
type scanCursor struct{ group, pos int32 }

// hubSteps returns the set of the targets of the a-steps [lo, hi) of s,
// one bit per state, if s is a hub: a state with at least hubMin
// transitions and a sixteenth as many as the kernel has states (a
// contracted giant τ-SCC), a source into nearly every part read, asked
// again and again whether it has an a-step into the parts left. A set is
// made on its first use, for at most 16 hubs, and only for a range of at
// least n/64 steps, so that its n bits cost at most 8 bytes a step: the
// sets' memory is bounded by the hubs' transitions, not by their labels
// times the states (a hub with 20 000 labels held 20 000 sets of n bits).
// A shorter range gets nil and is scanned or probed by binary search.
func (r *refiner) hubSteps(s, lo, hi int32) []uint64 {
	k := r.k
	out := k.out[s+1] - k.out[s]
	if out < hubMin || out < k.n/16 || int64(hi-lo)*64 < int64(k.n) {
		return nil
	}
	set, ok := r.hubs[lo]
	if !ok {
		if !r.hubStates[s] {
			if len(r.hubStates) == 16 {
				return nil
			}
			r.hubStates[s] = true
		}
		set = make([]uint64, (k.n+63)/64)
		r.work += int64(hi - lo)
		for _, d := range k.dst[lo:hi] {
			set[d>>6] |= 1 << (d & 63)
		}
		r.hubs[lo] = set
	}
	return set
}

// hubMin is the fewest transitions a hub has (see hubSteps).
const hubMin = 1024

// keyBlock returns the block whose key (a, C) checkBottomKeys counts for
// a non-inert transition t of state s into block c: C is c or, where c
// is a part of a group, the group's first part, standing for the group;
// -1 where c is target-dirty outside a group (reading it will split)
// and for a τ-step between parts (see above). Inlined: checkBottomKeys
// calls it for every transition it reads.
func (r *refiner) keyBlock(s, t, c int32) int32 {
	if r.inTargets[c] { // the parts of groups are target-dirty
		return r.dirtyKey(s, t, c)
	}
	return c
}

// dirtyKey is keyBlock for a target-dirty block c.
//
//go:noinline
func (r *refiner) dirtyKey(s, t, c int32) int32 {
	g := r.groupOf[c]
	if g < 0 || r.k.isTau(t) && r.groupOf[r.block[s]] == g {
		return -1
	}
	return r.groups[g]
}

// groupMinIn is the fewest transitions into a block whose parts form a
// group when it splits: re-reading a part of a smaller one costs less
// than a group's bookkeeping (on benchTauChains, groups of any size cost
// 1.8 % more work than none; from 64 on, nothing).
const groupMinIn = 64
