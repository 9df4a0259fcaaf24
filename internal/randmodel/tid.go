package randmodel

// The idioms that use thread ids: symmetric ones (a thread's own slot,
// an owner, a count over all threads) and asymmetric ones.

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

// The per-thread forms: rows of [thread] arrays, thread values, loops
// over threads. All are symmetric.

// row returns the thread's own element of P or of a row of R, indexed by
// the thread value me (tid or a thread local).
func (g *gen) row(me string) string {
	if g.chance(2) {
		return g.sharedVar("P") + "[" + me + "]"
	}
	return g.sharedVar("R") + "[" + me + "][" + g.pick("0", "1") + "]"
}

// rowUpdate reads or updates an element of the thread's own row.
func (g *gen) rowUpdate(m *method) []stmt {
	e := g.row("tid")
	if g.chance(3) {
		t := m.fresh("t")
		return append([]stmt{define(t, e)}, g.record(m, g.update(m, t))...)
	}
	return []stmt{assign(e, g.update(m, e))}
}

// myRow names the thread's id in a thread local and updates its row
// through it.
func (g *gen) myRow(m *method) []stmt {
	me := m.fresh("me")
	e := g.row(me)
	return []stmt{simple("var " + me + " thread = tid"), assign(e, g.update(m, e))}
}

// lastThread records the thread in Last, then acts if no other thread
// has overwritten it meanwhile.
func (g *gen) lastThread(m *method) []stmt {
	l := g.sharedVar("Last")
	return []stmt{simple(l + " = tid"), ifElse(l+" == tid", g.simpleUpdate(m), nil)}
}

// othersLoop visits the other threads (or all) in any order: it counts
// their non-zero slots, one read per step or in one atomic step, or
// copies their slots into the thread's row of S (a snapshot, as the
// hazard-pointer scan does).
func (g *gen) othersLoop(m *method) []stmt {
	j := m.fresh("j")
	which := g.pick("others", "others", "threads")
	if g.chance(3) {
		p, s := g.sharedVar("P"), g.sharedVar("S")
		return []stmt{block("for "+j+" in "+which, simple(s+"[tid]["+j+"] = "+p+"["+j+"]"))}
	}
	n := m.fresh("n")
	loop := block("for "+j+" in "+which, ifElse(g.row(j)+" != 0", []stmt{simple(n + " = " + n + " + 1")}, nil))
	if g.chance(2) {
		loop = block("atomic", loop)
	}
	return append([]stmt{define(n, "0"), loop}, g.record(m, n)...)
}
