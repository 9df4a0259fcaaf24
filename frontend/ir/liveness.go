package ir

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
func liveness(code []Instr, flows []flow) {
	succ := func(i int) (a, b int32) {
		in := &code[i]
		switch in.Op {
		case OpJump:
			return in.Target, -1
		case OpBranch:
			return int32(i + 1), in.Target
		case OpReturn, OpFallOff, OpRetPending, OpNop:
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
func (prog *Program) deadSets(flows []flow) {
	liveness(prog.Code, flows)
	prog.RefMask = make([]uint64, len(prog.Code))
	prog.Dead = make([]uint64, len(prog.Code))
	for pc, in := range prog.Code {
		// An idle thread's slots are clear already (resetThread): none
		// to zero at pc 0.
		slots := uint64(0)
		if pc > 0 {
			m := prog.Methods[in.Method]
			prog.RefMask[pc] = m.RefMask
			// The slots beyond the method's locals stay zero while it
			// runs (it starts from an idle thread, whose slots are
			// clear): they need no zeroing.
			slots = uint64(1)<<uint(m.Nlocals) - 1
		}
		prog.Dead[pc] = ^flows[pc].live & slots
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
func (prog *Program) cleanSets() {
	code := prog.Code
	prog.Clean = make([]uint64, len(code))
	depth := make([]int32, len(code))
	seen := make([]uint8, len(code)) // bit 1<<did: reached with did
	type node struct {
		pc  int32
		did uint8 // 1 once the step has certainly passed a boundary, else 0
	}
	var stack []node
	for start := 1; start < len(code); start++ {
		if prog.Dead[start] == 0 {
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
			if in.Boundary && d == 0 && in.Priv == 0 {
				if did == 1 {
					continue // the step ends before in
				}
				did = 1
			}
			w |= instrWrites(in)
			next := [2]int32{pc + 1, -1}
			switch in.Op {
			case OpAtomicBegin:
				d++
			case OpAtomicEnd:
				if d--; d < 0 { // not a step's start: assume anything
					w = ^uint64(0)
				}
			case OpReturn, OpRetPending, OpFallOff:
				next[0] = -1
			case OpJump:
				next[0] = in.Target
				if in.Back && d == 0 { // the step ends after the jump
					next[0] = -1
				}
			case OpBranch:
				next[1] = in.Target
			}
			for _, n := range next {
				if n > 0 && int(n) < len(code) && seen[n]&(1<<did) == 0 {
					depth[n] = d
					seen[n] |= 1 << did
					stack = append(stack, node{n, did})
				}
			}
		}
		prog.Clean[start] = prog.Dead[start] &^ w
	}
}

// instrWrites returns the local slots that in may write: the targets of
// its stores, and of the cas operations it evaluates.
func instrWrites(in *Instr) uint64 {
	var w uint64
	for _, l := range in.Targets() {
		w |= localSlots(l) | casWrites(l)
	}
	for _, x := range in.Values() {
		w |= casWrites(x)
	}
	return w
}

// localSlots returns the local slots that a store into the location e can
// write, as a bit set: none for a shared location or a node's field, all
// if e is not understood.
func localSlots(e *Expr) uint64 {
	switch e.Kind {
	case ELocal:
		if e.V < 64 {
			return 1 << uint(e.V)
		}
	case ELocalElem:
		if e.B != nil {
			break
		}
		var w uint64
		for k := range e.N {
			s := e.V + k*max(e.Stride, 1)
			if s >= 64 {
				return ^uint64(0)
			}
			w |= 1 << uint(s)
		}
		return w
	case EShared, EElem, EField, EDeref, EFieldElem: // a loc never refers to a local
		return 0
	}
	return ^uint64(0)
}

// casWrites returns the local slots that the read-modify-writes within e
// (cas, swap, faa: Written) can write (see localSlots).
func casWrites(e *Expr) uint64 {
	var w uint64
	WalkExpr(e, func(x *Expr) {
		Written(x, func(l *Expr) { w |= localSlots(l) })
	})
	return w
}
