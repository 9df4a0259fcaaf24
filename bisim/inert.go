package bisim

// Helpers for inert τ-steps that need no more of the partition core
// (blocks.go) than its state records: the backward closure to the states that reach only given
// bottom states, and epochs.

// closeInertBackward extends list, which holds bottom states of block b,
// backwards over inert τ-steps: a state of b joins when all its inert
// successors have joined and join (nil: always) accepts it; tauInto(y)
// gives the sources of the τ-steps into y, st[x].inertOut the inert
// τ-steps of x (see blockPartition). seen/left are
// per-state scratch: left[s] counts the inert successors of s not yet in
// list, valid where seen[s] == epoch, a fresh epoch (see nextEpoch). The
// states and steps read are added to *work.
func closeInertBackward(list, block []int32, b int32, tauInto func(y int32) []int32, st []stateRec,
	seen []uint32, left []int32, epoch uint32, work *int64, join func(s int32) bool) []int32 {
	for _, s := range list {
		seen[s], left[s] = epoch, 0
	}
	for i := 0; i < len(list); i++ {
		y := list[i]
		src := tauInto(y)
		*work += 1 + int64(len(src))
		for _, x := range src {
			if block[x] != b {
				continue
			}
			if seen[x] != epoch {
				seen[x], left[x] = epoch, st[x].inertOut
			}
			if left[x]--; left[x] == 0 && (join == nil || join(x)) {
				list = append(list, x)
			}
		}
	}
	return list
}

// nextEpoch advances *epoch, the value that marks the entries of stamps
// set in the current pass, clearing stamps when it wraps around.
func nextEpoch(epoch *uint32, stamps []uint32) {
	if *epoch++; *epoch == 0 {
		clear(stamps)
		*epoch = 1
	}
}
