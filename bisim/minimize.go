package bisim

import (
	"github.com/linbis/linbis/lts"
	"slices"
)

// Minimize returns the quotient of l under eq — one state per class, the
// initial state's class initial — and stateMap, the class of every state of
// l (numbered as by Partition). Under Branching and DivBranching inert τ
// steps (inside a class) are removed, and under DivBranching a divergent
// class keeps a τ self-loop. Duplicate transitions are merged and
// per-transition metadata is dropped.
func Minimize(l *lts.LTS, eq Equivalence, opts Options) (q *lts.LTS, stateMap []int32, err error) {
	defer recoverStopped(&err)
	return minimize(l, eq, opts, true)
}

// Quotient is Minimize without stateMap, for callers that read the
// quotient alone (verify, refine): on a model checker's LTS the map is an
// array of one class per input state (80 MB at 20 M states), written at
// the end of the bisimulation stage, when memory peaks.
func Quotient(l *lts.LTS, eq Equivalence, opts Options) (q *lts.LTS, err error) {
	defer recoverStopped(&err)
	q, _, err = minimize(l, eq, opts, false)
	return q, err
}

// minimize is Minimize, with stateMap nil unless withMap is set.
func minimize(l *lts.LTS, eq Equivalence, opts Options, withMap bool) (q *lts.LTS, stateMap []int32, err error) {
	if err := checkEquivalence(eq); err != nil {
		return nil, nil, err
	}
	if a, ok := tryAcyclic(l, eq, &opts); ok {
		var rename []int32
		var numClasses int32
		if withMap {
			stateMap, rename, numClasses = classesOf(l, identity, a.class, a.classes.count())
		} else {
			rename, numClasses = numberBlocks(identity, a.class, a.classes.count(), nil, l.NumStates)
		}
		q = a.quotient(l, rename, numClasses)
		opts.progress("quotient states", int64(q.NumStates))
		return q, stateMap, nil
	}
	k, kblock, numBlocks, err := partitionKernel(l, eq, &opts)
	if err != nil {
		return nil, nil, err
	}
	var rename []int32
	var numClasses int32
	if withMap {
		stateMap, rename, numClasses = classesOf(l, k, kblock, numBlocks)
	} else {
		rename, numClasses = numberBlocks(k, kblock, numBlocks, nil, l.NumStates)
	}
	q = quotient(l, k, kblock, rename, numClasses)
	opts.progress("quotient states", int64(q.NumStates))
	return q, stateMap, nil
}

// MinimizeReachable returns the quotient under eq of the part of l
// reachable from its initial state — what Minimize returns for
// lts.Reachable(l), byte for byte — and the number of reachable states.
// It refines l itself, instead of building the reachable part's
// renumbered copy (three transition arrays as long as the input's),
// numbers the classes in l's breadth-first order and, where some states
// are unreachable, drops the classes of unreachable states alone. The
// classes are the same either way: bisimilarity is the coarsest stable
// partition, whatever the numbering, and a reachable state's class has
// the same members in l as in its reachable part, plus the unreachable
// states bisimilar to it. Those are numbered after the reachable classes
// (numberRest), and their transitions, like every transition of a
// reachable class, lead to reachable classes (the class's reachable
// member has them, or under branching reaches them by inert steps), so
// the quotient's first classes are closed and the others are cut off.
func MinimizeReachable(l *lts.LTS, eq Equivalence, opts Options) (q *lts.LTS, reachable int32, err error) {
	defer recoverStopped(&err)
	// A file numbered breadth-first, as most are, is checked in one pass
	// over its targets; order then stays nil, numberBlocks' identity.
	// Else the breadth-first order is found on a goroutine of its own
	// while the classes are (its search and the τ-SCC search before the
	// refinement run on one core each), on a copy of l's header, whose
	// transitions a consuming call's release leaves it.
	if err := checkEquivalence(eq); err != nil {
		return nil, 0, err
	}
	var order []int32
	reachable = l.NumStates
	wait := func() {}
	if !lts.BreadthFirstNumbered(l) {
		in, found := *l, make(chan []int32, 1)
		go func() { found <- lts.ReachableOrder(&in) }()
		wait = func() {
			order = <-found
			reachable = int32(len(order))
		}
	}
	if a, ok := tryAcyclic(l, eq, &opts); ok {
		wait()
		rename, numClasses := numberBlocks(identity, a.class, a.classes.count(), order, l.NumStates)
		reached := numClasses
		if reachable < l.NumStates {
			numClasses = numberRest(identity, a.class, rename, numClasses, l.NumStates)
		}
		q = cutQuotient(a.quotient(l, rename, numClasses), reached)
		opts.progress("quotient states", int64(q.NumStates))
		return q, reachable, nil
	}
	k, kblock, numBlocks, err := partitionKernel(l, eq, &opts)
	if err != nil {
		return nil, 0, err
	}
	wait()
	rename, numClasses := numberBlocks(k, kblock, numBlocks, order, l.NumStates)
	reached := numClasses
	if reachable < l.NumStates {
		numClasses = numberRest(k, kblock, rename, numClasses, l.NumStates)
	}
	order = nil
	q = cutQuotient(quotient(l, k, kblock, rename, numClasses), reached)
	opts.progress("quotient states", int64(q.NumStates))
	return q, reachable, nil
}

// numberRest numbers the kernel blocks that numberBlocks left at -1 (met
// by no state of its order), from numClasses on, in order of their
// smallest state, and returns the number of classes.
func numberRest(k *kernel, kblock, rename []int32, numClasses, n int32) int32 {
	for s := range n {
		if b := kblock[k.kernelState(s)]; rename[b] < 0 {
			rename[b] = numClasses
			numClasses++
		}
	}
	return numClasses
}

// cutQuotient keeps the first states of q and their transitions, which
// must lead to them alone.
func cutQuotient(q *lts.LTS, states int32) *lts.LTS {
	if states == q.NumStates {
		return q
	}
	m := q.Out[states]
	q.NumStates, q.Out = states, slices.Clip(q.Out[:states+1])
	q.Src, q.Label, q.Dst = slices.Clip(q.Src[:m]), slices.Clip(q.Label[:m]), slices.Clip(q.Dst[:m])
	return q
}

// classesOf numbers the kernel blocks in order of the smallest input state
// in each, as Partition does, and returns the class of every input state
// and the renaming of kernel blocks. Every kernel state is the image of an
// input state, so every block gets a class.
func classesOf(l *lts.LTS, k *kernel, kblock []int32, numBlocks int32) (class, rename []int32, numClasses int32) {
	rename, numClasses = numberBlocks(k, kblock, numBlocks, nil, l.NumStates)
	class = make([]int32, l.NumStates)
	forEachRange(ranges(len(class), l.NumStates), func(_ int, lo, hi int32) {
		for s := lo; s < hi; s++ {
			class[s] = rename[kblock[k.kernelState(s)]]
		}
	})
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
