package semantics

import (
	"fmt"
	"github.com/linbis/linbis/frontend/ir"
	"iter"
	"math/bits"
	"slices"
)

// Canonicaliser makes state vectors canonical (see the package comment):
// dead locals zeroed, heap nodes renumbered. It holds the buffers of the
// renumbering; each goroutine that expands states has its own.
type Canonicaliser struct {
	Program *ir.Program // the program whose states it renumbers
	Threads int         // the number of threads of the states
	// Postorder selects the numbering: depth-first post-order in
	// garbage-collected mode, breadth-first in explicit mode (see renumber).
	Postorder bool
	// Set by current: see there.
	CurRoots    int32
	SharedNodes int32   // post-order: the largest node a shared variable of the current state holds
	Canon       []int32 // the renumbered vector Renumber returns
	Perm        []int32 // per node id of the input, its new number (0: unreached)
	Order       []int32 // the nodes reached, in their new order
	Stack       []int32 // the depth-first search's stack
	RootBuf     []int32 // the offsets of the state's roots, in the numbering's order
}

// NewCanonicaliser returns a canonicaliser of p's states for the given
// number of threads.
func NewCanonicaliser(p *ir.Program, threads int) *Canonicaliser {
	return &Canonicaliser{Program: p, Threads: threads, Postorder: !p.Layout.Explicit}
}

// clone returns a canonicaliser with the same program and root slots and
// buffers of its own.
func (c *Canonicaliser) clone() *Canonicaliser {
	return &Canonicaliser{Program: c.Program, Threads: c.Threads, Postorder: c.Postorder}
}

// Canonical zeroes the dead locals of thread t (-1: none moved) and
// renumbers the heap; it returns a vector owned by the canonicaliser.
func (x *Canonicaliser) Canonical(st []int32, t int) []int32 {
	x.zeroDead(st, t, 0)
	return x.Renumber(st)
}

// CanonicalStep is canonical for a successor st of the canonical state
// cur by a step of thread t; moved tells whether and where the step
// changed references (see machine.moved) and the locals of t in clean are
// zero in st (see zeroDead). current(cur) must have been
// called: it computes, once for all the successors of cur, what the
// shortcuts below compare with.
//
// Both numberings depend only on the roots' values and the nodes'
// reference fields, so when the step changed no reference and no local
// holding one died, st is numbered as cur, canonically: it is returned as
// it is. This covers calls, steps that read shared state into non-
// reference locals, and writes of data.
//
// Otherwise, in garbage-collected mode, when the step moved only thread
// t's reference locals, each from and to null or a node reached from the
// shared variables (numbered 1..sharedNodes, first, by the post-order), st
// keeps the numbering too (localMovesKeep); else st is renumbered: the
// post-order numbering keeps nearly every step's numbering, and finding
// out is the cheap part of a renumbering (renumber writes a new vector
// only when it changes).
//
// In explicit mode, the breadth-first renumbering of st can often be seen
// to be the identity without running it: when st has the same nodes, of
// the same types and with the same reference fields, as cur and its roots
// hold nodes 1..r in order, r at least as large as in cur (see
// rootPrefix), the renumbering numbers the roots' nodes as they are, and
// each node beyond r is reached, in cur as in st, from the first node in
// number order that refers to it, so in the order of the numbers. That
// covers steps that move references between roots (Treiber's read of Top,
// or of Top.next into a local).
func (x *Canonicaliser) CanonicalStep(cur []int32, st []int32, t int, moved RefMoves, clean uint64) []int32 {
	if dropped := x.zeroDead(st, t, clean); moved == 0 && !dropped {
		// No reference changed: the roots and the heap's shape are those
		// of cur, whose numbering is canonical.
		x.checkSkip(st)
		return st
	}
	if x.Postorder {
		if moved&MovedShared == 0 && x.localMovesKeep(cur, st, t) {
			x.checkSkip(st)
			return st
		}
		return x.Renumber(st)
	}
	lay := &x.Program.Layout
	hb := lay.HeapBase
	if len(st) != len(cur) || st[hb] == 0 {
		return x.Renumber(st)
	}
	if r := x.rootPrefix(st); r < 0 || r < x.CurRoots {
		return x.Renumber(st)
	}
	if !slices.Equal(st[hb:], cur[hb:]) {
		// Compare the node types and reference fields only.
		for a := hb + 1; a < int32(len(st)); a += lay.NodeSize {
			if lay.Typed && st[a] != cur[a] {
				return x.Renumber(st)
			}
			for _, f := range lay.NodeRefOffsets(st, a) {
				if st[a+f] != cur[a+f] {
					return x.Renumber(st)
				}
			}
		}
	}
	x.checkSkip(st)
	return st
}

// RefMoves tells what a step did to references: nothing, moved some of
// the running thread's locals, or moved others (shared variables, node
// fields) or allocated.
type RefMoves uint8

const (
	MovedLocal  RefMoves = 1 << iota // moved some of the running thread's locals
	MovedShared                      // moved other references, or allocated
)

// Current prepares canonicalStep for the successors of the canonical
// state cur: rootPrefix(cur) in explicit mode; in garbage-collected mode,
// the number of nodes reached from the shared variables, which the
// post-order numbers first: the largest node a shared variable holds (the
// last depth-first tree started from a shared variable ends at its root).
func (x *Canonicaliser) Current(cur []int32) {
	if !x.Postorder {
		x.CurRoots = x.rootPrefix(cur)
		return
	}
	n := int32(0) // in a register: x.sharedNodes would be stored each time
	for _, a := range x.Program.Layout.RefShared {
		n = max(n, cur[a])
	}
	x.SharedNodes = n
}

// localMovesKeep reports whether the successor st of cur, in which only
// thread t's reference locals changed, is numbered as cur in post-order:
// true when each changed one held, and holds, null or a node reached from
// the shared variables. Those nodes are numbered first, the same in both,
// so the changed roots reach nothing new, lose nothing that becomes
// garbage, and every other root reaches what it reached in cur.
func (x *Canonicaliser) localMovesKeep(cur, st []int32, t int) bool {
	if t < 0 {
		return false
	}
	base := x.Program.Layout.ThreadBase(t)
	mask := x.Program.RefMask[cur[base+ir.TPC]] | x.Program.RefMask[st[base+ir.TPC]]
	for ; mask != 0; mask &= mask - 1 {
		i := base + ir.TLocals + int32(bits.TrailingZeros64(mask))
		if a, b := cur[i], st[i]; a != b && max(a, b) > x.SharedNodes {
			return false
		}
	}
	return true
}

// checkSkip, in the package's tests (checkSkips), renumbers st, whose
// renumbering canonicalStep skipped, and panics unless it is the identity.
// It is small enough to be inlined: the test of checkSkips is all that
// runs outside the tests.
func (x *Canonicaliser) checkSkip(st []int32) {
	if CheckSkips {
		x.verifySkip(st)
	}
}

// verifySkip is checkSkip's check.
func (x *Canonicaliser) verifySkip(st []int32) {
	if out := x.Renumber(st); len(out) != len(st) || &out[0] != &st[0] {
		panic(fmt.Sprintf("canonicalStep skipped a renumbering that is not the identity: %v renumbers to %v", st, out))
	}
}

// CheckSkips, set by the package's tests, makes canonicalStep run the
// renumberings it skips, and renumber the searches that listKeepsNumbers
// avoids, and panic unless they agree: every exploration of the tests
// cross-checks the shortcuts.
var CheckSkips bool

// rootPrefix returns r if the roots of st (shared references, then each
// busy thread's reference locals), taken in the renumbering's order,
// nulls and repeats skipped, are nodes 1, 2, …, r: then the renumbering
// gives them the numbers they have. It returns -1 otherwise.
func (x *Canonicaliser) rootPrefix(st []int32) int32 {
	next := int32(1) // the nodes below next are numbered
	for a := range x.eachRoot(st) {
		if v := st[a]; v >= next {
			if v > next {
				return -1
			}
			next++
		}
	}
	return next - 1
}

// zeroDead zeroes the locals of thread t (-1: none) dead at its pc and
// reports whether one of them was a reference other than null. The
// locals in clean are known to be zero and are not looked at: after a
// step, those dead before it that it cannot write (program.clean); most
// of a method's locals are dead at most of its instructions, and a step
// writes few.
func (x *Canonicaliser) zeroDead(st []int32, t int, clean uint64) bool {
	if t < 0 {
		return false
	}
	base := x.Program.Layout.ThreadBase(t)
	pc := st[base+ir.TPC]
	dead := x.Program.Dead[pc]
	if CheckSkips {
		x.checkClean(st[base+ir.TLocals:], dead&clean)
	}
	if dead &^= clean; dead == 0 {
		return false
	}
	loc := st[base+ir.TLocals:]
	refs := x.Program.RefMask[pc]
	dropped := false
	for ; dead != 0; dead &= dead - 1 {
		i := bits.TrailingZeros64(dead)
		if loc[i] != 0 {
			dropped = dropped || refs&(1<<i) != 0
			loc[i] = 0
		}
	}
	return dropped
}

// checkClean, in the package's tests, panics unless the locals loc of
// the set clean are zero, as zeroDead assumes without looking.
func (x *Canonicaliser) checkClean(loc []int32, clean uint64) {
	for ; clean != 0; clean &= clean - 1 {
		if i := bits.TrailingZeros64(clean); loc[i] != 0 {
			panic(fmt.Sprintf("zeroDead skipped local %d, which holds %d", i, loc[i]))
		}
	}
}

// Renumber renumbers the heap nodes of st in the canonical order of
// reachability from the roots (shared references, then each busy thread's
// reference locals), dropping unreachable nodes; it returns st itself if
// the numbering is already canonical, else a vector owned by the
// canonicaliser.
//
// Any numbering that is determined by the shape of the heap as seen from
// the roots, taken in a fixed order, identifies exactly the states that
// differ only in addresses, so the choice does not change the LTS. Two are
// used. Explicit mode numbers breadth-first: its allocation offers the
// freed nodes in number order, so the numbering shapes the LTS's order of
// transitions, and the LTSs stay as they have always been. Garbage-
// collected mode numbers in depth-first post-order (a node after the nodes
// it refers to): a linked structure is numbered from its null end, so
// that pushing a node onto a list or popping one off, and a thread's
// references into the list, leave every other node's number as it is.
// On Treiber's stack nearly every step then keeps the numbering, where
// breadth-first numbering from the top shifted the whole list.
func (x *Canonicaliser) Renumber(st []int32) []int32 {
	lay := &x.Program.Layout
	hb := lay.HeapBase
	count := st[hb]
	if count == 0 {
		return st[:hb+1]
	}
	if x.Postorder && len(x.Program.Layout.Uniform) == 1 {
		if n, ok := x.listKeepsNumbers(st); ok {
			if CheckSkips {
				x.checkKeepsNumbers(st, n)
			}
			st[hb] = n
			return st[:hb+1+n*lay.NodeSize]
		}
	}
	if cap(x.Perm) < int(count)+1 {
		x.Perm = make([]int32, count+1)
	}
	// perm[id]: the new number of node id, 0 while unreached (negative
	// while on the depth-first stack). perm[0] is not 0 during the search,
	// so that null needs no test of its own.
	perm := x.Perm[:count+1]
	clear(perm)
	perm[0] = -1
	roots := x.roots(st)
	var order []int32
	if x.Postorder {
		order = x.postorderFrom(st, roots, perm)
	} else {
		order = x.breadthFirstFrom(st, roots, perm)
	}
	x.Order = order
	if numberedInOrder(order) {
		// The numbering is kept; the nodes beyond are garbage (in
		// post-order, often the node just popped).
		st[hb] = int32(len(order))
		return st[:hb+1+int32(len(order))*lay.NodeSize]
	}
	if cap(x.Canon) < len(st) {
		x.Canon = make([]int32, len(st))
	}
	nodeSize := lay.NodeSize
	out := x.Canon[:hb+1+int32(len(order))*nodeSize]
	copy(out, st[:hb])
	for _, a := range roots {
		out[a] = max(perm[st[a]], 0)
	}
	out[hb] = int32(len(order))
	node0 := hb + 1 - nodeSize // node id is at node0+id*nodeSize
	for i, id := range order {
		src := st[node0+id*nodeSize:][:nodeSize]
		dst := out[hb+1+int32(i)*nodeSize:][:len(src)]
		for k, v := range src { // nodes are short: a loop beats a memmove call
			dst[k] = v
		}
		for _, f := range x.Program.Layout.NodeRefOffsets(src, 0) {
			dst[f] = max(perm[src[f]], 0)
		}
	}
	return out
}

// listKeepsNumbers checks, for nodes with one reference field, whether the
// post-order numbering of st keeps the number of every node it reaches,
// and returns how many it reaches; the nodes beyond are garbage. It is the
// common case, checked without the search's bookkeeping: when the nodes
// below next have kept their numbers, a root that holds a node c >= next
// must start the chain c → c-1 → … → next, whose last node refers to null
// or a node at most c (numbered, or on the chain: a cycle), for the
// search to number the chain next..c backwards.
func (x *Canonicaliser) listKeepsNumbers(st []int32) (int32, bool) {
	lay := &x.Program.Layout
	count := st[lay.HeapBase]
	nodeSize := lay.NodeSize
	nextField := lay.HeapBase + 1 - nodeSize + lay.Uniform[0] // + id*nodeSize
	// chain returns next after a root holding c >= next, or 0 if the
	// numbering changes there. (next is passed and returned rather than
	// captured: a captured variable that changes lives in memory.)
	chain := func(c, next int32) int32 {
		if c > count {
			return 0
		}
		for d := c; d > next; d-- {
			if st[nextField+d*nodeSize] != d-1 {
				return 0
			}
		}
		if st[nextField+next*nodeSize] > c {
			return 0
		}
		return c + 1
	}
	next := int32(1)
	// The roots as eachRoot yields them, written out: this runs for most
	// successors, and the iterator cost 2.5 % more instructions in all.
	for _, a := range lay.RefShared {
		if c := st[a]; c >= next {
			if next = chain(c, next); next == 0 {
				return 0, false
			}
		}
	}
	base := lay.Nshared
	for range x.Threads {
		if next > count {
			// Every node is numbered (on Treiber's stack, mostly by Top
			// alone): the other roots hold them or null, and keep them.
			break
		}
		for m := x.Program.RefMask[st[base+ir.TPC]]; m != 0; m &= m - 1 {
			if c := st[base+ir.TLocals+int32(bits.TrailingZeros64(m))]; c >= next {
				if next = chain(c, next); next == 0 {
					return 0, false
				}
			}
		}
		base += lay.ThreadSize
	}
	return next - 1, true
}

// numberedInOrder reports whether the nodes of a search's order are nodes
// 1..len(order), in this order: the numbering keeps their numbers.
func numberedInOrder(order []int32) bool {
	for i, id := range order {
		if id != int32(i+1) {
			return false
		}
	}
	return true
}

// checkKeepsNumbers, in the package's tests, runs the search that
// listKeepsNumbers avoided and panics unless it numbers nodes 1..n as they
// are.
func (x *Canonicaliser) checkKeepsNumbers(st []int32, n int32) {
	count := st[x.Program.Layout.HeapBase]
	perm := make([]int32, count+1)
	perm[0] = -1
	order := x.postorderFrom(st, x.roots(st), perm)
	if int32(len(order)) != n || !numberedInOrder(order) {
		panic("listKeepsNumbers disagrees with the depth-first search")
	}
}

// roots returns the offsets in st of its roots in the renumbering's order
// (see eachRoot).
func (x *Canonicaliser) roots(st []int32) []int32 {
	roots := x.RootBuf[:0]
	for a := range x.eachRoot(st) {
		roots = append(roots, a)
	}
	x.RootBuf = roots
	return roots
}

// eachRoot yields the offsets in st of its roots in the renumbering's
// order: the shared references, then each busy thread's reference locals.
func (x *Canonicaliser) eachRoot(st []int32) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		lay := &x.Program.Layout
		for _, a := range lay.RefShared {
			if !yield(a) {
				return
			}
		}
		base := lay.Nshared
		for range x.Threads {
			for m := x.Program.RefMask[st[base+ir.TPC]]; m != 0; m &= m - 1 {
				if !yield(base + ir.TLocals + int32(bits.TrailingZeros64(m))) {
					return
				}
			}
			base += lay.ThreadSize
		}
	}
}

// breadthFirstFrom numbers the nodes reachable from the roots in
// breadth-first order, in perm, and returns them in that order.
func (x *Canonicaliser) breadthFirstFrom(st, roots, perm []int32) []int32 {
	lay := &x.Program.Layout
	nodeSize := lay.NodeSize
	node0 := lay.HeapBase + 1 - nodeSize
	order := x.Order[:0]
	for _, a := range roots {
		if ref := st[a]; perm[ref] == 0 {
			order = append(order, ref)
			perm[ref] = int32(len(order))
		}
	}
	for i := 0; i < len(order); i++ {
		src := st[node0+order[i]*nodeSize:][:nodeSize]
		for _, f := range x.Program.Layout.NodeRefOffsets(src, 0) {
			if ref := src[f]; perm[ref] == 0 {
				order = append(order, ref)
				perm[ref] = int32(len(order))
			}
		}
	}
	return order
}

// postorderFrom numbers the nodes reachable from the roots in depth-first
// post-order, in perm, and returns them in that order.
func (x *Canonicaliser) postorderFrom(st, roots, perm []int32) []int32 {
	lay := &x.Program.Layout
	nodeSize := lay.NodeSize
	node0 := lay.HeapBase + 1 - nodeSize
	order := x.Order[:0]
	const onStack = -2
	if len(x.Program.Layout.Uniform) == 1 {
		// Nodes with one reference field (lists): follow each root's
		// chain to its end or to a node already reached, then number the
		// chain backwards.
		chain := x.Stack[:0]
		next := node0 + x.Program.Layout.Uniform[0]
		for _, a := range roots {
			for c := st[a]; perm[c] == 0; c = st[next+c*nodeSize] {
				perm[c] = onStack
				chain = append(chain, c)
			}
			for i := len(chain) - 1; i >= 0; i-- {
				order = append(order, chain[i])
				perm[chain[i]] = int32(len(order))
			}
			chain = chain[:0]
		}
		x.Stack = chain
		return order
	}
	// The stack holds pairs: a node, and the index of its next reference
	// field to follow.
	stack := x.Stack[:0]
	for _, a := range roots {
		ref := st[a]
		if perm[ref] != 0 {
			continue
		}
		perm[ref] = onStack
		stack = append(stack, ref, 0)
		for len(stack) > 0 {
			top := len(stack) - 2
			id, f := stack[top], stack[top+1]
			src := st[node0+id*nodeSize:][:nodeSize]
			if offs := x.Program.Layout.NodeRefOffsets(src, 0); int(f) < len(offs) {
				stack[top+1]++
				if c := src[offs[f]]; perm[c] == 0 {
					perm[c] = onStack
					stack = append(stack, c, 0)
				}
				continue
			}
			order = append(order, id)
			perm[id] = int32(len(order))
			stack = stack[:top]
		}
	}
	x.Stack = stack
	return order
}
