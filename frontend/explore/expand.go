package explore

import (
	"bytes"
	"github.com/linbis/linbis/frontend/ir"
	"hash/maphash"
	"slices"
)

// expander computes the successors of states: it runs the threads' steps
// and the client's calls and canonicalises, encodes and hashes the
// resulting states, and looks them up in the state set. It reads the explorer's program and bounds and writes
// only its own buffers and the block it is given, so that several
// expanders can run at once.
type expander struct {
	x     *explorer   // read-only: p, b, o, allowed
	set   *stateSet   // looked up in and claimed in, concurrently
	arena arenaCursor // where its claimed records go
	seed  maphash.Seed
	m     machine
	c     *canonicaliser
	cur   []int32 // the state being expanded
	blk   *block  // the block being filled
	seen  []int32 // dedup's table
}

func (x *explorer) newExpander() *expander {
	return &expander{x: x, set: x.set, seed: x.set.seed, c: x.canon.clone(),
		m: newMachine(x.p, !x.o.Explicit, x.o.Lin, int32(x.o.MaxNodes))}
}

// expand fills blk with the successors of its states, stopping after a
// state whose expansion fails, looks them up in the state set and claims
// records for those not found: the lookups and the records, the larger
// part of the cost of the set, are then off the inserting goroutine,
// which only numbers the new states.
func (e *expander) expand(blk *block) {
	blk.batch, blk.succs, blk.ends = blk.batch[:0], blk.succs[:0], blk.ends[:0]
	blk.failed = nil
	e.blk = blk
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
func (e *expander) lookUp(blk *block) {
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
func (e *expander) dedup(blk *block) {
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

// state adds the successors of e.cur to the block, thread by thread; on a
// model error it stops and returns the failing thread and the failure.
func (e *expander) state() (int, *failure) {
	x := e.x
	lay := &x.p.Layout
	cur := e.cur
	// Each successor is built in the machine's memory, a copy of cur. The
	// slice is resliced in place, not assigned: storing a slice into the
	// expander, a heap object, costs a GC write barrier whenever the
	// collector is marking, and once per successor that was 4 % of the
	// instructions of an exploration.
	if cap(e.m.mem) < len(cur) {
		e.m.mem = make([]int32, 0, 2*len(cur))
	}
	for t := 0; t < x.b.Threads; t++ {
		base := lay.ThreadBase(t)
		if cur[base+ir.TPC] == 0 {
			if x.b.Ops >= 0 && int(cur[base+ir.TOps]) >= x.b.Ops {
				continue
			}
			for _, m := range x.p.Methods {
				if !x.allowed[t][m.Index] {
					continue
				}
				for ai, args := range m.ArgTuples {
					e.m.mem = e.m.mem[:len(cur)]
					next := e.m.mem
					copy(next, cur)
					next[base+ir.TPC] = m.Entry
					if x.b.Ops >= 0 {
						next[base+ir.TOps]++
					}
					copy(next[base+ir.TLocals:], args)
					// An idle thread's locals are zero (resetThread)
					// but for the arguments, in the first slots.
					clean := ^(uint64(1)<<uint(len(args)) - 1)
					e.add(t, outcome{kind: kCall, method: m.Index, value: int32(ai), step: m.CallStep}, next, 0, clean)
				}
			}
			continue
		}
		e.m.t, e.m.base = t, base
		clean := x.p.Clean[cur[base+ir.TPC]]
		for {
			e.m.mem = e.m.mem[:len(cur)]
			copy(e.m.mem, cur)
			// m.err is nil here: a failure ends the expansion below.
			e.m.ci, e.m.moved = 0, 0
			out := e.m.step()
			if f := e.m.err; f != nil {
				e.m.choices, e.m.limits, e.m.err = e.m.choices[:0], e.m.limits[:0], nil
				return t, f
			}
			if out.kind != kBlocked {
				e.add(t, out, e.m.mem, e.m.moved, clean)
			}
			if !e.m.nextChoice() {
				break
			}
		}
	}
	return 0, nil
}

// add canonicalises, encodes and hashes a successor of e.cur by thread t
// and puts it in the block; moved is the machine's (0 for a call), clean
// the locals of t known to be zero (see canonicalStep).
func (e *expander) add(t int, out outcome, next []int32, moved refMoves, clean uint64) {
	blk := e.blk
	st := e.c.canonicalStep(e.cur, next, t, moved, clean)
	start := int32(len(blk.batch))
	if cap(blk.batch)-len(blk.batch) < maxEncoding(len(st)) {
		blk.batch = slices.Grow(blk.batch, maxEncoding(len(st)))
	}
	// Resliced in place: no pointer store (see state).
	blk.batch = blk.batch[:len(blk.batch)+encodeTo(blk.batch[len(blk.batch):cap(blk.batch)], st)]
	end := int32(len(blk.batch))
	if end-start > 65535 {
		panic("state too large") // unreachable with the node and array limits
	}
	var key labelKey
	if out.kind != kTau {
		key = keyOf(t, out)
	}
	blk.succs = append(blk.succs, succ{start: start, end: end, hash: hashState(e.seed, blk.batch[start:end]), id: -1, first: -1,
		thread: uint8(t), step: out.step, label: key})
}
