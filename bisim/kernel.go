package bisim

import (
	"slices"

	"github.com/linbis/linbis/internal/parallel"
	"github.com/linbis/linbis/lts"
)

// kernel is the graph the refinement algorithms work on: an LTS whose τ
// graph is acyclic when inert is set, with an optional never-inert
// divergence label.
//
// For Strong the kernel is the input itself and no transition is inert. For
// Branching and DivBranching the τ-SCCs of the input are contracted (states
// on a τ-cycle are branching bisimilar), so τ-transitions form a DAG; a τ
// transition is inert when both ends lie in the same block. Under
// DivBranching a contracted component containing a τ-cycle gets a self-loop
// labelled divLabel, a label no input transition has; it is never inert, so
// it splits divergent states from non-divergent ones: a state is divergent
// in the sense of Yang et al. Def. 5.1 iff it reaches such a loop by inert τ
// steps.
type kernel struct {
	n             int32
	src, lab, dst []int32 // transitions sorted by source; src nil in a branching kernel until needSrc
	out           []int32 // CSR by source
	inert         bool    // τ-transitions inside a block are inert
	numLabels     int32   // labels of the input, plus divLabel if used
	divLabel      int32   // -1 when there is none
	comp          []int32 // input state -> kernel state; nil for the identity
}

// newKernel prepares l for deciding eq. Kernel states are numbered as
// lts.TauSCCs numbers the components, in reverse topological order of the
// τ graph, even where no τ-cycle joins two states: that order keeps states
// near their τ-neighbours, and the refinement runs faster on it than on
// the input's numbering (benchmarks/RESULTS.md). The transitions of every
// kernel state are sorted by (label, target) without duplicates, which
// contraction creates in bulk (a big τ-SCC has many transitions with the
// same label into the same component): τ, label 0, comes first in a
// state's range, which split relies on to stop early, and the divergence
// mark last.
func newKernel(l *lts.LTS, eq Equivalence) *kernel {
	if eq == Strong {
		return &kernel{n: l.NumStates, src: l.Src, lab: l.Label, dst: l.Dst, out: l.Out,
			numLabels: int32(len(l.Labels)), divLabel: -1}
	}
	k := &kernel{inert: true, numLabels: int32(len(l.Labels)), divLabel: -1}
	if eq == DivBranching {
		k.divLabel = k.numLabels
		k.numLabels++
	}
	k.gather(l)
	return k
}

// gather fills the transitions of the branching kernel k of l: each
// kernel state's are its component's transitions, targets mapped to
// components, sorted by (label, target), without duplicates, τ-steps
// inside the component dropped (componentSteps). Below parallelFrom
// transitions (one worker) they are copied while lts.TauSCCsEach
// completes each component, and then compacted (gatherWhileSearching);
// above, on every worker, after the search (gatherInParallel).
func (k *kernel) gather(l *lts.LTS) {
	if workers := workersFor(len(l.Dst)); workers > 1 {
		k.gatherInParallel(l, workers)
	} else {
		k.gatherWhileSearching(l)
	}
}

// gatherWhileSearching gathers the kernel's transitions in two passes.
// While lts.TauSCCsEach completes a component, the transitions of its
// states are copied in kernel order: the search has just read those
// transitions, so they are read from cache (gathering them afterwards,
// component by component, read three cache lines out of order per state),
// and so has it the components of their τ-steps' targets, which are
// complete, so those targets are mapped to components there; the other
// targets are still input states. Then each kernel state's range is
// mapped to components, sorted, deduplicated and compacted in place.
func (k *kernel) gatherWhileSearching(l *lts.LTS) {
	m := len(l.Dst)
	k.lab, k.dst = make([]int32, m), make([]int32, m)
	k.out = make([]int32, l.NumStates+1) // at most one component per state
	w, c := int32(0), 0
	k.comp, k.n = lts.TauSCCsEach(l, func(members []int32, componentOf func(s int32) int32) {
		for _, s := range members {
			for t := l.Out[s]; t < l.Out[s+1]; t++ {
				a, d := l.Label[t], l.Dst[t]
				if a == lts.Tau {
					d = componentOf(d)
				}
				k.lab[w], k.dst[w] = a, d
				w++
			}
		}
		c++
		k.out[c] = w
	})
	if k.n < l.NumStates-l.NumStates/4 {
		k.out = slices.Clone(k.out[:k.n+1])
	} else {
		k.out = k.out[:k.n+1]
	}
	// Each component's range compacted in place: it is written from
	// k.out[c] on, which is at most where it was read.
	var steps componentSteps
	w = 0
	for c := range k.n {
		lo, hi := k.out[c], k.out[c+1]
		steps.reset()
		for t := lo; t < hi; t++ {
			a, d := k.lab[t], k.dst[t]
			if a != lts.Tau {
				d = k.comp[d] // a τ-step's target is mapped already
			}
			steps.add(c, a, d)
		}
		k.out[c] = w
		w = k.write(&steps, c, w)
	}
	k.out[k.n] = w
	k.lab, k.dst = k.lab[:w], k.dst[:w]
}

// gatherInParallel gathers the kernel's transitions on workers
// goroutines, each a range of components, after lts.TauComponents has
// listed each component's states. One pass sums each component's
// members' transitions, which bound the component's kernel transitions,
// and so says where each range may write; the second writes each
// component's transitions there, and the ranges' parts are then moved
// together in order, so the result is what one pass gives, for any
// number of workers.
func (k *kernel) gatherInParallel(l *lts.LTS, workers int) {
	m := len(l.Dst)
	var members, first []int32
	k.comp, k.n, members, first = lts.TauComponents(l, workers)
	n := k.n
	// k.out[c] is first where component c's transitions may start: the
	// members' transitions of the components before it.
	k.out = make([]int32, n+1)
	bounds := ranges(m, n)
	sums := make([]int32, len(bounds))
	forEachRange(bounds, func(p int, lo, hi int32) {
		sum := int32(0)
		for c := lo; c < hi; c++ {
			for _, s := range members[first[c]:first[c+1]] {
				sum += l.Out[s+1] - l.Out[s]
			}
			k.out[c+1] = sum
		}
		sums[p+1] = sum
	})
	for p := 1; p < len(sums); p++ {
		sums[p] += sums[p-1]
	}
	forEachRange(bounds, func(p int, lo, hi int32) {
		for c := lo + 1; c <= hi; c++ {
			k.out[c] += sums[p]
		}
	})
	// Range p is components cuts[p] … cuts[p+1]-1, whose transitions may
	// take starts[p] … starts[p+1]-1 and take starts[p] … written[p]-1.
	cuts := parallel.Cuts(k.out, workers)
	starts, written := make([]int32, workers+1), make([]int32, workers)
	for p := range starts {
		starts[p] = k.out[cuts[p]]
	}
	k.lab, k.dst = make([]int32, m), make([]int32, m)
	forEachRange(cuts, func(p int, lo, hi int32) {
		var steps componentSteps
		w := starts[p]
		for c := lo; c < hi; c++ {
			steps.reset()
			for _, s := range members[first[c]:first[c+1]] {
				for t := l.Out[s]; t < l.Out[s+1]; t++ {
					steps.add(c, l.Label[t], k.comp[l.Dst[t]])
				}
			}
			k.out[c] = w
			w = k.write(&steps, c, w)
		}
		written[p] = w
	})
	members, first = nil, nil
	// Move each range's part down to where the one before it ends.
	w := written[0]
	for p := 1; p < workers; p++ {
		from := starts[p]
		copy(k.lab[w:], k.lab[from:written[p]])
		copy(k.dst[w:], k.dst[from:written[p]])
		for c := cuts[p]; c < cuts[p+1]; c++ {
			k.out[c] += w - from
		}
		w += written[p] - from
	}
	k.out[n] = w
	k.lab, k.dst = k.lab[:w], k.dst[:w]
}

// componentSteps collects the transitions of one kernel state, a
// component c of the input, as (label, target component) keys. A τ-step
// inside c is dropped: the component that had one contains a τ-cycle (it
// has several states, or a τ self-loop), which is what divergence means
// (Yang et al. Def. 5.1).
type componentSteps struct {
	keys      []uint64 // label<<32 | target, in the order added
	divergent bool     // a τ-step inside the component was dropped
}

func (cs *componentSteps) reset() {
	cs.keys, cs.divergent = cs.keys[:0], false
}

// add adds c's step a to component d.
func (cs *componentSteps) add(c, a, d int32) {
	if a == lts.Tau && d == c {
		cs.divergent = true
		return
	}
	cs.keys = append(cs.keys, uint64(a)<<32|uint64(d))
}

// write writes the steps of kernel state c from position w on, sorted,
// without duplicates, with the divergence mark where k has a divLabel
// and c a dropped τ-step (the mark takes the place of a dropped step, so
// c's input transitions bound its kernel transitions), and returns the
// position after them.
func (k *kernel) write(cs *componentSteps, c, w int32) int32 {
	if cs.divergent && k.divLabel >= 0 {
		cs.keys = append(cs.keys, uint64(k.divLabel)<<32|uint64(c))
	}
	if len(cs.keys) > 1 {
		slices.Sort(cs.keys)
		cs.keys = slices.Compact(cs.keys)
	}
	for _, key := range cs.keys {
		k.lab[w], k.dst[w] = int32(key>>32), int32(uint32(key))
		w++
	}
	return w
}

// needSrc makes src, the source of every transition, if it is not there:
// a branching kernel is built without it, as Fast does without (4 bytes a
// transition less at the peak of verify's bisimulation stage); GJ and GV
// call it first.
func (k *kernel) needSrc() {
	if k.src != nil || len(k.lab) == 0 {
		return
	}
	k.src = make([]int32, len(k.lab))
	for s := int32(0); s < k.n; s++ {
		for t := k.out[s]; t < k.out[s+1]; t++ {
			k.src[t] = s
		}
	}
}

// kernelState maps a state of the input to its kernel state.
func (k *kernel) kernelState(s int32) int32 {
	if k.comp == nil {
		return s
	}
	return k.comp[s]
}

// isTau reports whether transition t may be inert: a τ-step of a branching
// kernel (divergence marks have their own label).
func (k *kernel) isTau(t int32) bool { return k.inert && k.lab[t] == lts.Tau }

// incoming returns the CSR by target of the transitions satisfying keep:
// those entering s are ids[index[s]:index[s+1]].
func (k *kernel) incoming(keep func(t int32) bool) (index, ids []int32) {
	index = make([]int32, k.n+1)
	cnt := 0
	for t, d := range k.dst {
		if keep(int32(t)) {
			index[d+1]++
			cnt++
		}
	}
	for s := int32(0); s < k.n; s++ {
		index[s+1] += index[s]
	}
	ids = make([]int32, cnt)
	fill := make([]int32, k.n)
	copy(fill, index[:k.n])
	for t, d := range k.dst {
		if keep(int32(t)) {
			ids[fill[d]] = int32(t)
			fill[d]++
		}
	}
	return index, ids
}

// tauBottomUpOrder returns the kernel states ordered so that the target of
// every τ-transition comes before its source (a reverse topological order
// of the τ DAG, by Kahn's algorithm). For a kernel without inert τ any
// order is fine and the identity is returned.
func (k *kernel) tauBottomUpOrder() []int32 {
	k.needSrc()
	order := make([]int32, 0, k.n)
	if !k.inert {
		for s := int32(0); s < k.n; s++ {
			order = append(order, s)
		}
		return order
	}
	pending := make([]int32, k.n) // τ-successors not yet ordered
	for t := range k.src {
		if k.isTau(int32(t)) {
			pending[k.src[t]]++
		}
	}
	for s := int32(0); s < k.n; s++ {
		if pending[s] == 0 {
			order = append(order, s)
		}
	}
	index, ids := k.incoming(k.isTau)
	for i := 0; i < len(order); i++ {
		s := order[i]
		for _, t := range ids[index[s]:index[s+1]] {
			u := k.src[t]
			if pending[u]--; pending[u] == 0 {
				order = append(order, u)
			}
		}
	}
	return order
}
