package explore

import (
	"hash/maphash"
	"slices"

	"github.com/linbis/linbis/frontend/ir"
)

// expander computes the successors of states: it runs the threads' steps
// and the client's calls, and canonicalises, encodes and hashes the
// resulting states. It reads the system and writes only its own buffers
// and the successors it is given, so that several expanders can run at
// once.
type expander struct {
	x    *system // read-only
	seed maphash.Seed
	m    machine
	c    *canonicaliser
	cur  []int32     // the state being expanded
	blk  *successors // where its successors go
}

// newExpander returns an expander whose hashes are those of a state set
// with the given seed.
func (x *system) newExpander(seed maphash.Seed) *expander {
	return &expander{x: x, seed: seed, c: x.canon.clone(),
		m: newMachine(x.p, !x.o.Explicit, x.o.Lin, int32(x.o.MaxNodes))}
}

// successors are the successors of states, in the order an expander
// found them, each encoded in batch.
type successors struct {
	batch []byte
	succs []succ
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

// succ is a successor of a state being expanded, waiting in its block.
// (It takes 48 bytes.)
type succ struct {
	start, end int32 // its encoding: block.batch[start:end]
	hash       uint32
	// id is its id if the expander found it numbered, else -1 until
	// inserted; first is the index in the block of an earlier identical
	// successor, -1 if none: its id is that one's.
	id, first int32
	step      int32 // the source step (outcome.step)
	// ref refers to its record when id is -1 and first is -1: found
	// unnumbered or claimed by the expander (see stateSet.claim).
	ref    uint32
	thread uint8 // the thread that took the step, from 0
	// labelID is the label's id in the LTS, set by flush (in the padding
	// after thread).
	labelID uint16
	slot    uint64   // the first table slot of its lookup
	label   labelKey // 0 for τ
}
