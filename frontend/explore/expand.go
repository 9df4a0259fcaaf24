package explore

import (
	"bytes"
	"github.com/linbis/linbis/frontend/semantics"
)

// worker expands the blocks of a breadth-first search: an expander computes
// their states' successors, which the worker looks up in the state set. It
// writes only its own buffers and the block it is given, so that several
// workers can run at once.
type worker struct {
	*semantics.Expander
	set   *semantics.StateSet   // looked up in and claimed in, concurrently
	arena semantics.ArenaCursor // where its claimed records go
	seen  []int32               // dedup's table
}

func (x *explorer) newWorker() *worker {
	return &worker{Expander: x.NewExpander(x.set.Seed), set: x.set}
}

// expand fills blk with the successors of its states, stopping after a
// state whose expansion fails, looks them up in the state set and claims
// records for those not found: the lookups and the records, the larger
// part of the cost of the set, are then off the inserting goroutine,
// which only numbers the new states.
func (e *worker) expand(blk *block) {
	blk.Batch, blk.Succs, blk.ends = blk.Batch[:0], blk.Succs[:0], blk.ends[:0]
	blk.failed = nil
	e.Blk = &blk.Successors
	for _, ref := range blk.refs {
		enc := e.set.Encoding(ref)
		if cap(e.Cur) < len(enc) {
			e.Cur = make([]int32, 0, 2*len(enc))
		}
		// Reslicing e.cur in place, rather than assigning decode's result,
		// stores no pointer (see state).
		e.Cur = e.Cur[:semantics.DecodeTo(e.Cur[:cap(e.Cur)], enc)]
		e.Canon.Current(e.Cur)
		t, f := e.State()
		blk.ends = append(blk.ends, int32(len(blk.Succs)))
		if f != nil {
			blk.failed, blk.failThread = f, t
			break
		}
	}
	e.Blk = nil
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
	for i := range blk.Succs {
		if blk.Succs[i].First < 0 {
			k++
		}
	}
	e.set.Reserve(k)
	added := 0
	var sink uint64
	for g := 0; g < len(blk.Succs); g += lookupGroup {
		group := blk.Succs[g:min(g+lookupGroup, len(blk.Succs))]
		for i := range group {
			if sc := &group[i]; sc.First < 0 {
				sc.Slot = e.set.Slot(sc.Hash)
			}
		}
		for i := range group {
			if sc := &group[i]; sc.First < 0 {
				sink += e.set.Touch(sc.Slot, sc.Hash)
			}
		}
		for i := range group {
			if sc := &group[i]; sc.First < 0 {
				var isNew bool
				sc.ID, sc.Ref, isNew = e.set.Claim(blk.Batch[sc.Start:sc.End], sc.Hash, &e.arena)
				if isNew {
					added++
				}
			}
		}
	}
	e.set.Release(k, added)
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
	for n < 2*len(blk.Succs) {
		n *= 2
	}
	if cap(e.seen) < n {
		e.seen = make([]int32, n)
	}
	seen := e.seen[:n]
	clear(seen)
	mask := uint32(n - 1)
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		sc.First = -1
		for k := sc.Hash & mask; ; k = (k + 1) & mask {
			j := seen[k] - 1
			if j < 0 {
				seen[k] = int32(i) + 1
				break
			}
			if o := &blk.Succs[j]; o.Hash == sc.Hash && bytes.Equal(blk.Batch[o.Start:o.End], blk.Batch[sc.Start:sc.End]) {
				sc.First = j
				break
			}
		}
	}
}
