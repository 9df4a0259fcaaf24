package syntax

import "fmt"

// maxErrors bounds the syntax errors reported for one file.
const maxErrors = 20

type bailout struct{}

// Parse parses a model file. On error it returns the partial model and an
// ErrorList with every syntax error found (one per line at most).
func Parse(filename string, src []byte) (m *Model, err error) {
	p := &parser{}
	p.file = NewFile(filename, src)
	p.s = scanner{file: p.file, src: src, errs: &p.errs}
	m = &Model{File: p.file}
	defer func() {
		r := recover()
		if r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
		p.errs.RemoveMultiples()
		if r != nil {
			// As go/scanner's ErrorList: a file that is not a model at
			// all gets a screenful, not one error per line.
			last := p.errs[len(p.errs)-1].Pos
			p.errs = append(p.errs, &Error{Pos: last, Msg: "too many errors: the rest of the file is not checked"})
		}
		err = p.errs.Err()
	}()
	p.next()
	p.parseFile(m)
	return m, nil
}

type parser struct {
	prevEnd int // end offset of the last consumed token
	file    *File
	s       scanner
	errs    ErrorList
	tok     Token
	pos     Pos
	lit     string
}

func (p *parser) next() {
	p.prevEnd = p.s.off
	p.s.next()
	p.tok, p.pos, p.lit = p.s.tok, p.s.pos, p.s.lit
}

func (p *parser) errorAt(pos Pos, msg string) {
	p.errs.Add(p.file.Position(pos), msg)
	if len(p.errs) >= maxErrors {
		panic(bailout{})
	}
}

func (p *parser) found() string {
	switch p.tok {
	case IDENT:
		return "identifier " + p.lit
	case INT:
		return "integer " + p.lit
	case SEMI:
		if p.lit == "newline" || p.lit == "EOF" {
			return p.lit
		}
		return "';'"
	}
	if p.tok.IsKeyword() {
		return "keyword " + p.tok.String()
	}
	return p.tok.String()
}

func (p *parser) errorExpected(what string) {
	p.errorAt(p.pos, fmt.Sprintf("expected %s, found %s", what, p.found()))
}

// expect consumes tok or reports an error; it returns tok's position.
func (p *parser) expect(tok Token) Pos {
	pos := p.pos
	if p.tok != tok {
		p.errorExpected(tok.String())
		return pos
	}
	p.next()
	return pos
}

func (p *parser) got(tok Token) bool {
	if p.tok == tok {
		p.next()
		return true
	}
	return false
}

// skipTo advances to one of the given tokens (or EOF), for error recovery.
func (p *parser) skipTo(toks ...Token) {
	for p.tok != EOF {
		for _, t := range toks {
			if p.tok == t {
				return
			}
		}
		p.next()
	}
}

// endDecl expects the end of a declaration or statement inside braces.
func (p *parser) endDecl() {
	if p.tok == RBRACE || p.got(SEMI) {
		return
	}
	p.errorExpected("';' or newline")
	p.skipTo(SEMI, RBRACE)
	p.got(SEMI)
}

func (p *parser) ident() *Ident {
	id := &Ident{Pos: p.pos, Name: p.lit}
	if p.tok != IDENT {
		p.errorExpected("identifier")
		id.Name = "_"
		if p.tok != LBRACE && p.tok != RBRACE && p.tok != SEMI && p.tok != EOF {
			p.next()
		}
		return id
	}
	p.next()
	return id
}

func (p *parser) parseFile(m *Model) {
	for p.tok != EOF {
		switch p.tok {
		case SEMI:
			p.next()
		case OBJECT:
			pos := p.pos
			p.next()
			o := p.parseObjectBody(pos, p.ident())
			if m.Object != nil {
				p.errorAt(pos, "a model has one object; this is a second one")
			} else {
				m.Object = o
			}
		case SPEC:
			s := &Spec{Pos: p.pos}
			p.next()
			if p.got(AUTO) {
				s.Auto = true
			} else {
				s.Body = p.parseObjectBody(s.Pos, p.ident())
			}
			if m.Spec != nil {
				p.errorAt(s.Pos, "a model has one spec; this is a second one")
			} else {
				m.Spec = s
			}
		case CLIENT:
			c := p.parseClient()
			if m.Client != nil {
				p.errorAt(c.Pos, "a model has one client block; this is a second one")
			} else {
				m.Client = c
			}
		default:
			p.errorExpected("object, spec or client")
			p.next()
			p.skipTo(OBJECT, SPEC, CLIENT)
		}
	}
	if m.Object == nil && len(p.errs) == 0 {
		p.errorAt(p.pos, "expected an object declaration (object Name { ... })")
	}
}

func (p *parser) parseObjectBody(pos Pos, name *Ident) *Object {
	o := &Object{Pos: pos, Name: name}
	p.expect(LBRACE)
	for p.tok != RBRACE && p.tok != EOF {
		switch p.tok {
		case SEMI:
			p.next()
			continue
		case IDENT:
			// word is a keyword only here, before a type name, so that
			// models may keep it as a variable name.
			if p.lit != "word" {
				p.errorExpected("heap, word, shared, method, proc or init declaration")
				p.next()
				p.skipTo(HEAP, SHARED, METHOD, PROC, INIT, RBRACE)
				continue
			}
			o.Words = append(o.Words, p.parseWord())
		case HEAP:
			pos := p.pos
			p.next()
			if p.tok == IDENT && p.lit == "explicit" {
				if o.Explicit.IsValid() {
					p.errorAt(pos, "heap explicit given twice")
				}
				o.Explicit = pos
				p.next()
			} else {
				o.Heaps = append(o.Heaps, p.parseHeap(pos))
			}
		case SHARED:
			o.Shared = append(o.Shared, p.parseShared())
		case METHOD:
			o.Methods = append(o.Methods, p.parseMethod())
		case PROC:
			o.Procs = append(o.Procs, p.parseMethod())
		case INIT:
			m := &Method{Pos: p.pos, Name: &Ident{Pos: p.pos, Name: "init"}}
			p.next()
			m.Body = p.parseBlock()
			m.End = m.Body.End
			if o.Init != nil {
				p.errorAt(m.Pos, "a second init block; merge it into the first")
			} else {
				o.Init = m
			}
		default:
			p.errorExpected("heap, word, shared, method, proc or init declaration")
			p.next()
			p.skipTo(HEAP, SHARED, METHOD, PROC, INIT, RBRACE)
			continue
		}
		p.endDecl()
	}
	p.expect(RBRACE)
	return o
}

// parseHeap parses a heap declaration after its heap keyword, at pos.
func (p *parser) parseHeap(pos Pos) *HeapDecl {
	h := &HeapDecl{Pos: pos}
	h.Name = p.ident()
	h.Fields = p.parseFields()
	return h
}

// parseWord parses `word W { f T; … }`, at the word.
func (p *parser) parseWord() *WordDecl {
	w := &WordDecl{Pos: p.pos}
	p.next()
	w.Name = p.ident()
	w.Fields = p.parseFields()
	return w
}

// parseFields parses the braced field list of a heap or word declaration.
func (p *parser) parseFields() []*Field {
	var fields []*Field
	p.expect(LBRACE)
	for p.tok != RBRACE && p.tok != EOF {
		if p.got(SEMI) {
			continue
		}
		f := &Field{Name: p.fieldName()}
		f.Type = p.parseType()
		fields = append(fields, f)
		p.endDecl()
	}
	p.expect(RBRACE)
	return fields
}

// fieldName parses the name of a field: an identifier, or ref, so that
// a marked pointer's fields read as in the papers (p.next.ref).
func (p *parser) fieldName() *Ident {
	if p.tok == REF {
		id := &Ident{Pos: p.pos, Name: "ref"}
		p.next()
		return id
	}
	return p.ident()
}

func (p *parser) parseShared() *VarDecl {
	d := &VarDecl{Pos: p.pos}
	p.next()
	d.Name = p.ident()
	d.Type = p.parseType()
	if p.got(ASSIGN) {
		d.Init = p.parseExpr()
	}
	return d
}

func (p *parser) parseType() *Type {
	t := &Type{Pos: p.pos}
	p.parseDims(t)
	switch p.tok {
	case INTTYPE:
		t.Kind = TInt
		p.next()
		if p.got(LPAREN) {
			t.Lo = p.parseExpr()
			p.expect(DOTDOT)
			t.Hi = p.parseExpr()
			p.expect(RPAREN)
		}
		if p.tok == IDENT && p.lit == "wrap" {
			t.Wrap = p.pos
			p.next()
		}
	case BOOLTYPE:
		t.Kind = TBool
		p.next()
	case REF:
		t.Kind = TRef
		p.next()
		t.Ref = p.ident()
		for p.got(PIPE) {
			t.Refs = append(t.Refs, p.ident())
		}
	case IDENT:
		if p.lit == "thread" {
			t.Kind = TThread
			p.next()
			break
		}
		if p.lit == "loc" {
			// loc T; `loc` alone names a word type called loc.
			id := p.ident()
			switch p.tok {
			case INTTYPE, BOOLTYPE, REF, IDENT:
				t.Kind, t.Elem = TLoc, p.parseType()
				if t.Elem.Len != nil || len(t.Elem.ThreadDims) > 0 {
					p.errorAt(t.Elem.Pos, "a loc refers to one location, not an array; write loc T and take &a[i]")
				}
			default:
				t.Kind, t.Named = TNamed, id
			}
			break
		}
		t.Kind = TNamed
		t.Named = p.ident()
	default:
		p.errorExpected("type (int, bool, ref Node, loc T or a word type)")
	}
	return t
}

// parseDims parses the array dimensions that prefix a type: `[thread]`
// dimensions first, then at most one ordinary `[n]` or `[lo..hi]`; two in
// all.
func (p *parser) parseDims(t *Type) {
	for p.tok == LBRACK {
		pos := p.pos
		p.next()
		isThread := p.tok == IDENT && p.lit == "thread"
		switch {
		case len(t.ThreadDims) == 2 || len(t.ThreadDims) == 1 && t.Len != nil:
			p.errorAt(pos, "an array has at most two dimensions: [thread][n], [thread][thread], [thread] or [n]")
		case t.Len != nil && isThread:
			p.errorAt(pos, "a [thread] dimension must come before the ordinary one: [thread][n]")
		case t.Len != nil:
			p.errorAt(pos, "an array has at most one ordinary dimension; per-thread rows are [thread][n]")
		}
		if isThread {
			t.ThreadDims = append(t.ThreadDims, pos)
			p.next()
		} else {
			t.Len = p.parseExpr()
			if p.got(DOTDOT) {
				t.LenLo, t.Len = t.Len, p.parseExpr()
			}
		}
		p.expect(RBRACK)
	}
}

// parseMethod parses a method or, at the proc keyword, a procedure.
func (p *parser) parseMethod() *Method {
	m := &Method{Pos: p.pos, Proc: p.tok == PROC}
	p.next()
	m.Name = p.ident()
	p.expect(LPAREN)
	for p.tok != RPAREN && p.tok != EOF {
		f := &Field{Name: p.ident()}
		f.Type = p.parseType()
		m.Params = append(m.Params, f)
		if !p.got(COMMA) {
			break
		}
	}
	p.expect(RPAREN)
	if p.tok == IDENT {
		// A word type as the result, if a body follows: `proc p() W {`;
		// otherwise the body's '{' is missing, reported below.
		save, saveErrs := *p, len(p.errs)
		p.next()
		isType := p.tok == LBRACE
		*p = save
		p.errs = p.errs[:saveErrs]
		if isType {
			m.Result = p.parseType()
		}
	}
	switch p.tok {
	case INTTYPE, BOOLTYPE, REF, LBRACK:
		m.Result = p.parseType()
	case LPAREN:
		lp := p.pos
		p.next()
		for p.tok != RPAREN && p.tok != EOF {
			m.Tuple = append(m.Tuple, p.parseType())
			if !p.got(COMMA) {
				break
			}
		}
		p.expect(RPAREN)
		if len(m.Tuple) < 2 {
			p.errorAt(lp, "a tuple result needs at least two types: (T, U)")
		}
	}
	m.Body = p.parseBlock()
	m.End = m.Body.End
	return m
}

func (p *parser) parseBlock() *Block {
	b := &Block{Pos: p.pos}
	if p.tok != LBRACE {
		p.errorExpected("'{'")
		b.End = p.pos
		return b
	}
	p.next()
	for p.tok != RBRACE && p.tok != EOF {
		if p.got(SEMI) {
			continue
		}
		before := p.s.off
		if s := p.parseStmt(); s != nil {
			b.Stmts = append(b.Stmts, s)
			p.file.SetEnd(s.Start(), p.file.Pos(p.prevEnd))
		}
		p.endDecl()
		if p.s.off == before && p.tok != RBRACE && p.tok != EOF {
			p.next() // guarantee progress
		}
	}
	b.End = p.pos
	p.expect(RBRACE)
	return b
}

func (p *parser) parseStmt() Stmt {
	pos := p.pos
	switch p.tok {
	case LBRACE:
		return p.parseBlock()
	case IF:
		return p.parseIf()
	case WHILE:
		p.next()
		return &WhileStmt{Pos: pos, Cond: p.parseExpr(), Body: p.parseBlock()}
	case FOR:
		return p.parseFor()
	case RETURN:
		p.next()
		r := &ReturnStmt{Pos: pos}
		if p.tok != SEMI && p.tok != RBRACE {
			r.Value = p.parseExpr()
			for p.got(COMMA) {
				r.Rest = append(r.Rest, p.parseExpr())
			}
		}
		return r
	case ATOMIC:
		p.next()
		return &AtomicStmt{Pos: pos, Body: p.parseBlock()}
	case ASSERT:
		p.next()
		return &AssertStmt{Pos: pos, Cond: p.parseExpr()}
	case AWAIT:
		p.next()
		return &AwaitStmt{Pos: pos, Cond: p.parseExpr()}
	case FREE, RETIRE:
		retire := p.tok == RETIRE
		p.next()
		p.expect(LPAREN)
		x := p.parseExpr()
		p.expect(RPAREN)
		return &FreeStmt{Pos: pos, Retire: retire, X: x}
	case SKIP:
		p.next()
		return &SkipStmt{Pos: pos}
	case LIN:
		p.next()
		l := &LinStmt{Pos: pos}
		if p.got(LPAREN) {
			l.Value = p.parseExpr()
			p.expect(RPAREN)
		}
		return l
	case ELSE:
		p.errorAt(pos, "else without a preceding if on the same line as its '}'")
		p.next()
		return nil
	case OR:
		p.errorAt(pos, "or without a preceding choose block on the same line as its '}'")
		p.next()
		if p.tok == LBRACE {
			p.parseBlock()
		}
		return nil
	case BREAK, CONTINUE:
		s := &BranchStmt{Pos: pos, Tok: p.tok}
		p.next()
		if p.tok == IDENT {
			s.Label = p.ident()
		}
		return s
	case VAR:
		p.next()
		s := &VarStmt{Pos: pos, Name: p.ident()}
		s.Type = p.parseType()
		if p.got(ASSIGN) {
			s.Value = p.parseExpr()
		}
		return s
	case CHOOSE:
		p.next()
		s := &ChooseStmt{Pos: pos, Alts: []*Block{p.parseBlock()}}
		for p.got(OR) {
			s.Alts = append(s.Alts, p.parseBlock())
		}
		if len(s.Alts) < 2 {
			p.errorAt(pos, "choose needs at least two blocks: choose { … } or { … } (or on the line of the '}')")
		}
		return s
	}
	if p.tok == IDENT && p.s.off < len(p.s.src) {
		// x := e
		save := *p
		saveErrs := len(p.errs)
		id := p.ident()
		if p.tok == DEFINE {
			p.next()
			return &DefineStmt{Name: id, Value: p.parseExpr()}
		}
		if p.tok == COMMA {
			// x, y := p(…) or x, y = p(…)
			var rest []*Ident
			for p.got(COMMA) {
				rest = append(rest, p.ident())
			}
			switch p.tok {
			case DEFINE:
				p.next()
				return &DefineStmt{Name: id, Rest: rest, Value: p.parseExpr()}
			case ASSIGN:
				p.next()
				s := &AssignStmt{Pos: pos, LHS: id, Value: p.parseExpr()}
				for _, r := range rest {
					s.Rest = append(s.Rest, r)
				}
				return s
			}
			p.errorExpected("':=' or '=' after a list of names")
			return nil
		}
		if p.tok == COLON {
			p.next()
			if p.tok != WHILE {
				p.errorExpected("while loop after the label " + id.Name)
				return nil
			}
			w := p.parseStmt().(*WhileStmt)
			w.Label = id
			return w
		}
		*p = save
		p.errs = p.errs[:saveErrs]
	}
	x := p.parseExpr()
	if p.tok == ASSIGN {
		p.next()
		return &AssignStmt{Pos: pos, LHS: x, Value: p.parseExpr()}
	}
	if p.tok == DEFINE {
		p.errorAt(p.pos, "':=' needs a plain variable name on its left")
		p.next()
		p.parseExpr()
		return nil
	}
	return &ExprStmt{X: x}
}

// parseFor parses `for j in others { }` or `for j in threads { }`.
func (p *parser) parseFor() *ForStmt {
	s := &ForStmt{Pos: p.pos}
	p.next()
	s.Var = p.ident()
	s.SetPos = p.pos
	switch {
	case p.tok != IDENT || p.lit != "in":
		p.errorExpected("in (for j in others { … } or for j in threads { … })")
		p.skipTo(LBRACE, SEMI, RBRACE)
	default:
		p.next()
		s.SetPos = p.pos
		switch {
		case p.tok == THREADS:
			p.next()
		case p.tok == IDENT && p.lit == "others":
			s.Others = true
			p.next()
		default:
			p.errorExpected("others or threads (the thread ids a for loop visits)")
			p.skipTo(LBRACE, SEMI, RBRACE)
		}
	}
	s.Body = p.parseBlock()
	return s
}

func (p *parser) parseIf() *IfStmt {
	s := &IfStmt{Pos: p.pos}
	p.next()
	s.Cond = p.parseExpr()
	s.Then = p.parseBlock()
	if p.got(ELSE) {
		if p.tok == IF {
			s.Else = p.parseIf()
		} else {
			s.Else = p.parseBlock()
		}
	}
	return s
}

func precedence(t Token) int {
	switch t {
	case LOR:
		return 1
	case LAND:
		return 2
	case EQL, NEQ, LSS, LEQ, GTR, GEQ:
		return 3
	case ADD, SUB:
		return 4
	case MUL, QUO, REM:
		return 5
	}
	return 0
}

func (p *parser) parseExpr() Expr { return p.parseBinary(1) }

func (p *parser) parseBinary(prec int) Expr {
	x := p.parseUnary()
	for {
		op := p.tok
		pr := precedence(op)
		if pr < prec {
			return x
		}
		pos := p.pos
		p.next()
		y := p.parseBinary(pr + 1)
		x = &BinaryExpr{X: x, OpPos: pos, Op: op, Y: y}
	}
}

func (p *parser) parseUnary() Expr {
	if p.tok == NOT || p.tok == SUB || p.tok == AMP || p.tok == MUL {
		pos, op := p.pos, p.tok
		p.next()
		return &UnaryExpr{Pos: pos, Op: op, X: p.parseUnary()}
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() Expr {
	var x Expr
	pos := p.pos
	switch p.tok {
	case IDENT:
		id := p.ident()
		x = id
		if p.tok == LPAREN {
			p.next()
			c := &CallExpr{Fun: id}
			for p.tok != RPAREN && p.tok != EOF {
				c.Args = append(c.Args, p.parseExpr())
				if !p.got(COMMA) {
					break
				}
			}
			c.Rparen = p.expect(RPAREN)
			x = c
		}
	case INT:
		x = &IntLit{Pos: pos, Value: p.s.intVal}
		p.next()
	case TRUE, FALSE:
		x = &BoolLit{Pos: pos, Value: p.tok == TRUE}
		p.next()
	case NULL:
		x = &NullLit{Pos: pos}
		p.next()
	case LPAREN:
		p.next()
		x = &ParenExpr{Pos: pos, X: p.parseExpr()}
		p.expect(RPAREN)
	case ANY:
		p.next()
		a := &AnyExpr{Pos: pos, Lo: p.parseBinary(precedence(ADD))}
		p.expect(DOTDOT)
		a.Hi = p.parseBinary(precedence(ADD))
		x = a
	case NEW:
		p.next()
		n := &NewExpr{Pos: pos, Type: p.ident()}
		if p.got(LBRACE) {
			for p.tok != RBRACE && p.tok != EOF {
				fi := &FieldInit{Name: p.fieldName()}
				p.expect(COLON)
				fi.Value = p.parseExpr()
				n.Inits = append(n.Inits, fi)
				if !p.got(COMMA) {
					break
				}
			}
			p.expect(RBRACE)
		}
		x = n
	default:
		p.errorExpected("expression")
		if p.tok != SEMI && p.tok != RBRACE && p.tok != LBRACE && p.tok != EOF {
			p.next()
		}
		return &BadExpr{Pos: pos}
	}
	for {
		switch p.tok {
		case DOT:
			p.next()
			x = &SelectorExpr{X: x, Sel: p.fieldName()}
		case LBRACK:
			p.next()
			idx := p.parseExpr()
			x = &IndexExpr{X: x, Index: idx, Rbrack: p.expect(RBRACK)}
		case IDENT:
			// x is T, x as T: is and as are keywords only here, after
			// an operand, where no identifier can stand otherwise. They
			// end the operand: (x as T).f needs its parentheses.
			if p.lit != "is" && p.lit != "as" {
				return x
			}
			t := &TestExpr{X: x, OpPos: p.pos, As: p.lit == "as"}
			p.next()
			t.Type = p.ident()
			return t
		default:
			return x
		}
	}
}

func (p *parser) parseClient() *Client {
	c := &Client{Pos: p.pos}
	p.next()
	p.expect(LBRACE)
	for p.tok != RBRACE && p.tok != EOF {
		if p.got(SEMI) {
			continue
		}
		switch p.tok {
		case THREADS:
			c.ThreadPos = p.pos
			p.next()
			c.Threads = p.intLit(false)
		case OPS:
			c.OpsPos = p.pos
			p.next()
			if p.got(FOREVER) {
				c.Ops = -1
			} else {
				c.Ops = p.intLit(false)
			}
		case VALUES:
			c.ValuesPos = p.pos
			p.next()
			c.Values = p.parseValues()
		case ONLY:
			o := &OnlyDecl{Pos: p.pos}
			p.next()
			o.Thread = p.intLit(false)
			p.expect(COLON)
			for {
				o.Methods = append(o.Methods, p.ident())
				if !p.got(COMMA) {
					break
				}
			}
			c.Only = append(c.Only, o)
		default:
			p.errorExpected("threads, ops, values or only")
			p.skipTo(SEMI, RBRACE)
			continue
		}
		p.endDecl()
	}
	p.expect(RBRACE)
	return c
}

func (p *parser) intLit(signed bool) int {
	neg := false
	if signed && p.got(SUB) {
		neg = true
	}
	if p.tok != INT {
		p.errorExpected("integer")
		return 0
	}
	v := int(p.s.intVal)
	p.next()
	if neg {
		v = -v
	}
	return v
}

// MaxValues is the most values a client's argument range may hold
// (values 1..3, --values).
const MaxValues = 64

func (p *parser) parseValues() []int {
	pos := p.pos
	lo := p.intLit(true)
	if p.got(DOTDOT) {
		hi := p.intLit(true)
		if hi < lo || hi-lo >= MaxValues {
			p.errorAt(pos, fmt.Sprintf("values range %d..%d must be non-empty and hold at most %d values", lo, hi, MaxValues))
			return []int{lo}
		}
		var vs []int
		for v := lo; v <= hi; v++ {
			vs = append(vs, v)
		}
		return vs
	}
	vs := []int{lo}
	for p.got(COMMA) {
		vs = append(vs, p.intLit(true))
	}
	return vs
}
