package explore

import (
	"math/bits"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// The per-thread forms: elements of arrays with [thread] dimensions, and
// the loops over threads.
//
// `for j in others { body }` runs body once for each thread id other than
// the caller's (`for j in threads`: for each), in any order: each
// iteration takes, nondeterministically, any thread not yet visited. That
// over-approximates every fixed order, and it is what keeps the loop
// symmetric: a fixed order 1, 2, … is not preserved by a permutation of
// the threads, while "any order" is. It is lowered to
//
//	visited = {}                              (a hidden local: a bit set)
//	head: if no thread is left: goto end
//	      j = any thread left                 (ePickThread: a choice)
//	      visited = visited ∪ {j}
//	      body
//	      goto head                           (a back edge: ends the step)
//	end:
//
// so that each iteration's first step picks its thread, and the visited
// set is a local like any other: dead (reset) after the loop, renamed by
// the symmetry (symmetry.go) as a set of thread ids.

// forThreads lowers a loop over threads (see above).
func (c *compiler) forThreads(s *syntax.ForStmt) {
	others := int32(0)
	if s.Others {
		others = 1
	}
	visited := &expr{k: eLocal, v: c.nslots, name: "visited(" + s.Var.Name + ")"}
	c.nslots++
	c.prog.threadSets = append(c.prog.threadSets, threadSet{method: c.m.index, slot: visited.v})
	j := c.local(c.info.Uses[s.Var])
	c.simple(opAssign, s, visited, &expr{k: eConst})
	head := c.simple(opBranch, s, nil, &expr{k: eThreadsLeft, a: visited, v: others})
	c.simple(opAssign, s, j, &expr{k: ePickThread, a: visited, v: others})
	c.simple(opAssign, s, visited, &expr{k: eAddThread, a: visited, b: j})
	c.block(s.Body)
	c.emit(instr{op: opJump, back: true, target: head, step: c.step(s)})
	c.prog.code[head].target = int32(len(c.prog.code))
}

// threadSet is the hidden visited set of a loop over threads: a local
// slot of a method.
type threadSet struct {
	method, slot int32
}

// element lowers an array element a[i], a[t][i] or a[t][u].
func (c *compiler) element(e *syntax.IndexExpr) *expr {
	id, idx := check.Indices(e)
	v := c.info.Uses[id]
	off, lo, n := c.shared(v)
	x := &expr{k: eElem, v: off, name: v.Name, shared: true, ref: v.Type.Kind == check.Ref,
		thr: v.Type.Kind == check.Thread, tdims: int8(v.ThreadDims), stride: 1, a: c.expr(idx[0])}
	threads := int32(c.prog.threads)
	// The dimensions: [thread] ones first (indices 1..threads), then the
	// ordinary one.
	dims := make([][2]int32, 0, 2)
	for range v.ThreadDims {
		dims = append(dims, [2]int32{1, threads})
	}
	if v.Len != nil {
		dims = append(dims, [2]int32{lo, n})
	}
	x.lo, x.n = dims[0][0], dims[0][1]
	if len(idx) == 2 {
		x.b = c.expr(idx[1])
		x.lo2, x.n2 = dims[1][0], dims[1][1]
	}
	if v.Type.HasRange {
		x.rng = &v.Type
	}
	return x
}

// threadsLeft returns the bit set of the threads that the loop over
// threads with visited set mask has still to visit.
func (m *machine) threadsLeft(mask, others int32) uint32 {
	all := uint32(1)<<uint(m.p.threads) - 1
	if others != 0 {
		all &^= 1 << uint(m.t)
	}
	return all &^ uint32(mask)
}

// evalThreads evaluates the expressions of the loops over threads.
func (m *machine) evalThreads(e *expr) int32 {
	switch e.k {
	case eThreadsLeft:
		if m.threadsLeft(m.eval(e.a), e.v) != 0 {
			return 1
		}
		return 0
	case ePickThread:
		left := m.threadsLeft(m.eval(e.a), e.v)
		for k := m.choose(bits.OnesCount32(left)); k > 0; k-- {
			left &= left - 1
		}
		return int32(bits.TrailingZeros32(left)) + 1
	case eAddThread:
		return m.eval(e.a) | 1<<uint(m.eval(e.b)-1)
	}
	return 0
}
