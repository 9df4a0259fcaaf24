package bisim

import "github.com/linbis/linbis/lts"

// Steps that Fast and GJ share: both keep, per state, the number of inert
// τ-steps it has (inertOut) and the sources of τ-steps by target
// (tauIndex/tauSrc), and both must find the steps that stop being inert
// when a block splits, and the states that can only reach new bottom
// states.

// tauStepsBetween calls lose(s) for every τ-step s → d from a state of
// block reach to a state of block rest (block gives each state's block;
// reachStates and restStates are their states), reading whichever side is
// smaller: the τ-steps out of reach's states (τ comes first among a
// state's transitions, see newKernel) or, through tauIndex/tauSrc (the
// sources of τ-steps by target), the τ-steps into rest's states. After a
// block splits into reach and rest these are the steps that stopped being
// inert. It adds the states and steps it reads to *work.
func (k *kernel) tauStepsBetween(block, reachStates, restStates []int32, reach, rest int32, tauIndex, tauSrc []int32,
	work *int64, lose func(s int32)) {
	if len(reachStates) <= len(restStates) {
		*work += int64(len(reachStates))
		for _, s := range reachStates {
			for t := k.out[s]; t < k.out[s+1] && k.lab[t] == lts.Tau; t++ {
				*work++
				if block[k.dst[t]] == rest {
					lose(s)
				}
			}
		}
		return
	}
	*work += int64(len(restStates))
	for _, d := range restStates {
		*work += int64(tauIndex[d+1] - tauIndex[d])
		for _, s := range tauSrc[tauIndex[d]:tauIndex[d+1]] {
			if block[s] == reach {
				lose(s)
			}
		}
	}
}

// closeInertBackward extends list, which holds bottom states of block b,
// backwards over inert τ-steps: a state of b joins when all its inert
// successors have joined and join (nil: always) accepts it. seen/left are
// per-state scratch: left[s] counts the inert successors of s not yet in
// list, valid where seen[s] == epoch, a fresh epoch (see nextEpoch). The
// states and steps read are added to *work.
func closeInertBackward(list, block []int32, b int32, tauIndex, tauSrc, inertOut []int32,
	seen []uint32, left []int32, epoch uint32, work *int64, join func(s int32) bool) []int32 {
	for _, s := range list {
		seen[s], left[s] = epoch, 0
	}
	for i := 0; i < len(list); i++ {
		y := list[i]
		*work += 1 + int64(tauIndex[y+1]-tauIndex[y])
		for _, x := range tauSrc[tauIndex[y]:tauIndex[y+1]] {
			if block[x] != b {
				continue
			}
			if seen[x] != epoch {
				seen[x], left[x] = epoch, inertOut[x]
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
