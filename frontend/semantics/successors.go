package semantics

import (
	"hash/maphash"
	"slices"

	"github.com/linbis/linbis/frontend/ir"
)

// Expander computes the successors of states: it runs the threads' steps
// and the client's calls, and canonicalises, encodes and hashes the
// resulting states. It reads the system and writes only its own buffers
// and the successors it is given, so that several expanders can run at
// once.
type Expander struct {
	System *System      // read-only
	Seed   maphash.Seed // the seed of the hashes it computes (its state set's)
	m      machine
	Canon  *Canonicaliser // its own canonicaliser, a clone of the system's
	Cur    []int32        // the state being expanded
	Blk    *Successors    // where its successors go
	// acc: per thread, what its next step accesses, for the data-race
	// check (race.go); nil without it.
	acc []threadAccess
}

// NewExpander returns an expander whose hashes are those of a state set
// with the given seed.
func (x *System) NewExpander(seed maphash.Seed) *Expander {
	e := &Expander{System: x, Seed: seed, Canon: x.Canon.clone(),
		m: newMachine(x.Program, !x.Options.Explicit, x.Options.Lin, int32(x.Options.MaxNodes))}
	if x.races != nil {
		e.m.race, e.acc = x.races, make([]threadAccess, x.Bounds.Threads)
	}
	return e
}

// Successors are the successors of states, in the order an expander
// found them, each encoded in batch.
type Successors struct {
	Batch []byte // the successors' encodings, one after the other
	Succs []Succ // the successors, in the order found
}

// State adds the successors of e.cur to the block, thread by thread; on a
// model error it stops and returns the failing thread and the failure.
func (e *Expander) State() (int, *Failure) {
	x := e.System
	lay := &x.Program.Layout
	cur := e.Cur
	// Each successor is built in the machine's memory, a copy of cur. The
	// slice is resliced in place, not assigned: storing a slice into the
	// expander, a heap object, costs a GC write barrier whenever the
	// collector is marking, and once per successor that was 4 % of the
	// instructions of an exploration.
	if cap(e.m.mem) < len(cur) {
		e.m.mem = make([]int32, 0, 2*len(cur))
	}
	for t := 0; t < x.Bounds.Threads; t++ {
		base := lay.ThreadBase(t)
		if e.acc != nil {
			e.acc[t].step, e.acc[t].accs = -1, e.acc[t].accs[:0]
		}
		if cur[base+ir.TPC] == 0 {
			if x.Bounds.Ops >= 0 && int(cur[base+ir.TOps]) >= x.Bounds.Ops {
				continue
			}
			for _, m := range x.Program.Methods {
				if !x.Allowed[t][m.Index] {
					continue
				}
				for ai, args := range m.ArgTuples {
					e.m.mem = e.m.mem[:len(cur)]
					next := e.m.mem
					copy(next, cur)
					next[base+ir.TPC] = m.Entry
					if x.Bounds.Ops >= 0 {
						next[base+ir.TOps]++
					}
					copy(next[base+ir.TLocals:], args)
					// An idle thread's locals are zero (resetThread)
					// but for the arguments, in the first slots.
					clean := ^(uint64(1)<<uint(len(args)) - 1)
					e.add(t, outcome{Kind: KCall, method: m.Index, value: int32(ai), step: m.CallStep}, next, 0, clean)
				}
			}
			continue
		}
		e.m.t, e.m.base = t, base
		clean := x.Program.Clean[cur[base+ir.TPC]]
		for {
			e.m.mem = e.m.mem[:len(cur)]
			copy(e.m.mem, cur)
			// m.err is nil here: a failure ends the expansion below.
			e.m.ci, e.m.moved, e.m.accStep = 0, 0, -1
			out := e.m.step()
			if f := e.m.err; f != nil {
				e.m.choices, e.m.limits, e.m.err = e.m.choices[:0], e.m.limits[:0], nil
				return t, f
			}
			if out.Kind != KBlocked {
				e.add(t, out, e.m.mem, e.m.moved, clean)
				if e.acc != nil && e.m.accStep >= 0 {
					ta := &e.acc[t]
					if ta.step < 0 {
						ta.step, ta.plain = e.m.accStep, x.races.plain[e.m.accStep]
					}
					ta.accs = append(ta.accs, e.m.acc...)
				}
			}
			if !e.m.nextChoice() {
				break
			}
		}
	}
	if e.acc != nil {
		return x.race(e.acc)
	}
	return 0, nil
}

// add canonicalises, encodes and hashes a successor of e.cur by thread t
// and puts it in the block; moved is the machine's (0 for a call), clean
// the locals of t known to be zero (see canonicalStep).
func (e *Expander) add(t int, out outcome, next []int32, moved RefMoves, clean uint64) {
	blk := e.Blk
	st := e.Canon.CanonicalStep(e.Cur, next, t, moved, clean)
	start := int32(len(blk.Batch))
	if cap(blk.Batch)-len(blk.Batch) < maxEncoding(len(st)) {
		blk.Batch = slices.Grow(blk.Batch, maxEncoding(len(st)))
	}
	// Resliced in place: no pointer store (see state).
	blk.Batch = blk.Batch[:len(blk.Batch)+encodeTo(blk.Batch[len(blk.Batch):cap(blk.Batch)], st)]
	end := int32(len(blk.Batch))
	if end-start > 65535 {
		panic("state too large") // unreachable with the node and array limits
	}
	var key LabelKey
	if out.Kind != KTau {
		key = keyOf(t, out)
	}
	blk.Succs = append(blk.Succs, Succ{Start: start, End: end, Hash: hashState(e.Seed, blk.Batch[start:end]), ID: -1, First: -1,
		Thread: uint8(t), Step: out.step, Label: key})
}

// Succ is a successor of a state being expanded, waiting in its block.
// (It takes 48 bytes.)
type Succ struct {
	Start, End int32  // its encoding: block.batch[start:end]
	Hash       uint32 // the hash of its encoding (StateSet.Hash)
	// ID is its id if the expander found it numbered, else -1 until
	// inserted; first is the index in the block of an earlier identical
	// successor, -1 if none: its id is that one's.
	ID, First int32
	Step      int32 // the source step (outcome.step)
	// Ref refers to its record when id is -1 and first is -1: found
	// unnumbered or claimed by the expander (see StateSet.Claim).
	Ref    uint32
	Thread uint8 // the thread that took the step, from 0
	// LabelID is the label's id in the LTS, set by flush (in the padding
	// after thread).
	LabelID uint16
	Slot    uint64   // the first table slot of its lookup
	Label   LabelKey // 0 for τ
}
