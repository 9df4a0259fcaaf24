package explore

import "slices"

// canonicaliser makes state vectors canonical (see the package comment):
// dead locals zeroed, heap nodes renumbered. It holds the buffers of the
// renumbering; each goroutine that expands states has its own.
type canonicaliser struct {
	p       *program
	threads int
	// rootSlots[t][m]: the state indices of thread t's reference locals
	// when it runs method m. Shared, read-only, by the canonicalisers of
	// one exploration.
	rootSlots [][][]int32
	// rootsAt[t][pc]: rootSlots of thread t for the method of pc (nil
	// when idle); refOffs[h]: the offsets in a node of heap type h of its
	// reference fields. Read-only and shared like rootSlots.
	rootsAt [][][]int32
	refOffs [][]int32
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
	return &canonicaliser{p: c.p, threads: c.threads, rootSlots: c.rootSlots, rootsAt: c.rootsAt, refOffs: c.refOffs, uniform: c.uniform}
}

// initRoots fills rootSlots, rootsAt and refOffs.
func (x *canonicaliser) initRoots() {
	x.rootSlots = make([][][]int32, x.threads)
	x.rootsAt = make([][][]int32, x.threads)
	for t := range x.rootSlots {
		x.rootSlots[t] = make([][]int32, len(x.p.methods))
		for i, m := range x.p.methods {
			for _, k := range m.refLocals {
				x.rootSlots[t][i] = append(x.rootSlots[t][i], x.p.lay.threadBase(t)+tLocals+k)
			}
		}
		x.rootsAt[t] = make([][]int32, len(x.p.code))
		for pc := 1; pc < len(x.p.code); pc++ {
			x.rootsAt[t][pc] = x.rootSlots[t][x.p.code[pc].method]
		}
	}
	for _, fs := range x.p.lay.refFields {
		offs := make([]int32, len(fs))
		for i, f := range fs {
			offs[i] = 2 + f
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
// cur by a step of thread t. The heap numbering of a state depends only
// on its references (the shared ones, the threads' live ones and the
// nodes' reference fields) and on the types of its nodes; when the step
// changed none of them, the numbering of cur, which is the identity, is
// that of st too, and the breadth-first renumbering is skipped. This is
// the case for calls, and for steps that only read shared state into
// non-reference locals or write non-reference fields.
func (x *canonicaliser) canonicalStep(cur, st []int32, t int) []int32 {
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
	base := lay.threadBase(t)
	ra, rb := x.rootsAt[t][cur[base+tPC]], x.rootsAt[t][st[base+tPC]]
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
func (x *canonicaliser) shadowed(st []int32, t int, slots []int32) bool {
	lay := &x.p.lay
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
			for _, b := range x.rootsAt[th][st[lay.threadBase(th)+tPC]] {
				if st[b] == v {
					continue next
				}
			}
		}
		return false
	}
	return true
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
	order := x.order[:0]
	for _, a := range lay.refShared {
		if ref := st[a]; perm[ref] == 0 {
			order = append(order, ref)
			perm[ref] = int32(len(order))
		}
	}
	base := lay.nshared
	for th := range x.threads {
		for _, a := range x.rootsAt[th][st[base+tPC]] {
			if ref := st[a]; perm[ref] == 0 {
				order = append(order, ref)
				perm[ref] = int32(len(order))
			}
		}
		base += lay.threadSize
	}
	nodeSize := lay.nodeSize
	node0 := hb + 1 - nodeSize // address of node 0, so node id is at node0+id*nodeSize
	for i := 0; i < len(order); i++ {
		node := st[node0+order[i]*nodeSize:][:nodeSize]
		offs := x.uniform
		if offs == nil {
			offs = x.refOffs[node[0]]
		}
		for _, f := range offs {
			if ref := node[f]; perm[ref] == 0 {
				order = append(order, ref)
				perm[ref] = int32(len(order))
			}
		}
	}
	x.order = order
	perm[0] = 0
	// identity: every node was reached, in the order of its number.
	identity := int32(len(order)) == count
	for i := 0; identity && i < len(order); i++ {
		identity = order[i] == int32(i+1)
	}
	if identity {
		return st
	}
	n := hb + 1 + int32(len(order))*nodeSize
	if int32(cap(x.canon)) < n {
		x.canon = make([]int32, n)
	}
	out := x.canon[:n]
	copy(out, st[:hb])
	for _, a := range lay.refShared {
		out[a] = perm[out[a]]
	}
	base = lay.nshared
	for th := range x.threads {
		for _, a := range x.rootsAt[th][st[base+tPC]] {
			out[a] = perm[out[a]]
		}
		base += lay.threadSize
	}
	out[hb] = int32(len(order))
	for i, id := range order {
		src := st[node0+id*nodeSize:][:nodeSize]
		dst := out[hb+1+int32(i)*nodeSize:][:nodeSize]
		copy(dst, src)
		offs := x.uniform
		if offs == nil {
			offs = x.refOffs[src[0]]
		}
		for _, f := range offs {
			dst[f] = perm[dst[f]]
		}
	}
	return out
}
