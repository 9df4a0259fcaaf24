package frontend

import (
	"fmt"

	"github.com/linbis/linbis/frontend/ir"
)

// Warnings returns what in m looks like a mistake under the bounds b
// without being an error, one line each: "file:line:col: what, and the
// fix". The command line prints them before it explores.
//   - An `only T:` clause for a thread that does not run under b restricts
//     nothing.
//   - A hand-written spec method whose only shared access is in its
//     return reads shared state in its visible ret step, which is then its
//     one linearization point: an implementation of the method that
//     accesses shared state before its return (and may linearize there) is
//     held to a spec that forbids it.
func (m *Model) Warnings(b Bounds) []string {
	var out []string
	p := m.Program
	if p.Client != nil {
		for _, o := range p.Client.Only {
			if o.Thread > b.Threads {
				out = append(out, fmt.Sprintf("%s: only %d: there are %d threads (the client's threads or --threads), so thread %d does not run and the clause restricts nothing; raise the threads or drop the clause",
					p.File.Position(o.Pos), o.Thread, b.Threads, o.Thread))
			}
		}
	}
	if p.Spec.Auto {
		return out
	}
	impl, err1 := ir.Compile(p, p.Impl, b.Threads, b.Values, false, false)
	spec, err2 := ir.Compile(p, p.Spec, b.Threads, b.Values, false, false)
	if err1 != nil || err2 != nil {
		return out // exploring reports it
	}
	for _, sm := range spec.Methods {
		im := methodNamed(impl, sm.Name)
		if !sm.Callable || im == nil {
			continue
		}
		ret, early := sharedAccesses(spec, sm)
		if ret < 0 || early >= 0 {
			continue
		}
		if _, implEarly := sharedAccesses(impl, im); implEarly >= 0 {
			out = append(out, fmt.Sprintf("%s: spec method %s reads shared state only in its return, so its ret step is its one linearization point, while %s.%s accesses shared state before it returns (%s); if %s may linearize there, read into a local first (v := …; return v) or return from an atomic block, so that the spec's read is a step between call and ret",
				stepPos(spec, ret), sm.Name, p.Impl.Name, im.Name, stepPos(impl, implEarly), im.Name))
		}
	}
	return out
}

// stepPos is the source position of the instruction at pc of prog.
func stepPos(prog *ir.Program, pc int) string {
	step := prog.Code[pc].Step
	if step < 0 {
		step = prog.Methods[prog.Code[pc].Method].CallStep
	}
	return prog.Source.Position(prog.Steps[step].Pos).String()
}

// methodNamed returns prog's method called name, or nil.
func methodNamed(prog *ir.Program, name string) *ir.Method {
	for _, m := range prog.Methods {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// sharedAccesses returns, for the method m of prog, the first return
// that accesses shared state and the first other instruction that does
// (-1 for none).
func sharedAccesses(prog *ir.Program, m *ir.Method) (ret, early int) {
	ret, early = -1, -1
	for pc := range prog.Code {
		in := &prog.Code[pc]
		if in.Method != m.Index || pc == 0 || !in.Shared {
			continue
		}
		switch {
		case in.Op == ir.OpReturn && ret < 0:
			ret = pc
		case in.Op != ir.OpReturn && early < 0:
			early = pc
		}
	}
	return ret, early
}
