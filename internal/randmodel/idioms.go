package randmodel

import "fmt"

// The idioms: each generates a few statements of a method. Fragments leave
// the method running; terminals end it with returns. Every loop either
// exits after a successful CAS, spins without changing anything (a
// τ-cycle), or counts to nthreads, and every update adds a small amount
// once per operation or wraps modulo 3, so the state space stays finite
// and small.

// idiom is a generator of statements drawn at random, by weight.
type idiom struct {
	// feature is what the idiom exercises (0: nothing in particular); an
	// idiom with an excluded or, in a symmetric program, asymmetric
	// feature is never drawn.
	feature Feature
	// weight is the idiom's relative frequency.
	weight int
	// cost is what the idiom takes of its method's budget: 2 for the
	// idioms of many steps or with two fragments inside, 1 for the others.
	cost int
	gen  func(g *gen, m *method) []stmt
}

// fragments are the idioms that leave the method running.
func fragments() []idiom {
	return []idiom{
		{0, 4, 1, (*gen).atomicUpdate},
		{0, 3, 1, (*gen).racyUpdate},
		{0, 3, 1, (*gen).casDone},
		{0, 2, 1, (*gen).tryCas},
		{0, 1, 1, (*gen).flagSet},
		{Lock, 4, 2, (*gen).lockSection},
		{FlagWait, 2, 1, (*gen).flagWait},
		{Await, 2, 1, (*gen).await},
		{Assert, 1, 1, (*gen).assert},
		{TidIndex, 3, 1, (*gen).tidSlot},
		{TidValue, 4, 2, (*gen).ownerLock},
		{TidCount, 1, 1, (*gen).tidCount},
		{Heap, 3, 1, (*gen).push},
		{Heap, 2, 1, (*gen).pop},
		{Heap, 2, 1, (*gen).peek},
		{Heap, 1, 1, (*gen).fieldUpdate},
		{TidArith, 2, 1, (*gen).tidArith},
		{TidOrder, 2, 1, (*gen).tidOrder},
		{TidScan, 3, 2, (*gen).tidScan},
		{Hazard | Heap, 3, 2, (*gen).hazardPop},
		{Queue, 2, 2, (*gen).enqueue},
		{Queue, 2, 2, (*gen).dequeue},
		{Proc, 2, 1, (*gen).procCall},
		{Break, 2, 1, (*gen).casBreak},
		{Any, 1, 1, (*gen).anyValue},
		{PerThread, 3, 1, (*gen).rowUpdate},
		{ThreadValue | PerThread, 2, 1, (*gen).myRow},
		{ThreadValue, 2, 1, (*gen).lastThread},
		{ForThreads | PerThread, 3, 1, (*gen).othersLoop},
		{RMW, 3, 1, (*gen).rmw},
		{LocalLoop, 2, 1, (*gen).localLoop},
		{Loc, 2, 1, (*gen).locCounter},
		{Loc | Heap, 1, 1, (*gen).locList},
		{Loc, 1, 1, (*gen).locRead},
		{FieldArray | Heap, 1, 1, (*gen).fieldArray},
	}
}

// nesting are the fragments that contain fragments: they are drawn only
// at the top level of a method, so that programs stay small; the
// fragments inside are of cost 1.
func nesting() []idiom {
	return []idiom{
		{0, 3, 2, (*gen).conditional},
		{Choose, 4, 2, (*gen).choice},
	}
}

// terminals are the idioms that end the method.
func terminals() []idiom {
	return []idiom{
		{0, 3, 1, (*gen).casReturn},
		{Heap, 2, 1, (*gen).popReturn},
		{FlagWait, 1, 1, (*gen).spinReturn},
	}
}

// asymmetricIdioms are the fragments that break thread symmetry.
func asymmetricIdioms() []idiom {
	var list []idiom
	for _, id := range fragments() {
		if id.feature&AsymmetricFeatures != 0 {
			list = append(list, id)
		}
	}
	return list
}

// draw returns one of the allowed idioms of at most the given cost,
// chosen by weight; false if there is none.
func (g *gen) draw(list []idiom, maxCost int) (idiom, bool) {
	allowed := func(id idiom) bool { return g.allowed(id.feature) && id.cost <= maxCost }
	total := 0
	for _, id := range list {
		if allowed(id) {
			total += id.weight
		}
	}
	if total == 0 {
		return idiom{}, false
	}
	n := g.r.IntN(total)
	for _, id := range list {
		if !allowed(id) {
			continue
		}
		if n -= id.weight; n < 0 {
			return id, true
		}
	}
	panic("unreachable")
}

// run generates the statements of an idiom in m.
func (g *gen) run(m *method, id idiom) []stmt {
	g.use(id.feature)
	return id.gen(g, m)
}

// fragment generates a fragment of cost 1, e.g. inside a conditional.
func (g *gen) fragment(m *method) []stmt {
	id, _ := g.draw(fragments(), 1) // atomicUpdate is always allowed
	return g.run(m, id)
}

// terminal generates a terminal idiom.
func (g *gen) terminal(m *method) []stmt {
	id, _ := g.draw(terminals(), 1) // casReturn is always allowed
	return g.run(m, id)
}

// sharedVar records the use of a shared variable and returns its name.
func (g *gen) sharedVar(name string) string {
	g.shared[name] = true
	return name
}

// intVar returns one of the plain shared ints X and Y.
func (g *gen) intVar() string { return g.sharedVar(g.pick("X", "X", "Y")) }

// update returns a new value computed from the int expression e.
func (g *gen) update(m *method, e string) string {
	options := []string{e + " + 1", "(" + e + " + 1) % 3", "(" + e + " + 1) % 3", "0"}
	if m.param {
		options = append(options, "("+e+" + v) % 3", "v")
	}
	return g.pick(options...)
}

// assign is `lhs = e`, with an off-by-one variant for mutated specs.
func assign(lhs, e string) stmt {
	return stmt{text: lhs + " = " + e, alt: lhs + " = " + e + " + 1"}
}

// record keeps the int expression e: in res when the method has a
// result, otherwise in a shared int.
func (g *gen) record(m *method, e string) []stmt {
	if m.result != "" {
		return []stmt{assign("res", e)}
	}
	return []stmt{assign(g.intVar(), e)}
}

// setRes is `res = e` in a method with a result, and nothing otherwise.
func setRes(m *method, e string) []stmt {
	if m.result == "" {
		return nil
	}
	return []stmt{assign("res", e)}
}

// ret ends the method returning the int expression i or the bool
// expression b, whichever the method's result needs.
func ret(m *method, i, b string) stmt {
	switch m.result {
	case "int":
		if i == "EMPTY" {
			return stmt{text: "return EMPTY", alt: "return 0"}
		}
		return stmt{text: "return " + i, alt: "return " + i + " + 1"}
	case "bool":
		return stmt{text: "return " + b, alt: "return !(" + b + ")"}
	}
	return simple("return")
}

// define is `name := e`.
func define(name, e string) stmt { return simple(name + " := " + e) }

// declare declares a local with its zero value: `name := zero`, or
// sometimes `var name typ`.
func (g *gen) declare(name, typ, zero string) stmt {
	if g.allowed(Var) && g.chance(5) {
		g.use(Var)
		return simple("var " + name + " " + typ)
	}
	return define(name, zero)
}

// finalReturn ends a method with a result after its fragments.
func (g *gen) finalReturn(m *method) stmt {
	return ret(m, g.pick("res", "res", g.intVar()), g.pick("res > 0", "res == 0", g.intVar()+" == 0"))
}

// atomicUpdate is an atomic block of one or two updates.
func (g *gen) atomicUpdate(m *method) []stmt {
	var body []stmt
	for range 1 + g.r.IntN(2) {
		body = append(body, g.simpleUpdate(m)...)
	}
	return []stmt{block("atomic", body...)}
}

// simpleUpdate is an update without loops: an assignment, a read into
// res, a guarded decrement, or an update of the thread's slot.
func (g *gen) simpleUpdate(m *method) []stmt {
	switch g.r.IntN(4) {
	case 1:
		if m.result != "" {
			return setRes(m, g.intVar())
		}
	case 2:
		x, y := g.sharedVar("X"), g.sharedVar("Y")
		return []stmt{ifElse(x+" > 0", []stmt{simple(x + " = " + x + " - 1")}, []stmt{assign(y, g.update(m, y))})}
	case 3:
		if g.allowed(TidIndex) {
			g.use(TidIndex)
			g.sharedVar("A")
			return []stmt{assign("A[tid]", g.update(m, "A[tid]"))}
		}
	}
	x := g.intVar()
	return []stmt{assign(x, g.update(m, x))}
}

// racyUpdate reads a shared int and writes it back in two steps: updates
// of other threads in between are lost.
func (g *gen) racyUpdate(m *method) []stmt {
	x, t := g.intVar(), m.fresh("t")
	return append([]stmt{define(t, x), assign(x, g.update(m, t))}, setRes(m, t)...)
}

// casDone retries a CAS until it succeeds, with a done flag.
func (g *gen) casDone(m *method) []stmt {
	x, d, t := g.intVar(), m.fresh("d"), m.fresh("t")
	loop := append([]stmt{define(t, x), simple(d + " = cas(" + x + ", " + t + ", " + g.update(m, t) + ")")}, setRes(m, t)...)
	return []stmt{g.declare(d, "bool", "false"), block("while !"+d, loop...)}
}

// tryCas attempts one CAS.
func (g *gen) tryCas(m *method) []stmt {
	x, t := g.intVar(), m.fresh("t")
	cas := "cas(" + x + ", " + t + ", " + g.update(m, t) + ")"
	if m.result == "" {
		return []stmt{define(t, x), simple(cas)}
	}
	return []stmt{define(t, x), ifElse(cas, setRes(m, t), nil)}
}

// conditional branches on a shared int into one or two fragments.
func (g *gen) conditional(m *method) []stmt {
	var pre []stmt
	x := g.intVar()
	if g.chance(2) {
		t := m.fresh("t")
		pre = []stmt{define(t, x)}
		x = t
	}
	cond := x + g.pick(" == 0", " > 0", " != 1", " < 2")
	var els []stmt
	if g.chance(2) {
		els = g.fragment(m)
	}
	return append(pre, ifElse(cond, g.fragment(m), els))
}

// choice runs one of two fragments, chosen nondeterministically.
func (g *gen) choice(m *method) []stmt {
	return []stmt{choose(g.fragment(m), g.fragment(m))}
}

// casBreak retries a CAS in an endless loop left with break, or with
// continue after a failure; the loop is sometimes labelled.
func (g *gen) casBreak(m *method) []stmt {
	x, t := g.intVar(), m.fresh("t")
	cas := "cas(" + x + ", " + t + ", " + g.update(m, t) + ")"
	label, suffix := "", ""
	if g.chance(2) {
		l := m.fresh("retry")
		label, suffix = l+": ", " "+l
	}
	body := []stmt{define(t, x), ifElse(cas, append(setRes(m, t), simple("break"+suffix)), nil)}
	if g.chance(2) {
		body = append([]stmt{define(t, x), ifElse("!"+cas, []stmt{simple("continue" + suffix)}, nil)},
			append(setRes(m, t), simple("break"+suffix))...)
	}
	return []stmt{block(label+"while true", body...)}
}

// anyValue stores a value chosen nondeterministically.
func (g *gen) anyValue(m *method) []stmt {
	x, c := g.intVar(), m.fresh("c")
	if g.chance(2) {
		return append([]stmt{define(c, "any 0..2"), assign(x, c)}, setRes(m, c)...)
	}
	return []stmt{define(c, "any 1..2"), block("atomic", assign(x, "("+x+" + "+c+") % 3"))}
}

// procCall calls a new procedure: a CAS retry that returns the old value,
// a snapshot of X and Y returned as a tuple, or a read of a node's value
// given a reference.
func (g *gen) procCall(m *method) []stmt {
	p := &method{keyword: "proc", name: fmt.Sprintf("p%d", len(g.procs)+1)}
	g.procs = append(g.procs, p)
	t := m.fresh("t")
	switch k := g.r.IntN(3); {
	case k == 1:
		p.result = "(int, int)"
		a, b := p.fresh("a"), p.fresh("b")
		p.body = []stmt{define(a, g.sharedVar("X")), define(b, g.sharedVar("Y")), simple("return " + a + ", " + b)}
		if g.chance(2) {
			p.body = []stmt{block("atomic", p.body...)}
		}
		u := m.fresh("u")
		return append([]stmt{simple(t + ", " + u + " := " + p.name + "()")}, g.record(m, "("+t+" + "+u+") % 3")...)
	case k == 2 && g.allowed(Heap):
		g.use(Heap)
		p.params, p.result = "p ref Node", "int"
		p.body = []stmt{ifElse("p == null", []stmt{ret(p, "0", "")}, nil), ret(p, "p.val", "")}
		n := m.fresh("n")
		return append([]stmt{define(n, g.sharedVar("Top")), define(t, p.name+"("+n+")")}, g.record(m, t)...)
	}
	p.param, p.params, p.result = true, "v int", "int"
	p.body = g.casReturn(p)
	arg := g.pick("1", "2")
	if m.param {
		arg = "v"
	}
	return append([]stmt{define(t, p.name+"("+arg+")")}, g.record(m, t)...)
}

// flagSet raises Flag, for the spins of flagWait.
func (g *gen) flagSet(m *method) []stmt {
	g.setsFlag = true
	f := g.sharedVar("Flag")
	switch {
	case m.param && g.chance(2):
		return []stmt{assign(f, "v")}
	case g.chance(2):
		x := g.intVar()
		return []stmt{block("atomic", assign(x, g.update(m, x)), simple(f+" = 1"))}
	}
	return []stmt{simple(f + " = 1")}
}

// critical is a critical section: acquire, an update, release.
func (g *gen) critical(m *method, acquire stmt, release string) []stmt {
	body := g.racyUpdate(m)
	if g.chance(2) {
		body = g.simpleUpdate(m)
	}
	return append(append([]stmt{acquire}, body...), simple(release))
}

// lockSection is a critical section under a test-and-set spin lock.
func (g *gen) lockSection(m *method) []stmt {
	l := g.sharedVar("Lock")
	return g.critical(m, block("while !cas("+l+", false, true)", simple("skip")), l+" = false")
}

// flagWait spins until a shared int becomes non-zero; the specification
// awaits it instead (an atomic body must not spin).
func (g *gen) flagWait(m *method) []stmt {
	x := g.sharedVar("Flag")
	if g.chance(3) {
		x = g.intVar()
	}
	await := simple("await " + x + " != 0")
	if g.chance(2) {
		spin := stmt{text: "while " + x + " == 0", body: []stmt{simple("skip")}, spec: []stmt{await}}
		return append([]stmt{spin}, setRes(m, x)...)
	}
	f := m.fresh("f")
	spin := stmt{text: "while " + f + " == 0", body: []stmt{simple(f + " = " + x)}, spec: []stmt{await, simple(f + " = " + x)}}
	return append([]stmt{define(f, x), spin}, setRes(m, f)...)
}

// await blocks until a condition holds, alone or at the head of an
// atomic block (a semaphore's down).
func (g *gen) await(m *method) []stmt {
	x := g.intVar()
	if g.chance(2) {
		return []stmt{simple("await " + x + g.pick(" != 0", " < 2"))}
	}
	body := append([]stmt{simple("await " + x + " > 0"), simple(x + " = " + x + " - 1")}, setRes(m, "1")...)
	return []stmt{block("atomic", body...)}
}

// assert checks a condition that usually, not always, holds.
func (g *gen) assert(*method) []stmt {
	return []stmt{simple("assert " + g.intVar() + g.pick(" >= 0", " < 3", " != 2"))}
}

// casReturn retries a CAS and returns once it succeeds; sometimes it
// gives up early on a large value.
func (g *gen) casReturn(m *method) []stmt {
	x, t := g.intVar(), m.fresh("t")
	body := []stmt{define(t, x)}
	if g.chance(3) {
		body = append(body, ifElse(t+" >= 2", []stmt{ret(m, "0", "false")}, nil))
	}
	body = append(body, ifElse("cas("+x+", "+t+", "+g.update(m, t)+")", []stmt{ret(m, t, "true")}, nil))
	return []stmt{block("while true", body...)}
}

// spinReturn spins until a shared int is non-zero and returns it; the
// specification awaits it instead.
func (g *gen) spinReturn(m *method) []stmt {
	x := g.sharedVar("Flag")
	if g.chance(3) {
		x = g.intVar()
	}
	t := m.fresh("t")
	return []stmt{{
		text: "while true",
		body: []stmt{define(t, x), ifElse(t+" != 0", []stmt{ret(m, t, t+" > 1")}, nil)},
		spec: []stmt{simple("await " + x + " != 0"), ret(m, x, x+" > 1")},
	}}
}

// rmw is an atomic read-modify-write: a fetch-and-add of 1 (a ticket, a
// count) or a swap of a small constant whose old value is kept, either as
// a statement; or, with thread values, a swap of tid into Last that acts
// if Last held the thread already.
func (g *gen) rmw(m *method) []stmt {
	if g.allowed(ThreadValue) && g.chance(4) {
		g.use(ThreadValue)
		l, p := g.sharedVar("Last"), m.fresh("was")
		return []stmt{define(p, "swap("+l+", tid)"), ifElse(p+" == tid", g.simpleUpdate(m), nil)}
	}
	x, t := g.intVar(), m.fresh("t")
	op := g.pick("faa("+x+", 1)", "swap("+x+", "+g.pick("0", "1", "2")+")")
	if g.chance(3) {
		return []stmt{simple(op)}
	}
	return append([]stmt{define(t, op)}, g.record(m, t)...)
}

// localLoop sums a local counter in a loop that touches no shared state
// (folded into the step that enters it), starting from a shared int read
// before it, and records the sum.
func (g *gen) localLoop(m *method) []stmt {
	k, s := m.fresh("k"), m.fresh("s")
	loop := block("while "+k+" < 2", simple(s+" = "+s+" + "+k), simple(k+" = "+k+" + 1"))
	return append([]stmt{define(k, "0"), define(s, g.intVar()), loop}, g.record(m, "("+s+") % 3")...)
}

// locCounter takes the address of X or of Y, chosen at run time, reads
// and updates the location through it (a cas, a store or an faa), and
// sometimes publishes the loc in L.
func (g *gen) locCounter(m *method) []stmt {
	l, t := m.fresh("l"), m.fresh("t")
	cond := g.sharedVar("Y") + " == 0"
	if m.param && g.chance(2) {
		cond = "v == 1"
	}
	out := []stmt{define(l, "&"+g.sharedVar("X")), ifElse(cond, []stmt{simple(l + " = &Y")}, nil), define(t, "*"+l)}
	switch g.r.IntN(3) {
	case 0:
		out = append(out, simple("cas(*"+l+", "+t+", ("+t+" + 1) % 3)"))
	case 1:
		if g.allowed(RMW) {
			g.use(RMW)
			out = append(out, simple("faa(*"+l+", 1)"))
			break
		}
		fallthrough
	default:
		out = append(out, assign("*"+l, g.update(m, t)))
	}
	if g.chance(3) {
		out = append(out, simple(g.sharedVar("L")+" = "+l))
	}
	return append(out, g.record(m, t)...)
}

// locList walks the list at Top as Michael's find does, with a pointer
// to the pointer that holds the current node (p = &c.next), for at most
// two nodes, then inserts a node there through it (or reads the node it
// stopped at, if m may not allocate), and sometimes publishes the loc in
// Cur.
func (g *gen) locList(m *method) []stmt {
	p, c, k := m.fresh("p"), m.fresh("c"), m.fresh("i")
	out := []stmt{define(p, "&"+g.sharedVar("Top")), define(c, "*"+p), define(k, "0"),
		block("while "+c+" != null && "+k+" < 2", simple(p+" = &"+c+".next"), simple(c+" = *"+p), simple(k+" = "+k+" + 1"))}
	if g.allocate(m) {
		n := m.fresh("n")
		out = append(out, define(n, "new Node{val: "+g.nodeValue(m)+", next: "+c+"}"), simple("cas(*"+p+", "+c+", "+n+")"))
	} else {
		out = append(out, ifElse(c+" != null", g.record(m, c+".val"), nil))
	}
	if g.chance(3) {
		out = append(out, simple(g.sharedVar("Cur")+" = "+p))
	}
	return out
}

// locRead reads through the loc published in L (or, in a program with
// the list, in Cur) unless it is the null loc.
func (g *gen) locRead(m *method) []stmt {
	q, z, t := m.fresh("q"), m.fresh("z"), m.fresh("t")
	if g.features&Heap != 0 && g.chance(2) {
		return []stmt{define(q, g.sharedVar("Cur")), simple("var " + z + " loc ref Node"),
			ifElse(q+" != "+z, []stmt{define(t, "*"+q), ifElse(t+" != null", g.record(m, t+".val"), nil)}, nil)}
	}
	return []stmt{define(q, g.sharedVar("L")), simple("var " + z + " loc int"), ifElse(q+" != "+z, g.record(m, "*"+q), nil)}
}

// fieldArray updates an element of the first node's array field cnt, at
// an index chosen at run time (from v, X or any), with a cas, an faa or
// a store through a loc to it, and records the value it read.
func (g *gen) fieldArray(m *method) []stmt {
	t, i, c := m.fresh("t"), m.fresh("i"), m.fresh("c")
	index := g.intVar() + " % 2"
	switch {
	case m.param && g.chance(2):
		index = "v - 1"
	case g.allowed(Any) && g.chance(2):
		g.use(Any)
		index = "any 0..1"
	}
	var update stmt
	switch {
	case g.allowed(RMW) && g.chance(3):
		g.use(RMW)
		update = simple("faa(" + t + ".cnt[" + i + "], 1)")
	case g.allowed(Loc) && g.chance(3):
		g.use(Loc)
		l := m.fresh("l")
		return []stmt{define(t, g.sharedVar("Top")), ifElse(t+" != null", append([]stmt{define(i, index), define(l, "&"+t+".cnt["+i+"]"),
			define(c, "*"+l), assign("*"+l, "("+c+" + 1) % 3")}, g.record(m, c)...), nil)}
	default:
		update = simple("cas(" + t + ".cnt[" + i + "], " + c + ", (" + c + " + 1) % 3)")
	}
	return []stmt{define(t, g.sharedVar("Top")), ifElse(t+" != null", append([]stmt{define(i, index), define(c, t+".cnt["+i+"]"), update}, g.record(m, c)...), nil)}
}
