package explore

// flow is the dataflow of an instruction, for the liveness analysis; it
// is kept beside the code rather than in it, so that the instructions that
// the machine reads are small.
type flow struct {
	use  uint64 // locals read
	def  uint64 // locals written
	live uint64 // locals live before this instruction
}

// liveness computes, for every instruction, the locals live before it
// (backward may-analysis to a fixpoint). Dead locals are zeroed in stored
// states so that a thread spinning in a loop returns to the very same state.
func liveness(code []instr, flows []flow) {
	succ := func(i int) (a, b int32) {
		in := &code[i]
		switch in.op {
		case opJump:
			return in.target, -1
		case opBranch:
			return int32(i + 1), in.target
		case opReturn, opFallOff, opRetPending, opNop:
			return -1, -1
		}
		return int32(i + 1), -1
	}
	for changed := true; changed; {
		changed = false
		for i := len(code) - 1; i >= 1; i-- {
			var out uint64
			a, b := succ(i)
			if a >= 0 {
				out |= flows[a].live
			}
			if b >= 0 {
				out |= flows[b].live
			}
			live := flows[i].use | out&^flows[i].def
			if live != flows[i].live {
				flows[i].live = live
				changed = true
			}
		}
	}
}

// deadSets computes the liveness of locals and fills refMask and dead, per
// instruction.
func (prog *program) deadSets(flows []flow) {
	liveness(prog.code, flows)
	prog.refMask = make([]uint64, len(prog.code))
	prog.dead = make([]uint64, len(prog.code))
	for pc, in := range prog.code {
		// An idle thread's slots are clear already (resetThread): none
		// to zero at pc 0.
		slots := uint64(0)
		if pc > 0 {
			m := prog.methods[in.method]
			prog.refMask[pc] = m.refMask
			// The slots beyond the method's locals stay zero while it
			// runs (it starts from an idle thread, whose slots are
			// clear): they need no zeroing.
			slots = uint64(1)<<uint(m.nlocals) - 1
		}
		prog.dead[pc] = ^flows[pc].live & slots
	}
}

// cleanSets fills clean: clean[pc] is dead[pc] less the locals that a
// step from pc may write. A canonical state has the locals dead at a
// thread's pc zeroed, so after a step of the thread those it did not
// write are still zero, and zeroDead need not look at them (most of a
// method's locals are dead at most of its instructions, and a step writes
// few of them).
//
// The instructions a step from pc may run are found as the machine runs
// them (step), from depth 0 (a thread stops only outside atomic blocks):
// it ends at a return, at a back edge taken at depth 0, and before a
// boundary at depth 0 once it has passed one. A boundary with private
// slots may not count (machine.private): it is passed as if it did not.
// (did 0 is "not certainly passed one", so that the set found is never
// smaller than the one the machine writes.)
func (prog *program) cleanSets() {
	code := prog.code
	prog.clean = make([]uint64, len(code))
	depth := make([]int32, len(code))
	seen := make([]uint8, len(code)) // bit 1<<did: reached with did
	type node struct {
		pc  int32
		did uint8 // 1 once the step has certainly passed a boundary, else 0
	}
	var stack []node
	for start := 1; start < len(code); start++ {
		if prog.dead[start] == 0 {
			continue
		}
		clear(seen)
		var w uint64
		depth[start], seen[start] = 0, 1
		stack = append(stack[:0], node{int32(start), 0})
		for len(stack) > 0 && w != ^uint64(0) {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pc, did := top.pc, top.did
			in := &code[pc]
			d := depth[pc]
			if in.boundary && d == 0 && in.priv == 0 {
				if did == 1 {
					continue // the step ends before in
				}
				did = 1
			}
			w |= instrWrites(in)
			next := [2]int32{pc + 1, -1}
			switch in.op {
			case opAtomicBegin:
				d++
			case opAtomicEnd:
				if d--; d < 0 { // not a step's start: assume anything
					w = ^uint64(0)
				}
			case opReturn, opRetPending, opFallOff:
				next[0] = -1
			case opJump:
				next[0] = in.target
				if in.back && d == 0 { // the step ends after the jump
					next[0] = -1
				}
			case opBranch:
				next[1] = in.target
			}
			for _, n := range next {
				if n > 0 && int(n) < len(code) && seen[n]&(1<<did) == 0 {
					depth[n] = d
					seen[n] |= 1 << did
					stack = append(stack, node{n, did})
				}
			}
		}
		prog.clean[start] = prog.dead[start] &^ w
	}
}

// instrWrites returns the local slots that in may write: the targets of
// its stores, and of the cas operations it evaluates.
func instrWrites(in *instr) uint64 {
	var w uint64
	for _, l := range in.targets() {
		w |= localSlots(l) | casWrites(l)
	}
	for _, x := range in.values() {
		w |= casWrites(x)
	}
	return w
}

// localSlots returns the local slots that a store into the location e can
// write, as a bit set: none for a shared location or a node's field, all
// if e is not understood.
func localSlots(e *expr) uint64 {
	switch e.k {
	case eLocal:
		if e.v < 64 {
			return 1 << uint(e.v)
		}
	case eLocalElem:
		if e.b != nil {
			break
		}
		var w uint64
		for k := range e.n {
			s := e.v + k*max(e.stride, 1)
			if s >= 64 {
				return ^uint64(0)
			}
			w |= 1 << uint(s)
		}
		return w
	case eShared, eElem, eField:
		return 0
	}
	return ^uint64(0)
}

// casWrites returns the local slots that the cas operations within e can
// write (see localSlots).
func casWrites(e *expr) uint64 {
	if e == nil {
		return 0
	}
	var w uint64
	switch e.k {
	case eCas:
		w = localSlots(e.a)
	case eCasWord:
		for _, l := range e.list[:len(e.list)/3] {
			w |= localSlots(l)
		}
	}
	w |= casWrites(e.a) | casWrites(e.b) | casWrites(e.c)
	for _, x := range e.list {
		w |= casWrites(x)
	}
	for _, fi := range e.inits {
		w |= casWrites(fi.x)
	}
	return w
}
