package ir

import (
	"fmt"
	"io"
	"math/bits"
	"strings"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// Listing writes the instructions of obj compiled under the bounds and
// options, method by method, as go/ssa's printer and starlark's
// disassembler show theirs, so that the granularity of the steps can be
// read and reviewed. One line per instruction:
//
//	pc  mark  op       source text (or target)       line  dead: locals
//
// The mark tells where steps end. "▶" is a boundary: the instruction
// touches shared state, so a step that has touched shared state already
// stops before it ("▶p" when it is local work if the nodes it reaches
// through its base locals are private to the thread). "↺" is a back edge
// (of a loop or a continue): the step ends after it. A return is the
// visible ret step itself unless its step touched shared state first, and
// an atomic block is one step: its instructions, to its end, are marked
// "│" and none ends the step. The source text is not cut: a long line
// pushes its line number and dead locals to the right. "dead:" lists the locals that
// are dead before the instruction: they are cleared when a step ends
// there, so that a spinning thread comes back to the same state.
func Listing(w io.Writer, prog *check.Program, obj *check.Object, b Bounds, mode Mode) error {
	p, err := Compile(prog, obj, b.Threads, b.Values, mode.FineGrained, mode.Explicit || prog.Explicit)
	if err != nil {
		return err
	}
	all := append([]*check.Method(nil), obj.Methods...)
	if obj.Init != nil {
		all = append(all, obj.Init)
	}
	for i, m := range p.Methods {
		if i > 0 {
			fmt.Fprintln(w)
		}
		p.printMethod(w, m, all[i], prog.File)
	}
	return nil
}

// printMethod writes the instructions of m (compiled from cm, in f).
func (p *Program) printMethod(w io.Writer, m *Method, cm *check.Method, f *syntax.File) {
	names := make([]string, m.Nlocals)
	for _, l := range cm.Locals {
		slot := l.Slot
		for e := range max(l.Elems, 1) {
			name := l.Name
			if l.IsArray() {
				name = fmt.Sprintf("%s[%d]", l.Name, e)
			}
			if l.Type.Kind != check.Word {
				names[slot] = name
				slot++
				continue
			}
			for _, f := range l.Type.Word.Fields {
				names[slot] = name + "." + f.Name
				slot++
			}
		}
	}
	// The locals of inlined procedures are named after their procedure.
	for pc := m.Entry; pc < int32(len(p.Code)) && p.Code[pc].Method == m.Index; pc++ {
		in := &p.Code[pc]
		for _, x := range append(in.Targets(), in.Values()...) {
			nameSlots(x, names)
		}
	}
	fmt.Fprintln(w, f.Text(cm.Decl.Pos, cm.Decl.Body.Pos))
	depth := 0 // of the atomic blocks around pc
	for pc := m.Entry; pc < int32(len(p.Code)) && p.Code[pc].Method == m.Index; pc++ {
		in := &p.Code[pc]
		mark := ""
		switch {
		case depth > 0:
			// Inside an atomic block, which is one step: no boundary or
			// back edge ends it (machine.step).
			mark = "│"
		case in.Op == OpJump && in.Back:
			mark = "↺"
		case in.Op == OpJump && in.Fold:
			mark = "↻"
		case in.Boundary && in.Priv != 0:
			mark = "▶p"
		case in.Boundary:
			mark = "▶"
		}
		line := ""
		if in.Step >= 0 {
			line = fmt.Sprintf("L%d", p.Source.Position(p.Steps[in.Step].Pos).Line)
		}
		var dead []string
		for d := p.Dead[pc]; d != 0; d &= d - 1 {
			dead = append(dead, names[bits.TrailingZeros64(d)])
		}
		switch in.Op {
		case OpAtomicBegin:
			depth++
		case OpAtomicEnd:
			depth--
		}
		text := p.instrText(pc)
		if len(dead) > 0 {
			fmt.Fprintf(w, "%4d %-2s %-9s %-40s %-4s dead: %s\n", pc, mark, in.Op, text, line, strings.Join(dead, " "))
		} else {
			fmt.Fprintf(w, "%4d %-2s %-9s %-40s %s\n", pc, mark, in.Op, text, line)
		}
	}
}

// nameSlots names the local slots that e reads or writes, keeping the
// names it has (those of the method's own locals).
func nameSlots(e *Expr, names []string) {
	WalkExpr(e, func(x *Expr) {
		if x.Kind == ELocal && int(x.V) < len(names) && names[x.V] == "" {
			names[x.V] = x.Name
		}
	})
}

// instrText is the source of the instruction at pc, with its target for
// a jump or branch.
func (p *Program) instrText(pc int32) string {
	in := &p.Code[pc]
	text := ""
	if in.Step >= 0 {
		text = p.Steps[in.Step].Text
		if p.Steps[in.Step].Procedure != p.Methods[in.Method].Name {
			text = p.Steps[in.Step].Procedure + ": " + text
		}
	}
	switch in.Op {
	case OpAssign, OpAssignWord:
		if in.Step < 0 {
			text = in.Targets()[0].Name + " := argument" // passing a local or a constant to a procedure
		}
	case OpJump:
		text = strings.TrimSpace(fmt.Sprintf("%s → %d", text, in.Target))
	case OpBranch:
		text = fmt.Sprintf("%s, else → %d", text, in.Target)
	case OpAtomicEnd:
		text = "}"
	case OpRetPending:
		text = "ret after a return in an atomic block"
	}
	return text
}

var opNames = [...]string{
	OpNop: "nop", OpAssign: "assign", OpEval: "eval", OpBranch: "branch", OpJump: "jump",
	OpAtomicBegin: "atomic", OpAtomicEnd: "end", OpAssert: "assert", OpFree: "free",
	OpLin: "lin", OpReturn: "return", OpFallOff: "falloff", OpRetPending: "ret", OpAwait: "await",
	OpAssignWord: "assignw",
}

// String names the operation as listings print it.
func (op Opcode) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return fmt.Sprintf("op(%d)", op)
}
