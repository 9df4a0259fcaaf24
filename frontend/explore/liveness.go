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
