package explore

import (
	"fmt"
	"io"
	"math/bits"
	"strings"

	"github.com/linbis/linbis/frontend/check"
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
// the body of an atomic block is one step. "dead:" lists the locals that
// are dead before the instruction: they are cleared when a step ends
// there, so that a spinning thread comes back to the same state.
func Listing(w io.Writer, prog *check.Program, obj *check.Object, b Bounds, mode Mode) error {
	p, err := compile(prog, obj, b.Threads, b.Values, mode.FineGrained, mode.Explicit || prog.Explicit)
	if err != nil {
		return err
	}
	all := append([]*check.Method(nil), obj.Methods...)
	if obj.Init != nil {
		all = append(all, obj.Init)
	}
	for i, m := range p.methods {
		if i > 0 {
			fmt.Fprintln(w)
		}
		p.printMethod(w, m, all[i])
	}
	return nil
}

// printMethod writes the instructions of m (compiled from cm).
func (p *program) printMethod(w io.Writer, m *method, cm *check.Method) {
	names := make([]string, m.nlocals)
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
	for pc := m.entry; pc < int32(len(p.code)) && p.code[pc].method == m.index; pc++ {
		in := &p.code[pc]
		for _, x := range append(in.targets(), in.values()...) {
			nameSlots(x, names)
		}
	}
	fmt.Fprintln(w, p.file.Text(cm.Decl.Pos, cm.Decl.Body.Pos))
	for pc := m.entry; pc < int32(len(p.code)) && p.code[pc].method == m.index; pc++ {
		in := &p.code[pc]
		mark := ""
		switch {
		case in.op == opJump && in.back:
			mark = "↺"
		case in.boundary && in.priv != 0:
			mark = "▶p"
		case in.boundary:
			mark = "▶"
		}
		line := ""
		if in.step >= 0 {
			line = fmt.Sprintf("L%d", p.file.Position(p.steps[in.step].pos).Line)
		}
		var dead []string
		for d := p.dead[pc]; d != 0; d &= d - 1 {
			dead = append(dead, names[bits.TrailingZeros64(d)])
		}
		text := p.instrText(pc)
		if len(dead) > 0 {
			fmt.Fprintf(w, "%4d %-2s %-9s %-40s %-4s dead: %s\n", pc, mark, in.op, text, line, strings.Join(dead, " "))
		} else {
			fmt.Fprintf(w, "%4d %-2s %-9s %-40s %s\n", pc, mark, in.op, text, line)
		}
	}
}

// nameSlots names the local slots that e reads or writes, keeping the
// names it has (those of the method's own locals).
func nameSlots(e *expr, names []string) {
	walkExpr(e, func(x *expr) {
		if x.k == eLocal && int(x.v) < len(names) && names[x.v] == "" {
			names[x.v] = x.name
		}
	})
}

// instrText is the source of the instruction at pc, with its target for
// a jump or branch.
func (p *program) instrText(pc int32) string {
	in := &p.code[pc]
	text := ""
	if in.step >= 0 {
		text = p.steps[in.step].text
		if p.steps[in.step].procedure != p.methods[in.method].name {
			text = p.steps[in.step].procedure + ": " + text
		}
	}
	switch in.op {
	case opAssign, opAssignWord:
		if in.step < 0 {
			text = in.targets()[0].name + " := argument" // passing a local or a constant to a procedure
		}
	case opJump:
		text = strings.TrimSpace(fmt.Sprintf("%s → %d", text, in.target))
	case opBranch:
		text = fmt.Sprintf("%s, else → %d", text, in.target)
	case opAtomicEnd:
		text = "}"
	case opRetPending:
		text = "ret of the value returned in the atomic block"
	}
	if r := []rune(text); len(r) > 40 {
		text = string(r[:37]) + "..."
	}
	return text
}

var opNames = [...]string{
	opNop: "nop", opAssign: "assign", opEval: "eval", opBranch: "branch", opJump: "jump",
	opAtomicBegin: "atomic", opAtomicEnd: "end", opAssert: "assert", opFree: "free",
	opLin: "lin", opReturn: "return", opFallOff: "falloff", opRetPending: "ret", opAwait: "await",
	opAssignWord: "assignw",
}

func (op opcode) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return fmt.Sprintf("op(%d)", op)
}
