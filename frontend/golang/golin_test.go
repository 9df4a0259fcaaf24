package golang

import (
	"errors"
	"fmt"
	"strings"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// goPrinter prints a model of the modeling language as a Go type with the
// same steps, for the oracle that holds the Go front end to the .lin one
// (TestRandomTwins): every shared variable and node field becomes an
// atomic (so every shared access is one Load, Store or CompareAndSwap,
// one step, as the model's), procedures become methods, the init block a
// constructor NewT. A model that Go cannot say with the same steps is
// refused (errInexpressible): a statement with two shared accesses (one
// step in the model, two in Go), atomic blocks of more than one access,
// await, choose, any, tid, arrays, words, ranges, explicit memory. A
// loc (&X, &n.next, *l, cas(*l, …)) is a pointer to the atomic it refers
// to; one kept in a shared location (L = l) is kept in an atomic.Pointer
// of that atomic type, or in printGo's plain mode in a plain field (a
// loc field of the translation either way).
type goPrinter struct {
	info *check.Info
	// labelled: the loops some break or continue names (Go refuses a
	// label that nothing uses).
	labelled map[*syntax.WhileStmt]bool
	// plain: the shared variables and fields (by name) printed as plain Go
	// fields, loaded and stored without atomics (printGo's plain mode:
	// those no cas touches).
	plain  map[string]bool
	suffix string // makes the type names of one program unique in a package
	out    strings.Builder
	indent int
	err    error
}

var errInexpressible = errors.New("not expressible in Go with the same steps")

func (p *goPrinter) fail(what string) {
	if p.err == nil {
		p.err = fmt.Errorf("%w: %s", errInexpressible, what)
	}
}

func (p *goPrinter) line(format string, args ...any) {
	p.out.WriteString(strings.Repeat("\t", p.indent))
	fmt.Fprintf(&p.out, format, args...)
	p.out.WriteByte('\n')
}

// printGo prints the model's object as Go type Rand<suffix>; it returns
// the type's name, the client's methods and the Go source (declarations
// only, for a package that holds several).
//
// With plain, the shared variables and fields that no cas touches are
// plain Go fields (racy where two threads reach them unsynchronised).
func printGo(m *frontend.Model, suffix string, plain bool) (typ string, methods []string, src string, err error) {
	prog := m.Program
	obj := prog.Impl.Decl
	p := &goPrinter{info: prog.Info, suffix: suffix, labelled: map[*syntax.WhileStmt]bool{}, plain: map[string]bool{}}
	if plain {
		for _, v := range obj.Shared {
			p.plain[v.Name.Name] = true
		}
		for _, h := range obj.Heaps {
			for _, f := range h.Fields {
				p.plain[f.Name.Name] = true
			}
		}
		for e := range prog.Info.Types {
			if call, ok := e.(*syntax.CallExpr); ok && prog.Info.Calls[call] == nil && call.Fun.Name == "cas" {
				switch loc := call.Args[0].(type) {
				case *syntax.Ident:
					delete(p.plain, loc.Name)
				case *syntax.SelectorExpr:
					delete(p.plain, loc.Sel.Name)
				}
			}
			// A location whose address is taken is an atomic: a loc may
			// be cas'd through, and every loc of one type is one Go type.
			if u, ok := e.(*syntax.UnaryExpr); ok && u.Op == syntax.AMP {
				switch loc := u.X.(type) {
				case *syntax.Ident:
					delete(p.plain, loc.Name)
				case *syntax.SelectorExpr:
					delete(p.plain, loc.Sel.Name)
				}
			}
		}
	}

	for br, loop := range prog.Info.Loops {
		if br.Label != nil {
			p.labelled[loop] = true
		}
	}
	if obj.Explicit.IsValid() || len(obj.Words) > 0 {
		return "", nil, "", fmt.Errorf("%w: explicit memory or words", errInexpressible)
	}
	typ = "Rand" + suffix
	for _, h := range obj.Heaps {
		p.line("type %s struct {", p.heapName(h.Name.Name))
		p.indent++
		for _, f := range h.Fields {
			p.line("%s %s", f.Name.Name, p.fieldType(f.Name.Name, f.Type))
		}
		p.indent--
		p.line("}")
		// A constructor per heap type: the private stores are local work.
		var params, stores []string
		for _, f := range h.Fields {
			params = append(params, f.Name.Name+" "+p.goType(f.Type))
			stores = append(stores, p.store("n", f.Name.Name, f.Name.Name))
		}
		p.line("func new%s(%s) *%s { n := &%s{}; %s; return n }", p.heapName(h.Name.Name), strings.Join(params, ", "),
			p.heapName(h.Name.Name), p.heapName(h.Name.Name), strings.Join(stores, "; "))
	}
	p.line("type %s struct {", typ)
	p.indent++
	for _, v := range obj.Shared {
		if v.Type.Len != nil || len(v.Type.ThreadDims) > 0 {
			p.fail("shared array")
		}
		p.line("%s %s", v.Name.Name, p.fieldType(v.Name.Name, v.Type))
	}
	p.indent--
	p.line("}")
	// The constructor: the shared variables' initial values, then the init
	// block.
	p.line("func New%s() *%s {", typ, typ)
	p.indent++
	p.line("s := &%s{}", typ)
	for _, v := range obj.Shared {
		if v.Init != nil {
			p.line("%s", p.store("s", v.Name.Name, p.expr(v.Init)))
		}
	}
	if obj.Init != nil {
		p.block(obj.Init.Body.Stmts)
	}
	p.line("return s")
	p.indent--
	p.line("}")
	for _, pr := range obj.Procs {
		p.method(typ, pr)
	}
	for _, me := range obj.Methods {
		p.method(typ, me)
		methods = append(methods, me.Name.Name)
	}
	return typ, methods, p.out.String(), p.err
}

func (p *goPrinter) heapName(name string) string { return name + p.suffix }

// goType is the Go type of a value of model type t.
func (p *goPrinter) goType(t *syntax.Type) string {
	if t.Lo != nil || t.Len != nil || len(t.ThreadDims) > 0 {
		p.fail("a range or an array")
	}
	switch t.Kind {
	case syntax.TInt:
		return "int64"
	case syntax.TBool:
		return "bool"
	case syntax.TRef:
		if len(t.Refs) > 0 {
			p.fail("a union")
		}
		return "*" + p.heapName(t.Ref.Name)
	case syntax.TLoc: // a pointer to the atomic it refers to
		return "*" + p.atomicType(t.Elem)
	}
	p.fail("type " + fmt.Sprint(t.Kind))
	return "int64"
}

// fieldType is the Go type of the shared location name, of model type t.
func (p *goPrinter) fieldType(name string, t *syntax.Type) string {
	if p.plain[name] {
		return p.goType(t)
	}
	return p.atomicType(t)
}

// load and store print an access to field name of base.
func (p *goPrinter) load(base, name string) string {
	if p.plain[name] {
		return base + "." + name
	}
	return base + "." + name + ".Load()"
}

func (p *goPrinter) store(base, name, x string) string {
	if p.plain[name] {
		return fmt.Sprintf("%s.%s = %s", base, name, x)
	}
	return fmt.Sprintf("%s.%s.Store(%s)", base, name, x)
}

// atomicType is the Go type of a shared location of model type t.
func (p *goPrinter) atomicType(t *syntax.Type) string {
	switch g := p.goType(t); {
	case g == "int64":
		return "atomic.Int64"
	case g == "bool":
		return "atomic.Bool"
	default:
		return "atomic.Pointer[" + g[1:] + "]"
	}
}

func (p *goPrinter) method(typ string, m *syntax.Method) {
	var params []string
	for _, f := range m.Params {
		params = append(params, f.Name.Name+" "+p.goType(f.Type))
	}
	result := ""
	switch {
	case m.Result != nil:
		result = " " + p.goType(m.Result)
	case len(m.Tuple) > 0:
		var rs []string
		for _, t := range m.Tuple {
			if t.Lo != nil {
				// The model packs a method's tuple into one value, whose
				// ranges Go does not have.
				p.fail("a tuple of ranges")
			}
			rs = append(rs, p.goType(t))
		}
		result = " (" + strings.Join(rs, ", ") + ")"
	}
	p.line("func (s *%s) %s(%s)%s {", typ, m.Name.Name, strings.Join(params, ", "), result)
	p.indent++
	for _, f := range m.Params {
		p.line("_ = %s", f.Name.Name)
	}
	p.block(m.Body.Stmts)
	if result != "" {
		p.line(`panic("fell off")`)
	}
	p.indent--
	p.line("}")
}

func (p *goPrinter) block(stmts []syntax.Stmt) {
	for _, s := range stmts {
		p.stmt(s)
	}
}

// accesses counts the shared accesses of an expression: reads of shared
// variables, field accesses, cas.
func (p *goPrinter) accesses(e syntax.Expr) int {
	switch e := e.(type) {
	case nil:
		return 0
	case *syntax.Ident:
		if v := p.info.Uses[e]; v != nil && v.Kind == check.SharedVar {
			return 1
		}
	case *syntax.ParenExpr:
		return p.accesses(e.X)
	case *syntax.UnaryExpr:
		switch e.Op {
		case syntax.AMP: // an address: its base read, the location not
			return p.accesses(base(e.X))
		case syntax.MUL: // the location a loc refers to
			return 1 + p.accesses(e.X)
		}
		return p.accesses(e.X)
	case *syntax.BinaryExpr:
		return p.accesses(e.X) + p.accesses(e.Y)
	case *syntax.SelectorExpr:
		return 1 + p.accesses(e.X)
	case *syntax.CallExpr:
		if p.info.Calls[e] != nil {
			// Each argument is assigned to its parameter by an
			// instruction of its own, in both front ends; the body's
			// statements are checked where the procedure is printed.
			for _, a := range e.Args {
				p.oneStep(a)
			}
			return 0
		}
		n := 1 // cas
		for _, a := range e.Args[1:] {
			n += p.accesses(a)
		}
		return n + p.accesses(base(e.Args[0]))
	case *syntax.NewExpr:
		n := 0
		for _, fi := range e.Inits {
			n += p.accesses(fi.Value)
		}
		return n
	}
	return 0
}

// base is the node expression of a field location, nil for a variable.
func base(e syntax.Expr) syntax.Expr {
	if s, ok := e.(*syntax.SelectorExpr); ok {
		return s.X
	}
	return nil
}

// oneStep fails unless the expressions make at most one shared access.
func (p *goPrinter) oneStep(es ...syntax.Expr) {
	n := 0
	for _, e := range es {
		n += p.accesses(e)
	}
	if n > 1 {
		p.fail("a statement with several shared accesses")
	}
}

func (p *goPrinter) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.Block:
		p.line("{")
		p.indent++
		p.block(s.Stmts)
		p.indent--
		p.line("}")
	case *syntax.DefineStmt:
		p.oneStep(s.Value)
		names := []string{s.Name.Name}
		for _, r := range s.Rest {
			names = append(names, r.Name)
		}
		if v := p.info.Defs[s]; len(names) == 1 && v != nil && v.Type.Kind == check.Int {
			p.line("var %s int64 = %s", names[0], p.expr(s.Value)) // not Go's int
		} else {
			p.line("%s := %s", strings.Join(names, ", "), p.expr(s.Value))
		}
		for _, n := range names {
			p.line("_ = %s", n)
		}
	case *syntax.VarStmt:
		p.oneStep(s.Value)
		val := ""
		if s.Value != nil {
			val = " = " + p.expr(s.Value)
		}
		p.line("var %s %s%s", s.Name.Name, p.goType(s.Type), val)
		p.line("_ = %s", s.Name.Name)
	case *syntax.AssignStmt:
		if len(s.Rest) > 0 {
			p.oneStep(s.Value)
			lhs := []string{p.expr(s.LHS)}
			for _, r := range s.Rest {
				if p.accesses(r) > 0 {
					p.fail("a tuple assigned to shared locations")
				}
				lhs = append(lhs, p.expr(r))
			}
			p.line("%s = %s", strings.Join(lhs, ", "), p.expr(s.Value))
			return
		}
		switch l := s.LHS.(type) {
		case *syntax.Ident:
			if v := p.info.Uses[l]; v != nil && v.Kind == check.SharedVar {
				p.oneStep(l, s.Value)
				p.line("%s", p.store("s", l.Name, p.expr(s.Value)))
				return
			}
			p.oneStep(s.Value)
			p.line("%s = %s", l.Name, p.expr(s.Value))
		case *syntax.SelectorExpr:
			p.oneStep(l, s.Value)
			p.line("%s", p.store(p.expr(l.X), l.Sel.Name, p.expr(s.Value)))
		case *syntax.UnaryExpr: // *l = e: through a loc, to an atomic
			p.oneStep(l, s.Value)
			p.line("%s.Store(%s)", p.expr(l.X), p.expr(s.Value))
		default:
			p.fail("an assignment to an element")
		}
	case *syntax.ExprStmt:
		p.oneStep(s.X)
		p.line("_ = %s", p.expr(s.X))
	case *syntax.IfStmt:
		p.oneStep(s.Cond)
		p.line("if %s {", p.expr(s.Cond))
		p.indent++
		p.block(s.Then.Stmts)
		p.indent--
		for els := s.Else; els != nil; {
			switch e := els.(type) {
			case *syntax.IfStmt:
				p.oneStep(e.Cond)
				p.line("} else if %s {", p.expr(e.Cond))
				p.indent++
				p.block(e.Then.Stmts)
				p.indent--
				els = e.Else
			case *syntax.Block:
				p.line("} else {")
				p.indent++
				p.block(e.Stmts)
				p.indent--
				els = nil
			}
		}
		p.line("}")
	case *syntax.WhileStmt:
		p.oneStep(s.Cond)
		label := ""
		if s.Label != nil && p.labelled[s] {
			label = s.Label.Name + ": "
		}
		cond := p.expr(s.Cond)
		if cond == "true" {
			cond = ""
		} else {
			cond += " "
		}
		p.line("%sfor %s{", label, cond)
		p.indent++
		p.block(s.Body.Stmts)
		p.indent--
		p.line("}")
	case *syntax.BranchStmt:
		word := "break"
		if s.Tok == syntax.CONTINUE {
			word = "continue"
		}
		if s.Label != nil {
			word += " " + s.Label.Name
		}
		p.line("%s", word)
	case *syntax.ReturnStmt:
		vals := []syntax.Expr{}
		if s.Value != nil {
			vals = append(vals, s.Value)
		}
		vals = append(vals, s.Rest...)
		p.oneStep(vals...)
		for _, v := range vals {
			if p.accesses(v) > 0 {
				// The model reads it in the ret step itself; Go loads,
				// then returns: two steps.
				p.fail("a return that reads shared state")
			}
		}
		var xs []string
		for _, v := range vals {
			xs = append(xs, p.expr(v))
		}
		p.line("return %s", strings.Join(xs, ", "))
	case *syntax.AssertStmt:
		p.oneStep(s.Cond)
		p.line(`if !(%s) { panic("assertion failed") }`, p.expr(s.Cond))
	case *syntax.AtomicStmt:
		if len(s.Body.Stmts) != 1 {
			p.fail("an atomic block of several statements")
			return
		}
		p.stmt(s.Body.Stmts[0])
	case *syntax.SkipStmt:
	default:
		p.fail(fmt.Sprintf("%T", s))
	}
}

// expr prints an expression; shared accesses become atomic operations.
func (p *goPrinter) expr(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.IntLit:
		return fmt.Sprint(e.Value)
	case *syntax.BoolLit:
		return fmt.Sprint(e.Value)
	case *syntax.NullLit:
		return "nil"
	case *syntax.ParenExpr:
		return "(" + p.expr(e.X) + ")"
	case *syntax.Ident:
		v := p.info.Uses[e]
		switch {
		case v == nil:
			p.fail("an unresolved name")
		case v.Kind == check.SharedVar:
			return p.load("s", e.Name)
		case v.Kind == check.BuiltinEmpty:
			return "(-1 << 30)"
		case v.Kind == check.BuiltinTid || v.Kind == check.BuiltinNThreads:
			p.fail("tid or nthreads")
		}
		return e.Name
	case *syntax.UnaryExpr:
		switch e.Op {
		case syntax.AMP: // &X, &n.f: the address of an atomic
			if sel, ok := e.X.(*syntax.SelectorExpr); ok {
				return "&" + p.expr(sel.X) + "." + sel.Sel.Name
			}
			return "&s." + p.ident(e.X)
		case syntax.MUL: // *l
			return p.expr(e.X) + ".Load()"
		}
		op := map[syntax.Token]string{syntax.NOT: "!", syntax.SUB: "-", syntax.ADD: "+"}[e.Op]
		return op + p.expr(e.X)
	case *syntax.BinaryExpr:
		ops := map[syntax.Token]string{syntax.ADD: "+", syntax.SUB: "-", syntax.MUL: "*", syntax.QUO: "/", syntax.REM: "%",
			syntax.EQL: "==", syntax.NEQ: "!=", syntax.LSS: "<", syntax.LEQ: "<=", syntax.GTR: ">", syntax.GEQ: ">=",
			syntax.LAND: "&&", syntax.LOR: "||"}
		op, ok := ops[e.Op]
		if !ok {
			p.fail("operator " + e.Op.String())
		}
		return fmt.Sprintf("%s %s %s", p.expr(e.X), op, p.expr(e.Y))
	case *syntax.SelectorExpr:
		return p.load(p.expr(e.X), e.Sel.Name)
	case *syntax.CallExpr:
		var args []string
		if p.info.Calls[e] != nil {
			for _, a := range e.Args {
				args = append(args, p.expr(a))
			}
			return fmt.Sprintf("s.%s(%s)", e.Fun.Name, strings.Join(args, ", "))
		}
		var loc string
		switch a := e.Args[0].(type) {
		case *syntax.SelectorExpr:
			loc = p.expr(a.X) + "." + a.Sel.Name
		case *syntax.UnaryExpr: // cas(*l, …): through a loc
			loc = p.expr(a.X)
		default:
			loc = "s." + p.ident(a)
		}
		return fmt.Sprintf("%s.CompareAndSwap(%s, %s)", loc, p.expr(e.Args[1]), p.expr(e.Args[2]))
	case *syntax.NewExpr:
		h := p.info.Heaps[e]
		var args []string
		for _, f := range h.Fields {
			x := zeroOf(f.Type.Kind)
			for _, fi := range e.Inits {
				if fi.Name.Name == f.Name {
					x = p.expr(fi.Value)
				}
			}
			args = append(args, x)
		}
		return fmt.Sprintf("new%s(%s)", p.heapName(h.Name), strings.Join(args, ", "))
	}
	p.fail(fmt.Sprintf("expression %T", e))
	return "0"
}

func (p *goPrinter) ident(e syntax.Expr) string {
	if id, ok := e.(*syntax.Ident); ok {
		return id.Name
	}
	p.fail("a cas on an element")
	return "x"
}

func zeroOf(k check.Kind) string {
	switch k {
	case check.Bool:
		return "false"
	case check.Ref:
		return "nil"
	}
	return "0"
}
