package semantics

import (
	"fmt"
	"iter"
	"path/filepath"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/syntax"
)

// Data races. A program from the Go front end marks the steps
// whose shared access is a plain (non-atomic) load or store of the Go
// source (syntax.PlainDirective). Two threads whose next steps access the
// same location, at least one writing and at least one plain, both
// enabled in one reachable state, are a data race: the standard
// definition under which Go's memory model guarantees sequential
// consistency (DRF-SC), so only a race-free program's interleavings are
// its executions. The check runs as the states are expanded: each
// thread's step records the locations its first shared instruction (or
// atomic block) accesses, before it runs; a race stops the exploration
// like a model error, with the run that reaches the state.

// access is a location of the state vector a step accesses.
type access struct {
	addr  int32
	write bool
}

// races is what the check knows of a program; nil when it has no plain
// step (every program of the modeling language).
type races struct {
	// plain[s]: source step s makes a plain access.
	plain []bool
	// may[pc]: the step whose shared access is the instruction (or atomic
	// block) at pc may race: it touches a kind of location (a shared
	// variable, or a field index of any node) that some plain access
	// touches, one of them writing. Only those steps' locations are
	// computed: in a lock-free structure most steps are atomic operations
	// on locations no plain access writes.
	may []bool
}

// class is a kind of location: a shared slot, or a field (by index and
// name) of any node.
type class struct {
	field bool
	v     int32
	name  string
}

// newRaces returns the race check of p, nil if p has no plain step;
// every: with no static filter (every step's locations are computed).
func newRaces(p *ir.Program, every bool) *races {
	r := &races{plain: make([]bool, len(p.Steps)), may: make([]bool, len(p.Code))}
	src, ok := p.Source.(interface{ Plain(syntax.Pos) bool })
	if !ok {
		return nil // a source without plain accesses
	}
	any := false
	for i, s := range p.Steps {
		r.plain[i] = src.Plain(s.Pos)
		any = any || r.plain[i]
	}
	if !any {
		return nil
	}
	// An access through a loc (ir.EDeref) has no class known before it
	// runs: every step's locations are then computed.
	every = every || len(p.AddrTaken()) > 0
	// What the plain accesses read and write, by class.
	plainRead, plainWrite := map[class]bool{}, map[class]bool{}
	classes := func(pc int) map[class]bool { // the classes a boundary's step touches: true for a write
		out := map[class]bool{}
		for in := range stepInstrs(p.Code, int32(pc)) {
			for _, l := range in.Targets() {
				exprClasses(l, true, out)
			}
			for _, x := range in.Values() {
				exprClasses(x, false, out)
			}
		}
		return out
	}
	for pc := range p.Code {
		in := &p.Code[pc]
		if in.Boundary && in.Step >= 0 && r.plain[in.Step] {
			for c, w := range classes(pc) {
				plainRead[c] = true
				plainWrite[c] = plainWrite[c] || w
			}
		}
	}
	for pc := range p.Code {
		in := &p.Code[pc]
		if !in.Boundary || in.Step < 0 {
			continue
		}
		plain := r.plain[in.Step]
		for c, w := range classes(pc) {
			// A write races with any plain access of its class; a read with
			// a plain write; a plain access with any write too.
			if w && plainRead[c] || plainWrite[c] || plain && w {
				r.may[pc] = true
			}
		}
		if plain || every {
			r.may[pc] = true // a plain access may race with an atomic write of its class
		}
	}
	return r
}

// exprClasses adds the classes of the shared locations e touches to out
// (true for a write).
func exprClasses(e *ir.Expr, write bool, out map[class]bool) {
	if e == nil {
		return
	}
	switch e.Kind {
	case ir.EShared, ir.EElem:
		out[class{v: e.V}] = out[class{v: e.V}] || write
	case ir.EField, ir.EFieldElem: // (an array field's elements are one class)
		c := class{field: true, v: e.V, name: e.Name}
		out[c] = out[c] || write
	}
	// A read-modify-write (cas, swap, faa) writes its locations; every
	// operand is read (a location written and read counts as written).
	ir.Written(e, func(l *ir.Expr) { exprClasses(l, true, out) })
	ir.Operands(e, func(x *ir.Expr) { exprClasses(x, false, out) })
}

// locations appends to out the locations that the step starting at the
// shared instruction pc accesses (the whole block for an atomic one),
// computed in the current memory, before the instruction runs. A location
// whose address cannot be computed (a null reference) is left out: the
// step itself fails there.
func (m *machine) locations(pc int32, out []access) []access {
	saved := m.err
	for in := range stepInstrs(m.p.Code, pc) {
		for _, l := range in.Targets() {
			out = m.exprLocations(l, true, out)
		}
		for _, x := range in.Values() {
			out = m.exprLocations(x, false, out)
		}
	}
	m.err = saved
	return out
}

// stepInstrs yields the instruction at pc, the shared access of a step,
// or, for an atomic block, every instruction inside it.
func stepInstrs(code []ir.Instr, pc int32) iter.Seq[*ir.Instr] {
	return func(yield func(*ir.Instr) bool) {
		depth := 0
		for k := pc; int(k) < len(code); k++ {
			in := &code[k]
			switch in.Op {
			case ir.OpAtomicBegin:
				depth++
			case ir.OpAtomicEnd:
				depth--
			default:
				if !yield(in) {
					return
				}
			}
			if depth == 0 {
				return
			}
		}
	}
}

// exprLocations appends the shared locations e reads (and, for a
// location written, writes).
func (m *machine) exprLocations(e *ir.Expr, write bool, out []access) []access {
	if e == nil {
		return out
	}
	switch e.Kind {
	case ir.EAddr: // the location is not accessed, only its address computed
		out = m.exprLocations(e.A.A, false, out)
		return m.exprLocations(e.A.B, false, out)
	case ir.EShared, ir.EElem, ir.EField, ir.EDeref, ir.EFieldElem:
		if a := m.addr(e); m.err == nil && a >= 0 {
			out = append(out, access{addr: a, write: write})
		}
		m.err = nil
		// Its base and indices are read to find it.
		out = m.exprLocations(e.A, false, out)
		return m.exprLocations(e.B, false, out)
	case ir.ELocal, ir.ELocalElem:
		if e.Kind == ir.ELocalElem {
			return m.exprLocations(e.A, false, out)
		}
		return out
	}
	if e.Kind.Class() == ir.ReadModifyWrite {
		out = m.writtenLocations(e, out)
	}
	out = m.exprLocations(e.A, false, out)
	out = m.exprLocations(e.B, false, out)
	out = m.exprLocations(e.C, false, out)
	for _, fi := range e.Inits {
		out = m.exprLocations(fi.X, false, out)
	}
	for _, x := range e.List {
		out = m.exprLocations(x, false, out)
	}
	return out
}

// writtenLocations appends the locations that e, a read-modify-write
// (cas, swap, faa), writes (ir.Written); its operands, those locations
// included, are read as well, which adds nothing to a write.
func (m *machine) writtenLocations(e *ir.Expr, out []access) []access {
	ir.Written(e, func(l *ir.Expr) { out = m.exprLocations(l, true, out) })
	return out
}

// threadAccess is what a thread's next step accesses from a state.
type threadAccess struct {
	accs  []access
	step  int32 // the source step of its first shared instruction, -1 if none
	plain bool
}

// race returns the data race between the next steps of two threads in acc
// (indexed by thread), if there is one: the first thread, and the
// failure that reports both.
func (x *System) race(acc []threadAccess) (int, *Failure) {
	for t1 := range acc {
		a := &acc[t1]
		if a.step < 0 {
			continue
		}
		for t2 := t1 + 1; t2 < len(acc); t2++ {
			b := &acc[t2]
			if b.step < 0 || !a.plain && !b.plain {
				continue
			}
			for _, p := range a.accs {
				for _, q := range b.accs {
					if p.addr == q.addr && (p.write || q.write) {
						r := &RaceInfo{threads: [2]int{t1, t2}, steps: [2]int32{a.step, b.step},
							writes: [2]bool{p.write, q.write}, plain: [2]bool{a.plain, b.plain}}
						return t1, &Failure{Step: a.step, Race: r, Msg: x.RaceMessage(r, nil)}
					}
				}
			}
		}
	}
	return 0, nil
}

// RaceInfo is a data race found: the two threads (from 0), their steps,
// whether each writes and whether each access is plain.
type RaceInfo struct {
	threads [2]int
	steps   [2]int32
	writes  [2]bool
	plain   [2]bool
}

// RaceMessage says what r is; rho, if not nil, maps the threads of the
// state the race was found in to those of the run that reports it (the
// on-the-fly search's symmetry reduction stores one state per orbit).
func (x *System) RaceMessage(r *RaceInfo, rho []uint8) string {
	th := func(i int) int {
		if rho != nil {
			return int(rho[r.threads[i]]) + 1
		}
		return r.threads[i] + 1
	}
	how := "one plain, not atomic"
	if r.plain[0] && r.plain[1] {
		how = "both plain, not atomic"
	}
	return fmt.Sprintf("thread %d %s and thread %d %s the same location at once (%s), unsynchronised",
		th(0), x.verb(r.writes[0], r.steps[0]), th(1), x.verb(r.writes[1], r.steps[1]), how)
}

// verb says what a thread's next step does: "writes (c.go:12 c.n++)".
func (x *System) verb(write bool, s int32) string {
	st := x.Steps[s]
	v := "reads"
	if write {
		v = "writes"
	}
	return fmt.Sprintf("%s (%s:%d %s)", v, filepath.Base(st.File), st.Line, st.Text)
}
