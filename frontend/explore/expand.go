package explore

import (
	"bytes"
)

// worker expands the blocks of a breadth-first search: an expander computes
// their states' successors, which the worker looks up in the state set. It
// writes only its own buffers and the block it is given, so that several
// workers can run at once.
type worker struct {
	*expander
	set   *stateSet   // looked up in and claimed in, concurrently
	arena arenaCursor // where its claimed records go
	seen  []int32     // dedup's table
}

func (x *explorer) newWorker() *worker {
	return &worker{expander: x.newExpander(x.set.seed), set: x.set}
}

// expand fills blk with the successors of its states, stopping after a
// state whose expansion fails, looks them up in the state set and claims
// records for those not found: the lookups and the records, the larger
// part of the cost of the set, are then off the inserting goroutine,
// which only numbers the new states.
func (e *worker) expand(blk *block) {
	blk.batch, blk.succs, blk.ends = blk.batch[:0], blk.succs[:0], blk.ends[:0]
	blk.failed = nil
	e.blk = &blk.successors
	for _, ref := range blk.refs {
		enc := e.set.encoding(ref)
		if cap(e.cur) < len(enc) {
			e.cur = make([]int32, 0, 2*len(enc))
		}
		// Reslicing e.cur in place, rather than assigning decode's result,
		// stores no pointer (see state).
		e.cur = e.cur[:decodeTo(e.cur[:cap(e.cur)], enc)]
		e.c.current(e.cur)
		t, f := e.state()
		blk.ends = append(blk.ends, int32(len(blk.succs)))
		if f != nil {
			blk.failed, blk.failThread = f, t
			break
		}
	}
	e.blk = nil
	e.dedup(blk)
	e.lookUp(blk)
}

// lookUp looks the successors of blk up in the state set, those that
// dedup did not find earlier in the block, and claims records for those
// not there. The table is held (reserve) for a claim by each, so that a
// successor not found is claimed right where its lookup ended, while the
// slot's line is in the cache: claiming after all the lookups took every
// new state's slot miss a second time.
//
// Two passes of independent loads come first (see touch), by groups: the
// lines and pages that a group's loads bring into the caches and the TLB
// are still there when its lookups run.
func (e *worker) lookUp(blk *block) {
	k := 0
	for i := range blk.succs {
		if blk.succs[i].first < 0 {
			k++
		}
	}
	e.set.reserve(k)
	added := 0
	var sink uint64
	for g := 0; g < len(blk.succs); g += lookupGroup {
		group := blk.succs[g:min(g+lookupGroup, len(blk.succs))]
		for i := range group {
			if sc := &group[i]; sc.first < 0 {
				sc.slot = e.set.slot(sc.hash)
			}
		}
		for i := range group {
			if sc := &group[i]; sc.first < 0 {
				sink += e.set.touch(sc.slot, sc.hash)
			}
		}
		for i := range group {
			if sc := &group[i]; sc.first < 0 {
				var isNew bool
				sc.id, sc.ref, isNew = e.set.claim(blk.batch[sc.start:sc.end], sc.hash, &e.arena)
				if isNew {
					added++
				}
			}
		}
	}
	e.set.release(k, added)
	blk.sink = sink
}

// lookupGroup is the number of successors whose lookups overlap: enough
// to keep the processor's outstanding misses busy, few enough that their
// lines and pages stay in the L1 cache and the TLB.
const lookupGroup = 64

// dedup sets the first field of the block's successors: a state is often
// the successor of several states of a block (when two threads' steps
// commute, for one), and only its first occurrence needs a lookup in the
// large set, whose table is mostly out of the cache; a small table of the
// block's own successors finds the others.
func (e *worker) dedup(blk *block) {
	n := 16
	for n < 2*len(blk.succs) {
		n *= 2
	}
	if cap(e.seen) < n {
		e.seen = make([]int32, n)
	}
	seen := e.seen[:n]
	clear(seen)
	mask := uint32(n - 1)
	for i := range blk.succs {
		sc := &blk.succs[i]
		sc.first = -1
		for k := sc.hash & mask; ; k = (k + 1) & mask {
			j := seen[k] - 1
			if j < 0 {
				seen[k] = int32(i) + 1
				break
			}
			if o := &blk.succs[j]; o.hash == sc.hash && bytes.Equal(blk.batch[o.start:o.end], blk.batch[sc.start:sc.end]) {
				sc.first = j
				break
			}
		}
	}
}
