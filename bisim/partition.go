package bisim

import (
	"fmt"
	"runtime"

	"github.com/linbis/linbis/lts"
)

// Partition returns for every state of l its class under eq, numbered
// 0..numBlocks-1 in order of the smallest state of each class, so that the
// result does not depend on the algorithm.
func Partition(l *lts.LTS, eq Equivalence, opts Options) (block []int32, numBlocks int32, err error) {
	defer recoverStopped(&err)
	if err := checkEquivalence(eq); err != nil {
		return nil, 0, err
	}
	if a, ok := tryAcyclic(l, eq, &opts); ok {
		block, _, numBlocks = classesOf(l, identity, a.class, a.classes.count())
		return block, numBlocks, nil
	}
	k, kblock, kn, err := partitionKernel(l, eq, &opts)
	if err != nil {
		return nil, 0, err
	}
	block, _, numBlocks = classesOf(l, k, kblock, kn)
	return block, numBlocks, nil
}

// partitionKernel builds the kernel of l and refines it; kblock gives the
// block of every kernel state.
func partitionKernel(l *lts.LTS, eq Equivalence, opts *Options) (k *kernel, kblock []int32, numBlocks int32, err error) {
	if err := checkEquivalence(eq); err != nil {
		return nil, nil, 0, err
	}
	if l.NumStates == 0 {
		return &kernel{divLabel: -1}, nil, 0, nil
	}
	k = newKernel(l, eq)
	if opts.release {
		releaseTransitions(l)
		if opts.CollectInput {
			// Collected now, the input's arrays, the biggest garbage of
			// the run, give their pages to the refiner's, which would
			// otherwise take fresh ones before the collector's next
			// cycle. The cycle costs little: the live heap is the
			// kernel's pointer-free arrays.
			runtime.GC()
		}
	}
	opts.progress("kernel states", int64(k.n))
	opts.poll()
	switch opts.Algorithm {
	case Fast:
		kblock, numBlocks = fastRefine(k, opts)
	case GV:
		kblock, numBlocks = gvRefine(k, opts)
	case GJ:
		kblock, numBlocks = gjRefine(k, opts)
	default:
		return nil, nil, 0, fmt.Errorf("unknown algorithm %d", int(opts.Algorithm))
	}
	return k, kblock, numBlocks, nil
}

// checkEquivalence returns an error for a value of eq that names none.
func checkEquivalence(eq Equivalence) error {
	if eq < Strong || eq > DivBranching {
		return fmt.Errorf("unknown equivalence %d", int(eq))
	}
	return nil
}

// releaseTransitions clears what a consuming call lets go of: the
// transitions of l and their metadata; its states and labels stay.
func releaseTransitions(l *lts.LTS) {
	l.Src, l.Label, l.Dst, l.Out, l.Meta = nil, nil, nil, nil, nil
}
