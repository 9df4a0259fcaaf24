package ir

import (
	"fmt"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// Words. A word (check.WordType) takes one slot per field wherever it is
// stored: k consecutive slots of a node, of the shared variables (an
// array of words is its elements' slots in order, so element i's field j
// is at off + (i-lo)·k + j) or of a thread's locals. So a reference in a
// word is a reference slot like any other: the canonicaliser renumbers
// it, garbage collection follows it, explicit memory's reuse and the
// private-node test see it, and the symmetry checker treats each field
// as a location of its own. A word is only ever read, written, compared
// or compared-and-swapped whole — one instruction over its k slots,
// opAssignWord or eCasWord — so it behaves as one location: the
// double-width CAS of a marked or counted pointer.

// MaxWordFields bounds the fields of a word (the machine keeps a word's
// values in fixed arrays); the checker enforces it.
const MaxWordFields = check.MaxWordFields

// slots returns the locations of the local v's slots: one for a scalar,
// one per field for a word. base is the slot of the first local of v's
// procedure frame, or -1 for the frame being lowered.
func (c *compiler) slots(v *check.Var, base int32) []*Expr {
	if base < 0 {
		base = c.frameBase()
	}
	if v.Type.Kind != check.Word {
		return []*Expr{{Kind: ELocal, V: base + int32(v.Slot), Name: v.Name, Ref: v.Type.Kind == check.Ref, Thr: v.Type.Kind == check.Thread, Pos: v.Pos}}
	}
	ws := wordSlots(v.Type.Word)
	out := make([]*Expr, len(ws))
	for j, f := range ws {
		out[j] = &Expr{Kind: ELocal, V: base + int32(v.Slot+j), Name: v.Name + "." + f.name, Ref: f.t.Kind == check.Ref, Pos: v.Pos}
	}
	return out
}

// wordSlot is a slot of a word: its field's name (with the element of an
// array field) and type.
type wordSlot struct {
	name string
	t    check.Type
}

// wordSlots returns the slots of a word of type w, in order.
func wordSlots(w *check.WordType) []wordSlot {
	var out []wordSlot
	for _, f := range w.Fields {
		if f.Elems == 0 {
			out = append(out, wordSlot{f.Name, f.Type})
			continue
		}
		for e := range f.Elems {
			out = append(out, wordSlot{fmt.Sprintf("%s[%d]", f.Name, f.Lo+e), f.Type})
		}
	}
	return out
}

// values compiles e slot by slot: for a word, one expression per field
// (a location's, or a construction's argument); else e alone.
func (c *compiler) values(e syntax.Expr) []*Expr {
	t := c.info.Types[e]
	if t.Kind != check.Word {
		return []*Expr{c.expr(e)}
	}
	fields := wordSlots(t.Word)
	out := make([]*Expr, len(fields))
	switch e := e.(type) {
	case *syntax.ParenExpr:
		return c.values(e.X)
	case *syntax.CallExpr: // a construction W(a, b), or a procedure's word
		if c.info.Calls[e] != nil {
			return c.callValue(e)
		}
		out = out[:0]
		for j, a := range e.Args {
			if f := t.Word.Fields[j]; f.Elems > 0 { // a local array, element by element
				v := c.info.Uses[syntax.Unparen(a).(*syntax.Ident)]
				for k := range f.Elems {
					out = append(out, &Expr{Kind: ELocal, V: c.frameBase() + int32(v.Slot+k), Name: v.Name, Pos: a.Start()})
				}
				continue
			}
			out = append(out, c.expr(a))
		}
		return out
	case *syntax.Ident:
		v := c.info.Uses[e]
		if v.Kind != check.SharedVar {
			out = c.slots(v, -1)
			for _, x := range out {
				x.Pos = e.Pos
			}
			return out
		}
		off, _, _ := c.shared(v)
		for j, f := range fields {
			out[j] = c.component(&Expr{Kind: EShared, V: off + int32(j), Shared: true, Pos: e.Pos}, v.Name, f)
		}
		return out
	case *syntax.IndexExpr:
		if _, ok := syntax.Unparen(e.X).(*syntax.SelectorExpr); ok { // a word element of a node's array field
			return c.fieldElem(e)
		}
		id, idx := check.Indices(e)
		v := c.info.Uses[id]
		if v.ThreadDims > 0 || len(idx) != 1 {
			c.errs.Add(c.file.Position(e.Start()), fmt.Sprintf("%s: arrays of words with [thread] dimensions are not supported; use a scalar type or a one-dimensional array", v.Name))
			return out
		}
		// The index is compiled once per field, but a procedure it calls
		// runs once: its value is then shared by the fields.
		var once *Expr
		if c.hasCall(e.Index) {
			once = c.expr(e.Index)
		}
		for j, f := range fields {
			idx := once
			if idx == nil {
				idx = c.expr(e.Index)
			}
			idx = c.pure(idx, "an index of the array of words "+v.Name)
			x := c.elem(v, idx, int32(j))
			x.Pos = e.Start()
			out[j] = c.component(x, v.Name, f)
		}
		return out
	case *syntax.UnaryExpr: // &x, or *l of a word
		if e.Op == syntax.AMP {
			return c.addrOf(e)
		}
		return c.deref(e)
	case *syntax.SelectorExpr: // a word field of a node
		hf := c.info.Fields[e]
		node := c.pure(c.expr(e.X), "the node of the word field "+hf.Name)
		for j, f := range fields {
			out[j] = c.component(&Expr{Kind: EField, V: int32(hf.Index + j), A: cloneExpr(node), Shared: true, Pos: e.Start()}, hf.Name, f)
		}
		return out
	}
	c.errs.Add(c.file.Position(e.Start()), "internal error: not a word expression")
	return out
}

// component completes the location x of slot f of the word called
// name: its name for messages, whether it holds a reference, its range.
func (c *compiler) component(x *Expr, name string, f wordSlot) *Expr {
	x.Name = name + "." + f.name
	x.Ref = f.t.Kind == check.Ref
	if f.t.HasRange {
		x.Rng = &f.t
	}
	return x
}

// pure returns x after checking that evaluating it has no effect: the
// location of a word is computed once per field, which must not allocate
// or choose several times.
func (c *compiler) pure(x *Expr, what string) *Expr {
	impure := false
	WalkExpr(x, func(y *Expr) {
		switch y.Kind.Class() {
		case Choice, Allocation, ReadModifyWrite, 0:
			impure = true
		}
	})
	if impure {
		c.errs.Add(c.file.Position(x.Pos), fmt.Sprintf("%s may not use new, any, cas, swap or faa (it is evaluated once per slot); compute it into a local first", what))
	}
	return x
}

// assign emits the assignment of the values xs to the locations lhs, slot
// by slot: a plain assignment for a scalar, opAssignWord for a word.
func (c *compiler) assign(n syntax.Node, lhs, xs []*Expr) int32 {
	if len(lhs) == 1 {
		return c.simple(OpAssign, n, lhs[0], xs[0])
	}
	return c.emitStmt(Instr{Op: OpAssignWord, Step: c.step(n), LhsN: lhs, XN: xs})
}

// localOrConst reports whether every expression of xs is a local or a
// constant.
func localOrConst(xs []*Expr) bool {
	for _, x := range xs {
		if x.Kind != ELocal && x.Kind != EConst {
			return false
		}
	}
	return true
}

// compareWords compiles w == v (every field equal) or w != v (some field
// differs) on words.
func (c *compiler) compareWords(e *syntax.BinaryExpr) *Expr {
	xs, ys := c.values(e.X), c.values(e.Y)
	join := syntax.LAND
	if e.Op == syntax.NEQ {
		join = syntax.LOR
	}
	var out *Expr
	for j := range xs {
		cmp := &Expr{Kind: EBinary, Op: e.Op, A: xs[j], B: ys[j], Pos: e.OpPos}
		cmp.Shared = xs[j].Shared || ys[j].Shared
		if out == nil {
			out = cmp
		} else {
			out = &Expr{Kind: EBinary, Op: join, A: out, B: cmp, Pos: e.OpPos, Shared: out.Shared || cmp.Shared}
		}
	}
	return out
}

// casWord compiles cas(w, old, new) on a word location w.
func (c *compiler) casWord(e *syntax.CallExpr) *Expr {
	x := &Expr{Kind: ECasWord, Shared: true}
	for _, a := range e.Args {
		x.List = append(x.List, c.values(a)...)
	}
	return x
}

// initWord writes the initial value of the shared word (or array of
// words) v, the i-th shared variable, a construction of constants, into st.
func (c *compiler) initWord(st []int32, v *check.Var, i int) error {
	call, ok := syntax.Unparen(v.Init).(*syntax.CallExpr)
	if !ok {
		return c.errAt(v.Init.Start(), "the initial value of a word is a construction "+v.Type.Word.Name+"(…)")
	}
	k := int32(len(v.Type.Word.Fields))
	for j, a := range call.Args {
		val, err := c.constEval(a)
		if err != nil {
			return err
		}
		if ft := v.Type.Word.Fields[j].Type; ft.HasRange && (int64(val) < ft.Lo || int64(val) > ft.Hi) {
			return c.errAt(a.Start(), fmt.Sprintf("initial value %d of %s.%s is outside %s", val, v.Name, v.Type.Word.Fields[j].Name, ft))
		}
		for e := int32(0); e < c.sharedLen[i]; e++ {
			st[c.sharedOff[i]+e*k+int32(j)] = val
		}
	}
	return nil
}
