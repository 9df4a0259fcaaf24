package bisim

import (
	"fmt"
	"slices"

	"github.com/linbis/linbis/lts"
)

// Comparison is the verdict of Compare.
type Comparison struct {
	// Equivalent reports whether the initial states are equivalent.
	Equivalent bool
	// Counterexample is a distinguishing trace, nil when Equivalent. Its
	// steps are a path from the initial state of one of the two LTSs,
	// named in Title and by Side.
	Counterexample *lts.Trace
	// Side is 0 if Counterexample is a path of a, 1 if of b.
	Side int
	// Kind says what the counterexample shows: "action" (one side can do
	// a visible action the other cannot, after any τ steps), "divergence"
	// (one side can do τ steps forever, the other cannot) or "branching"
	// (the weak traces and divergences agree; the two differ in the
	// branching structure, see Final).
	Kind string
	// Other is the path of the other LTS with the same visible labels,
	// ending in OtherState, the state it is compared with.
	Other      []lts.TraceStep
	OtherState int32
	// Evidence, when not Equivalent, is a distinguishing formula,
	// model-checked on both LTSs before Compare returns it, with its
	// witnessing paths and its reading in English (formula_compare.go).
	Evidence *FormulaEvidence
	// Classes is the number of classes of the disjoint union; StatesA and
	// StatesB the sizes of the inputs; Pairs the state pairs explored by
	// the search for the counterexample.
	Classes, StatesA, StatesB int32
	Pairs                     int
	// PairLimitHit reports that the search stopped at Options.MaxPairs
	// before it found an unmatched action or divergence.
	PairLimitHit bool
}

// Compare decides whether a and b are equivalent under eq, via the
// partition of their disjoint union (labels are matched by name). When they
// are not, it searches, breadth first, the pairs (p, q) of states reachable
// in a and b by paths with the same visible labels, skipping pairs found
// equivalent, for the nearest pair where one side can do a visible action
// the other cannot do after any τ steps or, under DivBranching, can diverge
// where the other cannot. The search is bounded by Options.MaxPairs; when
// it finds nothing of the kind, the counterexample shows how the initial
// states differ in their branching structure.
func Compare(a, b *lts.LTS, eq Equivalence, opts Options) (*Comparison, error) {
	if a.NumStates == 0 || b.NumStates == 0 {
		return nil, fmt.Errorf("cannot compare an LTS without states")
	}
	u, off := lts.Union(a, b)
	k, kblock, kn, err := partitionKernel(u, eq, &opts)
	if err != nil {
		return nil, err
	}
	block, rename, numClasses := classesOf(u, k, kblock, kn)
	c := &Comparison{Classes: numClasses, StatesA: a.NumStates, StatesB: b.NumStates}
	c.Equivalent = block[a.Initial] == block[off+b.Initial]
	if !c.Equivalent {
		if c.Evidence, err = formulaEvidence(a, b, u, off, k, kblock, block, rename, numClasses, eq, &opts); err != nil {
			return nil, err
		}
		w := &witnessSearch{a: a, b: b, u: u, off: off, eq: eq, block: block, opts: &opts, k: k, kblock: kblock}
		w.run(c)
	}
	return c, nil
}

// witnessSearch finds a distinguishing trace; see Compare.
type witnessSearch struct {
	a, b, u *lts.LTS
	off     int32
	eq      Equivalence
	block   []int32
	opts    *Options
	k       *kernel
	kblock  []int32
	// nodes of the breadth-first search over pairs, and their index
	nodes []pairNode
	index map[uint64]int32
	// weak caches the visible labels each state can do after τ steps.
	weak       map[int32][]int32
	canDiverge []bool
}

// pairNode is a pair (p of a, q of b, as union states) reached from parent
// by transition ta of the union (-1: a stood still) and tb (likewise).
type pairNode struct {
	p, q, parent, ta, tb int32
}

func (w *witnessSearch) name(side int) string {
	name, def := w.opts.NameA, "A"
	if side == 1 {
		name, def = w.opts.NameB, "B"
	}
	if name == "" {
		return def
	}
	return name
}

func (w *witnessSearch) run(c *Comparison) {
	maxPairs := w.opts.MaxPairs
	if maxPairs <= 0 {
		maxPairs = DefaultMaxPairs
	}
	u := w.u
	w.index = map[uint64]int32{}
	w.weak = map[int32][]int32{}
	if w.eq == DivBranching {
		w.canDiverge = canDiverge(u)
	}
	w.visit(w.a.Initial, w.off+w.b.Initial, -1, -1, -1)
	for i := int32(0); int(i) < len(w.nodes); i++ {
		n := w.nodes[i]
		if w.found(c, i) {
			c.Pairs = len(w.nodes)
			return
		}
		if len(w.nodes) >= maxPairs {
			c.PairLimitHit = true
			break
		}
		if i&4095 == 0 {
			w.opts.progress("counterexample pairs", int64(len(w.nodes)))
		}
		for t := u.Out[n.p]; t < u.Out[n.p+1]; t++ {
			if u.Label[t] == lts.Tau {
				w.visit(u.Dst[t], n.q, i, t, -1)
				continue
			}
			for x := u.Out[n.q]; x < u.Out[n.q+1]; x++ {
				if u.Label[x] == u.Label[t] {
					w.visit(u.Dst[t], u.Dst[x], i, t, x)
				}
			}
		}
		for x := u.Out[n.q]; x < u.Out[n.q+1]; x++ {
			if u.Label[x] == lts.Tau {
				w.visit(n.p, u.Dst[x], i, -1, x)
			}
		}
	}
	c.Pairs = len(w.nodes)
	w.branchingWitness(c)
}

// visit adds the pair (p, q) unless it is known or equivalent.
func (w *witnessSearch) visit(p, q, parent, ta, tb int32) {
	if parent >= 0 && w.block[p] == w.block[q] {
		return
	}
	key := uint64(p)<<32 | uint64(q)
	if _, ok := w.index[key]; ok {
		return
	}
	w.index[key] = int32(len(w.nodes))
	w.nodes = append(w.nodes, pairNode{p, q, parent, ta, tb})
}

// found checks node i for an unmatched action or divergence and, if there
// is one, fills in c.
func (w *witnessSearch) found(c *Comparison, i int32) bool {
	n := w.nodes[i]
	for side, pq := range [2][2]int32{{n.p, n.q}, {n.q, n.p}} {
		self, other := pq[0], pq[1]
		weak := w.weakLabels(other)
		for t := w.u.Out[self]; t < w.u.Out[self+1]; t++ {
			if a := w.u.Label[t]; a != lts.Tau && !slices.Contains(weak, a) {
				tr := w.trace(i, side)
				st := w.step(side, t)
				st.Note = "unmatched"
				tr.Steps = append(tr.Steps, st)
				tr.Final = fmt.Sprintf("%s can do %s here; %s, in state %d reached by the same visible steps, cannot, after any τ steps",
					w.name(side), w.u.Labels[a], w.name(1-side), w.local(other))
				w.fill(c, i, side, "action", tr)
				return true
			}
		}
	}
	if w.canDiverge == nil {
		return false
	}
	for side, pq := range [2][2]int32{{n.p, n.q}, {n.q, n.p}} {
		self, other := pq[0], pq[1]
		if w.canDiverge[self] && !w.canDiverge[other] {
			tr := w.trace(i, side)
			w.appendLasso(tr, side, self, func(t int32) bool { return w.u.Label[t] == lts.Tau })
			tr.Final = fmt.Sprintf("%s can do τ steps forever from here; %s, in state %d reached by the same visible steps, cannot",
				w.name(side), w.name(1-side), w.local(other))
			w.fill(c, i, side, "divergence", tr)
			return true
		}
	}
	return false
}

func (w *witnessSearch) fill(c *Comparison, i int32, side int, kind string, tr *lts.Trace) {
	c.Side, c.Kind, c.Counterexample = side, kind, tr
	tr.Title = fmt.Sprintf("%s and %s are not %s bisimilar; a path of %s:", w.name(0), w.name(1), w.eq, w.name(side))
	other := w.trace(i, 1-side)
	c.Other = other.Steps
	n := w.nodes[i]
	c.OtherState = w.local(n.q)
	if side == 1 {
		c.OtherState = w.local(n.p)
	}
}

// local maps a union state to its state in a or b.
func (w *witnessSearch) local(s int32) int32 {
	if s >= w.off {
		return s - w.off
	}
	return s
}

// step makes the trace step of union transition t of the given side, with
// the metadata of the original LTS.
func (w *witnessSearch) step(side int, t int32) lts.TraceStep {
	if side == 0 {
		return lts.StepFromTransition(w.a, t)
	}
	return lts.StepFromTransition(w.b, t-int32(w.a.NumTransitions()))
}

// trace returns the path of one side from its initial state to node i.
func (w *witnessSearch) trace(i int32, side int) *lts.Trace {
	var ts []int32
	for ; i >= 0; i = w.nodes[i].parent {
		t := w.nodes[i].ta
		if side == 1 {
			t = w.nodes[i].tb
		}
		if t >= 0 {
			ts = append(ts, t)
		}
	}
	tr := &lts.Trace{LoopStart: -1}
	for j := len(ts) - 1; j >= 0; j-- {
		tr.Steps = append(tr.Steps, w.step(side, ts[j]))
	}
	return tr
}

// weakLabels returns the visible labels s can do after τ steps, sorted.
func (w *witnessSearch) weakLabels(s int32) []int32 {
	if ls, ok := w.weak[s]; ok {
		return ls
	}
	u := w.u
	seen := map[int32]bool{s: true}
	var ls []int32
	for stack := []int32{s}; len(stack) > 0; {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for t := u.Out[v]; t < u.Out[v+1]; t++ {
			if a := u.Label[t]; a != lts.Tau {
				ls = append(ls, a)
			} else if d := u.Dst[t]; !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	slices.Sort(ls)
	ls = slices.Compact(ls)
	w.weak[s] = ls
	return ls
}

// canDiverge marks the states of l with an infinite τ-path: those that
// reach a τ-cycle by τ-steps.
func canDiverge(l *lts.LTS) []bool {
	comp, count := lts.TauSCCs(l)
	div := lts.DivergentComponents(l, comp, count)
	// Components come in reverse topological order: τ-steps lead from a
	// component to one with a smaller number, so a forward sweep suffices.
	byComp := make([][]int32, count)
	for s, c := range comp {
		byComp[c] = append(byComp[c], int32(s))
	}
	for c := int32(0); c < count; c++ {
		for _, s := range byComp[c] {
			for t := l.Out[s]; t < l.Out[s+1] && !div[c]; t++ {
				div[c] = l.Label[t] == lts.Tau && div[comp[l.Dst[t]]]
			}
		}
	}
	out := make([]bool, l.NumStates)
	for s, c := range comp {
		out[s] = div[c]
	}
	return out
}

// appendLasso extends tr, which ends in union state s, by τ-steps to a
// τ-cycle and around it, making it a lasso. Only τ-transitions for which
// keep holds are used.
func (w *witnessSearch) appendLasso(tr *lts.Trace, side int, s int32, keep func(t int32) bool) {
	u := w.u
	comp, count := lts.SCCs(u, keep)
	div := lts.DivergentComponents(u, comp, count)
	// Breadth first over τ-steps from s to a state of a divergent component.
	parent := map[int32]int32{s: -1} // state -> transition reaching it
	queue := []int32{s}
	var hit int32 = -1
	for i := 0; i < len(queue) && hit < 0; i++ {
		v := queue[i]
		if div[comp[v]] {
			hit = v
			break
		}
		for t := u.Out[v]; t < u.Out[v+1]; t++ {
			if d := u.Dst[t]; keep(t) {
				if _, ok := parent[d]; !ok {
					parent[d] = t
					queue = append(queue, d)
				}
			}
		}
	}
	var path []int32
	for v := hit; parent[v] >= 0; v = u.Src[parent[v]] {
		path = append(path, parent[v])
	}
	slices.Reverse(path)
	for _, t := range path {
		tr.Steps = append(tr.Steps, w.step(side, t))
	}
	tr.LoopStart = len(tr.Steps)
	// Breadth first inside the component from hit back to hit.
	back := map[int32]int32{}
	queue = []int32{hit}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for t := u.Out[v]; t < u.Out[v+1]; t++ {
			d := u.Dst[t]
			if !keep(t) || comp[d] != comp[hit] {
				continue
			}
			if _, ok := back[d]; !ok {
				back[d] = t
				if d == hit {
					queue = queue[:i+1] // found the cycle
					break
				}
				queue = append(queue, d)
			}
		}
		if _, ok := back[hit]; ok {
			break
		}
	}
	var cycle []int32
	for v := hit; ; {
		t := back[v]
		cycle = append(cycle, t)
		v = u.Src[t]
		if v == hit {
			break
		}
	}
	slices.Reverse(cycle)
	for _, t := range cycle {
		tr.Steps = append(tr.Steps, w.step(side, t))
	}
}

// branchingWitness explains how the initial states differ when the search
// found no unmatched action or divergence: one of them, after inert τ steps
// (inside its class), has a transition into a class that the other cannot
// reach with the same label, or diverges inside its class and the other
// does not.
func (w *witnessSearch) branchingWitness(c *Comparison) {
	n := w.nodes[0]
	for side, pq := range [2][2]int32{{n.p, n.q}, {n.q, n.p}} {
		self, other := pq[0], pq[1]
		theirs, _ := w.signature(other)
		mine, parent := w.signature(self)
		for _, e := range mine {
			if slices.ContainsFunc(theirs, func(x sigEntry) bool { return x.label == e.label && x.class == e.class && x.div == e.div }) {
				continue
			}
			tr := w.trace(0, side)
			var path []int32
			end := e.state
			if !e.div {
				end = w.u.Src[e.via]
			}
			for v := end; parent[v] >= 0; v = w.u.Src[parent[v]] {
				path = append(path, parent[v])
			}
			slices.Reverse(path)
			for _, t := range path {
				tr.Steps = append(tr.Steps, w.step(side, t))
			}
			what := "diverge (do τ steps forever inside its class)"
			if e.div {
				w.appendLasso(tr, side, e.state, w.inert)
			} else {
				st := w.step(side, e.via)
				st.Note = "unmatched"
				tr.Steps = append(tr.Steps, st)
				what = "do " + w.u.Labels[e.label] + " into a state of class " + fmt.Sprint(e.class)
			}
			how := "with no step of the same label into that class"
			where := "the number of τ steps or the branching structure"
			if w.eq != Strong {
				how = "neither directly nor after τ steps that stay in its class"
				where = "the branching structure"
			}
			explored := fmt.Sprintf("visible actions and divergence agree on all %d state pairs reachable with the same visible steps", c.Pairs)
			if c.PairLimitHit {
				explored = fmt.Sprintf("the search for an unmatched action stopped at the limit of %d state pairs", c.Pairs)
			}
			tr.Final = fmt.Sprintf("%s can %s; %s cannot, %s (%s: the difference is in %s)",
				w.name(side), what, w.name(1-side), how, explored, where)
			w.fill(c, 0, side, "branching", tr)
			return
		}
	}
	// Unreachable: inequivalent classes of a stable partition differ in
	// their signatures.
	panic("bisim: inequivalent initial states with equal signatures")
}

// inert reports whether union transition t is an inert τ-step (inside a
// class) under a branching equivalence.
func (w *witnessSearch) inert(t int32) bool {
	u := w.u
	return w.eq != Strong && u.Label[t] == lts.Tau && w.block[u.Src[t]] == w.block[u.Dst[t]]
}

// sigEntry is one element of a signature: a non-inert transition via (or,
// for divergence, a state on a τ-cycle inside the class) and the label and
// class it leads to.
type sigEntry struct {
	label, class, via, state int32
	div                      bool
}

// signature lists what union state s can do after inert τ steps (τ steps
// inside its class; none under Strong): its non-inert transitions and,
// under DivBranching, divergence inside the class. parent gives for every
// state visited the inert τ-transition that reached it (-1 for s).
func (w *witnessSearch) signature(s int32) (sig []sigEntry, parent map[int32]int32) {
	u := w.u
	inert := w.inert
	parent = map[int32]int32{s: -1}
	queue := []int32{s}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for t := u.Out[v]; t < u.Out[v+1]; t++ {
			d := u.Dst[t]
			if !inert(t) {
				sig = append(sig, sigEntry{label: u.Label[t], class: w.block[d], via: t})
			} else if _, ok := parent[d]; !ok {
				parent[d] = t
				queue = append(queue, d)
			}
		}
	}
	if w.eq == DivBranching {
		comp, count := lts.SCCs(u, inert)
		size := make([]int32, count)
		for _, cc := range comp {
			size[cc]++
		}
		for _, v := range queue {
			cyc := size[comp[v]] > 1
			for t := u.Out[v]; t < u.Out[v+1] && !cyc; t++ {
				cyc = inert(t) && u.Dst[t] == v
			}
			if cyc {
				sig = append(sig, sigEntry{label: lts.Tau, class: w.block[s], via: -1, state: v, div: true})
				break
			}
		}
	}
	return sig, parent
}
