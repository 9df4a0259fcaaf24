// Package explore builds the LTS of a system (package semantics)
// breadth-first, with visible actions call(T,M,ARGS) and ret(T,M,VAL):
// Explore compiles a checked model's object (package ir), makes it a
// system under the bounds and searches it.
//
// States are expanded in blocks of consecutive ids (worker, expand.go):
// running the steps and canonicalising, encoding, hashing and looking up
// the successors, and adding the records of those not found
// (StateSet.Claim: unnumbered, one record per state whichever goroutine
// wins), is done by several goroutines, one block each; then the
// successors are numbered and their transitions recorded one block at a
// time (by whichever goroutine finds the oldest block expanded), block
// after block and, within a block, in the order they were generated: an
// unnumbered record takes the next id. So states are numbered in
// breadth-first order of discovery exactly as by a sequential search,
// whatever the number of workers and their timing, and the one goroutine
// at a time does little more than write the transitions. The successors
// of a state are looked up together, so that the cache misses of their
// lookups overlap.
//
// The granularity follows Yang et al. (divergence-sensitive bisimulation
// for concurrent stacks, §2): one τ step per statement that touches shared
// state, an atomic block as one step, local work folded into the step
// before it; the method body of `spec auto` is one atomic block, so the
// specification does call, τ, ret per operation.
package explore

import (
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/parallel"
	"github.com/linbis/linbis/lts"
)

// explorer is one breadth-first search of a system's states.
type explorer struct {
	*semantics.System
	set *semantics.StateSet
	// refs[id] refers to the record of state id (see semantics.StateSet.Claim); the
	// states numbered so far are refs' values.
	refs  column[uint32]
	arena semantics.ArenaCursor // for the initial state's record
	// The LTS under construction. Transitions are found in order of their
	// source (breadth-first), so the CSR index is built as states are
	// expanded and Src is recovered from it at the end.
	out      column[int32] // out[s]: first transition of state s
	labelCol column[uint16]
	dst      column[int32]
	thread   column[uint8]
	stepCol  column[int16]
	enc      []byte
}

// Explore builds the LTS of obj (the implementation or the specification
// of prog) under the bounds.
func Explore(prog *check.Program, obj *check.Object, b ir.Bounds, o semantics.Options) (*lts.LTS, error) {
	x, err := newExplorer(prog, obj, b, o)
	if err != nil {
		return nil, err
	}
	return x.run()
}

// StoppedError is the error of an exploration that a limit stopped (its
// context's end, or Options.MaxStates): it says how far the exploration
// came, for reports that carry the counts beside the message, which
// Err, the cause, already words.
type StoppedError struct {
	// Expanded is the states whose successors were all stored; States
	// and Transitions are what was stored.
	Expanded, States, Transitions int
	Err                           error // the cause: the context's or the limit's error
}

// Error returns Err's message.
func (e *StoppedError) Error() string { return e.Err.Error() }

// Unwrap returns Err, the limit (a *limits.LimitError).
func (e *StoppedError) Unwrap() error { return e.Err }

// newExplorer checks the bounds, compiles obj and prepares an exploration
// of it, without exploring.
func newExplorer(prog *check.Program, obj *check.Object, b ir.Bounds, o semantics.Options) (*explorer, error) {
	sys, err := semantics.NewSystem(prog, obj, b, o)
	if err != nil {
		return nil, err
	}
	return &explorer{System: sys, set: semantics.NewStateSet()}, nil
}

func (x *explorer) run() (*lts.LTS, error) {
	init, err := x.InitialState()
	if err != nil {
		return nil, err
	}
	x.enc = semantics.Encode(x.enc[:0], init)
	x.set.Reserve(1)
	_, ref, _ := x.set.Claim(x.enc, x.set.Hash(x.enc), &x.arena)
	x.set.Release(1, 1)
	x.number(ref)

	if err := x.search(x.Options.Workers); err != nil {
		return nil, err
	}
	if x.Options.KeepStates != nil {
		x.Options.KeepStates(x.Program, func(yield func([]byte) bool) {
			for id := range x.refs.len() {
				if !yield(x.set.Encoding(semantics.RecordOffset(uint64(x.refs.at(id))))) {
					return
				}
			}
		})
	}
	if x.Options.Progress != nil {
		x.Options.Progress.Report("exploring", int64(x.refs.len()), "states")
	}
	return x.build(), nil
}

// search explores breadth-first from the initial state, which is in the
// set. States are expanded in blocks of consecutive ids, and the blocks'
// successors are inserted (numbered, their transitions recorded) block
// after block, in the order of the sequential search, so the numbering
// does not depend on the scheduling.
//
// workers goroutines (the calling one among them) share the work, all
// alike: a goroutine inserts the oldest block when it is expanded and no
// other goroutine is inserting, and otherwise expands the next block not
// yet taken. A dedicated inserting goroutine beside one expanding
// goroutine per core would leave the cores oversubscribed: the inserter
// then waits for a core after every block it waits for, and the execution
// traces showed the three goroutines idle a fifth of the time.
func (x *explorer) search(workers int) error {
	sch := &schedule{depth: 1}
	if workers > 1 {
		// Enough blocks in flight that a goroutine finds one to expand
		// while another inserts or expands the oldest; with one goroutine
		// one, so that a block is inserted right after its expansion, while
		// the table lines and pages that its lookups touched are still in
		// the caches and the TLB.
		sch.depth = 4 * workers
	}
	sch.wake = sync.NewCond(&sch.mu)
	sch.mu.Lock()
	x.dispatch(sch)
	sch.mu.Unlock()
	// The expanders are made first: once a goroutine runs, a model error
	// may release the state set (modelError builds the LTS found so far).
	expanders := make([]*worker, workers)
	for i := range expanders {
		expanders[i] = x.newWorker()
	}
	var wg sync.WaitGroup
	for _, e := range expanders[1:] {
		wg.Go(func() { x.work(sch, e) })
	}
	x.work(sch, expanders[0])
	// The goroutines have ended when search returns: the state set they
	// look up in is released before the LTS is built.
	wg.Wait()
	return sch.err
}

// schedule is the shared state of the goroutines of a search, guarded by
// mu.
type schedule struct {
	mu   sync.Mutex
	wake *sync.Cond // signalled when a block is expanded or inserted
	// queue holds the blocks handed out and not yet inserted, oldest
	// first; todo those of them that no goroutine has taken to expand.
	queue, todo []*block
	free        []*block
	depth       int   // blocks in flight at most
	dispatched  int32 // states handed to a block so far
	inserting   bool  // a goroutine is inserting queue's oldest block
	err         error
}

// work is the loop of one goroutine of a search (see search); it returns
// when the search is over or has failed.
func (x *explorer) work(sch *schedule, e *worker) {
	sch.mu.Lock()
	defer sch.mu.Unlock()
	for sch.err == nil {
		switch {
		case !sch.inserting && len(sch.queue) > 0 && sch.queue[0].expanded:
			blk := sch.queue[0]
			sch.queue = sch.queue[1:]
			sch.inserting = true
			sch.mu.Unlock()
			err := x.insertBlock(blk)
			sch.mu.Lock()
			sch.inserting = false
			sch.free = append(sch.free, blk)
			if err != nil {
				sch.err = err
			} else {
				x.dispatch(sch)
			}
			sch.wake.Broadcast()
		case len(sch.todo) > 0:
			blk := sch.todo[0]
			sch.todo = sch.todo[1:]
			sch.mu.Unlock()
			e.expand(blk)
			sch.mu.Lock()
			blk.expanded = true
			if blk == sch.queue[0] {
				sch.wake.Broadcast()
			}
		case len(sch.queue) == 0 && !sch.inserting:
			// Every state found has been expanded and its successors
			// inserted: an insert would have dispatched any new state.
			sch.wake.Broadcast()
			return
		default:
			sch.wake.Wait()
		}
	}
}

// dispatch hands the states found and not yet handed out to new blocks,
// up to the schedule's depth. It is called with sch.mu held and no block
// being inserted: it reads refs.
func (x *explorer) dispatch(sch *schedule) {
	for len(sch.queue) < sch.depth && int(sch.dispatched) < x.refs.len() {
		var blk *block
		if n := len(sch.free); n > 0 {
			blk, sch.free = sch.free[n-1], sch.free[:n-1]
		} else {
			blk = &block{}
		}
		blk.first, blk.expanded = sch.dispatched, false
		blk.refs = blk.refs[:0]
		for int(sch.dispatched) < x.refs.len() && len(blk.refs) < blockStates {
			blk.refs = append(blk.refs, semantics.RecordOffset(uint64(x.refs.at(int(sch.dispatched)))))
			sch.dispatched++
		}
		sch.queue = append(sch.queue, blk)
		sch.todo = append(sch.todo, blk)
	}
}

// blockStates is the number of states in a block: enough for the lookups
// of their successors to overlap and for a worker's share of the work to
// outweigh the hand-over, small enough that a block's successors stay in
// the cache.
const blockStates = 256

// block is a run of states with consecutive ids, expanded together.
type block struct {
	first int32    // id of the first state
	refs  []uint64 // the states' records: arena offsets
	// The successors, state after state: those of state first+i are
	// succs[ends[i-1]:ends[i]], their encodings in batch.
	semantics.Successors
	ends []int32
	// failed: the expansion of state first+len(ends)-1 stopped at a model
	// error of thread failThread; its successors before the failing step
	// are in succs.
	failed     *semantics.Failure
	failThread int
	sink       uint64 // see semantics.StateSet.Touch
	expanded   bool   // its expansion is complete (guarded by schedule.mu)
}

// insertBlock numbers the new successors of an expanded block and adds
// the transitions to the table, state by state.
func (x *explorer) insertBlock(blk *block) error {
	start := int32(0)
	for i, end := range blk.ends {
		s := blk.first + int32(i)
		if s&(1<<14-1) == 0 {
			if x.Options.Progress != nil && s&0xffff == 0 {
				x.Options.Progress.Report("exploring", int64(s), "states")
			}
			if err := limits.Err(x.Options.Context); err != nil {
				return &StoppedError{Expanded: int(s), States: x.refs.len(), Transitions: x.dst.len(), Err: fmt.Errorf(
					"exploration stopped after %d states expanded (%d stored, %d transitions): %w", s, x.refs.len(), x.dst.len(), err)}
			}
		}
		x.out.append(int32(x.dst.len()))
		if err := x.flush(s, blk, start, end); err != nil {
			return err
		}
		start = end
	}
	if blk.failed != nil {
		return x.modelError(blk.first+int32(len(blk.ends))-1, blk.failThread, blk.failed)
	}
	return nil
}

// build assembles the LTS found so far; states not yet expanded have no
// transitions. The state set is released first: for large state spaces
// it is as big as the transition table, and the peak is the sum.
func (x *explorer) build() *lts.LTS {
	n := int32(x.refs.len())
	x.set, x.refs = nil, column[uint32]{}
	if m := x.dst.len(); m > 1<<22 {
		debug.FreeOSMemory()
	}
	m := int32(x.dst.len())
	for int32(x.out.len()) < n+1 { // the states not expanded, and the end
		x.out.append(m)
	}
	out := flatten[int32](&x.out, x.Options.Workers)
	src := make([]int32, m)
	const statesPerPart = 1 << 16
	parallel.ForEach(x.Options.Workers, int(n+statesPerPart-1)/statesPerPart, func(part int) {
		lo := int32(part) * statesPerPart
		for s := lo; s < min(lo+statesPerPart, n); s++ {
			for t := out[s]; t < out[s+1]; t++ {
				src[t] = s
			}
		}
	})
	// Copy the columns one by one, collecting each one's chunks before the
	// next copy when the table is large, so that the peak stays near one
	// table plus one column.
	large := m > 1<<22
	gc := func() {
		if large {
			debug.FreeOSMemory()
		}
	}
	l := &lts.LTS{Initial: 0, NumStates: n, Labels: x.LabelNames, Src: src, Out: out}
	l.Label = flatten[int32](&x.labelCol, x.Options.Workers)
	gc()
	l.Dst = flatten[int32](&x.dst, x.Options.Workers)
	gc()
	l.Meta = &lts.Meta{Thread: flatten[uint8](&x.thread, x.Options.Workers)}
	gc()
	l.Meta.Step, l.Meta.Steps = flatten[int16](&x.stepCol, x.Options.Workers), x.Steps
	return l
}

// flush adds the transitions of state src to its successors succs[start:
// end] of its block to the table, in order, numbering the successors whose
// records the expander found or claimed unnumbered: the first to be
// reached in this order takes the next id, as in a sequential search.
//
// The ids and labels are found first, then the columns written a state's
// transitions at a time, with one test of room for them all.
func (x *explorer) flush(src int32, blk *block, start, end int32) error {
	succs := blk.Succs[start:end]
	for i := range succs {
		sc := &succs[i]
		switch {
		case sc.First >= 0:
			sc.ID = blk.Succs[sc.First].ID
		case sc.ID < 0:
			if sc.ID = x.set.ID(sc.Ref); sc.ID < 0 {
				sc.ID = x.number(sc.Ref)
				if x.refs.len() > x.Options.MaxStates {
					return &StoppedError{Expanded: int(src), States: x.refs.len(), Transitions: x.dst.len() + i, Err: &limits.LimitError{
						Limit: limits.States, Value: int64(x.Options.MaxStates), Err: fmt.Errorf(
							"%w: more than %d states (%d transitions so far; %d states fully expanded, the rest queued); raise the limit or lower the bounds",
							semantics.ErrStateLimit, x.Options.MaxStates, x.dst.len()+i, src)}}
				}
			}
		}
		sc.LabelID = uint16(lts.Tau) // the common case, without the call
		if sc.Label != 0 {
			// The label cache's hit, written out: it is the common case.
			if c := &x.LabelCache[sc.Label.Slot()]; c.Key == sc.Label {
				sc.LabelID = uint16(c.ID)
			} else if label := x.InternLabel(sc.Label); label > 0xffff {
				return fmt.Errorf("more than %d distinct labels; use fewer threads or values", 0xffff)
			} else {
				sc.LabelID = uint16(label)
			}
		}
	}
	// The columns have the same length: the transitions fit in the chunks
	// of all or of none.
	if labels := x.labelCol.grow(len(succs)); labels != nil {
		dst, thread, step := x.dst.grow(len(succs)), x.thread.grow(len(succs)), x.stepCol.grow(len(succs))
		for i := range succs {
			sc := &succs[i]
			labels[i], dst[i], thread[i], step[i] = sc.LabelID, sc.ID, sc.Thread+1, int16(sc.Step)
		}
		return nil
	}
	for i := range succs { // across the end of a chunk
		sc := &succs[i]
		x.labelCol.append(sc.LabelID)
		x.dst.append(sc.ID)
		x.thread.append(sc.Thread + 1)
		x.stepCol.append(int16(sc.Step))
	}
	return nil
}

// number gives the next id to the unnumbered record ref refers to and
// returns it.
func (x *explorer) number(ref uint32) int32 {
	id := int32(x.refs.len())
	x.set.SetID(ref, id)
	x.refs.append(ref)
	return id
}

// modelError builds the error for a failure of thread t in state s, with
// the BFS path to s and the failing step.
func (x *explorer) modelError(s int32, t int, f *semantics.Failure) error {
	l := x.build()
	tr := &lts.Trace{Title: "model error: " + f.Msg, LoopStart: -1}
	// Shortest path from the initial state to s, by breadth-first search
	// over the transitions found so far.
	via := make([]int32, l.NumStates)
	for i := range via {
		via[i] = -2
	}
	via[0] = -1
	queue := []int32{0}
	for len(queue) > 0 && via[s] == -2 {
		u := queue[0]
		queue = queue[1:]
		for tr := l.Out[u]; tr < l.Out[u+1]; tr++ {
			if d := l.Dst[tr]; via[d] == -2 {
				via[d] = tr
				queue = append(queue, d)
			}
		}
	}
	var path []int32
	for st := s; via[st] >= 0; st = l.Src[via[st]] {
		path = append(path, via[st])
	}
	for i := len(path) - 1; i >= 0; i-- {
		tr.Steps = append(tr.Steps, lts.StepFromTransition(l, path[i]))
	}
	e := &semantics.ModelError{Msg: f.Msg, Trace: tr, Race: f.Race != nil}
	if f.Race != nil {
		tr.Title = "data race: " + f.Msg
	}
	last := lts.TraceStep{From: s, Label: "tau", To: -1, Thread: int32(t + 1), Note: f.Msg}
	if f.Step >= 0 {
		src := l.Meta.Steps[f.Step]
		last.Source = &src
		e.Pos = src
	}
	tr.Steps = append(tr.Steps, last)
	tr.Final = fmt.Sprintf("thread %d: %s", t+1, f.Msg)
	return e
}
