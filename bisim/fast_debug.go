package bisim

import "fmt"

// fastDebug is what tests turn on in a refiner (its debug field; nil in
// production, where the hook costs one nil test): a check of invariant
// (2) of fastRefine, with the groups of fast_group.go, before every
// target is taken, and a count of the group parts never read.
type fastDebug struct {
	unread int   // group parts whose stability was derived, not read
	err    error // the first failed check
}

// check runs checkStable unless a check has failed already.
func (d *fastDebug) check(r *refiner) {
	if d.err == nil {
		d.err = r.checkStable()
	}
}

// checkStable verifies that every block is stable under every (a, C),
// for C a block that is neither target-dirty nor in a group, and for C
// the union of a group's parts, τ-steps from a part into another part
// aside: the splitters are grouped from all transitions, each closed
// backwards over inert τ-steps, and every bottom state of a block the
// closure enters must be in it. O(n·m): for tests on small LTSs.
func (r *refiner) checkStable() error {
	k := r.k
	type key struct{ a, c int32 } // c < 0: group -2-c
	sources := map[key][]int32{}
	for s := int32(0); s < k.n; s++ {
		for t := k.out[s]; t < k.out[s+1]; t++ {
			c := r.block[k.dst[t]]
			if r.inert(s, t) {
				continue
			}
			if g := r.groupOf[c]; g >= 0 {
				if k.isTau(t) && r.groupOf[r.block[s]] == g {
					continue
				}
				c = -2 - g
			} else if r.inTargets[c] {
				continue
			}
			sources[key{k.lab[t], c}] = append(sources[key{k.lab[t], c}], s)
		}
	}
	in := make([]bool, k.n)
	for kk, list := range sources {
		clear(in)
		queue := list
		for _, s := range list {
			in[s] = true
		}
		for i := 0; i < len(queue); i++ {
			d := queue[i]
			if !k.inert {
				break
			}
			for _, s := range r.tauInto(d) {
				if r.block[s] == r.block[d] && !in[s] {
					in[s] = true
					queue = append(queue, s)
				}
			}
		}
		for _, s := range queue {
			b := r.block[s]
			for _, u := range r.perm[r.begin[b]:r.end[b]] {
				if r.st[u].inertOut == 0 && !in[u] {
					return fmt.Errorf("block %d is unstable under (%d, %d): its bottom state %d has no such step", b, kk.a, kk.c, u)
				}
			}
		}
	}
	return nil
}
