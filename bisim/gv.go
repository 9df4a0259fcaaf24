package bisim

import "slices"

// gvRefine is the reference algorithm: Groote and Vaandrager, "An efficient
// algorithm for branching bisimulation and stuttering equivalence" (ICALP
// 1990), on a kernel whose τ graph is acyclic.
//
// A partition P is stable when for every block B, every label a and every
// block C with a ≠ τ or C ≠ B, either every state of B or no state of B can
// reach, by inert τ-steps inside B, a state with an a-transition into C.
// The coarsest stable partition is branching bisimilarity (GV 1990);
// with no inert τ (Strong) it is strong bisimilarity.
//
// The algorithm starts from one block and repeats passes until a pass
// splits nothing. In a pass every block C serves as splitter once per label
// a: the states with a non-inert a-transition into C are marked, then a
// bottom-up sweep over the τ DAG (targets of τ-steps first) extends the mark
// to every state with an inert τ-step to a marked state, and every block
// holding both marked and unmarked states is split in two. Each (C, a) costs
// O(n + m) and there are at most n passes, so the whole is O(n·m·labels) —
// slow, but plain enough to trust; Fast is checked against it.
func gvRefine(k *kernel, opts *Options) (block []int32, numBlocks int32) {
	k.needSrc()
	n := k.n
	block = make([]int32, n)
	numBlocks = 1
	if n == 0 {
		return block, 0
	}
	order := k.tauBottomUpOrder()
	inIndex, inIDs := k.incoming(func(int32) bool { return true })
	reach := make([]bool, n)
	count := make([]int32, n) // marked states per block
	size := make([]int32, n)  // states per block
	newID := make([]int32, n) // block -> id of its split-off part, or -1
	var members, group []int32
	for changed := true; changed; {
		changed = false
		// Members of every block at the start of the pass; a splitter is
		// such a set, which stays a union of current blocks.
		members = slices.Grow(members[:0], int(n))[:n]
		start := make([]int32, numBlocks+1)
		for _, b := range block {
			start[b+1]++
		}
		for b := int32(0); b < numBlocks; b++ {
			start[b+1] += start[b]
		}
		fill := slices.Clone(start[:numBlocks])
		for s, b := range block {
			members[fill[b]] = int32(s)
			fill[b]++
		}
		passBlocks := numBlocks
		for c := int32(0); c < passBlocks; c++ {
			// The transitions entering C, grouped by label.
			group = group[:0]
			for _, d := range members[start[c]:start[c+1]] {
				group = append(group, inIDs[inIndex[d]:inIndex[d+1]]...)
			}
			slices.SortFunc(group, func(x, y int32) int { return int(k.lab[x] - k.lab[y]) })
			for i := 0; i < len(group); {
				j := i
				for j < len(group) && k.lab[group[j]] == k.lab[group[i]] {
					j++
				}
				if gvSplit(k, order, group[i:j], block, &numBlocks, reach, count, size, newID) {
					changed = true
				}
				i = j
			}
		}
		opts.progress("refine (gv)", int64(numBlocks))
		opts.poll()
	}
	return block, numBlocks
}

// gvSplit splits every block with respect to the splitter given by trans,
// transitions with one label into the splitter set. It reports whether a
// block was split.
func gvSplit(k *kernel, order, trans, block []int32, numBlocks *int32, reach []bool, count, size, newID []int32) bool {
	clear(reach)
	for _, t := range trans {
		s := k.src[t]
		if k.isTau(t) && block[s] == block[k.dst[t]] {
			continue // inert
		}
		reach[s] = true
	}
	// Bottom-up: a state reaches the splitter if it has an inert τ-step to
	// a state that does.
	for _, s := range order {
		if reach[s] || !k.inert {
			continue
		}
		for t := k.out[s]; t < k.out[s+1]; t++ {
			if k.isTau(t) && block[k.dst[t]] == block[s] && reach[k.dst[t]] {
				reach[s] = true
				break
			}
		}
	}
	nb := *numBlocks
	clear(count[:nb])
	clear(size[:nb])
	for s, b := range block {
		size[b]++
		if reach[s] {
			count[b]++
		}
	}
	split := false
	for b := int32(0); b < nb; b++ {
		newID[b] = -1
		if count[b] > 0 && count[b] < size[b] {
			newID[b] = *numBlocks
			*numBlocks++
			split = true
		}
	}
	if split {
		for s, b := range block {
			if reach[s] && newID[b] >= 0 {
				block[s] = newID[b]
			}
		}
	}
	return split
}
