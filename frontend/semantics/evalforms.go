package semantics

import (
	"github.com/linbis/linbis/frontend/ir"
	"math/bits"
)

// The evaluation of the compound forms the compiler emits: the loops over
// threads (forthreads.go), tuple results (tuples.go), unions (unions.go)
// and words (words.go).

// threadsLeft returns the bit set of the threads that the loop over
// threads with visited set mask has still to visit.
func (m *machine) threadsLeft(mask, others int32) uint32 {
	all := uint32(1)<<uint(m.p.Threads) - 1
	if others != 0 {
		all &^= 1 << uint(m.t)
	}
	return all &^ uint32(mask)
}

// evalThreads evaluates the expressions of the loops over threads.
func (m *machine) evalThreads(e *ir.Expr) int32 {
	switch e.Kind {
	case ir.EThreadsLeft:
		if m.threadsLeft(m.eval(e.A), e.V) != 0 {
			return 1
		}
		return 0
	case ir.EPickThread:
		left := m.threadsLeft(m.eval(e.A), e.V)
		if e.Lo == 0 {
			for k := m.choose(bits.OnesCount32(left)); k > 0; k-- {
				left &= left - 1
			}
		}
		return int32(bits.TrailingZeros32(left)) + 1
	case ir.EAddThread:
		return m.eval(e.A) | 1<<uint(m.eval(e.B)-1)
	}
	return 0
}

// pack evaluates ePack: a value outside its component's range is a model
// error, as a store outside a declared range is.
func (m *machine) pack(e *ir.Expr) int32 {
	tuple := m.p.Methods[e.V].Tuple
	var packed int32
	for i, x := range e.List {
		v := m.eval(x)
		lo, size := ir.TupleRange(tuple[i])
		if v < lo || v >= lo+size {
			m.fail("result %d of %s: %d is outside %s", i+1, m.p.Methods[e.V].Name, v, tuple[i])
			return 0
		}
		packed = packed*size + v - lo
	}
	return packed
}

// testType evaluates x is T (eIs) and x as T (eAs) on a reference to one
// of several node types (check/unions.go): the node's type is read from
// its header, which in a model with several heap types every node has.
func (m *machine) testType(e *ir.Expr) int32 {
	id := m.eval(e.A)
	if id == 0 || m.err != nil {
		return 0
	}
	same := m.p.Layout.NodeType(m.mem, m.p.Layout.NodeAddr(id)) == e.V
	switch {
	case e.Kind == ir.EAs && !same:
		m.fail("conversion to %s of a node of type %s", e.Name, m.p.Obj.Heaps[m.p.Layout.NodeType(m.mem, m.p.Layout.NodeAddr(id))-1].Name)
		return 0
	case e.Kind == ir.EAs:
		return id
	case same:
		return 1
	}
	return 0
}

// assignWord executes opAssignWord: every value is read, and every
// location found, before any is written.
func (m *machine) assignWord(in *ir.Instr) {
	// At most 64 slots: a word's, or a local array's being zeroed.
	var vals, addrs [64]int32
	for j, x := range in.XN {
		vals[j] = m.eval(x)
	}
	for j, l := range in.LhsN {
		addrs[j] = m.addr(l)
	}
	if m.err != nil {
		return
	}
	for j, l := range in.LhsN {
		m.store(l, addrs[j], vals[j])
	}
}

// casWord evaluates eCasWord: if every slot of the word holds its expected
// value, all are replaced by the new ones at once.
func (m *machine) casWord(e *ir.Expr) int32 {
	k := len(e.List) / 3
	var addrs, exp, nw [ir.MaxWordFields]int32
	for j := range k {
		addrs[j] = m.addr(e.List[j])
		exp[j] = m.eval(e.List[k+j])
		nw[j] = m.eval(e.List[2*k+j])
	}
	if m.err != nil {
		return 0
	}
	for j := range k {
		if m.mem[addrs[j]] != exp[j] {
			return 0
		}
	}
	for j := range k {
		m.store(e.List[j], addrs[j], nw[j])
	}
	return 1
}
