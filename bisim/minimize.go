package bisim

import "github.com/linbis/linbis/lts"

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
	b := lts.NewBuilder()
	for _, name := range l.Labels {
		b.Label(name)
	}
	b.SetNumStates(numClasses)
	if l.NumStates > 0 {
		b.SetInitial(stateMap[l.Initial])
	}
	b.Grow(len(k.src))
	for t := range k.src {
		bs, bd := rename[kblock[k.src[t]]], rename[kblock[k.dst[t]]]
		switch a := k.lab[t]; {
		case a == k.divLabel:
			b.AddTransition(bs, lts.Tau, bs)
		case k.inert && a == lts.Tau && bs == bd:
			// inert
		default:
			b.AddTransition(bs, a, bd)
		}
	}
	opts.progress("quotient states", int64(b.NumStates()))
	return lts.Canonical(b.Build()), stateMap, nil
}

// classesOf numbers the kernel blocks in order of the smallest input state
// in each, as Partition does, and returns the class of every input state
// and the renaming of kernel blocks. Every kernel state is the image of an
// input state, so every block gets a class.
func classesOf(l *lts.LTS, k *kernel, kblock []int32, numBlocks int32) (class, rename []int32, numClasses int32) {
	rename = make([]int32, numBlocks)
	for i := range rename {
		rename[i] = -1
	}
	class = make([]int32, l.NumStates)
	next := int32(0)
	for s := range class {
		b := kblock[k.kernelState(int32(s))]
		if rename[b] < 0 {
			rename[b] = next
			next++
		}
		class[s] = rename[b]
	}
	return class, rename, next
}
