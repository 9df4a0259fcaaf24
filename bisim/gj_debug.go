package bisim

import (
	"fmt"
	"strings"
)

// gjDebug is what tests turn on in a gjRefiner (its debug field; nil in
// production, where each hook costs one nil test): counters of the
// charges in gjRefine's complexity argument and a sanity check of its
// invariants after every round, as go/ssa's sanity pass checks a function
// after each build step.
type gjDebug struct {
	paths       gjPaths // how often each case of fullCheck and afterSplit occurred
	bottomReads []int32 // per state: how often fullCheck read it as a bottom state
	visitReads  []int32 // per transition: how often a visit read it (marked, or a skipped visit's witness)
	checkRounds bool    // run sanityCheck after every round
	err         error   // the first failed sanity check, with its round
}

// newGJDebug returns the debug record for a refiner of k; checkRounds
// turns on the sanity check after every round (O(n + m) each).
func newGJDebug(k *kernel, checkRounds bool) *gjDebug {
	return &gjDebug{bottomReads: make([]int32, k.n), visitReads: make([]int32, len(k.src)), checkRounds: checkRounds}
}

// gjPath names a case of fullCheck's and afterSplit's work, counted so
// that tests can show they exercise each and check the charges of the
// complexity argument (checkWalkBound in gj_test.go).
type gjPath int

const (
	pathVisits           gjPath = iota // slices visited by fullCheck
	pathVisitUnscheduled               // visits of a slice not scheduled (never)
	pathSkipped                        // a visited slice of a one-state block
	pathRegistrations                  // calls of register
	pathBottomOut                      // transitions of the bottom states register read
	pathRegWalk                        // slices register walked
	pathRegHad                         // of those, slices some bottom state has
	pathRegInert                       // of those, constellation-inert slices no bottom state has
	pathScheduled                      // of those, slices scheduled (some bottom state lacks them)
	pathRegistered                     // a visited slice of a block with new bottom states, registered then
	pathNoBottomSlices                 // an unstable slice of a dirty block that none of its bottom states has
	pathStable                         // a visited slice every bottom state of its block has
	pathNoBottomWith                   // a split under a slice no bottom state has
	pathSplitWithout                   // splits moving the part without the slice
	pathSplitWith                      // splits moving the part with the slice
	pathWholeSlices                    // slices kept whole by moveCells
	pathNoSearch                       // splits of blocks of bottom states only under branching (no lockstep)
	pathNewBottomSplitN                // afterSplit's splits moving the states that reach only new bottom states
	pathNewBottomSplitO                // afterSplit's splits moving the states that reach old bottom states
	numGJPaths
)

var gjPathNames = [numGJPaths]string{"visits", "visitUnscheduled", "skipped", "registrations", "bottomOut",
	"regWalk", "regHad", "regInert", "scheduled", "registered", "noBottomSlices", "stable", "noBottomWith",
	"splitWithout", "splitWith", "wholeSlices", "noSearch", "newBottomSplitN", "newBottomSplitO"}

// gjPaths counts the cases, indexed by gjPath.
type gjPaths [numGJPaths]int

// String lists the counts by name.
func (p gjPaths) String() string {
	var b strings.Builder
	for i, n := range p {
		fmt.Fprintf(&b, "%s:%d ", gjPathNames[i], n)
	}
	return strings.TrimSpace(b.String())
}

// note counts one occurrence of p, if d is not nil.
func (d *gjDebug) note(p gjPath) {
	if d != nil {
		d.paths[p]++
	}
}

// add counts n occurrences of p, if d is not nil.
func (d *gjDebug) add(p gjPath, n int) {
	if d != nil {
		d.paths[p] += n
	}
}

// sanity runs r.sanityCheck after round (numbered from 1) if d asks for
// it, keeping the first failure.
func (d *gjDebug) sanity(r *gjRefiner, round int) {
	if d == nil || !d.checkRounds || d.err != nil {
		return
	}
	if err := r.sanityCheck(); err != nil {
		d.err = fmt.Errorf("after round %d: %w", round, err)
	}
}

// countNoSearch counts a split without lockstep where τ-steps can be inert.
func (r *gjRefiner) countNoSearch() {
	if r.k.inert {
		r.debug.note(pathNoSearch)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sanityCheck verifies the invariants of a gjRefiner between rounds (after
// stabilize): blocks are ranges of perm inside their constellation, with
// their bottom states first and inertOut exact; no slice is scheduled; the
// slices of a block hold exactly its transitions, each slice one label and
// one target constellation, with at most one marked transition per bottom
// state; the counter cells match their transitions; and every block is
// stable under every slice but its constellation-inert one: every bottom
// state has a transition in it (the invariant of gjRefine's design
// comment). Blocks of one state are left out of the slice and counter
// checks (their slices may be stale by design). It costs O(n + m).
func (r *gjRefiner) sanityCheck() error {
	for i, s := range r.perm {
		if r.where[s] != int32(i) {
			return fmt.Errorf("where[%d] = %d, perm[%d] = %d", s, r.where[s], i, s)
		}
	}
	for x := int32(0); x < r.numBlocks; x++ {
		if err := r.checkBlock(x); err != nil {
			return err
		}
	}
	return nil
}

// checkBlock checks the invariants of sanityCheck for block x.
func (r *gjRefiner) checkBlock(x int32) error {
	k := r.k
	c := r.constOf[x]
	if r.begin[x] < r.cbegin[c] || r.end[x] > r.cend[c] {
		return fmt.Errorf("block %d [%d, %d) outside its constellation %d [%d, %d)", x, r.begin[x], r.end[x], c, r.cbegin[c], r.cend[c])
	}
	for i := r.begin[x]; i < r.end[x]; i++ {
		s := r.perm[i]
		if r.block[s] != x {
			return fmt.Errorf("state %d in the range of block %d but block[s] = %d", s, x, r.block[s])
		}
		inert := int32(0)
		for t := k.out[s]; t < k.out[s+1]; t++ {
			if k.isTau(t) && r.block[k.dst[t]] == x {
				inert++
			}
		}
		if inert != r.st[s].inertOut {
			return fmt.Errorf("state %d: inertOut %d, counted %d", s, r.st[s].inertOut, inert)
		}
		if (i < r.begin[x]+r.bottom[x]) != (inert == 0) {
			return fmt.Errorf("block %d: state %d at %d is bottom %v, bottom zone ends at %d", x, s, i, inert == 0, r.begin[x]+r.bottom[x])
		}
	}
	if r.size(x) == 1 {
		return nil
	}
	if r.blockSched[x] >= 0 {
		return fmt.Errorf("block %d has scheduled slices after its check", x)
	}
	inSlices := 0
	for b := r.blockBC[x]; b >= 0; b = r.sl[b].next {
		sl := r.sl[b]
		if sl.block != x || sl.sched || !sl.linked {
			return fmt.Errorf("slice %d in the list of block %d has block %d, sched %v, linked %v", b, x, sl.block, sl.sched, sl.linked)
		}
		if sl.begin == sl.end {
			return fmt.Errorf("empty slice %d in the list of block %d", b, x)
		}
		if sl.mark < sl.begin || sl.mark > sl.end {
			return fmt.Errorf("slice %d: marked part starts at %d outside [%d, %d]", b, sl.mark, sl.begin, sl.end)
		}
		markedFrom := map[int32]bool{}
		for _, t := range r.bt[sl.mark:sl.end] {
			s := k.src[t]
			if r.st[s].inertOut != 0 || markedFrom[s] {
				return fmt.Errorf("slice %d: marked transition %d from a non-bottom state or a second one from state %d", b, t, s)
			}
			markedFrom[s] = true
		}
		first := r.bt[sl.begin]
		bottomWith := map[int32]bool{}
		for p := sl.begin; p < sl.end; p++ {
			t := r.bt[p]
			switch {
			case r.tr[t].pos != p || r.tr[t].bc != b:
				return fmt.Errorf("transition %d at %d of slice %d: position %d, slice %d", t, p, b, r.tr[t].pos, r.tr[t].bc)
			case r.block[k.src[t]] != x:
				return fmt.Errorf("slice %d of block %d holds transition %d from block %d", b, x, t, r.block[k.src[t]])
			case k.lab[t] != k.lab[first] || r.constOf[r.block[k.dst[t]]] != r.constOf[r.block[k.dst[first]]]:
				return fmt.Errorf("slice %d mixes labels or target constellations", b)
			}
			if r.st[k.src[t]].inertOut == 0 {
				bottomWith[k.src[t]] = true
			}
			inSlices++
		}
		constInert := k.isTau(first) && r.constOf[r.block[k.dst[first]]] == c
		if !constInert && int32(len(bottomWith)) != r.bottom[x] {
			return fmt.Errorf("block %d unstable under its slice %d (label %d): %d of %d bottom states have it",
				x, b, k.lab[first], len(bottomWith), r.bottom[x])
		}
	}
	out := 0
	cells := map[int32]int32{}
	cellKey := map[int32][3]int32{}
	for _, s := range r.perm[r.begin[x]:r.end[x]] {
		out += int(k.out[s+1] - k.out[s])
		for t := k.out[s]; t < k.out[s+1]; t++ {
			cell := r.tr[t].cell
			cells[cell]++
			key := [3]int32{s, k.lab[t], r.constOf[r.block[k.dst[t]]]}
			if old, ok := cellKey[cell]; ok && old != key {
				return fmt.Errorf("cell %d holds (state, label, constellation) %v and %v", cell, old, key)
			}
			cellKey[cell] = key
		}
	}
	if out != inSlices {
		return fmt.Errorf("block %d: %d transitions, %d in its slices", x, out, inSlices)
	}
	for cell, n := range cells {
		if r.cellCnt[cell] != n {
			return fmt.Errorf("cell %d: count %d, %d transitions", cell, r.cellCnt[cell], n)
		}
	}
	return nil
}
