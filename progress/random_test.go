package progress

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lts"
)

// oracle decides the properties the slow, obvious way, sharing no code with
// the checker: it explores the product of the LTS with the pending set
// (and, if the states do not determine the set, decides on that product),
// computes reachability between states by a search from every state, and
// looks for violating cycles through that reachability relation.
type oracle struct {
	l       *lts.LTS
	threads int
	err     string   // why the LTS is rejected, "" if it is not
	product bool     // l is the product of the input with the pending sets
	pend    []uint64 // per state: pending set (when err == "")
	reached []bool   // per state
	rp      replay
}

func newOracle(l *lts.LTS) *oracle {
	o := &oracle{l: l, threads: maxThreadOf(l), rp: replay{l}}
	type node struct {
		s   int32
		set uint64
	}
	type edge struct {
		from, to node
		t        int32
	}
	seen := map[node]bool{{l.Initial, 0}: true}
	stack := []node{{l.Initial, 0}}
	var edges []edge
	sets := map[int32]map[uint64]bool{}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if sets[x.s] == nil {
			sets[x.s] = map[uint64]bool{}
		}
		sets[x.s][x.set] = true
		lo, hi := l.Outgoing(x.s)
		for t := lo; t < hi; t++ {
			set := x.set
			k, th := o.kind(t)
			if mt := l.ThreadOf(t); (k == Call || k == Return) && mt != 0 && mt != th {
				o.err = "attribution"
				continue
			}
			bit := uint64(1) << th
			switch {
			case k == Call && set&bit != 0, k == Return && set&bit == 0:
				o.err = "malformed"
				continue
			case k == Call || k == Return:
				set ^= bit
			}
			y := node{l.Dst[t], set}
			edges = append(edges, edge{x, y, t})
			if !seen[y] {
				seen[y] = true
				stack = append(stack, y)
			}
		}
	}
	o.pend = make([]uint64, l.NumStates)
	o.reached = make([]bool, l.NumStates)
	conflict := false
	for s, ss := range sets {
		conflict = conflict || len(ss) > 1
		for set := range ss {
			o.pend[s] = set
		}
		o.reached[s] = true
	}
	if !conflict || o.err != "" {
		return o
	}
	// The states do not determine the pending sets: decide on the explicit
	// product instead, whose states are the nodes.
	b := lts.NewBuilder()
	for _, name := range l.Labels {
		b.Label(name)
	}
	ids := map[node]int32{}
	id := func(x node) int32 {
		if _, ok := ids[x]; !ok {
			ids[x] = b.AddState()
		}
		return ids[x]
	}
	id(node{l.Initial, 0})
	for _, e := range edges {
		b.AddTransitionMeta(id(e.from), l.Label[e.t], id(e.to), l.ThreadOf(e.t), -1)
	}
	p := b.Build()
	if l.Meta == nil {
		p.Meta = nil
	}
	po := newOracle(p)
	po.product = true
	return po
}

// closure returns reach[u][v]: v is reachable from u by one or more
// transitions satisfying allowed.
func (o *oracle) closure(allowed func(t int32) bool) [][]bool {
	n := o.l.NumStates
	reach := make([][]bool, n)
	for u := int32(0); u < n; u++ {
		reach[u] = make([]bool, n)
		stack := []int32{u}
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			lo, hi := o.l.Outgoing(s)
			for t := lo; t < hi; t++ {
				if d := o.l.Dst[t]; allowed(t) && !reach[u][d] {
					reach[u][d] = true
					stack = append(stack, d)
				}
			}
		}
	}
	return reach
}

func (o *oracle) kind(t int32) (Kind, int32) {
	k, th, _, _ := ParseAction(o.l.LabelName(t))
	return k, th
}

func (o *oracle) pending(s, th int32) bool { return o.pend[s]&(1<<th) != 0 }

// holds decides p, and for the per-thread properties returns the smallest
// violating thread.
func (o *oracle) holds(p Property) (bool, int32) {
	l := o.l
	n := l.NumStates
	switch p {
	case LockFree:
		reach := o.closure(func(t int32) bool {
			k, _ := o.kind(t)
			return o.reached[l.Src[t]] && o.pend[l.Src[t]] != 0 && o.pend[l.Dst[t]] != 0 && k != Return
		})
		for u := int32(0); u < n; u++ {
			if o.reached[u] && reach[u][u] {
				return false, 0
			}
		}
		return true, 0
	case DeadlockFree:
		return o.deadlockFree(), 0
	}
	if p == StarvationFree && !o.deadlockFree() {
		return false, 0
	}
	for th := int32(1); th <= int32(o.threads); th++ {
		allowed := func(t int32) bool {
			return o.reached[l.Src[t]] && o.pending(l.Src[t], th) && o.pending(l.Dst[t], th)
		}
		if p == ObstructionFree {
			allowed = func(t int32) bool {
				k, _ := o.kind(t)
				return o.reached[l.Src[t]] && o.pending(l.Src[t], th) && o.rp.thread(t) == th && k != Return
			}
		}
		reach := o.closure(allowed)
		both := func(u, v int32) bool { return u == v || reach[u][v] && reach[v][u] }
		for u := int32(0); u < n; u++ {
			if !o.reached[u] || !reach[u][u] {
				continue
			}
			switch p {
			case ObstructionFree:
				return false, th
			case WaitFree:
				for t := range l.Src {
					if allowed(int32(t)) && o.rp.thread(int32(t)) == th && both(u, l.Src[t]) && both(u, l.Dst[t]) {
						return false, th
					}
				}
			case StarvationFree:
				fair := true
				for th2 := int32(1); th2 <= int32(o.threads); th2++ {
					ok := false
					for t := range l.Src {
						ok = ok || allowed(int32(t)) && o.rp.thread(int32(t)) == th2 && both(u, l.Src[t]) && both(u, l.Dst[t])
					}
					for v := int32(0); v < n; v++ {
						ok = ok || both(u, v) && !o.rp.enabled(v, th2)
					}
					fair = fair && ok
				}
				if fair {
					return false, th
				}
			}
		}
	}
	return true, 0
}

func (o *oracle) deadlockFree() bool {
	for s := int32(0); s < o.l.NumStates; s++ {
		if lo, hi := o.l.Outgoing(s); o.reached[s] && lo == hi && o.pend[s] != 0 {
			return false
		}
	}
	return true
}

// simpleCycleLockFree is a second, even plainer oracle for lock-freedom:
// it enumerates the simple cycles of the allowed subgraph by depth-first
// search over simple paths starting at their smallest state.
func (o *oracle) simpleCycleLockFree() bool {
	l := o.l
	allowed := func(t int32) bool {
		k, _ := o.kind(t)
		return o.reached[l.Src[t]] && o.pend[l.Src[t]] != 0 && k != Return
	}
	onPath := make([]bool, l.NumStates)
	var dfs func(start, s int32) bool
	dfs = func(start, s int32) bool {
		lo, hi := l.Outgoing(s)
		for t := lo; t < hi; t++ {
			d := l.Dst[t]
			if !allowed(t) || d < start {
				continue
			}
			if d == start {
				return true
			}
			if !onPath[d] {
				onPath[d] = true
				found := dfs(start, d)
				onPath[d] = false
				if found {
					return true
				}
			}
		}
		return false
	}
	for s := int32(0); s < l.NumStates; s++ {
		if o.reached[s] && dfs(s, s) {
			return false
		}
	}
	return true
}

// randomLTS makes a small LTS whose states mostly carry a consistent pending
// set, so that most instances are well formed, with a few stray labels that
// make some malformed or ambiguous; thread attribution is random. The
// steps are drawn by randlts, labelled here from the pending sets.
func randomLTS(rng *rand.Rand) *lts.LTS {
	n := int32(1 + rng.IntN(8))
	threads := 1 + rng.IntN(3)
	pend := make([]uint64, n)
	for s := range pend {
		if s != 0 {
			pend[s] = rng.Uint64N(1 << threads)
		}
	}
	b := lts.NewBuilder()
	meta := rng.IntN(4) != 0
	// In a third of the LTSs some internal steps change the pending set,
	// as if states that differ in it had been merged: the checker must
	// then work on the product.
	merged := rng.IntN(3) == 0
	add := func(src, dst int32) {
		diff := pend[src] ^ pend[dst]
		label := "tau"
		thread := int32(1 + rng.IntN(threads))
		switch {
		case merged && diff != 0 && rng.IntN(3) == 0:
			// τ between states with different pending sets
		case rng.IntN(25) == 0:
			label = []string{"call(1,m)", "ret(2,m,0)", "call(x,m)", "a"}[rng.IntN(4)]
		case diff == 0:
			if rng.IntN(6) == 0 {
				label = "a"
			}
		case diff&(diff-1) == 0: // one thread differs
			th := int32(0)
			for diff>>th != 1 {
				th++
			}
			thread = th + 1
			if pend[dst]&diff != 0 {
				label = fmt.Sprintf("call(%d,m)", thread)
			} else {
				label = fmt.Sprintf("ret(%d,m,%d)", thread, rng.IntN(2))
			}
		default:
			return
		}
		if meta {
			if rng.IntN(8) == 0 {
				thread = 0
			}
			b.AddTransitionMeta(src, b.Label(label), dst, thread, -1)
		} else {
			b.AddTransition(src, b.Label(label), dst)
		}
	}
	randlts.Fill(rng, b, randlts.Config{States: int(n), Transitions: rng.IntN(int(3*n) + 1), Add: add})
	return b.Build()
}

// randomProgram is a random thread program over a shared bit: location 0
// is idle, a call enters 1, internal steps move between 1..size with random
// guards and updates, and a ret from some location leaves to 0 (forever)
// or to a final location.
func randomProgram(rng *rand.Rand, forever bool) program {
	size := 1 + rng.IntN(3)
	done := 0
	if !forever {
		done = size + 1
	}
	prog := program{step(0, 1, "call(%d,m)", "call", nil)}
	for i := 0; i < 1+rng.IntN(2*size+1); i++ {
		guard, update := rng.IntN(3), rng.IntN(3) // 0/1: g must be / becomes that; 2: any / unchanged
		prog = append(prog, step(1+rng.IntN(size), 1+rng.IntN(size), "tau", fmt.Sprintf("s%d", i),
			func(g, r int) (bool, int, int) {
				if guard < 2 && g != guard {
					return false, g, r
				}
				if update < 2 {
					g = update
				}
				return true, g, r
			}))
	}
	for i := 0; i < 1+rng.IntN(2); i++ {
		prog = append(prog, step(1+rng.IntN(size), done, "ret(%d,m)", "ret", nil))
	}
	return prog
}

func compareWithOracle(t *testing.T, l *lts.LTS) (results map[Property]bool) {
	t.Helper()
	o := newOracle(l)
	c, err := NewChecker(l)
	if o.err != "" {
		require.Error(t, err, "the oracle rejects the LTS (%s)", o.err)
		assert.ErrorIs(t, err, ErrMalformed)
		return nil
	}
	require.NoError(t, err)
	assert.Equal(t, o.product, c.m.origin != nil, "the checker builds the product exactly when the oracle needs it")
	assert.Equal(t, o.simpleCycleLockFree(), mustHold(o.holds(LockFree)), "the two oracles agree")
	unattributed := false
	for tr := range o.l.Src {
		unattributed = unattributed || o.reached[o.l.Src[tr]] && o.rp.thread(int32(tr)) == 0
	}
	results = map[Property]bool{}
	for _, p := range Supported(l) {
		res, err := c.Check(p)
		if p.NeedsThreads() && unattributed {
			assert.ErrorIs(t, err, ErrNeedsThreads, "%s needs every step attributed", p)
			continue
		}
		require.NoError(t, err)
		want, th := o.holds(p)
		require.Equal(t, want, res.Holds, "%s: %s\n%s", p, res.Explanation, dump(l))
		if !res.Holds {
			checkCounterexample(t, l, res)
			if p != StarvationFree && p.NeedsThreads() {
				assert.Equal(t, th, res.Thread, "%s: the smallest violating thread", p)
			}
		}
		results[p] = res.Holds
	}
	return results
}

func mustHold(ok bool, _ int32) bool { return ok }

func dump(l *lts.LTS) string {
	s := fmt.Sprintf("initial %d, %d states\n", l.Initial, l.NumStates)
	for t := range l.Src {
		s += fmt.Sprintf("  %d -%s[%d]-> %d\n", l.Src[t], l.LabelName(int32(t)), l.ThreadOf(int32(t)), l.Dst[t])
	}
	return s
}

// TestRandomAgainstOracle compares every property on thousands of seeded
// random small LTSs with the oracle, and replays every counterexample.
func TestRandomAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2026))
	violated, rejected, products := map[Property]int{}, 0, 0
	for i := range testsize.Count(6000, 60_000) {
		l := randomLTS(rng)
		r := compareWithOracle(t, l)
		if t.Failed() {
			t.Fatalf("case %d", i)
		}
		if r == nil {
			rejected++
		}
		if newOracle(l).product {
			products++
		}
		for p, ok := range r {
			if !ok {
				violated[p]++
			}
		}
	}
	t.Logf("rejected %d, products %d, violations per property %v", rejected, products, violated)
	assert.Greater(t, products, 50, "the generator exercises states that do not determine the pending set")
	for _, p := range AllProperties {
		assert.Greater(t, violated[p], 50, "the generator exercises violations of %s", p)
	}
	assert.Greater(t, rejected, 50, "and malformed inputs")
}

// TestRandomObjectsLattice runs random interleavings of random thread
// programs — well formed, and only threads inside an operation take
// internal steps, as under a most-general client — against the oracle, and
// checks the implications between the properties stated in the package
// documentation.
func TestRandomObjectsLattice(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2013))
	count, checked := map[string]int{}, 0
	for i := range testsize.Count(800, 8000) {
		forever := rng.IntN(2) == 0
		progs := []program{randomProgram(rng, forever), randomProgram(rng, forever)}
		if rng.IntN(3) == 0 {
			progs = append(progs, randomProgram(rng, forever))
		}
		l := interleave("random", rng.IntN(2), progs...)
		if l.NumStates > 40 {
			continue // keep the cubic oracle fast
		}
		checked++
		r := compareWithOracle(t, l)
		require.NotNil(t, r, "interleavings are well formed")
		if t.Failed() {
			t.Fatalf("case %d", i)
		}
		imply := func(a, b Property) {
			assert.True(t, !r[a] || r[b], "%s implies %s\n%s", a, b, dump(l))
		}
		imply(WaitFree, LockFree)
		imply(LockFree, ObstructionFree)
		imply(StarvationFree, DeadlockFree)
		if !forever {
			assert.Equal(t, r[LockFree], r[WaitFree], "with bounded operations wait-freedom is lock-freedom\n%s", dump(l))
		}
		for _, p := range AllProperties {
			if r[p] {
				count[p.String()]++
			}
		}
	}
	t.Logf("holds per property out of %d: %v", checked, count)
	assert.Greater(t, checked, 500)
	for _, p := range AllProperties {
		assert.Greater(t, count[p.String()], 20, "%s holds sometimes", p)
		assert.Less(t, count[p.String()], checked-20, "%s fails sometimes", p)
	}
}
