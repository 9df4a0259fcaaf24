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
