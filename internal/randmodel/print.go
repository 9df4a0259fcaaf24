package randmodel

import (
	"fmt"
	"strings"
)

// stmt is a statement of a generated method: a simple statement, or a
// block statement with a header and a body. The generator builds these
// trees rather than text so that one tree prints both the implementation
// and, with the overrides below, a hand-written specification.
type stmt struct {
	// text is a simple statement ("X = t + 1") or, for a block, its header
	// without the brace ("while X == 0", "if t != null", "atomic").
	text string
	// body is the block's statements; nil for a simple statement.
	body []stmt
	// els is the else branch of an if, or the second block of a choose
	// ("choose { body } or { els }"); nil if none.
	els []stmt
	// spec, if non-nil, replaces the statement in a hand-written
	// specification: a spin loop there becomes an await, since an atomic
	// body that spins would never end.
	spec []stmt
	// alt is a variant of a simple statement that computes something else
	// (a return value or an update off by one); a mutated specification
	// uses it for one statement. Empty if the statement has none.
	alt string
}

func simple(text string) stmt { return stmt{text: text} }

func block(head string, body ...stmt) stmt { return stmt{text: head, body: body} }

func ifElse(cond string, then, els []stmt) stmt {
	return stmt{text: "if " + cond, body: then, els: els}
}

func choose(a, b []stmt) stmt { return stmt{text: "choose", body: a, els: b} }

// printer writes indented source lines.
type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) line(format string) {
	p.b.WriteString(strings.Repeat("  ", p.indent))
	p.b.WriteString(format)
	p.b.WriteByte('\n')
}

// open writes a line ending in "{" and indents what follows.
func (p *printer) open(head string) {
	p.line(head + " {")
	p.indent++
}

// close ends a block opened with open.
func (p *printer) close() {
	p.indent--
	p.line("}")
}

// stmts prints a statement list; in a specification (spec true) the
// statements' spec overrides apply.
func (p *printer) stmts(list []stmt, spec bool) {
	for _, s := range list {
		if spec && s.spec != nil {
			p.stmts(s.spec, spec)
			continue
		}
		if s.body == nil {
			p.line(s.text)
			continue
		}
		p.open(s.text)
		p.stmts(s.body, spec)
		if s.els != nil {
			p.indent--
			if s.text == "choose" {
				p.line("} or {")
			} else {
				p.line("} else {")
			}
			p.indent++
			p.stmts(s.els, spec)
		}
		p.close()
	}
}

// specWalk calls f on every statement of list as a specification prints
// it (overridden statements replaced by their overrides), nested ones
// included, with a pointer that allows changing it in place.
func specWalk(list []stmt, f func(*stmt)) {
	for i := range list {
		s := &list[i]
		if s.spec != nil {
			specWalk(s.spec, f)
			continue
		}
		f(s)
		specWalk(s.body, f)
		specWalk(s.els, f)
	}
}

// overridden reports whether a statement of list, nested ones included,
// prints differently in a specification.
func overridden(list []stmt) bool {
	for _, s := range list {
		if s.spec != nil || overridden(s.body) || overridden(s.els) {
			return true
		}
	}
	return false
}

// The shared variables a program may use, in the order they are declared.
var sharedDecls = []struct{ name, decl string }{
	{"X", "shared X int = 0"},
	{"Y", "shared Y int = 0"},
	{"Flag", "shared Flag int = 0"},
	{"Lock", "shared Lock bool = false"},
	{"Owner", "shared Owner int = 0"},
	{"Max", "shared Max int = 0"},
	{"A", "shared A [1..nthreads] int = 0"},
	{"Last", "shared Last thread"},
	{"P", "shared P [thread] int = 0"},
	{"R", "shared R [thread][2] int = 0"},
	{"S", "shared S [thread][thread] int = 0"},
	{"Top", "shared Top ref Node = null"},
	{"HP", "shared HP [1..nthreads] ref Node = null"},
	{"Head", "shared Head ref Node = null"},
	{"Tail", "shared Tail ref Node = null"},
	{"L", "shared L loc int"},
	{"Cur", "shared Cur loc ref Node"},
}

// nodeType declares the heap nodes of lists and queues.
const nodeType = "heap Node { val int; next ref Node }"

// nodeTypeArray declares them with an array field (FieldArray).
const nodeTypeArray = "heap Node { val int; next ref Node; cnt [2] int }"

// print writes the program: object, specification, client. It draws the
// specification's kind.
func (g *gen) print() string {
	var p printer
	p.open("object Rand")
	if g.features&Free != 0 && g.allowed(ExplicitHeap) && g.chance(3) {
		g.use(ExplicitHeap)
		p.line("heap explicit")
	}
	g.declarations(&p)
	g.printMethods(&p, false)
	p.close()

	hand := g.chance(8)
	for _, m := range g.methods {
		hand = hand || overridden(m.body)
	}
	if g.allowed(MutatedSpec) && g.allowed(HandSpec) && g.chance(6) && g.mutate() {
		g.use(MutatedSpec)
		hand = true
	}
	if hand && g.allowed(HandSpec) {
		g.use(HandSpec)
		p.open("spec RandSpec")
		g.declarations(&p)
		g.printMethods(&p, true)
		p.close()
	} else {
		p.line("spec auto")
	}

	client := fmt.Sprintf("client { threads %d; ops %d; values 1..2", g.threads, g.ops)
	if len(g.only) > 0 {
		client += "; only 1: " + strings.Join(g.only, ", ")
	}
	p.line(client + " }")
	return p.b.String()
}

// declarations declares the heap type, the shared variables used and,
// for a queue, the init block that builds its dummy node.
func (g *gen) declarations(p *printer) {
	switch {
	case g.features&FieldArray != 0:
		p.line(nodeTypeArray)
	case g.features&(Heap|Queue|Hazard) != 0:
		p.line(nodeType)
	}
	for _, d := range sharedDecls {
		if g.shared[d.name] {
			p.line(d.decl)
		}
	}
	if g.shared["Head"] {
		p.open("init")
		p.line("d := new Node")
		p.line("Head = d")
		p.line("Tail = d")
		p.close()
	}
}

// printMethods prints the procedures and the methods; in a specification
// each method body is one atomic block (the procedures are inlined into it).
func (g *gen) printMethods(p *printer, spec bool) {
	for _, m := range g.routines() {
		head := m.keyword + " " + m.name + "(" + m.params + ")"
		if m.result != "" {
			head += " " + m.result
		}
		p.open(head)
		atomic := spec && m.keyword == "method"
		if atomic {
			p.open("atomic")
		}
		p.stmts(m.body, spec)
		if atomic {
			p.close()
		}
		p.close()
	}
}

// mutate changes one statement of the specification into its variant;
// it reports false if no statement has one.
func (g *gen) mutate() bool {
	var candidates []*stmt
	for _, m := range g.routines() {
		specWalk(m.body, func(s *stmt) {
			if s.alt != "" {
				candidates = append(candidates, s)
			}
		})
	}
	if len(candidates) == 0 {
		return false
	}
	s := candidates[g.r.IntN(len(candidates))]
	s.spec = []stmt{simple(s.alt)}
	return true
}
