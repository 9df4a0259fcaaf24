// Package explore compiles a checked model to instructions and explores
// its state space breadth-first under a most-general client, producing an
// LTS whose visible actions are call(T,M,ARGS) and ret(T,M,VAL).
//
// Design. A state is a flat []int32 vector (see layout): shared variables,
// then per thread [pc, ops done, return value, locals], then the heap.
// States are made canonical before they are stored: locals that are dead
// at the thread's pc are zeroed (liveness analysis on the instructions),
// and heap nodes are renumbered in a canonical order of reachability from
// the shared variables and then the threads' locals (depth-first
// post-order with garbage collection, breadth-first in explicit mode; see
// renumber), which drops unreachable nodes (garbage collection) and
// identifies states that differ only in addresses; the renumbering is
// skipped when a step can be seen to keep the numbering (canonicalStep). Canonical vectors are stored as
// zigzag varints in a chunked arena and found through an open-addressing
// table (stateSet). States are expanded in blocks of consecutive ids
// (expander): running the steps and canonicalising, encoding, hashing and
// looking up the successors, and adding the records of those not found
// (stateSet.claim: unnumbered, one record per state whichever goroutine
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
// Measured and left out (Treiber's stack, one core): taking a state's
// successors from the diamonds that its discovering step closes with
// another thread's steps (independence from per-step read and write sets
// of shared and heap slots), which skips running, canonicalising and
// looking up those successors. It was exact (the LTSs byte for byte the
// same, every shortcut re-checked in the tests) but gave 15-33 % of the
// successors, not the 47-79 % of diamonds the LTSs have: nearly every
// step reads or writes Top. Reading the parent's and the sibling's
// transitions back cost as many cache misses as the lookups it saved, and
// the explorer was no faster (3/4, 4/2, 5/1). Transparent huge pages for
// the state set (THP "always") did not help either: the misses are cache
// misses, not TLB misses.
//
// Besides the LTS, the package decides linearizability and lock-freedom
// on the fly, without building it (fly.go, with the specification side in
// flyspec.go and the replay of counterexamples in replay.go), reduced by
// thread symmetry (symmetry.go, symcheck.go) and partial-order reduction
// (por.go: ample sets from the locations each step may touch).
//
// The granularity follows Yang et al. (divergence-sensitive bisimulation
// for concurrent stacks, §2): one τ step per statement that touches shared
// state, an atomic block as one step, local work folded into the step
// before it; the method body of `spec auto` is one atomic block, so the
// specification does call, τ, ret per operation.
//
// CheckOnTheFly (fly.go) decides refinement and lock-freedom without
// building the LTSs; with thread symmetry it stores one representative per
// orbit of the thread permutations, when symcheck.go shows the model
// symmetric (tid only stored, compared for equality and used as the index
// of [1..nthreads] arrays) and says why not otherwise (symmetry.go).
package explore

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/internal/parallel"
	"github.com/linbis/linbis/lts"
)

// DefaultMaxStates is the bound on the states of one LTS when
// Options.MaxStates is 0.
const DefaultMaxStates = 50_000_000

// DefaultMaxNodes is the bound on live heap nodes when Options.MaxNodes
// is 0.
const DefaultMaxNodes = 64

// Options tune an exploration. The zero Options are the defaults: a
// garbage-collected heap, the limits DefaultMaxStates and
// DefaultMaxNodes, one worker per core.
type Options struct {
	// MaxStates bounds each LTS; 0 means DefaultMaxStates. Reaching it is
	// an error wrapping ErrStateLimit.
	MaxStates int
	// Explicit turns off garbage collection: nodes come back only through
	// free, and a freed node may be reallocated while still referenced
	// (ABA). A model that declares `heap explicit` is explored so anyway.
	Explicit bool
	// MaxNodes bounds the live heap nodes; 0 means DefaultMaxNodes.
	MaxNodes int
	// Lin makes `lin` statements visible as lin(T,M[,VAL]) events (Liu
	// et al.'s linearization-point mode); otherwise they are τ.
	Lin bool
	// FineGrained keeps accesses to thread-private heap nodes (reachable
	// only from the thread's own locals, e.g. a node being initialised
	// before it is published) as steps of their own; by default they are
	// folded into the neighbouring step like other local work.
	FineGrained bool
	// Progress, if set, is called now and then with the states and
	// transitions found so far.
	Progress func(states, transitions int64)
	// Workers is the number of goroutines that share the search (each
	// expands states and inserts their successors in turn; see search), the
	// calling one among them, 0 meaning GOMAXPROCS; with 1 the search runs
	// on the calling goroutine alone. The LTS does not depend on it.
	Workers int
	// keepStates, for the package's tests, is given the program and the
	// encodings of the states of a finished exploration, in id order,
	// before the state set is released.
	keepStates func(p *ir.Program, states iter.Seq[[]byte])
}

// ErrStateLimit is wrapped by the error returned when MaxStates is reached.
var ErrStateLimit = errors.New("state limit reached")

// ModelError is an error of the model found during exploration (a failed
// assert, a null dereference, a value out of its declared range, …), with
// the shortest trace that leads to it.
type ModelError struct {
	Msg   string
	Pos   lts.SourceStep
	Trace *lts.Trace
}

func (e *ModelError) Error() string {
	return fmt.Sprintf("%s: %s", e.Pos.String(), e.Msg)
}

type explorer struct {
	p   *ir.Program
	b   ir.Bounds
	o   Options
	set *stateSet
	// refs[id] refers to the record of state id (see stateSet.claim); the
	// states numbered so far are refs' values.
	refs   column[uint32]
	arena  arenaCursor    // for the initial state's record
	canon  *canonicaliser // of the initial state; the expanders clone it
	labels map[labelKey]int32
	// labelCache is a direct-mapped cache in front of labels, by key (0:
	// empty; keys are not 0): few distinct labels occur, and the map
	// lookup per transition showed in profiles.
	labelCache [256]struct {
		key labelKey
		id  int32
	}
	allowed [][]bool // per thread and method: may the client call it
	// The LTS under construction. Transitions are found in order of their
	// source (breadth-first), so the CSR index is built as states are
	// expanded and Src is recovered from it at the end.
	out        column[int32] // out[s]: first transition of state s
	labelCol   column[uint16]
	dst        column[int32]
	thread     column[uint8]
	stepCol    column[int16]
	labelNames []string
	labelIDs   map[string]int32
	steps      []lts.SourceStep
	enc        []byte
}

// Explore builds the LTS of obj (the implementation or the specification
// of prog) under the bounds.
func Explore(prog *check.Program, obj *check.Object, b ir.Bounds, o Options) (*lts.LTS, error) {
	x, err := newExplorer(prog, obj, b, o)
	if err != nil {
		return nil, err
	}
	return x.run()
}

// newExplorer checks the bounds, compiles obj and prepares an exploration
// of it, without exploring.
func newExplorer(prog *check.Program, obj *check.Object, b ir.Bounds, o Options) (*explorer, error) {
	if b.Threads < 1 || b.Threads > 64 {
		return nil, fmt.Errorf("need between 1 and 64 threads, got %d", b.Threads)
	}
	if b.Ops == 0 || b.Ops < -1 {
		return nil, fmt.Errorf("ops must be at least 1 or forever (-1), got %d", b.Ops)
	}
	if len(b.Values) == 0 {
		return nil, fmt.Errorf("the value domain is empty")
	}
	// A model that declares `heap explicit` is explored in explicit mode
	// whatever the options say.
	o.Explicit = o.Explicit || prog.Explicit
	p, err := ir.Compile(prog, obj, b.Threads, b.Values, o.FineGrained, o.Explicit)
	if err != nil {
		return nil, err
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxStates <= 0 {
		o.MaxStates = DefaultMaxStates
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	x := &explorer{p: p, b: b, o: o, set: newStateSet(), labels: map[labelKey]int32{},
		labelNames: []string{lts.TauName}, labelIDs: map[string]int32{lts.TauName: lts.Tau}}
	x.canon = newCanonicaliser(p, b.Threads)
	for _, s := range p.Steps {
		pos := p.Source.Position(s.Pos)
		x.steps = append(x.steps, lts.SourceStep{File: pos.File, Line: int32(pos.Line), Col: int32(pos.Col), Text: s.Text, Procedure: s.Procedure})
	}
	if len(p.Steps) > 1<<15-1 {
		return nil, fmt.Errorf("the model has %d source steps; at most %d are supported", len(p.Steps), 1<<15-1)
	}
	x.argTuples()
	x.allowed = make([][]bool, b.Threads)
	for t := range x.allowed {
		x.allowed[t] = make([]bool, len(p.Methods))
		only, restricted := b.Only[t+1]
		for i, m := range p.Methods {
			x.allowed[t][i] = m.Callable && !restricted
			for _, name := range only {
				x.allowed[t][i] = x.allowed[t][i] || m.Callable && name == m.Name
			}
		}
	}
	return x, nil
}

// argTuples enumerates each method's argument tuples over the domain.
func (x *explorer) argTuples() {
	for _, m := range x.p.Methods {
		tuples := [][]int32{{}}
		for _, pt := range m.Params {
			dom := x.p.Values
			if pt.Kind == check.Bool {
				dom = []int32{0, 1}
			}
			var next [][]int32
			for _, t := range tuples {
				for _, v := range dom {
					next = append(next, append(append([]int32(nil), t...), v))
				}
			}
			tuples = next
		}
		m.ArgTuples = tuples
	}
}

func (x *explorer) run() (*lts.LTS, error) {
	init, err := x.initialState()
	if err != nil {
		return nil, err
	}
	x.enc = encode(x.enc[:0], init)
	x.set.reserve(1)
	_, ref, _ := x.set.claim(x.enc, x.set.hash(x.enc), &x.arena)
	x.set.release(1, 1)
	x.number(ref)

	if err := x.search(x.o.Workers); err != nil {
		return nil, err
	}
	if x.o.keepStates != nil {
		x.o.keepStates(x.p, func(yield func([]byte) bool) {
			for id := range x.refs.len() {
				if !yield(x.set.encoding(recordOffset(uint64(x.refs.at(id))))) {
					return
				}
			}
		})
	}
	if x.o.Progress != nil {
		x.o.Progress(int64(x.refs.len()), int64(x.dst.len()))
	}
	return x.build(), nil
}

// initialState returns the canonical initial state: the declared initial
// values, after the init block if there is one. The vector is the
// canonicaliser's.
func (x *explorer) initialState() ([]int32, error) {
	init := append([]int32(nil), x.p.Init...)
	if im := x.p.InitMethod; im != nil {
		m := newMachine(x.p, !x.o.Explicit, x.o.Lin, int32(x.o.MaxNodes))
		m.t, m.base, m.mem = 0, x.p.Layout.ThreadBase(0), init
		init[m.base+ir.TPC] = im.Entry
		m.step()
		if f := m.err; f != nil {
			e := &ModelError{Msg: "in the init block: " + f.msg, Trace: &lts.Trace{Title: "model error in init", LoopStart: -1}}
			if f.step >= 0 {
				s := x.p.Steps[f.step]
				pos := x.p.Source.Position(s.Pos)
				e.Pos = lts.SourceStep{File: pos.File, Line: int32(pos.Line), Col: int32(pos.Col), Text: s.Text, Procedure: "init"}
			}
			return nil, e
		}
		init = m.mem
		m.resetThread()
	}
	return x.canon.canonical(init, -1), nil
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
	expanders := make([]*expander, workers)
	for i := range expanders {
		expanders[i] = x.newExpander()
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
func (x *explorer) work(sch *schedule, e *expander) {
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
			blk.refs = append(blk.refs, recordOffset(uint64(x.refs.at(int(sch.dispatched)))))
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
	batch []byte
	succs []succ
	ends  []int32
	// failed: the expansion of state first+len(ends)-1 stopped at a model
	// error of thread failThread; its successors before the failing step
	// are in succs.
	failed     *failure
	failThread int
	sink       uint64 // see stateSet.touch
	expanded   bool   // its expansion is complete (guarded by schedule.mu)
}

// insertBlock numbers the new successors of an expanded block and adds
// the transitions to the table, state by state.
func (x *explorer) insertBlock(blk *block) error {
	start := int32(0)
	for i, end := range blk.ends {
		s := blk.first + int32(i)
		if x.o.Progress != nil && s&0xffff == 0 {
			x.o.Progress(int64(s), int64(x.dst.len()))
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
	out := flatten[int32](&x.out, x.o.Workers)
	src := make([]int32, m)
	const statesPerPart = 1 << 16
	parallel.ForEach(x.o.Workers, int(n+statesPerPart-1)/statesPerPart, func(part int) {
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
	l := &lts.LTS{Initial: 0, NumStates: n, Labels: x.labelNames, Src: src, Out: out}
	l.Label = flatten[int32](&x.labelCol, x.o.Workers)
	gc()
	l.Dst = flatten[int32](&x.dst, x.o.Workers)
	gc()
	l.Meta = &lts.Meta{Thread: flatten[uint8](&x.thread, x.o.Workers)}
	gc()
	l.Meta.Step, l.Meta.Steps = flatten[int16](&x.stepCol, x.o.Workers), x.steps
	return l
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

// flush adds the transitions of state src to its successors succs[start:
// end] of its block to the table, in order, numbering the successors whose
// records the expander found or claimed unnumbered: the first to be
// reached in this order takes the next id, as in a sequential search.
//
// The ids and labels are found first, then the columns written a state's
// transitions at a time, with one test of room for them all.
func (x *explorer) flush(src int32, blk *block, start, end int32) error {
	succs := blk.succs[start:end]
	for i := range succs {
		sc := &succs[i]
		switch {
		case sc.first >= 0:
			sc.id = blk.succs[sc.first].id
		case sc.id < 0:
			if sc.id = x.set.id(sc.ref); sc.id < 0 {
				sc.id = x.number(sc.ref)
				if x.refs.len() > x.o.MaxStates {
					return fmt.Errorf("%w: more than %d states (%d transitions so far; %d states fully expanded, the rest queued); raise the limit or lower the bounds",
						ErrStateLimit, x.o.MaxStates, x.dst.len()+i, src)
				}
			}
		}
		sc.labelID = uint16(lts.Tau) // the common case, without the call
		if sc.label != 0 {
			// The label cache's hit, written out: it is the common case.
			if c := &x.labelCache[sc.label.slot()]; c.key == sc.label {
				sc.labelID = uint16(c.id)
			} else if label := x.internLabel(sc.label); label > 0xffff {
				return fmt.Errorf("more than %d distinct labels; use fewer threads or values", 0xffff)
			} else {
				sc.labelID = uint16(label)
			}
		}
	}
	// The columns have the same length: the transitions fit in the chunks
	// of all or of none.
	if labels := x.labelCol.grow(len(succs)); labels != nil {
		dst, thread, step := x.dst.grow(len(succs)), x.thread.grow(len(succs)), x.stepCol.grow(len(succs))
		for i := range succs {
			sc := &succs[i]
			labels[i], dst[i], thread[i], step[i] = sc.labelID, sc.id, sc.thread+1, int16(sc.step)
		}
		return nil
	}
	for i := range succs { // across the end of a chunk
		sc := &succs[i]
		x.labelCol.append(sc.labelID)
		x.dst.append(sc.id)
		x.thread.append(sc.thread + 1)
		x.stepCol.append(int16(sc.step))
	}
	return nil
}

// number gives the next id to the unnumbered record ref refers to and
// returns it.
func (x *explorer) number(ref uint32) int32 {
	id := int32(x.refs.len())
	x.set.setID(ref, id)
	x.refs.append(ref)
	return id
}

// labelKey names the label of a visible step: its kind, whether it has a
// value, the thread, the method and the value (for a call, the index of
// the argument tuple), packed into 64 bits; never 0.
type labelKey uint64

// keyOf returns the label key of a visible outcome of thread t.
func keyOf(t int, out outcome) labelKey {
	k := labelKey(out.kind)<<60 | labelKey(t)<<48 | labelKey(out.method)<<32 | labelKey(uint32(out.value))
	if out.hasValue {
		k |= 1 << 59
	}
	return k
}

// thread returns the thread of a key (from 0).
func (k labelKey) thread() int { return int(k >> 48 & 0x7ff) }

// outcome returns the outcome of a key, without its step.
func (k labelKey) outcome() outcome {
	return outcome{kind: labelKind(k >> 60), hasValue: k>>59&1 != 0, method: int32(k >> 32 & 0xffff), value: int32(uint32(k))}
}

// slot is the key's entry in the label cache.
func (k labelKey) slot() uint8 { return uint8(k * 0x9e3779b97f4a7c15 >> 56) }

// internLabel interns the label of a key and caches its id in labelCache
// (flush looks there first).
func (x *explorer) internLabel(key labelKey) int32 {
	c := &x.labelCache[key.slot()]
	if id, ok := x.labels[key]; ok {
		c.key, c.id = key, id
		return id
	}
	t, out := key.thread(), key.outcome()
	m := x.p.Methods[out.method]
	var sb strings.Builder
	switch out.kind {
	case kCall:
		sb.WriteString("call(")
	case kRet:
		sb.WriteString("ret(")
	case kLin:
		sb.WriteString("lin(")
	}
	sb.WriteString(strconv.Itoa(t + 1))
	sb.WriteByte(',')
	sb.WriteString(m.Name)
	switch {
	case out.kind == kCall:
		for i, v := range m.ArgTuples[out.value] {
			sb.WriteByte(',')
			sb.WriteString(ir.FormatValue(m.Params[i].Kind, v))
		}
	case out.hasValue:
		sb.WriteByte(',')
		if out.kind == kLin {
			sb.WriteString(ir.FormatValue(check.Int, out.value))
		} else {
			sb.WriteString(m.FormatResult(out.value))
		}
	}
	sb.WriteByte(')')
	name := sb.String()
	id, ok := x.labelIDs[name]
	if !ok {
		id = int32(len(x.labelNames))
		x.labelNames = append(x.labelNames, name)
		x.labelIDs[name] = id
	}
	x.labels[key] = id
	c.key, c.id = key, id
	return id
}

// modelError builds the error for a failure of thread t in state s, with
// the BFS path to s and the failing step.
func (x *explorer) modelError(s int32, t int, f *failure) error {
	l := x.build()
	tr := &lts.Trace{Title: "model error: " + f.msg, LoopStart: -1}
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
	e := &ModelError{Msg: f.msg, Trace: tr}
	last := lts.TraceStep{From: s, Label: "tau", To: -1, Thread: int32(t + 1), Note: f.msg}
	if f.step >= 0 {
		src := l.Meta.Steps[f.step]
		last.Source = &src
		e.Pos = src
	}
	tr.Steps = append(tr.Steps, last)
	tr.Final = fmt.Sprintf("thread %d: %s", t+1, f.msg)
	return e
}
