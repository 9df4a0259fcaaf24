package randmodel

// The idioms: each generates a few statements of a method. Fragments leave
// the method running; terminals end it with returns. Every loop either
// exits after a successful CAS, spins without changing anything (a
// τ-cycle), or counts to nthreads, and every update adds a small amount
// once per operation or wraps modulo 3, so the state space stays finite
// and small.

// idiom is a generator of statements drawn at random, by weight.
type idiom struct {
	// feature is what the idiom exercises (0: nothing in particular); an
	// excluded or, in a symmetric program, asymmetric feature is never drawn.
	feature Feature
	// weight is the idiom's relative frequency.
	weight int
	gen    func(g *gen, m *method) []stmt
}

// fragments are the idioms that leave the method running.
func fragments() []idiom {
	return []idiom{
		{0, 4, (*gen).atomicUpdate},
		{0, 3, (*gen).racyUpdate},
		{0, 3, (*gen).casDone},
		{0, 2, (*gen).tryCas},
		{0, 3, (*gen).conditional},
		{0, 1, (*gen).flagSet},
		{Lock, 2, (*gen).lockSection},
		{FlagWait, 2, (*gen).flagWait},
		{Await, 2, (*gen).await},
		{Assert, 1, (*gen).assert},
		{TidIndex, 3, (*gen).tidSlot},
		{TidValue, 2, (*gen).ownerLock},
		{TidCount, 1, (*gen).tidCount},
		{Heap, 3, (*gen).push},
		{Heap, 2, (*gen).pop},
		{Heap, 2, (*gen).peek},
		{Heap, 1, (*gen).fieldUpdate},
		{TidArith, 2, (*gen).tidArith},
		{TidOrder, 2, (*gen).tidOrder},
		{TidScan, 1, (*gen).tidScan},
	}
}

// terminals are the idioms that end the method.
func terminals() []idiom {
	return []idiom{
		{0, 3, (*gen).casReturn},
		{Heap, 2, (*gen).popReturn},
		{FlagWait, 1, (*gen).spinReturn},
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

// draw runs one of the allowed idioms, chosen by weight.
func (g *gen) draw(m *method, list []idiom) []stmt {
	total := 0
	for _, id := range list {
		if g.allowed(id.feature) {
			total += id.weight
		}
	}
	n := g.r.IntN(total)
	for _, id := range list {
		if !g.allowed(id.feature) {
			continue
		}
		if n -= id.weight; n < 0 {
			g.use(id.feature)
			return id.gen(g, m)
		}
	}
	panic("unreachable")
}

func (g *gen) fragment(m *method) []stmt { return g.draw(m, fragments()) }

func (g *gen) terminal(m *method) []stmt { return g.draw(m, terminals()) }

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
	return []stmt{define(d, "false"), block("while !"+d, loop...)}
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
	if m.depth > 0 {
		return g.racyUpdate(m)
	}
	m.depth++
	defer func() { m.depth-- }()
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

// ownerLock is a critical section under a lock that stores its owner's
// tid: a blocking acquire, or a try that checks whether it got the lock.
func (g *gen) ownerLock(m *method) []stmt {
	o := g.sharedVar("Owner")
	if g.chance(2) {
		return g.critical(m, block("while !cas("+o+", 0, tid)", simple("skip")), o+" = 0")
	}
	section := g.critical(m, simple("cas("+o+", 0, tid)"), o+" = 0")
	return []stmt{section[0], ifElse(o+" == tid", section[1:], nil)}
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

// tidSlot reads or writes the thread's own slot A[tid].
func (g *gen) tidSlot(m *method) []stmt {
	a := g.sharedVar("A") + "[tid]"
	switch g.r.IntN(3) {
	case 0:
		x := g.intVar()
		return []stmt{assign(a, x)}
	case 1:
		t := m.fresh("t")
		return append([]stmt{define(t, a)}, g.record(m, g.update(m, t))...)
	}
	return []stmt{assign(a, g.update(m, a))}
}

// tidCount counts, in one step, the other threads with a non-zero slot.
func (g *gen) tidCount(m *method) []stmt {
	g.sharedVar("A")
	i, n := m.fresh("i"), m.fresh("n")
	loop := block("while "+i+" <= nthreads",
		ifElse(i+" != tid && A["+i+"] != 0", []stmt{simple(n + " = " + n + " + 1")}, nil),
		simple(i+" = "+i+" + 1"))
	body := append([]stmt{define(i, "1"), define(n, "0"), loop}, g.record(m, n)...)
	return []stmt{block("atomic", body...)}
}

// tidArith computes with tid: asymmetric.
func (g *gen) tidArith(m *method) []stmt {
	switch k := g.r.IntN(3); {
	case k == 1 && m.result != "":
		return setRes(m, "tid + 1")
	case k == 2 && g.allowed(TidIndex):
		g.use(TidIndex)
		return []stmt{assign(g.sharedVar("A")+"[tid % nthreads + 1]", g.pick("1", "2"))}
	}
	x := g.intVar()
	return []stmt{block("atomic", assign(x, x+" + tid"))}
}

// tidOrder compares tid with a constant or orders thread ids: asymmetric.
func (g *gen) tidOrder(m *method) []stmt {
	if g.chance(2) {
		return []stmt{ifElse("tid == 1", g.simpleUpdate(m), g.simpleUpdate(m))}
	}
	mx := g.sharedVar("Max")
	return append([]stmt{block("atomic", ifElse(mx+" < tid", []stmt{simple(mx + " = tid")}, nil))}, setRes(m, mx)...)
}

// tidScan visits the slots in index order, one step each: asymmetric,
// since a permutation of the threads changes the order.
func (g *gen) tidScan(m *method) []stmt {
	g.sharedVar("A")
	i, s := m.fresh("i"), m.fresh("s")
	loop := block("while "+i+" <= nthreads",
		define(s, "A["+i+"]"),
		ifElse(s+" != 0", g.record(m, s), nil),
		simple(i+" = "+i+" + 1"))
	return []stmt{define(i, "1"), loop}
}

// nodeValue is the value a new node carries.
func (g *gen) nodeValue(m *method) string {
	if m.param && g.chance(2) {
		return "v"
	}
	return g.pick("1", "2", g.intVar())
}

// push puts a new node on the list Top: with a CAS loop, or racily. A
// method pushes at most once: every node multiplies the states.
func (g *gen) push(m *method) []stmt {
	if m.pushed {
		return g.peek(m)
	}
	m.pushed = true
	top := g.sharedVar("Top")
	n, t := m.fresh("n"), m.fresh("t")
	alloc := define(n, "new Node{val: "+g.nodeValue(m)+"}")
	if g.chance(4) {
		return []stmt{alloc, define(t, top), simple(n + ".next = " + t), simple(top + " = " + n)}
	}
	d := m.fresh("d")
	return []stmt{alloc, define(d, "false"), block("while !"+d,
		define(t, top), simple(n+".next = "+t), simple(d+" = cas("+top+", "+t+", "+n+")"))}
}

// release is what a pop does with the node it took: free it, sometimes.
func (g *gen) release(t string) []stmt {
	if !g.allowed(Free) || g.chance(2) {
		return nil
	}
	g.use(Free)
	return []stmt{simple(g.pick("free", "retire") + "(" + t + ")")}
}

// pop takes the first node off Top with a CAS loop and a done flag.
func (g *gen) pop(m *method) []stmt {
	top := g.sharedVar("Top")
	d, t, nx := m.fresh("d"), m.fresh("t"), m.fresh("nx")
	took := append(append(setRes(m, t+".val"), g.release(t)...), simple(d+" = true"))
	return []stmt{define(d, "false"), block("while !"+d,
		define(t, top),
		ifElse(t+" == null", []stmt{simple(d + " = true")},
			[]stmt{define(nx, t+".next"), ifElse("cas("+top+", "+t+", "+nx+")", took, nil)}))}
}

// peek reads the value of the first node.
func (g *gen) peek(m *method) []stmt {
	t := m.fresh("t")
	return []stmt{define(t, g.sharedVar("Top")), ifElse(t+" != null", g.record(m, t+".val"), nil)}
}

// fieldUpdate updates the first node's value in place, racily.
func (g *gen) fieldUpdate(m *method) []stmt {
	t := m.fresh("t")
	return []stmt{define(t, g.sharedVar("Top")), ifElse(t+" != null", []stmt{assign(t+".val", g.update(m, t+".val"))}, nil)}
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

// popReturn is Treiber's pop: EMPTY on an empty list, otherwise the
// value of the node its CAS took off.
func (g *gen) popReturn(m *method) []stmt {
	top := g.sharedVar("Top")
	t, nx := m.fresh("t"), m.fresh("nx")
	took := append(g.release(t), ret(m, t+".val", "true"))
	return []stmt{block("while true",
		define(t, top),
		ifElse(t+" == null", []stmt{ret(m, "EMPTY", "false")}, nil),
		define(nx, t+".next"),
		ifElse("cas("+top+", "+t+", "+nx+")", took, nil))}
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
