package bisim

import (
	"slices"

	"github.com/linbis/linbis/lts"
)

// Minimize returns the quotient of l under eq — one state per class, the
// initial state's class initial — and stateMap, the class of every state of
// l (numbered as by Partition). Under Branching and DivBranching inert τ
// steps (inside a class) are removed, and under DivBranching a divergent
// class keeps a τ self-loop. Duplicate transitions are merged and
// per-transition metadata is dropped.
func Minimize(l *lts.LTS, eq Equivalence, opts Options) (q *lts.LTS, stateMap []int32, err error) {
	k, kblock, numBlocks, err := partitionKernel(l, eq, &opts)
	if err != nil {
		return nil, nil, err
	}
	stateMap, rename, numClasses := classesOf(l, k, kblock, numBlocks)
	q = quotient(l, k, kblock, rename, numClasses)
	opts.progress("quotient states", int64(q.NumStates))
	return q, stateMap, nil
}

// MinimizeReachable returns the quotient under eq of the part of l
// reachable from its initial state — what Minimize returns for
// lts.Reachable(l), byte for byte — and the number of reachable states.
// When every state is reachable, as in most files, it refines l itself
// and numbers the classes in l's breadth-first order, instead of building
// the renumbered copy (three transition arrays: on the 2 M-state MGC file
// 92 MB and a fifth of a second). The classes are the same either way:
// bisimilarity is the coarsest stable partition, whatever the numbering.
func MinimizeReachable(l *lts.LTS, eq Equivalence, opts Options) (q *lts.LTS, reachable int32, err error) {
	order := lts.ReachableOrder(l)
	if int32(len(order)) < l.NumStates {
		r, _ := lts.Reachable(l)
		q, _, err = Minimize(r, eq, opts)
		return q, r.NumStates, err
	}
	k, kblock, numBlocks, err := partitionKernel(l, eq, &opts)
	if err != nil {
		return nil, 0, err
	}
	rename, numClasses := numberBlocks(k, kblock, numBlocks, order, l.NumStates)
	order = nil
	q = quotient(l, k, kblock, rename, numClasses)
	opts.progress("quotient states", int64(q.NumStates))
	return q, l.NumStates, nil
}

// quotient builds the quotient LTS class by class: the transitions of the
// kernel states of a class, mapped to classes, inert ones dropped, are
// sorted by (label, target) and deduplicated, so the result is canonical
// (as lts.Canonical makes it) and no transition array larger than the
// quotient is allocated — on a model checker's LTS the quotient is often a
// hundred times smaller than the input.
func quotient(l *lts.LTS, k *kernel, kblock, rename []int32, numClasses int32) *lts.LTS {
	q := &lts.LTS{NumStates: numClasses, Labels: slices.Clone(l.Labels), Out: make([]int32, numClasses+1)}
	if l.NumStates > 0 {
		q.Initial = rename[kblock[k.kernelState(l.Initial)]]
	}
	// The kernel states grouped by class, by counting sort.
	start := make([]int32, numClasses+1)
	for s := range k.n {
		start[rename[kblock[s]]+1]++
	}
	for c := range numClasses {
		start[c+1] += start[c]
	}
	members := make([]int32, k.n)
	fill := slices.Clone(start[:numClasses])
	for s := range k.n {
		c := rename[kblock[s]]
		members[fill[c]] = s
		fill[c]++
	}
	// The transitions of class c, sorted by (label, target), without
	// duplicates. For a near-discrete quotient (strong bisimilarity) it is
	// called twice per class, to count and then to fill, so that the
	// quotient's slices are allocated at their exact size: they are nearly
	// as big as the input, and growing them by doubling would cost more
	// than the second sort. For a coarse quotient (branching: classes of
	// hundreds of states) the sort is the cost, and the keys are kept from
	// the first call instead (they are few: duplicates are gone).
	var buf []uint64
	keys := func(c int32) []uint64 {
		buf = buf[:0]
		for _, s := range members[start[c]:start[c+1]] {
			for t := k.out[s]; t < k.out[s+1]; t++ {
				a, d := k.lab[t], rename[kblock[k.dst[t]]]
				switch {
				case a == k.divLabel:
					a, d = lts.Tau, c
				case k.inert && a == lts.Tau && d == c:
					continue // inert
				}
				buf = append(buf, uint64(a)<<32|uint64(d))
			}
		}
		slices.Sort(buf)
		return slices.Compact(buf)
	}
	coarse := k.n >= 4*numClasses
	var kept []uint64
	for c := range numClasses {
		ck := keys(c)
		q.Out[c+1] = q.Out[c] + int32(len(ck))
		if coarse {
			kept = append(kept, ck...)
		}
	}
	m := q.Out[numClasses]
	q.Src, q.Label, q.Dst = make([]int32, m), make([]int32, m), make([]int32, m)
	for c := range numClasses {
		var ck []uint64
		if coarse {
			ck = kept[q.Out[c]:q.Out[c+1]]
		} else {
			ck = keys(c)
		}
		for i, key := range ck {
			t := q.Out[c] + int32(i)
			q.Src[t], q.Label[t], q.Dst[t] = c, int32(key>>32), int32(uint32(key))
		}
	}
	return q
}

// classesOf numbers the kernel blocks in order of the smallest input state
// in each, as Partition does, and returns the class of every input state
// and the renaming of kernel blocks. Every kernel state is the image of an
// input state, so every block gets a class.
func classesOf(l *lts.LTS, k *kernel, kblock []int32, numBlocks int32) (class, rename []int32, numClasses int32) {
	rename, numClasses = numberBlocks(k, kblock, numBlocks, nil, l.NumStates)
	class = make([]int32, l.NumStates)
	for s := range class {
		class[s] = rename[kblock[k.kernelState(int32(s))]]
	}
	return class, rename, numClasses
}

// numberBlocks numbers the kernel blocks in the order in which the input
// states order (nil: 0 … n-1) first meet them; rename[b] is the class of
// block b, or -1 for a block that no state of order meets.
func numberBlocks(k *kernel, kblock []int32, numBlocks int32, order []int32, n int32) (rename []int32, numClasses int32) {
	rename = make([]int32, numBlocks)
	for i := range rename {
		rename[i] = -1
	}
	meet := func(s int32) {
		if b := kblock[k.kernelState(s)]; rename[b] < 0 {
			rename[b] = numClasses
			numClasses++
		}
	}
	if order == nil {
		for s := range n {
			meet(s)
		}
	} else {
		for _, s := range order {
			meet(s)
		}
	}
	return rename, numClasses
}
