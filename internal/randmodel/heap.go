package randmodel

// The idioms on heap nodes: a Treiber-style list at Top, with or without
// hazard pointers, and a linked queue from Head to Tail.

// nodeValue is the value a new node carries: a constant where threads
// call twice, as lists of nodes with varying values multiply the states.
func (g *gen) nodeValue(m *method) string {
	if g.ops > 1 {
		return g.pick("1", "2")
	}
	if m.param && g.chance(2) {
		return "v"
	}
	return g.pick("1", "2", g.intVar())
}

// push puts a new node on the list Top: with a CAS loop, or racily; it
// peeks instead if m may not allocate.
func (g *gen) push(m *method) []stmt {
	if !g.allocate(m) {
		return g.peek(m)
	}
	top := g.sharedVar("Top")
	n, t := m.fresh("n"), m.fresh("t")
	alloc := define(n, "new Node{val: "+g.nodeValue(m)+"}")
	if g.chance(4) {
		return []stmt{alloc, define(t, top), simple(n + ".next = " + t), simple(top + " = " + n)}
	}
	d := m.fresh("d")
	return []stmt{alloc, g.declare(d, "bool", "false"), block("while !"+d,
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
	return []stmt{g.declare(d, "bool", "false"), block("while !"+d,
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

// hazardPop is pop with a hazard pointer: it publishes the node it read
// in HP[tid] and checks that Top still holds it before reading its next.
func (g *gen) hazardPop(m *method) []stmt {
	top, hp := g.sharedVar("Top"), g.sharedVar("HP")+"[tid]"
	d, t, nx := m.fresh("d"), m.fresh("t"), m.fresh("nx")
	took := append(append(setRes(m, t+".val"), g.release(t)...), simple(d+" = true"))
	protected := []stmt{simple(hp + " = " + t), ifElse(top+" == "+t,
		[]stmt{define(nx, t+".next"), ifElse("cas("+top+", "+t+", "+nx+")", took, nil)}, nil)}
	return []stmt{g.declare(d, "bool", "false"),
		block("while !"+d, define(t, top), ifElse(t+" == null", []stmt{simple(d + " = true")}, protected)),
		simple(hp + " = null")}
}

// enqueue appends a node to the queue: a CAS on the last node's next
// field links it, a second CAS swings Tail (or helps a lagging Tail); it
// dequeues instead if m may not allocate.
func (g *gen) enqueue(m *method) []stmt {
	if !g.allocate(m) {
		return g.dequeue(m)
	}
	tail := g.sharedVar("Tail")
	g.sharedVar("Head")
	n, d, t, nx := m.fresh("n"), m.fresh("d"), m.fresh("t"), m.fresh("nx")
	link := ifElse(nx+" == null",
		[]stmt{ifElse("cas("+t+".next, "+nx+", "+n+")", []stmt{simple("cas(" + tail + ", " + t + ", " + n + ")"), simple(d + " = true")}, nil)},
		[]stmt{simple("cas(" + tail + ", " + t + ", " + nx + ")")})
	return []stmt{define(n, "new Node{val: "+g.nodeValue(m)+"}"), g.declare(d, "bool", "false"),
		block("while !"+d, define(t, tail), define(nx, t+".next"), link)}
}

// dequeue takes the value of the node after the dummy Head, which then
// becomes the dummy; it gives up on an empty queue.
func (g *gen) dequeue(m *method) []stmt {
	head := g.sharedVar("Head")
	g.sharedVar("Tail")
	d, h, nx := m.fresh("d"), m.fresh("h"), m.fresh("nx")
	took := append(append(setRes(m, nx+".val"), g.release(h)...), simple(d+" = true"))
	return []stmt{g.declare(d, "bool", "false"), block("while !"+d,
		define(h, head), define(nx, h+".next"),
		ifElse(nx+" == null", []stmt{simple(d + " = true")}, []stmt{ifElse("cas("+head+", "+h+", "+nx+")", took, nil)}))}
}
