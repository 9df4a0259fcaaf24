package bisim

import (
	"math/bits"
	"slices"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lts"
)

// The classes of an LTS whose only cycles are τ-cycles, in one pass.
//
// A model checker's LTS of a most-general client with finitely many
// operations per thread has no cycle through a visible action: every call
// and return advances its thread's count of them, and no τ-step changes
// those counts. Once its τ-SCCs are contracted such an LTS is acyclic, and
// on an acyclic graph bisimilarity needs no refinement: every class can be
// found bottom up, after the classes of all successors, in one
// depth-first search (for strong bisimilarity on well-founded graphs this
// is the rank idea of Dovier, Piazza and Policriti, "An efficient
// algorithm for computing bisimulation equivalence", TCS 311, 2004).
// classifyAcyclic does that search (lts.SCCsEachWhile, every transition
// followed) and gives up, for the refinement to take over, at the first
// cycle through a visible action (or through any transition under
// Strong).
//
// The signature of a component X whose successors have classes is the
// set sig(X) of pairs (a, class of t) over the transitions X --a--> t
// that leave X, with a divergence flag under DivBranching when X holds a
// τ-cycle. Every class C keeps the signature of the component that created
// it. The rules, for X completed by the search:
//
//  1. X is branching bisimilar to a class C reached by one of its
//     τ-steps iff every other pair of sig(X) is in sig(C), and C is
//     divergent if X is. (If: the τ-step into C is then inert, and X adds
//     no behaviour; only if: C's signature is what its bottom states do
//     directly, see quotient, and X reaches them by inert τ-steps.) Only
//     the τ-target class created last can qualify: if X belongs to C,
//     every other τ-target class C' of X is in sig(C), so the component
//     that created C had a τ-step into C', which then already existed.
//  2. Otherwise no τ-step of X is inert, X's class does everything X does
//     directly, and two such components are bisimilar iff their
//     signatures and divergence flags are equal (a state with no inert
//     step matches every step directly): X's class is looked up by its
//     signature, or created.
//
// Under Strong rule 1 never applies. The classes are those of the
// refinement; TestAcyclicAgainstRefinement holds the pass to Fast, GJ and
// the naive oracle on random LTSs with τ-cycles and without visible ones.
//
// Cost: one search over every transition, a sort of each component's
// pairs (a few), and hash lookups in tables of the classes' size, which on
// a model checker's LTS is a hundredth of the input's. The refinement
// needs a kernel (a copy of the transitions) and then about ten steps per
// transition.

// The search and the classification run on two goroutines: the search
// hands each completed component's steps (transition numbers, targets
// numbered by component) in batches to a classifier that reads their
// labels, names the target components' classes and classifies, in the
// same order, so that every successor is classified first. The search's
// part is what it has just read; the classifier's the labels, the random
// reads of classes, the sorting and the lookups. In one goroutine the two
// halves took about the same time on verify's largest LTSs, and the
// bisimulation stage otherwise leaves a core idle.

// acyclicPass is the state of classifyAcyclic. The search goroutine owns
// batch and searchWork; the classifier owns the rest until it is done.
type acyclicPass struct {
	// l is the LTS classified and eq the equivalence.
	l  *lts.LTS
	eq Equivalence
	// batch is the batch the search is filling.
	batch *componentBatch
	// full carries filled batches to the classifier; free brings them back.
	full, free chan *componentBatch
	// searchWork counts the transitions the search hands over.
	searchWork int64

	// compClass is the class of every component completed, by number.
	compClass []int32
	// classes holds every class's signature and divergence flag.
	classes signatures
	// work counts pairs sorted and compared (refineStats).
	work int64
	// opts receives the progress reports.
	opts *Options
	// stopped is the cause of opts.Context's end, once the search saw it.
	stopped error
}

// componentBatch holds consecutive components completed by the search.
type componentBatch struct {
	// first is the number of the batch's first component; the others
	// follow in order.
	first int32
	// ends[i] is where the steps of the batch's i-th component end in
	// steps; its cyclic flag (a τ-cycle inside) is the top bit.
	ends []uint32
	// steps holds each component's steps out of it, transition<<32 |
	// target component; the classifier overwrites them with label<<32 |
	// target class. (Reading the labels is the classifier's: the search
	// has not read them, and is the slower side.)
	steps []uint64
}

// batchSteps is the number of steps after which a batch is handed over:
// a batch of this size stays in the shared cache between the cores.
const batchSteps = 1 << 14

// cyclicBit marks a component with a τ-cycle in componentBatch.ends.
const cyclicBit = 1 << 31

// progressEvery is how many components the pass classifies between two
// progress reports.
const progressEvery = 1 << 20

// acyclicClasses is the result of classifyAcyclic: the class of every
// state and what the quotient is built from.
type acyclicClasses struct {
	// class[s] is the class of state s, numbered by creation.
	class []int32
	// classes holds the signature of every class: its quotient
	// transitions, targets numbered by creation, the divergence self-loop
	// aside.
	classes signatures
}

// classifyAcyclic returns the classes of l under eq, or ok false when l
// has a cycle through a visible action (any cycle, under Strong).
func classifyAcyclic(l *lts.LTS, eq Equivalence, opts *Options) (res acyclicClasses, ok bool) {
	p := &acyclicPass{l: l, eq: eq, compClass: make([]int32, l.NumStates), opts: opts,
		full: make(chan *componentBatch, 2), free: make(chan *componentBatch, 3)}
	p.classes.init()
	for range 3 {
		p.free <- &componentBatch{}
	}
	p.batch = <-p.free
	classified := make(chan struct{})
	go func() {
		for b := range p.full {
			p.classifyBatch(b)
			p.free <- b
		}
		close(classified)
	}()
	onCycle := func(t int32) bool { return eq == Strong || l.Label[t] != lts.Tau }
	comp, _, ok := lts.SCCsEachWhile(l, onCycle, p.component)
	if ok {
		p.full <- p.batch
	}
	close(p.full)
	<-classified
	if p.stopped != nil {
		panic(stopped{p.stopped})
	}
	if !ok {
		return acyclicClasses{}, false
	}
	// comp becomes the class of every state, in place.
	for s, c := range comp {
		comp[s] = p.compClass[c]
	}
	if opts.stats != nil {
		*opts.stats = refineStats{work: p.searchWork + p.work, states: int64(l.NumStates), transitions: int64(len(l.Dst))}
	}
	return acyclicClasses{class: comp, classes: p.classes}, true
}

// component records a component just completed by the search in the
// batch, and hands the batch over when it is full. It returns false on a
// visible step inside the component: a cycle through a visible action.
func (p *acyclicPass) component(members []int32, componentOf func(s int32) int32) bool {
	l, b := p.l, p.batch
	x := componentOf(members[0])
	if len(b.ends) == 0 {
		b.first = x
	}
	end := uint32(0)
	for _, s := range members {
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			c := componentOf(l.Dst[t])
			if c == x {
				if l.Label[t] != lts.Tau || p.eq == Strong {
					return false
				}
				end = cyclicBit
				continue
			}
			b.steps = append(b.steps, uint64(t)<<32|uint64(c))
		}
		p.searchWork += int64(l.Out[s+1]-l.Out[s]) + 1
	}
	b.ends = append(b.ends, end|uint32(len(b.steps)))
	if len(b.steps) >= batchSteps {
		p.full <- b
		p.batch = <-p.free
		p.batch.ends, p.batch.steps = p.batch.ends[:0], p.batch.steps[:0]
		if p.stopped = limits.Err(p.opts.Context); p.stopped != nil {
			return false // classifyAcyclic panics once the classifier is done
		}
	}
	return true
}

// classifyBatch classifies the components of b in order: all their
// successors are classified before them.
func (p *acyclicPass) classifyBatch(b *componentBatch) {
	start := uint32(0)
	for i, e := range b.ends {
		end := e &^ cyclicBit
		pairs := b.steps[start:end]
		start = end
		for j, st := range pairs {
			pairs[j] = uint64(p.l.Label[st>>32])<<32 | uint64(p.compClass[uint32(st)])
		}
		if len(pairs) > 1 {
			slices.Sort(pairs)
			pairs = slices.Compact(pairs)
			p.work += int64(len(pairs))
		}
		x := b.first + int32(i)
		p.compClass[x] = p.classify(pairs, e&cyclicBit != 0 && p.eq == DivBranching)
		if x%progressEvery == progressEvery-1 {
			p.opts.progress("classify", int64(x)+1)
		}
	}
}

// classify returns the class of a component with signature pairs (sorted,
// without duplicates) and divergence flag div, by the rules above.
func (p *acyclicPass) classify(pairs []uint64, div bool) int32 {
	if p.eq != Strong {
		// The τ pairs come first (lts.Tau is 0), by target class.
		taus := 0
		for taus < len(pairs) && pairs[taus]>>32 == uint64(lts.Tau) {
			taus++
		}
		if taus > 0 {
			cand := int32(uint32(pairs[taus-1]))
			if (!div || p.classes.divergent[cand]) && p.covers(cand, pairs, taus-1) {
				return cand
			}
		}
	}
	return p.classes.intern(pairs, div)
}

// covers reports whether every pair of pairs but pairs[skip] is in the
// signature of class c.
func (p *acyclicPass) covers(c int32, pairs []uint64, skip int) bool {
	sig := p.classes.of(c)
	if len(pairs)-1 > len(sig) {
		return false
	}
	for i, x := range pairs {
		if i == skip {
			continue
		}
		p.work += int64(bits.Len(uint(len(sig))))
		if _, found := slices.BinarySearch(sig, x); !found {
			return false
		}
	}
	return true
}

// signatures is a set of classes, each with a signature (sorted pairs
// label<<32 | target class) and a divergence flag, found by them in a hash
// table.
type signatures struct {
	// start[c] is where class c's pairs begin in pairs; start has one more
	// entry than there are classes.
	start []int
	// pairs holds the signatures of all classes, one after another.
	pairs []uint64
	// divergent[c] is class c's divergence flag.
	divergent []bool
	// slots is an open-addressing table of class+1 (0: empty) by the hash
	// of the signature, at most half full; its size is a power of two.
	slots []int32
}

// init makes the set empty.
func (g *signatures) init() {
	g.start = []int{0}
	g.slots = make([]int32, 1024)
}

// count returns the number of classes.
func (g *signatures) count() int32 { return int32(len(g.divergent)) }

// of returns the signature of class c.
func (g *signatures) of(c int32) []uint64 { return g.pairs[g.start[c]:g.start[c+1]] }

// intern returns the class with signature pairs and flag div, created if
// there is none.
func (g *signatures) intern(pairs []uint64, div bool) int32 {
	mask := len(g.slots) - 1
	for i := signatureHash(pairs, div) & uint64(mask); ; i = (i + 1) & uint64(mask) {
		c := g.slots[i] - 1
		if c < 0 {
			break
		}
		if g.divergent[c] == div && slices.Equal(g.of(c), pairs) {
			return c
		}
	}
	c := g.count()
	g.pairs = append(g.pairs, pairs...)
	g.start = append(g.start, len(g.pairs))
	g.divergent = append(g.divergent, div)
	if 2*int(c+1) > len(g.slots) {
		g.slots = make([]int32, 2*len(g.slots))
		for d := range c {
			g.insert(d)
		}
	}
	g.insert(c)
	return c
}

// insert puts class c, which is not in the table, into it.
func (g *signatures) insert(c int32) {
	mask := uint64(len(g.slots) - 1)
	i := signatureHash(g.of(c), g.divergent[c]) & mask
	for g.slots[i] != 0 {
		i = (i + 1) & mask
	}
	g.slots[i] = c + 1
}

// signatureHash mixes a signature and its flag into 64 bits.
func signatureHash(pairs []uint64, div bool) uint64 {
	h := uint64(len(pairs))
	if div {
		h ^= 1 << 63
	}
	for _, x := range pairs {
		h = (h ^ x) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	return h * 0xbf58476d1ce4e5b9
}

// tryAcyclic classifies l in one pass when the default algorithm is asked
// for and l's only cycles are τ-cycles (classifyAcyclic); ok is false when
// the refinement must run instead. On success the input is released if
// opts asks for it: nothing reads its transitions afterwards.
func tryAcyclic(l *lts.LTS, eq Equivalence, opts *Options) (res acyclicClasses, ok bool) {
	if opts.Algorithm != Fast || opts.alwaysRefine || l.NumStates == 0 {
		return acyclicClasses{}, false
	}
	if res, ok = classifyAcyclic(l, eq, opts); ok && opts.release {
		releaseTransitions(l)
	}
	return res, ok
}

// identity is the kernel of an LTS that is its own kernel, for the
// numbering helpers (numberBlocks, classesOf), which read kernelState only.
var identity = &kernel{}

// quotient builds the quotient of l from the classes, renamed by rename
// (numberBlocks): each class's signature, with a τ self-loop for a
// divergent class, sorted by label and target — what quotient builds from
// a kernel.
func (a *acyclicClasses) quotient(l *lts.LTS, rename []int32, numClasses int32) *lts.LTS {
	q := &lts.LTS{NumStates: numClasses, Labels: slices.Clone(l.Labels), Out: make([]int32, numClasses+1)}
	q.Initial = rename[a.class[l.Initial]]
	byName := make([]int32, numClasses) // class by its new number
	for c, r := range rename {
		byName[r] = int32(c)
	}
	for r, c := range byName {
		size := int32(len(a.classes.of(c)))
		if a.classes.divergent[c] {
			size++
		}
		q.Out[r+1] = q.Out[r] + size
	}
	m := q.Out[numClasses]
	q.Src, q.Label, q.Dst = make([]int32, m), make([]int32, m), make([]int32, m)
	var keys []uint64
	for r, c := range byName {
		keys = keys[:0]
		for _, x := range a.classes.of(c) {
			keys = append(keys, x>>32<<32|uint64(rename[uint32(x)]))
		}
		if a.classes.divergent[c] {
			keys = append(keys, uint64(lts.Tau)<<32|uint64(r))
		}
		slices.Sort(keys)
		for i, key := range keys {
			t := q.Out[r] + int32(i)
			q.Src[t], q.Label[t], q.Dst[t] = int32(r), int32(key>>32), int32(uint32(key))
		}
	}
	return q
}
