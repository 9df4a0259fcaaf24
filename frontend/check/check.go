package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/linbis/linbis/frontend/intop"

	"github.com/linbis/linbis/frontend/syntax"
)

// Check resolves and type-checks a parsed model. It returns the program
// and, if anything is wrong, a syntax.ErrorList with every error found.
func Check(m *syntax.Model) (*Program, error) {
	c := &checker{file: m.File, info: &Info{
		Uses:   map[*syntax.Ident]*Var{},
		Types:  map[syntax.Expr]Type{},
		Fields: map[*syntax.SelectorExpr]*Field{},
		Heaps:  map[*syntax.NewExpr]*Heap{},
		Defs:   map[*syntax.DefineStmt]*Var{},
		Vars:   map[*syntax.VarStmt]*Var{},
		Loops:  map[*syntax.BranchStmt]*syntax.WhileStmt{},
		Breaks: map[*syntax.WhileStmt]bool{},
		Calls:  map[*syntax.CallExpr]*Method{},
		Builds: map[*syntax.CallExpr]*WordType{},
		Tests:  map[*syntax.TestExpr]*Heap{},
	}}
	p := &Program{File: m.File, Client: m.Client, Info: c.info}
	if m.Object == nil {
		c.errorf(syntax.NoPos, "the model has no object")
		return p, c.errs.Err()
	}
	p.Impl = c.object(m.Object)
	p.Explicit = m.Object.Explicit.IsValid()
	switch {
	case m.Spec == nil:
		c.errorf(m.Object.Pos, "the model has no spec; add `spec auto` or a spec block")
	case m.Spec.Auto:
		auto := *p.Impl
		auto.Auto = true
		p.Spec = &auto
	default:
		p.Spec = c.object(m.Spec.Body)
		c.matchSpec(p.Impl, p.Spec, m.Spec)
	}
	c.client(m.Client, p.Impl)
	c.errs.Sort()
	return p, c.errs.Err()
}

type checker struct {
	file *syntax.File
	info *Info
	errs syntax.ErrorList

	obj    *Object
	method *Method
	scopes []map[string]*Var
	// loops are the loops enclosing the statement being checked,
	// innermost last, for break and continue.
	loops []loopScope
	// atomics counts the atomic blocks enclosing the statement.
	atomics int
	// awaitCond: an await's condition is being checked.
	awaitCond bool
	// calls are the procedure calls in each procedure's body, to find
	// recursion.
	calls map[*Method][]procCall
	// locs are the word types of the loc types met so far (locType).
	locs []*WordType
	// indexed is the selector of an array field being indexed
	// (fieldIndex), which may name the array.
	indexed *syntax.SelectorExpr
}

// procCall is a call of a procedure, at pos.
type procCall struct {
	callee *Method
	pos    syntax.Pos
}

// loopScope is an enclosing loop and the number of atomic blocks around it.
type loopScope struct {
	loop    *syntax.WhileStmt // nil for a for loop over threads
	atomics int
}

func (c *checker) errorf(pos syntax.Pos, format string, args ...any) {
	c.errs.Add(c.file.Position(pos), fmt.Sprintf(format, args...))
}

var builtins = map[string]*Var{
	"tid":      {Name: "tid", Kind: BuiltinTid, Type: Type{Kind: Int, Tid: true}},
	"nthreads": {Name: "nthreads", Kind: BuiltinNThreads, Type: Type{Kind: Int}},
	"EMPTY":    {Name: "EMPTY", Kind: BuiltinEmpty, Type: Type{Kind: Int}},
}

func (c *checker) object(d *syntax.Object) *Object {
	o := &Object{Name: d.Name.Name, Decl: d}
	c.obj = o
	// Two namespaces: the names the code uses (types, shared variables,
	// procedures), and the methods, which only the client calls (and a
	// spec matches), so that a method may share its name with the
	// procedure that does its work.
	seen, methods := map[string]syntax.Pos{}, map[string]syntax.Pos{}
	declareIn := func(seen map[string]syntax.Pos, id *syntax.Ident, what string) bool {
		if _, ok := builtins[id.Name]; ok || builtinFuncs[id.Name] {
			c.errorf(id.Pos, "%s %s redeclares a builtin name", what, id.Name)
			return false
		}
		if prev, ok := seen[id.Name]; ok {
			c.errorf(id.Pos, "%s redeclared in %s (first declared at %s)", id.Name, o.Name, c.file.Position(prev))
			return false
		}
		seen[id.Name] = id.Pos
		return true
	}
	declare := func(id *syntax.Ident, what string) bool { return declareIn(seen, id, what) }
	for _, h := range d.Heaps {
		declare(h.Name, "heap type")
		o.Heaps = append(o.Heaps, &Heap{Name: h.Name.Name, ID: len(o.Heaps) + 1})
	}
	for _, w := range d.Words {
		declare(w.Name, "word type")
		o.Words = append(o.Words, &WordType{Name: w.Name.Name, Pos: w.Name.Pos})
	}
	for i, w := range d.Words {
		o.Words[i].Fields = c.fields(w.Fields, "word "+w.Name.Name, false)
		if n := (Type{Kind: Word, Word: o.Words[i]}).Slots(); len(w.Fields) == 0 || n > MaxWordFields {
			c.errorf(w.Name.Pos, "word %s has %d slots (a field each, an element each of an array field); a word has between 1 and %d", w.Name.Name, n, MaxWordFields)
		}
	}
	for i, h := range d.Heaps {
		o.Heaps[i].Fields = c.fields(h.Fields, "heap "+h.Name.Name, true)
	}
	for _, s := range d.Shared {
		declare(s.Name, "shared variable")
		v := &Var{Name: s.Name.Name, Pos: s.Name.Pos, Kind: SharedVar, Type: c.typ(s.Type, true), Len: s.Type.Len, LenLo: s.Type.LenLo, ThreadDims: len(s.Type.ThreadDims), Init: s.Init, Index: len(o.Shared)}
		if v.ThreadDims > 0 && v.Type.Kind == Word {
			c.errorf(s.Type.Pos, "%s: per-thread arrays of words are not supported; use one [thread] array per field", v.Name)
		}
		if s.Init != nil {
			c.scopes = nil
			it := c.expr(s.Init)
			if !c.isConst(s.Init) {
				c.errorf(s.Init.Start(), "the initial value of %s must be a constant", v.Name)
			} else if !assignable(v.Type, it) {
				c.errorf(s.Init.Start(), "cannot initialise %s (%s) with a value of type %s", v.Name, v.Type, it)
			}
		}
		o.Shared = append(o.Shared, v)
	}
	for _, pd := range d.Procs {
		if declare(pd.Name, "procedure") {
			o.Procs = append(o.Procs, c.signature(pd, len(o.Procs)))
		}
	}
	c.calls = map[*Method][]procCall{}
	for _, p := range o.Procs {
		c.body(p)
	}
	for _, md := range d.Methods {
		if !declareIn(methods, md.Name, "method") {
			continue
		}
		o.Methods = append(o.Methods, c.methodDecl(md, len(o.Methods)))
	}
	if d.Init != nil {
		o.Init = c.methodDecl(d.Init, -1)
	}
	c.recursion(o.Procs)
	if len(d.Methods) == 0 { // (not when the methods it declares are wrong)
		c.errorf(d.Pos, "%s declares no methods", o.Name)
	}
	return o
}

// fields checks the fields of a heap type (whose fields may be words) or
// of a word type (whose fields are scalars), in, and numbers their slots.
func (c *checker) fields(fs []*syntax.Field, in string, wordsOK bool) []*Field {
	var out []*Field
	seen := map[string]bool{}
	slot := 0
	for _, f := range fs {
		if seen[f.Name.Name] {
			c.errorf(f.Name.Pos, "field %s declared twice in %s", f.Name.Name, in)
		}
		seen[f.Name.Name] = true
		t, elems, lo := c.fieldType(f, in)
		if t.Kind == Thread {
			c.errorf(f.Type.Pos, "field %s: a field of %s cannot hold a thread id; keep thread ids in locals and shared variables", f.Name.Name, in)
			t = Type{}
		}
		if t.Kind == Word && !wordsOK {
			c.errorf(f.Type.Pos, "field %s: a word's fields are int, bool or ref, not another word", f.Name.Name)
			t = Type{}
		}
		fd := &Field{Name: f.Name.Name, Type: t, Index: slot, Elems: elems, Lo: lo}
		out = append(out, fd)
		slot += fd.Slots()
	}
	return out
}

// isConst reports whether e is built from literals, nthreads and EMPTY
// (and word constructions of those).
func (c *checker) isConst(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.CallExpr:
		if c.info.Builds[e] == nil {
			return false
		}
		for _, a := range e.Args {
			if !c.isConst(a) {
				return false
			}
		}
		return true
	case *syntax.IntLit, *syntax.BoolLit, *syntax.NullLit, *syntax.BadExpr:
		return true
	case *syntax.Ident:
		v := c.info.Uses[e]
		return v == nil || v.Kind == BuiltinNThreads || v.Kind == BuiltinEmpty
	case *syntax.ParenExpr:
		return c.isConst(e.X)
	case *syntax.UnaryExpr:
		return c.isConst(e.X)
	case *syntax.BinaryExpr:
		return c.isConst(e.X) && c.isConst(e.Y)
	}
	return false
}

func (c *checker) typ(t *syntax.Type, arrayOK bool) Type {
	if !arrayOK && t.Len == nil && len(t.ThreadDims) > 0 {
		c.errorf(t.Pos, "arrays are allowed only as shared variables")
	}
	if t.Len != nil {
		if !arrayOK {
			c.errorf(t.Pos, "arrays are allowed only as shared variables and as locals declared with var")
		} else {
			c.scopes = nil
			for _, e := range []syntax.Expr{t.LenLo, t.Len} {
				if e == nil {
					continue
				}
				if lt := c.expr(e); lt.Kind != Int && lt.Kind != Invalid || !c.isConst(e) {
					c.errorf(e.Start(), "array bounds must be constant int expressions (literals and nthreads)")
				}
			}
		}
	}
	switch t.Kind {
	case syntax.TInt:
		r := Type{Kind: Int}
		if t.Lo != nil {
			lo, ok1 := c.constInt(t.Lo)
			hi, ok2 := c.constInt(t.Hi)
			if ok1 && ok2 {
				if lo > hi {
					c.errorf(t.Lo.Start(), "empty range %d..%d", lo, hi)
				}
				r.HasRange, r.Lo, r.Hi = true, lo, hi
			}
		}
		if t.Wrap.IsValid() {
			if t.Lo == nil {
				c.errorf(t.Wrap, "wrap needs a range: int(lo..hi) wrap")
			}
			r.Wrap = true
		}
		return r
	case syntax.TBool:
		return Type{Kind: Bool}
	case syntax.TThread:
		return Type{Kind: Thread}
	case syntax.TRef:
		if len(t.Refs) > 0 {
			return c.union(t)
		}
		if h := c.heap(t.Ref); h != nil {
			return Type{Kind: Ref, Node: h}
		}
	case syntax.TLoc:
		et := c.typ(t.Elem, false)
		switch et.Kind {
		case Invalid:
			return Type{}
		case Thread:
			c.errorf(t.Elem.Pos, "a loc may not refer to thread ids (thread symmetry could not rename them)")
			return Type{}
		}
		return c.locType(et)
	case syntax.TNamed:
		if w := c.word(t.Named.Name); w != nil {
			return Type{Kind: Word, Word: w}
		}
		var names []string
		for _, w := range c.obj.Words {
			names = append(names, w.Name)
		}
		c.errorf(t.Named.Pos, "undefined type %s; the types are int, int(lo..hi), bool, ref Node, loc T and the object's words%s", t.Named.Name, hint(t.Named.Name, append(names, "int", "bool")))
	}
	return Type{}
}

// word returns the word type called name, or nil.
func (c *checker) word(name string) *WordType {
	for _, w := range c.obj.Words {
		if w.Name == name {
			return w
		}
	}
	return nil
}

func (c *checker) constInt(e syntax.Expr) (int64, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return e.Value, true
	case *syntax.UnaryExpr:
		if v, ok := c.constInt(e.X); ok && e.Op == syntax.SUB {
			return -v, true
		}
	case *syntax.ParenExpr:
		return c.constInt(e.X)
	}
	c.errorf(e.Start(), "range bounds must be integer literals")
	return 0, false
}

func (c *checker) methodDecl(d *syntax.Method, index int) *Method {
	m := c.signature(d, index)
	c.body(m)
	return m
}

// signature makes the checked method or procedure of d with its parameter
// and result types; body checks the rest. Procedures get their signatures
// first, so that they may be called before they are declared.
func (c *checker) signature(d *syntax.Method, index int) *Method {
	m := &Method{Name: d.Name.Name, Decl: d, Index: index, Result: Type{Kind: Void}, Proc: d.Proc}
	for _, p := range d.Params {
		t := c.typ(p.Type, false)
		if (t.Kind == Ref || t.Kind == Word || t.Kind == Thread) && !d.Proc {
			c.errorf(p.Type.Pos, "parameter %s: method arguments must be int or bool (the client passes values)", p.Name.Name)
		}
		m.paramTypes = append(m.paramTypes, t)
	}
	if d.Result != nil {
		m.Result = c.typ(d.Result, false)
		if m.Result.Kind == Ref && !d.Proc {
			c.errorf(d.Result.Pos, "method %s: results must be int or bool, not %s", m.Name, m.Result)
		}
		if m.Result.Kind == Word && !d.Proc {
			c.errorf(d.Result.Pos, "method %s: results must be int or bool, not a word", m.Name)
		}
		m.Results = []Type{m.Result}
	}
	for _, t := range d.Tuple {
		m.Results = append(m.Results, c.typ(t, false))
	}
	if len(d.Tuple) > 0 && !d.Proc {
		c.methodTuple(m, d)
	}
	return m
}

// body checks the body of a method or procedure.
func (c *checker) body(m *Method) {
	d := m.Decl
	c.method = m
	c.scopes = []map[string]*Var{{}}
	for i, p := range d.Params {
		m.Params = append(m.Params, c.declareLocal(p.Name, m.paramTypes[i], ParamVar))
	}
	c.block(d.Body, false)
	if len(m.Results) > 0 && !c.terminates(d.Body) {
		what := "method"
		if m.Proc {
			what = "procedure"
		}
		c.errorf(d.End, "missing return at the end of %s %s (it returns %s)", what, m.Name, m.resultString())
	}
	c.method = nil
}

// terminates reports whether control cannot fall off the end of s: a
// return, a `while true` that nothing breaks out of, an if whose branches
// both terminate, a choose whose blocks all do.
func (c *checker) terminates(s syntax.Stmt) bool {
	switch s := s.(type) {
	case *syntax.ReturnStmt:
		return true
	case *syntax.Block:
		return len(s.Stmts) > 0 && c.terminates(s.Stmts[len(s.Stmts)-1])
	case *syntax.AtomicStmt:
		return c.terminates(s.Body)
	case *syntax.IfStmt:
		return s.Else != nil && c.terminates(s.Then) && c.terminates(s.Else)
	case *syntax.ChooseStmt:
		for _, b := range s.Alts {
			if !c.terminates(b) {
				return false
			}
		}
		return true
	case *syntax.WhileStmt:
		b, ok := syntax.Unparen(s.Cond).(*syntax.BoolLit)
		return ok && b.Value && !c.info.Breaks[s]
	}
	return false
}

func (c *checker) declareLocal(id *syntax.Ident, t Type, kind VarKind) *Var {
	top := c.scopes[len(c.scopes)-1]
	if _, ok := builtins[id.Name]; ok || builtinFuncs[id.Name] {
		c.errorf(id.Pos, "cannot declare %s: it is a builtin name", id.Name)
	} else if prev, ok := top[id.Name]; ok {
		c.errorf(id.Pos, "%s redeclared in this block (first declared at %s)", id.Name, c.file.Position(prev.Pos))
	} else {
		for _, s := range c.obj.Shared {
			if s.Name == id.Name {
				c.errorf(id.Pos, "local %s shadows the shared variable %s; choose another name", id.Name, id.Name)
				break
			}
		}
	}
	v := &Var{Name: id.Name, Pos: id.Pos, Kind: kind, Type: t, Index: len(c.method.Locals), Slot: c.method.Slots}
	c.method.Slots += t.Slots()
	c.method.Locals = append(c.method.Locals, v)
	top[id.Name] = v
	return v
}

// declareArray declares the local array id of elems elements of type t.
func (c *checker) declareArray(id *syntax.Ident, t Type, d *syntax.Type, elems int) *Var {
	v := c.declareLocal(id, t, LocalVar)
	v.Len, v.LenLo, v.Elems = d.Len, d.LenLo, elems
	c.method.Slots += t.Slots() * (elems - 1)
	return v
}

func (c *checker) block(b *syntax.Block, push bool) {
	if push {
		c.scopes = append(c.scopes, map[string]*Var{})
		defer func() { c.scopes = c.scopes[:len(c.scopes)-1] }()
	}
	for _, s := range b.Stmts {
		c.stmt(s)
	}
}

func (c *checker) cond(e syntax.Expr, what string) {
	if t := c.expr(e); t.Kind != Bool && t.Kind != Invalid {
		c.errorf(e.Start(), "%s condition must be bool, not %s", what, t)
	}
}

func (c *checker) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.Block:
		c.block(s, true)
	case *syntax.DefineStmt:
		if call := c.procCallOf(s.Value); call != nil || len(s.Rest) > 0 {
			c.defineResults(s, call)
			return
		}
		t := c.expr(s.Value)
		switch t.Kind {
		case Null:
			c.errorf(s.Value.Start(), "cannot infer the type of %s from null; initialise it with a typed value", s.Name.Name)
			t = Type{}
		case Void:
			c.errorf(s.Value.Start(), "%s := ...: the right side has no value", s.Name.Name)
			t = Type{}
		}
		t.HasRange, t.Wrap, t.Tid = false, false, false
		c.info.Defs[s] = c.declareLocal(s.Name, t, LocalVar)
	case *syntax.AssignStmt:
		// x, y = p(…) and x = p(…) to locals take the results; a call
		// assigned to another location is a call in an expression.
		if call := c.procCallOf(s.Value); len(s.Rest) > 0 || call != nil && c.localTarget(s.LHS) {
			c.assignResults(s, call)
			return
		}
		lt := c.lvalue(s.LHS)
		vt := c.expr(s.Value)
		if !assignable(lt, vt) {
			c.errorf(s.Value.Start(), "cannot assign a value of type %s to a location of type %s", vt, lt)
		}
	case *syntax.IfStmt:
		c.cond(s.Cond, "if")
		c.block(s.Then, true)
		if s.Else != nil {
			c.stmt(s.Else)
		}
	case *syntax.WhileStmt:
		c.cond(s.Cond, "while")
		if s.Label != nil {
			for _, l := range c.loops {
				if l.loop != nil && l.loop.Label != nil && l.loop.Label.Name == s.Label.Name {
					c.errorf(s.Label.Pos, "label %s already labels an enclosing loop (at %s)", s.Label.Name, c.file.Position(l.loop.Label.Pos))
				}
			}
		}
		c.loops = append(c.loops, loopScope{loop: s, atomics: c.atomics})
		c.block(s.Body, true)
		c.loops = c.loops[:len(c.loops)-1]
	case *syntax.ForStmt:
		c.forThreads(s)
	case *syntax.BranchStmt:
		c.branch(s)
	case *syntax.VarStmt:
		if s.Type.Len != nil {
			c.localArray(s)
			return
		}
		t := c.typ(s.Type, false)
		if s.Value != nil {
			if vt := c.expr(s.Value); !assignable(t, vt) {
				c.errorf(s.Value.Start(), "cannot initialise %s (%s) with a value of type %s", s.Name.Name, t, vt)
			}
		}
		c.info.Vars[s] = c.declareLocal(s.Name, t, LocalVar)
	case *syntax.ChooseStmt:
		for _, b := range s.Alts {
			c.block(b, true)
		}
	case *syntax.ReturnStmt:
		if c.method.Proc || len(s.Rest) > 0 || len(c.method.Results) > 1 {
			c.returnResults(s)
			return
		}
		want := c.method.Result
		if s.Value == nil {
			if want.Kind != Void {
				c.errorf(s.Pos, "missing return value: method %s returns %s", c.method.Name, want)
			}
			return
		}
		t := c.expr(s.Value)
		if want.Kind == Void {
			c.errorf(s.Value.Start(), "method %s has no result; remove the return value", c.method.Name)
		} else if !assignable(want, t) {
			c.errorf(s.Value.Start(), "cannot return %s from method %s (it returns %s)", t, c.method.Name, want)
		}
	case *syntax.AtomicStmt:
		c.atomics++
		c.block(s.Body, true)
		c.atomics--
	case *syntax.AssertStmt:
		c.cond(s.Cond, "assert")
	case *syntax.AwaitStmt:
		c.awaitCond = true
		c.cond(s.Cond, "await")
		c.awaitCond = false
	case *syntax.FreeStmt:
		if t := c.expr(s.X); t.Kind != Ref && t.Kind != Invalid {
			c.errorf(s.X.Start(), "free needs a reference, not %s", t)
		}
	case *syntax.SkipStmt:
	case *syntax.LinStmt:
		if s.Value != nil {
			if t := c.expr(s.Value); t.Kind == Word {
				c.errorf(s.Value.Start(), "a linearization value is an int or a bool, not the word %s", t)
			}
		}
	case *syntax.ExprStmt:
		if call := c.procCallOf(s.X); call != nil {
			c.call(call)
			return
		}
		t := c.expr(s.X)
		if call, ok := s.X.(*syntax.CallExpr); !ok || !builtinFuncs[call.Fun.Name] {
			if t.Kind != Invalid {
				c.errorf(s.X.Start(), "this expression is evaluated but not used; only cas(...), swap(...) and faa(...) may stand alone")
			}
		}
	}
}

// branch resolves the loop of a break or continue: the innermost, or the
// one with the label. It may not leave an atomic block (the block would
// not end).
func (c *checker) branch(s *syntax.BranchStmt) {
	if len(c.loops) == 0 {
		c.errorf(s.Pos, "%s is not inside a loop", s.Tok)
		return
	}
	l := c.loops[len(c.loops)-1]
	if s.Label == nil && l.loop == nil {
		c.errorf(s.Pos, "%s in a for loop over threads: its iterations run in any order, so it cannot be left or repeated early; use a while loop", s.Tok)
		return
	}
	if s.Label != nil {
		var names []string
		found := false
		for i := len(c.loops) - 1; i >= 0; i-- {
			if c.loops[i].loop == nil {
				continue
			}
			if lb := c.loops[i].loop.Label; lb != nil {
				if lb.Name == s.Label.Name {
					l, found = c.loops[i], true
					break
				}
				names = append(names, lb.Name)
			}
		}
		if !found {
			c.errorf(s.Label.Pos, "no enclosing loop is labelled %s%s", s.Label.Name, hint(s.Label.Name, names))
			return
		}
	}
	if l.atomics != c.atomics {
		c.errorf(s.Pos, "%s would leave an atomic block; end the loop inside the block or put the block inside the loop", s.Tok)
	}
	c.info.Loops[s] = l.loop
	if s.Tok == syntax.BREAK {
		c.info.Breaks[l.loop] = true
	}
}

// lvalue checks an assignable location and returns its type.
func (c *checker) lvalue(e syntax.Expr) Type {
	switch x := e.(type) {
	case *syntax.Ident:
		if v := c.lookup(x.Name); v != nil && v.IsArray() {
			c.info.Uses[x] = v
			c.errorf(x.Pos, "cannot assign to the whole array %s; assign an element", v.Name)
			return v.Type
		}
		t := c.expr(x)
		if v := c.info.Uses[x]; v != nil && v.Kind >= BuiltinTid {
			c.errorf(x.Pos, "cannot assign to %s", v.Name)
		}
		return t
	case *syntax.SelectorExpr:
		t := c.expr(x)
		if wt := c.info.Types[x.X]; wt.Kind == Word {
			c.errorf(x.Sel.Pos, "cannot assign to field %s of the word %s: a word is written whole (with a construction %s(…) or a cas)", x.Sel.Name, wt, wt)
		}
		return t
	case *syntax.IndexExpr:
		t := c.expr(x)
		if sel, ok := syntax.Unparen(x.X).(*syntax.SelectorExpr); ok {
			if wt := c.info.Types[sel.X]; wt.Kind == Word {
				c.errorf(sel.Sel.Pos, "cannot assign to an element of %s of the word %s: a word is written whole (with a construction %s(…) or a cas)", sel.Sel.Name, wt, wt)
			}
		}
		return t
	case *syntax.BadExpr:
		return c.expr(x)
	case *syntax.ParenExpr:
		return c.lvalue(x.X)
	case *syntax.UnaryExpr:
		if x.Op == syntax.MUL {
			return c.expr(x)
		}
	}
	c.expr(e)
	c.errorf(e.Start(), "cannot assign to this expression; expected a variable, an array element or a field")
	return Type{}
}

func (c *checker) lookup(name string) *Var {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if v, ok := c.scopes[i][name]; ok {
			return v
		}
	}
	for _, v := range c.obj.Shared {
		if v.Name == name {
			return v
		}
	}
	return builtins[name]
}

func (c *checker) visibleNames() []string {
	var names []string
	for _, s := range c.scopes {
		for n := range s {
			names = append(names, n)
		}
	}
	for _, v := range c.obj.Shared {
		names = append(names, v.Name)
	}
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (c *checker) expr(e syntax.Expr) Type {
	t := c.expr1(e)
	c.info.Types[e] = t
	return t
}

func (c *checker) expr1(e syntax.Expr) Type {
	switch e := e.(type) {
	case *syntax.BadExpr:
		return Type{}
	case *syntax.IntLit:
		return Type{Kind: Int}
	case *syntax.BoolLit:
		return Type{Kind: Bool}
	case *syntax.NullLit:
		return Type{Kind: Null}
	case *syntax.ParenExpr:
		return c.expr(e.X)
	case *syntax.Ident:
		v := c.lookup(e.Name)
		if v == nil {
			c.errorf(e.Pos, "undefined: %s%s", e.Name, hint(e.Name, c.visibleNames()))
			return Type{}
		}
		c.info.Uses[e] = v
		if v.IsArray() && c.method != nil {
			// Only reported where a scalar is needed; IndexExpr resolves arrays itself.
			c.errorf(e.Pos, "%s is an array; use %s", v.Name, indexForm(v))
		}
		if c.method == nil && v.Kind != BuiltinNThreads && v.Kind != BuiltinEmpty {
			c.errorf(e.Pos, "%s cannot be used in a constant", v.Name)
		}
		return v.Type
	case *syntax.UnaryExpr:
		switch e.Op {
		case syntax.AMP:
			return c.addrOf(e)
		case syntax.MUL:
			return c.deref(e)
		}
		t := c.expr(e.X)
		want := Type{Kind: Bool}
		if e.Op == syntax.SUB {
			want = Type{Kind: Int}
		}
		if t.Kind != want.Kind && t.Kind != Invalid {
			c.errorf(e.Pos, "operator %s needs %s, not %s", opName(e.Op), want, t)
		}
		return want
	case *syntax.BinaryExpr:
		x, y := c.expr(e.X), c.expr(e.Y)
		switch e.Op {
		case syntax.LAND, syntax.LOR:
			c.operands(e, x, y, Bool)
			return Type{Kind: Bool}
		case syntax.EQL, syntax.NEQ:
			if !assignable(x, y) && !assignable(y, x) {
				c.errorf(e.OpPos, "cannot compare %s with %s", x, y)
			}
			return Type{Kind: Bool}
		case syntax.LSS, syntax.LEQ, syntax.GTR, syntax.GEQ:
			c.operands(e, x, y, Int)
			return Type{Kind: Bool}
		default:
			c.operands(e, x, y, Int)
			return Type{Kind: Int}
		}
	case *syntax.SelectorExpr:
		t := c.expr(e.X)
		if t.Kind == Invalid {
			return Type{}
		}
		if t.Kind == Word {
			return c.wordField(e, t.Word)
		}
		if t.Kind == Ref && t.Union != nil {
			return c.unionField(e, t)
		}
		if t.Kind != Ref {
			c.errorf(e.Sel.Pos, "cannot select field %s of a value of type %s", e.Sel.Name, t)
			return Type{}
		}
		var names []string
		for _, f := range t.Node.Fields {
			if f.Name == e.Sel.Name {
				c.info.Fields[e] = f
				c.checkArrayField(e, f)
				return f.Type
			}
			names = append(names, f.Name)
		}
		c.errorf(e.Sel.Pos, "%s has no field %s%s", t.Node.Name, e.Sel.Name, hint(e.Sel.Name, names))
		return Type{}
	case *syntax.IndexExpr:
		if sel, ok := syntax.Unparen(e.X).(*syntax.SelectorExpr); ok {
			return c.fieldIndex(e, sel)
		}
		return c.index(e)
	case *syntax.CallExpr:
		if p := c.proc(e.Fun.Name); p != nil {
			return c.callValue(e, p)
		}
		if w := c.word(e.Fun.Name); w != nil {
			return c.build(e, w)
		}
		if code, ok := intop.Parse(e.Fun.Name); ok {
			return c.intop(e, code)
		}
		switch e.Fun.Name {
		case "cas":
			return c.cas(e)
		case "swap", "faa":
			return c.rmw(e)
		}
		names := []string{"cas", "swap", "faa"}
		for _, p := range c.obj.Procs {
			names = append(names, p.Name)
		}
		procs := len(names) - 3
		for _, w := range c.obj.Words {
			names = append(names, w.Name)
		}
		if procs == 0 {
			c.errorf(e.Fun.Pos, "unknown function %s; the builtin functions are %s%s", e.Fun.Name, builtinFuncList, hint(e.Fun.Name, names))
		} else {
			c.errorf(e.Fun.Pos, "unknown function %s; the builtin functions are %s, the procedures %s%s", e.Fun.Name, builtinFuncList, strings.Join(names[3:procs+3], ", "), hint(e.Fun.Name, names))
		}
		for _, a := range e.Args {
			c.expr(a)
		}
		return Type{}
	case *syntax.TestExpr:
		return c.test(e)
	case *syntax.AnyExpr:
		r := Type{Kind: Int}
		for _, b := range []syntax.Expr{e.Lo, e.Hi} {
			if t := c.expr(b); t.Kind != Int && t.Kind != Invalid || !c.isConst(b) {
				c.errorf(b.Start(), "the bounds of any must be constant int expressions (literals and nthreads)")
			}
		}
		return r
	case *syntax.NewExpr:
		var h *Heap
		var names []string
		for _, hh := range c.obj.Heaps {
			if hh.Name == e.Type.Name {
				h = hh
			}
			names = append(names, hh.Name)
		}
		if h == nil {
			c.errorf(e.Type.Pos, "undefined heap type %s%s", e.Type.Name, hint(e.Type.Name, names))
			for _, fi := range e.Inits {
				c.expr(fi.Value)
			}
			return Type{}
		}
		c.info.Heaps[e] = h
		for _, fi := range e.Inits {
			vt := c.expr(fi.Value)
			var f *Field
			var fnames []string
			for _, ff := range h.Fields {
				if ff.Name == fi.Name.Name {
					f = ff
				}
				fnames = append(fnames, ff.Name)
			}
			if f == nil {
				c.errorf(fi.Name.Pos, "%s has no field %s%s", h.Name, fi.Name.Name, hint(fi.Name.Name, fnames))
			} else if f.Elems > 0 {
				c.errorf(fi.Name.Pos, "%s is an array field: it starts zeroed; assign its elements after new", f.Name)
			} else if !assignable(f.Type, vt) {
				c.errorf(fi.Value.Start(), "cannot initialise field %s (%s) with %s", f.Name, f.Type, vt)
			}
		}
		return Type{Kind: Ref, Node: h}
	}
	return Type{}
}

// builtinFuncs are the names of the builtin functions, which no
// declaration may take; builtinFuncList lists them for messages.
var builtinFuncs = map[string]bool{"cas": true, "swap": true, "faa": true}

const builtinFuncList = "cas(location, expected, new), swap(location, new) and faa(location, delta)"

// cas checks `cas(location, expected, new)`.
func (c *checker) cas(e *syntax.CallExpr) Type {
	if len(e.Args) != 3 {
		c.errorf(e.Fun.Pos, "cas takes 3 arguments (location, expected, new), got %d", len(e.Args))
		for _, a := range e.Args {
			c.expr(a)
		}
		return Type{Kind: Bool}
	}
	lt := c.lvalue(e.Args[0])
	for _, a := range e.Args[1:] {
		if at := c.expr(a); !assignable(lt, at) {
			c.errorf(a.Start(), "cas: %s does not match the location's type %s", at, lt)
		}
	}
	return Type{Kind: Bool}
}

// rmw checks the atomic read-modify-writes `swap(location, new)` (store
// new, give the old value) and `faa(location, delta)` (add delta to an
// int, give the old value). Their value is the location's type without
// its range (a local that keeps it declares it).
func (c *checker) rmw(e *syntax.CallExpr) Type {
	name := e.Fun.Name
	second := "new"
	if name == "faa" {
		second = "delta"
	}
	if len(e.Args) != 2 {
		c.errorf(e.Fun.Pos, "%s takes 2 arguments (location, %s), got %d", name, second, len(e.Args))
		for _, a := range e.Args {
			c.expr(a)
		}
		return Type{}
	}
	lt := c.lvalue(e.Args[0])
	at := c.expr(e.Args[1])
	switch {
	case lt.Kind == Word:
		c.errorf(e.Args[0].Start(), "%s on the word %s: a word is swapped whole with cas; read it, then cas(location, old, new)", name, lt)
		return Type{}
	case name == "faa" && lt.Kind != Int && lt.Kind != Invalid:
		c.errorf(e.Args[0].Start(), "faa adds to an int location, not to %s", lt)
		return Type{}
	case name == "faa" && at.Kind != Int && at.Kind != Invalid:
		c.errorf(e.Args[1].Start(), "faa: the delta must be an int, not %s", at)
	case name == "swap" && !assignable(lt, at):
		c.errorf(e.Args[1].Start(), "swap: %s does not match the location's type %s", at, lt)
	}
	lt.HasRange, lt.Wrap = false, false
	return lt
}

func (c *checker) operands(e *syntax.BinaryExpr, x, y Type, want Kind) {
	for _, t := range []Type{x, y} {
		if t.Kind != want && t.Kind != Invalid {
			c.errorf(e.OpPos, "operator %s needs %s operands, not %s", opName(e.Op), Type{Kind: want}, t)
			return
		}
	}
}

func (c *checker) matchSpec(impl, spec *Object, s *syntax.Spec) {
	for _, m := range impl.Methods {
		sm := spec.Method(m.Name)
		if sm == nil {
			c.errorf(s.Body.Name.Pos, "spec %s lacks method %s of %s", spec.Name, m.Name, impl.Name)
			continue
		}
		same := len(m.Params) == len(sm.Params) && m.Result.Kind == sm.Result.Kind && (len(m.Results) < 2 && len(sm.Results) < 2 || m.resultString() == sm.resultString())
		for i := 0; same && i < len(m.Params); i++ {
			same = m.Params[i].Type.Kind == sm.Params[i].Type.Kind
		}
		if !same {
			c.errorf(sm.Decl.Name.Pos, "spec method %s has a different signature from %s.%s", sm.Name, impl.Name, m.Name)
		}
	}
	for _, sm := range spec.Methods {
		if impl.Method(sm.Name) == nil {
			c.errorf(sm.Decl.Name.Pos, "spec method %s is not a method of %s", sm.Name, impl.Name)
		}
	}
}

func (c *checker) client(cl *syntax.Client, impl *Object) {
	if cl == nil {
		return
	}
	var names []string
	for _, m := range impl.Methods {
		names = append(names, m.Name)
	}
	for _, o := range cl.Only {
		if o.Thread < 1 {
			c.errorf(o.Pos, "only: threads are numbered from 1, got %d", o.Thread)
		}
		for _, id := range o.Methods {
			if impl.Method(id.Name) == nil {
				c.errorf(id.Pos, "only: %s has no method %s%s", impl.Name, id.Name, hint(id.Name, names))
			}
		}
	}
	if cl.ThreadPos.IsValid() && (cl.Threads < 1 || cl.Threads > 16) {
		c.errorf(cl.ThreadPos, "threads must be between 1 and 16, got %d", cl.Threads)
	}
	if cl.OpsPos.IsValid() && cl.Ops == 0 {
		c.errorf(cl.OpsPos, "ops must be at least 1 (or forever)")
	}
}

// hint returns " (did you mean X?)" for the candidate closest to name, or "".
func hint(name string, candidates []string) string {
	best, bestD := "", 1+len(name)/3
	if bestD < 2 {
		bestD = 2
	}
	for _, c := range candidates {
		if c == name {
			continue
		}
		if d := levenshtein(name, c); d < bestD || d == bestD && best == "" {
			if d <= bestD {
				best, bestD = c, d
			}
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// opName is an operator as written in source, without quotes.
func opName(t syntax.Token) string { return strings.Trim(t.String(), "'") }

// proc returns the procedure called name, or nil.
func (c *checker) proc(name string) *Method {
	for _, p := range c.obj.Procs {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// procCallOf returns e as a call of a procedure, or nil.
func (c *checker) procCallOf(e syntax.Expr) *syntax.CallExpr {
	if call, ok := e.(*syntax.CallExpr); ok && c.proc(call.Fun.Name) != nil {
		return call
	}
	return nil
}

// call checks a procedure call's arguments and returns its result types.
func (c *checker) call(call *syntax.CallExpr) []Type {
	p := c.proc(call.Fun.Name)
	c.info.Calls[call] = p
	if c.method != nil && c.method.Proc {
		c.calls[c.method] = append(c.calls[c.method], procCall{callee: p, pos: call.Fun.Pos})
	}
	if len(call.Args) != len(p.paramTypes) {
		c.errorf(call.Fun.Pos, "procedure %s takes %d arguments, got %d", p.Name, len(p.paramTypes), len(call.Args))
	}
	for i, a := range call.Args {
		at := c.expr(a)
		if i < len(p.paramTypes) && !assignable(p.paramTypes[i], at) {
			c.errorf(a.Start(), "argument %d of %s: cannot pass %s as %s", i+1, p.Name, at, p.paramTypes[i])
		}
	}
	return p.Results
}

// localTarget reports whether the assignment target e is a local
// variable or parameter.
func (c *checker) localTarget(e syntax.Expr) bool {
	id, ok := syntax.Unparen(e).(*syntax.Ident)
	if !ok {
		return false
	}
	v := c.lookup(id.Name)
	return v != nil && (v.Kind == LocalVar || v.Kind == ParamVar) && !v.IsArray()
}

// callValue checks a procedure call inside an expression, which gives
// the procedure's one result (the compiler inlines the call before the
// statement, into a temporary; inside && and || only when the left side
// lets the right be evaluated).
func (c *checker) callValue(e *syntax.CallExpr, p *Method) Type {
	results := c.call(e)
	switch {
	case c.method == nil:
		return Type{} // a constant context reports it
	case c.awaitCond:
		c.errorf(e.Fun.Pos, "a call of procedure %s in an await condition: the condition is re-evaluated until it holds, the call's steps are not; compute it in a loop (while !%s(…) { }) or in an atomic block", p.Name, p.Name)
		return Type{}
	case len(results) == 0:
		c.errorf(e.Fun.Pos, "procedure %s has no result, so its call has no value; call it as a statement", p.Name)
		return Type{}
	case len(results) > 1:
		c.errorf(e.Fun.Pos, "procedure %s returns %d values; a call inside an expression gives one (call it as the whole right side of x, y := %s(…))", p.Name, len(results), p.Name)
		return Type{}
	}
	t := results[0]
	t.HasRange, t.Wrap = false, false
	return t
}

// countResults reports whether a call of p gives n values.
func (c *checker) countResults(call *syntax.CallExpr, p *Method, n int) bool {
	if len(p.Results) == n {
		return true
	}
	if len(p.Results) == 0 {
		c.errorf(call.Start(), "procedure %s has no result", p.Name)
	} else {
		c.errorf(call.Start(), "procedure %s returns %d values, not %d", p.Name, len(p.Results), n)
	}
	return false
}

// callResults checks the right side of a statement that takes n results:
// value, which must be the procedure call call (nil if it is not one). It
// returns the results' types, or nil after reporting why there are none.
func (c *checker) callResults(value syntax.Expr, call *syntax.CallExpr, n int) []Type {
	if call == nil {
		c.expr(value)
		c.errorf(value.Start(), "only a procedure call gives several values")
		return nil
	}
	results := c.call(call)
	if !c.countResults(call, c.proc(call.Fun.Name), n) {
		return nil
	}
	return results
}

// defineResults checks `x, y := p(…)` (or `x := p(…)`).
func (c *checker) defineResults(s *syntax.DefineStmt, call *syntax.CallExpr) {
	names := append([]*syntax.Ident{s.Name}, s.Rest...)
	results := c.callResults(s.Value, call, len(names))
	for i, id := range names {
		var t Type
		if results != nil {
			t = results[i]
			t.HasRange, t.Wrap, t.Tid = false, false, false
		}
		v := c.declareLocal(id, t, LocalVar)
		c.info.Uses[id] = v
		if i == 0 {
			c.info.Defs[s] = v
		}
	}
}

// assignResults checks `x, y = p(…)` (or `x = p(…)`): the results go to
// locals only, which the inlined procedure's return assigns.
func (c *checker) assignResults(s *syntax.AssignStmt, call *syntax.CallExpr) {
	lhs := append([]syntax.Expr{s.LHS}, s.Rest...)
	results := c.callResults(s.Value, call, len(lhs))
	for i, l := range lhs {
		lt := c.lvalue(l)
		id, ok := l.(*syntax.Ident)
		if v := c.info.Uses[id]; !ok || v == nil || v.Kind != LocalVar && v.Kind != ParamVar {
			c.errorf(l.Start(), "the results of a procedure call can be assigned to local variables only")
			continue
		}
		if results != nil && !assignable(lt, results[i]) {
			c.errorf(l.Start(), "cannot assign a value of type %s to a location of type %s", results[i], lt)
		}
	}
}

// returnResults checks a return in a procedure, or a return of several
// values anywhere.
func (c *checker) returnResults(s *syntax.ReturnStmt) {
	var vals []syntax.Expr
	if s.Value != nil {
		vals = append([]syntax.Expr{s.Value}, s.Rest...)
	}
	m := c.method
	what := "procedure"
	if !m.Proc {
		what = "method"
		if len(m.Results) < 2 {
			for _, v := range vals {
				c.expr(v)
			}
			c.errorf(s.Rest[0].Start(), "method %s returns one value; declare a tuple result (T, U) to return several", m.Name)
			return
		}
	}
	for i, v := range vals {
		t := c.expr(v)
		if i < len(m.Results) && !assignable(m.Results[i], t) {
			c.errorf(v.Start(), "cannot return %s from %s %s (it returns %s)", t, what, m.Name, m.resultString())
		}
	}
	if len(vals) != len(m.Results) {
		if len(m.Results) == 0 {
			c.errorf(s.Pos, "procedure %s has no result; remove the return value", m.Name)
		} else {
			c.errorf(s.Pos, "%s %s returns %s: %d values, not %d", what, m.Name, m.resultString(), len(m.Results), len(vals))
		}
	}
}

// recursion reports every cycle of procedure calls: procedures are inlined
// where they are called, so none may call itself, directly or not.
func (c *checker) recursion(procs []*Method) {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[*Method]int{}
	var path []*Method
	var visit func(p *Method)
	visit = func(p *Method) {
		state[p] = onPath
		path = append(path, p)
		for _, call := range c.calls[p] {
			switch state[call.callee] {
			case unseen:
				visit(call.callee)
			case onPath:
				var names []string
				for i := len(path) - 1; i >= 0; i-- {
					names = append([]string{path[i].Name}, names...)
					if path[i] == call.callee {
						break
					}
				}
				names = append(names, call.callee.Name)
				c.errorf(call.pos, "recursive call: %s; procedures are inlined, so their calls may not form a cycle", strings.Join(names, " → "))
			}
		}
		path = path[:len(path)-1]
		state[p] = done
	}
	for _, p := range procs {
		if state[p] == unseen {
			visit(p)
		}
	}
}
