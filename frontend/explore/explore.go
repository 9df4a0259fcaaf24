// Package explore compiles a checked model to instructions and explores
// its state space breadth-first under a most-general client, producing an
// LTS whose visible actions are call(T,M,ARGS) and ret(T,M,VAL).
//
// Design. A state is a flat []int32 vector (see layout): shared variables,
// then per thread [pc, ops done, return value, locals], then the heap.
// States are made canonical before they are stored: locals that are dead
// at the thread's pc are zeroed (liveness analysis on the instructions),
// and heap nodes are renumbered in breadth-first order of reachability
// from the shared variables and then the threads' locals, which drops
// unreachable nodes (garbage collection) and identifies states that differ
// only in addresses; the renumbering is skipped when a step left every
// reference as it was (canonicalStep). Canonical vectors are stored as
// zigzag varints in a chunked arena and found through an open-addressing
// table (stateSet). The successors of a state are collected first and
// then looked up together, so that the cache misses of their lookups
// overlap; states are numbered in breadth-first order of discovery, and
// successors in the order they are generated, as without the batching.
//
// The granularity follows Yang et al. (divergence-sensitive bisimulation
// for concurrent stacks, §2): one τ step per statement that touches shared
// state, an atomic block as one step, local work folded into the step
// before it; the method body of `spec auto` is one atomic block, so the
// specification does call, τ, ret per operation.
package explore

import (
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/lts"
)

// Bounds are the bounds of the most-general client: Threads threads each
// performing up to Ops operations (-1: forever), each with any argument
// drawn from Values.
type Bounds struct {
	Threads int
	Ops     int // -1 = forever
	Values  []int
	// Only restricts threads (numbered from 1) to some methods, from the
	// client block's `only` lines; nil means every thread calls every method.
	Only map[int][]string
}

func (b Bounds) String() string {
	ops := fmt.Sprint(b.Ops)
	if b.Ops < 0 {
		ops = "forever"
	}
	vs := make([]string, len(b.Values))
	for i, v := range b.Values {
		vs[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("threads=%d ops=%s values=%s", b.Threads, ops, strings.Join(vs, ","))
}

// Options tune an exploration.
type Options struct {
	MaxStates int
	// Explicit turns off garbage collection: nodes come back only through
	// free, and a freed node may be reallocated while still referenced (ABA).
	Explicit bool
	MaxNodes int  // bound on live heap nodes; 0 = 64
	Lin      bool // emit lin(T,M[,VAL]) for lin statements instead of τ
	// FineGrained keeps accesses to thread-private heap nodes (reachable
	// only from the thread's own locals, e.g. a node being initialised
	// before it is published) as steps of their own; by default they are
	// folded into the neighbouring step like other local work.
	FineGrained bool
	Progress    func(states, transitions int64)
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
	p       *program
	b       Bounds
	o       Options
	m       machine
	set     *stateSet
	labels  map[uint64]int32
	allowed [][]bool // per thread and method: may the client call it
	// The LTS under construction. Transitions are found in order of their
	// source (breadth-first), so the CSR index is built as states are
	// expanded and Src is recovered from it at the end.
	out        []int32 // out[s]: first transition of state s
	labelCol   column[uint16]
	dst        column[int32]
	thread     column[uint8]
	stepCol    column[int16]
	labelNames []string
	labelIDs   map[string]int32
	steps      []lts.SourceStep
	enc        []byte
	// The successors of the state being expanded, collected so that their
	// lookups can overlap (see stateSet.touch): encodings in batch.
	batch []byte
	succs []succ
	sink  uint64
	cur   []int32 // the state being expanded
	canon []int32
	perm  []int32
	order []int32
	roots []int32 // state indices holding references into the heap
	// rootSlots[t][m]: the state indices of thread t's reference locals
	// when it runs method m.
	rootSlots [][][]int32
}

// Explore builds the LTS of obj (the implementation or the specification
// of prog) under the bounds.
func Explore(prog *check.Program, obj *check.Object, b Bounds, o Options) (*lts.LTS, error) {
	if b.Threads < 1 || b.Threads > 64 {
		return nil, fmt.Errorf("need between 1 and 64 threads, got %d", b.Threads)
	}
	if b.Ops == 0 || b.Ops < -1 {
		return nil, fmt.Errorf("ops must be at least 1 or forever (-1), got %d", b.Ops)
	}
	if len(b.Values) == 0 {
		return nil, fmt.Errorf("the value domain is empty")
	}
	p, err := compile(prog, obj, b.Threads, b.Values, o.FineGrained)
	if err != nil {
		return nil, err
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = 64
	}
	if o.MaxStates <= 0 {
		o.MaxStates = 50_000_000
	}
	x := &explorer{p: p, b: b, o: o, set: newStateSet(), labels: map[uint64]int32{},
		labelNames: []string{lts.TauName}, labelIDs: map[string]int32{lts.TauName: lts.Tau}}
	x.m = machine{p: p, gc: !o.Explicit, lin: o.Lin, maxNodes: int32(o.MaxNodes)}
	for _, s := range p.steps {
		pos := p.file.Position(s.pos)
		x.steps = append(x.steps, lts.SourceStep{File: pos.File, Line: int32(pos.Line), Col: int32(pos.Col), Text: s.text, Procedure: s.procedure})
	}
	if len(p.steps) > 1<<15-1 {
		return nil, fmt.Errorf("the model has %d source steps; at most %d are supported", len(p.steps), 1<<15-1)
	}
	x.argTuples()
	x.initRoots()
	x.allowed = make([][]bool, b.Threads)
	for t := range x.allowed {
		x.allowed[t] = make([]bool, len(p.methods))
		only, restricted := b.Only[t+1]
		for i, m := range p.methods {
			x.allowed[t][i] = m.callable && !restricted
			for _, name := range only {
				x.allowed[t][i] = x.allowed[t][i] || m.callable && name == m.name
			}
		}
	}
	return x.run()
}

// initRoots fills rootSlots.
func (x *explorer) initRoots() {
	x.rootSlots = make([][][]int32, x.b.Threads)
	for t := range x.rootSlots {
		x.rootSlots[t] = make([][]int32, len(x.p.methods))
		for i, m := range x.p.methods {
			for _, k := range m.refLocals {
				x.rootSlots[t][i] = append(x.rootSlots[t][i], x.p.lay.threadBase(t)+tLocals+k)
			}
		}
	}
}

// argTuples enumerates each method's argument tuples over the domain.
func (x *explorer) argTuples() {
	for _, m := range x.p.methods {
		tuples := [][]int32{{}}
		for _, pt := range m.params {
			dom := x.p.values
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
		m.argTuples = tuples
	}
}

func (x *explorer) run() (*lts.LTS, error) {
	init := append([]int32(nil), x.p.init...)
	if im := x.p.initMethod; im != nil {
		x.m.t, x.m.base, x.m.mem = 0, x.p.lay.threadBase(0), init
		init[x.m.base+tPC] = im.entry
		x.m.step()
		if f := x.m.err; f != nil {
			e := &ModelError{Msg: "in the init block: " + f.msg, Trace: &lts.Trace{Title: "model error in init", LoopStart: -1}}
			if f.step >= 0 {
				s := x.p.steps[f.step]
				pos := x.p.file.Position(s.pos)
				e.Pos = lts.SourceStep{File: pos.File, Line: int32(pos.Line), Col: int32(pos.Col), Text: s.text, Procedure: "init"}
			}
			return nil, e
		}
		init = x.m.mem
		x.m.resetThread()
	}
	x.enc = encode(x.enc[:0], x.canonical(init, -1))
	x.set.insert(x.enc, x.set.hash(x.enc))
	var cur, next []int32
	lay := &x.p.lay
	for s := int32(0); int(s) < x.set.len(); s++ {
		if x.o.Progress != nil && s&0xffff == 0 {
			x.o.Progress(int64(s), int64(x.dst.n))
		}
		x.out = append(x.out, int32(x.dst.n))
		cur = decode(cur[:0], x.set.next())
		x.cur = cur
		x.batch, x.succs = x.batch[:0], x.succs[:0]
		for t := 0; t < x.b.Threads; t++ {
			base := lay.threadBase(t)
			if cur[base+tPC] == 0 {
				if x.b.Ops >= 0 && int(cur[base+tOps]) >= x.b.Ops {
					continue
				}
				for _, m := range x.p.methods {
					if !x.allowed[t][m.index] {
						continue
					}
					for ai, args := range m.argTuples {
						next = append(next[:0], cur...)
						next[base+tPC] = m.entry
						if x.b.Ops >= 0 {
							next[base+tOps]++
						}
						copy(next[base+tLocals:], args)
						out := outcome{kind: kCall, method: m.index, value: int32(ai), step: m.callStep}
						x.add(t, out, next)
					}
				}
				continue
			}
			x.m.t, x.m.base = t, base
			for {
				next = append(next[:0], cur...)
				x.m.mem, x.m.ci, x.m.err = next, 0, nil
				out := x.m.step()
				next = x.m.mem
				if x.m.err != nil {
					if err := x.flush(s); err != nil {
						return nil, err
					}
					return nil, x.modelError(s, t, x.m.err)
				}
				if out.kind != kBlocked {
					x.add(t, out, next)
				}
				if !x.m.nextChoice() {
					break
				}
			}
		}
		if err := x.flush(s); err != nil {
			return nil, err
		}
	}
	if x.o.Progress != nil {
		x.o.Progress(int64(x.set.len()), int64(x.dst.n))
	}
	return x.build(), nil
}

// build assembles the LTS found so far; states not yet expanded have no
// transitions. The state set is released first: for large state spaces
// it is as big as the transition table, and the peak is the sum.
func (x *explorer) build() *lts.LTS {
	n := int32(x.set.len())
	x.set = nil
	if m := x.dst.n; m > 1<<22 {
		debug.FreeOSMemory()
	}
	m := int32(x.dst.n)
	out := x.out
	for int32(len(out)) < n+1 {
		out = append(out, m)
	}
	x.out = nil
	src := make([]int32, m)
	for s := int32(0); s < n; s++ {
		for t := out[s]; t < out[s+1]; t++ {
			src[t] = s
		}
	}
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
	l.Label = x.labelCol.slice()
	gc()
	l.Dst = x.dst.slice()
	gc()
	l.Meta = &lts.Meta{Thread: x.thread.slice()}
	gc()
	l.Meta.Step, l.Meta.Steps = x.stepCol.slice(), x.steps
	return l
}

// succ is a successor of the state being expanded, waiting in the batch.
type succ struct {
	start, end int32 // its encoding: batch[start:end]
	hash       uint32
	slot       uint64 // the first table slot of its lookup
	label      int32
	thread     int
	step       int32
}

// add canonicalises and encodes a successor of the state being expanded
// by thread t and puts it in the batch.
func (x *explorer) add(t int, out outcome, next []int32) {
	start := int32(len(x.batch))
	x.batch = encode(x.batch, x.canonicalStep(x.cur, next, t))
	end := int32(len(x.batch))
	if end-start > 65535 {
		panic("state too large") // unreachable with the node and array limits
	}
	x.succs = append(x.succs, succ{start: start, end: end, hash: x.set.hash(x.batch[start:end]),
		label: x.label(t, out), thread: t, step: out.step})
}

// flush looks up the batch of successors of state src, in order, adding
// the new ones to the set and the transitions to the table.
func (x *explorer) flush(src int32) error {
	// Two passes of independent loads (see stateSet.touch).
	for i := range x.succs {
		x.succs[i].slot = x.set.slot(x.succs[i].hash)
	}
	sink := x.sink
	for i := range x.succs {
		sink += x.set.touch(x.succs[i].slot, x.succs[i].hash)
	}
	x.sink = sink
	for i := range x.succs {
		sc := &x.succs[i]
		dst, isNew := x.set.insert(x.batch[sc.start:sc.end], sc.hash)
		if isNew && x.set.len() > x.o.MaxStates {
			return fmt.Errorf("%w: more than %d states (%d transitions so far; %d states fully expanded, the rest queued); raise the limit or lower the bounds",
				ErrStateLimit, x.o.MaxStates, x.dst.n, src)
		}
		if sc.label > 0xffff {
			return fmt.Errorf("more than %d distinct labels; use fewer threads or values", 0xffff)
		}
		x.labelCol.append(uint16(sc.label))
		x.dst.append(dst)
		x.thread.append(uint8(sc.thread + 1))
		x.stepCol.append(int16(sc.step))
	}
	x.batch, x.succs = x.batch[:0], x.succs[:0]
	return nil
}

// canonical zeroes the dead locals of thread t (-1: none moved) and
// renumbers the heap; it returns a vector owned by the explorer.
func (x *explorer) canonical(st []int32, t int) []int32 {
	x.zeroDead(st, t)
	return x.renumber(st)
}

// canonicalStep is canonical for a successor st of the canonical state
// cur by a step of thread t. The heap numbering of a state depends only
// on its references (the shared ones, the threads' live ones and the
// nodes' reference fields) and on the types of its nodes; when the step
// changed none of them, the numbering of cur, which is the identity, is
// that of st too, and the breadth-first renumbering is skipped. This is
// the case for calls, and for steps that only read shared state into
// non-reference locals or write non-reference fields.
func (x *explorer) canonicalStep(cur, st []int32, t int) []int32 {
	x.zeroDead(st, t)
	lay := &x.p.lay
	hb := lay.heapBase
	if len(st) != len(cur) || st[hb] == 0 {
		return x.renumber(st)
	}
	for _, a := range lay.refShared {
		if st[a] != cur[a] {
			return x.renumber(st)
		}
	}
	// Thread t's references, in root order, nulls skipped (the renumbering
	// skips them too), must be the same, or in both states reach only
	// nodes that an earlier root (a shared reference or another thread's
	// reference before t's) reaches first.
	code := x.p.code
	base := lay.threadBase(t)
	var ra, rb []int32
	if pc := cur[base+tPC]; pc != 0 {
		ra = x.rootSlots[t][code[pc].method]
	}
	if pc := st[base+tPC]; pc != 0 {
		rb = x.rootSlots[t][code[pc].method]
	}
	if !sameRefs(cur, ra, st, rb) && !(x.shadowed(cur, t, ra) && x.shadowed(st, t, rb)) {
		return x.renumber(st)
	}
	if !slices.Equal(st[hb:], cur[hb:]) {
		// Compare the node types and reference fields only.
		for a := hb + 1; a < int32(len(st)); a += lay.nodeSize {
			if st[a] != cur[a] {
				return x.renumber(st)
			}
			for _, f := range lay.refFields[st[a]] {
				if st[a+2+f] != cur[a+2+f] {
					return x.renumber(st)
				}
			}
		}
	}
	return st
}

// sameRefs reports whether the non-null values of a at slots sa are
// those of b at slots sb, in order.
func sameRefs(a []int32, sa []int32, b []int32, sb []int32) bool {
	i, j := 0, 0
	for {
		for i < len(sa) && a[sa[i]] == 0 {
			i++
		}
		for j < len(sb) && b[sb[j]] == 0 {
			j++
		}
		if i == len(sa) || j == len(sb) {
			return i == len(sa) && j == len(sb)
		}
		if a[sa[i]] != b[sb[j]] {
			return false
		}
		i++
		j++
	}
}

// shadowed reports whether every non-null reference of st at slots (the
// reference locals of thread t) is also held by a shared reference or a
// reference local of a thread before t, so that the renumbering has
// numbered it before it comes to these slots.
func (x *explorer) shadowed(st []int32, t int, slots []int32) bool {
	lay := &x.p.lay
	code := x.p.code
next:
	for _, a := range slots {
		v := st[a]
		if v == 0 {
			continue
		}
		for _, b := range lay.refShared {
			if st[b] == v {
				continue next
			}
		}
		for th := 0; th < t; th++ {
			if pc := st[lay.threadBase(th)+tPC]; pc != 0 {
				for _, b := range x.rootSlots[th][code[pc].method] {
					if st[b] == v {
						continue next
					}
				}
			}
		}
		return false
	}
	return true
}

// zeroDead zeroes the locals of thread t (-1: none) dead at its pc.
func (x *explorer) zeroDead(st []int32, t int) {
	if t < 0 {
		return
	}
	lay := &x.p.lay
	base := lay.threadBase(t)
	live := x.p.code[st[base+tPC]].live
	loc := st[base+tLocals : base+lay.threadSize]
	for k := range loc {
		if live&(1<<uint(k)) == 0 {
			loc[k] = 0
		}
	}
}

// renumber renumbers the heap nodes of st in breadth-first order of
// reachability from the roots (shared references, then each busy thread's
// reference locals), dropping unreachable nodes; it returns st itself if
// the numbering is already canonical, else a vector owned by the explorer.
func (x *explorer) renumber(st []int32) []int32 {
	lay := &x.p.lay
	hb := lay.heapBase
	count := st[hb]
	if count == 0 {
		return st[:hb+1]
	}
	if cap(x.perm) < int(count)+1 {
		x.perm = make([]int32, count+1)
	}
	perm := x.perm[:count+1]
	clear(perm)
	order := x.order[:0]
	roots := append(x.roots[:0], lay.refShared...)
	for th, base := 0, lay.nshared; th < x.b.Threads; th, base = th+1, base+lay.threadSize {
		if pc := st[base+tPC]; pc != 0 {
			roots = append(roots, x.rootSlots[th][x.p.code[pc].method]...)
		}
	}
	x.roots = roots
	// identity: so far every node was reached in the order of its number.
	identity := true
	for _, a := range roots {
		if ref := st[a]; ref != 0 && perm[ref] == 0 {
			order = append(order, ref)
			perm[ref] = int32(len(order))
			identity = identity && ref == int32(len(order))
		}
	}
	nodeSize := lay.nodeSize
	node0 := hb + 1 - nodeSize // address of node 0, so node id is at node0+id*nodeSize
	for i := 0; i < len(order); i++ {
		a := node0 + order[i]*nodeSize
		for _, f := range lay.refFields[st[a]] {
			if ref := st[a+2+f]; ref != 0 && perm[ref] == 0 {
				order = append(order, ref)
				perm[ref] = int32(len(order))
				identity = identity && ref == int32(len(order))
			}
		}
	}
	x.order = order
	if identity && int32(len(order)) == count {
		return st
	}
	n := hb + 1 + int32(len(order))*nodeSize
	if int32(cap(x.canon)) < n {
		x.canon = make([]int32, n)
	}
	out := x.canon[:n]
	copy(out, st[:hb])
	for _, a := range roots {
		out[a] = perm[out[a]]
	}
	out[hb] = int32(len(order))
	for i, id := range order {
		src := st[node0+id*nodeSize:][:nodeSize]
		dst := out[hb+1+int32(i)*nodeSize:][:nodeSize]
		copy(dst, src)
		for _, f := range lay.refFields[src[0]] {
			dst[2+f] = perm[dst[2+f]]
		}
	}
	return out
}

// label interns the label of an outcome, caching by (kind, thread, method, value).
func (x *explorer) label(t int, out outcome) int32 {
	if out.kind == kTau {
		return lts.Tau
	}
	has := uint64(0)
	if out.hasValue {
		has = 1
	}
	key := uint64(out.kind)<<60 | has<<59 | uint64(t)<<48 | uint64(out.method)<<32 | uint64(uint32(out.value))
	if id, ok := x.labels[key]; ok {
		return id
	}
	m := x.p.methods[out.method]
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
	sb.WriteString(m.name)
	switch {
	case out.kind == kCall:
		for i, v := range m.argTuples[out.value] {
			sb.WriteByte(',')
			sb.WriteString(formatValue(m.params[i].Kind, v))
		}
	case out.hasValue:
		kind := m.result
		if out.kind == kLin {
			kind = check.Int
		}
		sb.WriteByte(',')
		sb.WriteString(formatValue(kind, out.value))
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
	return id
}

func formatValue(k check.Kind, v int32) string {
	switch {
	case k == check.Bool && v == 0:
		return "false"
	case k == check.Bool:
		return "true"
	case v == Empty:
		return "EMPTY"
	}
	return strconv.Itoa(int(v))
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
