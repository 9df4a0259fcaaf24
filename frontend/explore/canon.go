package explore

import "slices"

// canonicaliser makes state vectors canonical (see the package comment):
// dead locals zeroed, heap nodes renumbered. It holds the buffers of the
// renumbering; each goroutine that expands states has its own.
type canonicaliser struct {
	p       *program
	threads int
	// rootSpan[pc]: where rootRel lists the reference locals of the
	// method of pc, as start<<32 | end (empty when idle), each as its
	// offset from its thread's base: one load per thread finds a thread's
	// roots. refOffs[h]: the offsets in a node of heap type h of its
	// reference fields. Shared, read-only, by the canonicalisers of one
	// exploration.
	rootSpan []uint64
	rootRel  []int32
	refOffs  [][]int32
	// uniform: the reference-field offsets shared by every heap type, or
	// nil if they differ (then refOffs by type).
	uniform []int32
	canon   []int32
	perm    []int32
	order   []int32
}

func newCanonicaliser(p *program, threads int) *canonicaliser {
	c := &canonicaliser{p: p, threads: threads}
	c.initRoots()
	return c
}

// clone returns a canonicaliser with the same program and root slots and
// buffers of its own.
func (c *canonicaliser) clone() *canonicaliser {
	return &canonicaliser{p: c.p, threads: c.threads, rootSpan: c.rootSpan, rootRel: c.rootRel, refOffs: c.refOffs, uniform: c.uniform}
}

// initRoots fills rootSpan, rootRel and refOffs.
func (x *canonicaliser) initRoots() {
	spans := make([]uint64, len(x.p.methods))
	for i, m := range x.p.methods {
		start := len(x.rootRel)
		for _, k := range m.refLocals {
			x.rootRel = append(x.rootRel, tLocals+k)
		}
		spans[i] = uint64(start)<<32 | uint64(len(x.rootRel))
	}
	x.rootSpan = make([]uint64, len(x.p.code))
	for pc := 1; pc < len(x.p.code); pc++ {
		x.rootSpan[pc] = spans[x.p.code[pc].method]
	}
	for _, fs := range x.p.lay.refFields {
		offs := make([]int32, len(fs))
		for i, f := range fs {
			offs[i] = x.p.lay.hdr + f
		}
		x.refOffs = append(x.refOffs, offs)
	}
	if len(x.refOffs) > 1 {
		x.uniform = x.refOffs[1]
		for _, offs := range x.refOffs[2:] {
			if !slices.Equal(offs, x.uniform) {
				x.uniform = nil
				break
			}
		}
	}
}

// canonical zeroes the dead locals of thread t (-1: none moved) and
// renumbers the heap; it returns a vector owned by the canonicaliser.
func (x *canonicaliser) canonical(st []int32, t int) []int32 {
	x.zeroDead(st, t)
	return x.renumber(st)
}

// canonicalStep is canonical for a successor st of the canonical state
// cur by a step of thread t. The numbering of cur is the identity; when
// the breadth-first renumbering of st can be seen to be the identity too,
// without running it, st is returned as it is. That is when st has the
// same nodes, of the same types and with the same reference fields, as
// cur and its roots hold nodes 1..r in order, r at least as large as in
// cur (see rootPrefix): the renumbering numbers the roots' nodes as they
// are, and each node beyond r is reached, in cur as in st, from the first
// node in number order that refers to it, so in the order of the numbers.
// Most steps qualify: calls, steps that only read shared state, write
// non-reference data, or move references between roots (Treiber's read
// of Top, or of Top.next into a local). curRoots is rootPrefix(cur),
// computed once for all the successors of cur.
func (x *canonicaliser) canonicalStep(cur []int32, curRoots int32, st []int32, t int) []int32 {
	x.zeroDead(st, t)
	lay := &x.p.lay
	hb := lay.heapBase
	if len(st) != len(cur) || st[hb] == 0 {
		return x.renumber(st)
	}
	if r := x.rootPrefix(st); r < 0 || r < curRoots {
		return x.renumber(st)
	}
	if !slices.Equal(st[hb:], cur[hb:]) {
		// Compare the node types and reference fields only.
		for a := hb + 1; a < int32(len(st)); a += lay.nodeSize {
			if lay.typed && st[a] != cur[a] {
				return x.renumber(st)
			}
			for _, f := range lay.refFields[lay.nodeType(st, a)] {
				if st[a+lay.hdr+f] != cur[a+lay.hdr+f] {
					return x.renumber(st)
				}
			}
		}
	}
	if checkSkips {
		if out := x.renumber(st); len(out) != len(st) || &out[0] != &st[0] {
			panic("canonicalStep skipped a renumbering that is not the identity")
		}
	}
	return st
}

// checkSkips, set by the package's tests, makes canonicalStep run the
// renumberings it skips and panic unless they are the identity: every
// exploration of the tests cross-checks the shortcut.
var checkSkips bool

// rootPrefix returns r if the roots of st (shared references, then each
// busy thread's reference locals), taken in the renumbering's order,
// nulls and repeats skipped, are nodes 1, 2, …, r: then the renumbering
// gives them the numbers they have. It returns -1 otherwise.
func (x *canonicaliser) rootPrefix(st []int32) int32 {
	lay := &x.p.lay
	next := int32(1) // the nodes below next are numbered
	for _, a := range lay.refShared {
		if v := st[a]; v >= next {
			if v > next {
				return -1
			}
			next++
		}
	}
	base := lay.nshared
	for range x.threads {
		sp := x.rootSpan[st[base+tPC]]
		for _, r := range x.rootRel[sp>>32 : uint32(sp)] {
			if v := st[base+r]; v >= next {
				if v > next {
					return -1
				}
				next++
			}
		}
		base += lay.threadSize
	}
	return next - 1
}

// zeroDead zeroes the locals of thread t (-1: none) dead at its pc.
func (x *canonicaliser) zeroDead(st []int32, t int) {
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
// the numbering is already canonical, else a vector owned by the canonicaliser.
func (x *canonicaliser) renumber(st []int32) []int32 {
	lay := &x.p.lay
	hb := lay.heapBase
	count := st[hb]
	if count == 0 {
		return st[:hb+1]
	}
	if cap(x.perm) < int(count)+1 {
		x.perm = make([]int32, count+1)
	}
	// perm[id]: the new number of node id, 0 while unreached. perm[0] is
	// not 0 during the search, so that null needs no test of its own.
	perm := x.perm[:count+1]
	clear(perm)
	perm[0] = -1
	// One pass: the renumbered vector is written as the search goes, a
	// root or a node's field as soon as its node has its number, so that
	// the roots and the nodes are read once. When the numbering turns out
	// to be the identity, the writes are wasted and st is returned.
	if cap(x.canon) < len(st) {
		x.canon = make([]int32, len(st))
	}
	out := x.canon[:len(st)]
	copy(out, st[:hb])
	order := x.order[:0]
	for _, a := range lay.refShared {
		ref := st[a]
		if perm[ref] == 0 {
			order = append(order, ref)
			perm[ref] = int32(len(order))
		}
		out[a] = max(perm[ref], 0)
	}
	base := lay.nshared
	for range x.threads {
		sp := x.rootSpan[st[base+tPC]]
		for _, r := range x.rootRel[sp>>32 : uint32(sp)] {
			ref := st[base+r]
			if perm[ref] == 0 {
				order = append(order, ref)
				perm[ref] = int32(len(order))
			}
			out[base+r] = max(perm[ref], 0)
		}
		base += lay.threadSize
	}
	nodeSize := lay.nodeSize
	node0 := hb + 1 - nodeSize // address of node 0, so node id is at node0+id*nodeSize
	for i := 0; i < len(order); i++ {
		src := st[node0+order[i]*nodeSize:][:nodeSize]
		dst := out[hb+1+int32(i)*nodeSize:][:len(src)]
		for k, v := range src { // nodes are short: a loop beats a memmove call
			dst[k] = v
		}
		offs := x.uniform
		if offs == nil {
			offs = x.refOffs[src[0]]
		}
		for _, f := range offs {
			ref := src[f]
			if perm[ref] == 0 {
				order = append(order, ref)
				perm[ref] = int32(len(order))
			}
			dst[f] = max(perm[ref], 0)
		}
	}
	x.order = order
	// identity: every node was reached, in the order of its number.
	identity := int32(len(order)) == count
	for i := 0; identity && i < len(order); i++ {
		identity = order[i] == int32(i+1)
	}
	if identity {
		return st
	}
	out[hb] = int32(len(order))
	return out[:hb+1+int32(len(order))*nodeSize]
}
