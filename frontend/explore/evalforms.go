package explore

import "math/bits"

// The evaluation of the compound forms the compiler emits: the loops over
// threads (forthreads.go), tuple results (tuples.go), unions (unions.go)
// and words (words.go).

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
		if e.lo == 0 {
			for k := m.choose(bits.OnesCount32(left)); k > 0; k-- {
				left &= left - 1
			}
		}
		return int32(bits.TrailingZeros32(left)) + 1
	case eAddThread:
		return m.eval(e.a) | 1<<uint(m.eval(e.b)-1)
	}
	return 0
}

// pack evaluates ePack: a value outside its component's range is a model
// error, as a store outside a declared range is.
func (m *machine) pack(e *expr) int32 {
	tuple := m.p.methods[e.v].tuple
	var packed int32
	for i, x := range e.list {
		v := m.eval(x)
		lo, size := tupleRange(tuple[i])
		if v < lo || v >= lo+size {
			m.fail("result %d of %s: %d is outside %s", i+1, m.p.methods[e.v].name, v, tuple[i])
			return 0
		}
		packed = packed*size + v - lo
	}
	return packed
}

// testType evaluates x is T (eIs) and x as T (eAs) on a reference to one
// of several node types (check/unions.go): the node's type is read from
// its header, which in a model with several heap types every node has.
func (m *machine) testType(e *expr) int32 {
	id := m.eval(e.a)
	if id == 0 || m.err != nil {
		return 0
	}
	same := m.p.lay.nodeType(m.mem, m.p.lay.nodeAddr(id)) == e.v
	switch {
	case e.k == eAs && !same:
		m.fail("conversion to %s of a node of type %s", e.name, m.p.obj.Heaps[m.p.lay.nodeType(m.mem, m.p.lay.nodeAddr(id))-1].Name)
		return 0
	case e.k == eAs:
		return id
	case same:
		return 1
	}
	return 0
}

// assignWord executes opAssignWord: every value is read, and every
// location found, before any is written.
func (m *machine) assignWord(in *instr) {
	// At most 64 slots: a word's, or a local array's being zeroed.
	var vals, addrs [64]int32
	for j, x := range in.xN {
		vals[j] = m.eval(x)
	}
	for j, l := range in.lhsN {
		addrs[j] = m.addr(l)
	}
	if m.err != nil {
		return
	}
	for j, l := range in.lhsN {
		m.store(l, addrs[j], vals[j])
	}
}

// casWord evaluates eCasWord: if every slot of the word holds its expected
// value, all are replaced by the new ones at once.
func (m *machine) casWord(e *expr) int32 {
	k := len(e.list) / 3
	var addrs, exp, nw [maxWordFields]int32
	for j := range k {
		addrs[j] = m.addr(e.list[j])
		exp[j] = m.eval(e.list[k+j])
		nw[j] = m.eval(e.list[2*k+j])
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
		m.store(e.list[j], addrs[j], nw[j])
	}
	return 1
}
