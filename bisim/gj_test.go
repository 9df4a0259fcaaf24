package bisim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGJInvariants runs GJ on random LTSs and checks its data structures
// at the end, not only the partition: blocks as ranges of perm with their
// bottom states first, slices holding exactly the transitions of their
// block with one label and one target constellation, counters matching
// the transitions of their cell. Blocks of one state are left out of the
// slice and counter checks (their slices may be stale by design). It also
// checks the marks of the slices (one per bottom state at most), that
// fullCheck reads every state as a bottom state at most once
// (the charge of its reading in the O(m log n) argument), the charges of
// register's walks over slices (gjWalkBound), and that the cases of its
// splits all occur.
func TestGJInvariants(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 30
	}
	var paths gjPaths
	for seed := range seeds {
		l := randomLTS(uint64(2_000_000+seed), 120)
		for _, eq := range allEquivalences {
			k := newKernel(l, eq)
			r := newGJRefiner(k)
			r.bottomReads = make([]int32, k.n)
			r.visitReads = make([]int32, len(k.src))
			r.run(&Options{})
			if err := r.check(); err != nil {
				t.Fatalf("seed %d, %v: %v", seed, eq, err)
			}
			for s, n := range r.bottomReads {
				if n > 1 {
					t.Fatalf("seed %d, %v: fullCheck read state %d as a bottom state %d times", seed, eq, s, n)
				}
			}
			if err := r.checkWalkBound(); err != nil {
				t.Fatalf("seed %d, %v: %v", seed, eq, err)
			}
			paths.add(r.paths)
		}
	}
	k := newKernel(benchRandom(2000), DivBranching)
	r := newGJRefiner(k)
	r.visitReads = make([]int32, len(k.src))
	r.run(&Options{})
	require.NoError(t, r.check())
	require.NoError(t, r.checkWalkBound())
	paths.add(r.paths)
	assert.Positive(t, paths.skipped, "visited slices of one-state blocks")
	assert.Positive(t, paths.registered, "blocks with new bottom states registered when visited")
	assert.Positive(t, paths.stable, "descendant slices found stable")
	assert.Positive(t, paths.noBottomSlices, "unstable slices no bottom state has")
	assert.Positive(t, paths.regInert, "constellation-inert slices walked by register")
	assert.Positive(t, paths.wholeSlices, "slices kept whole by moveCells")
	assert.Positive(t, paths.noSearch, "splits of blocks of bottom states only, without lockstep")
	assert.Positive(t, paths.noBottomWith, "splits under a slice no bottom state has")
	assert.Positive(t, paths.split[0], "splits moving the part without the slice")
	assert.Positive(t, paths.split[1], "splits moving the part with the slice")
	assert.Positive(t, paths.newBottomSplit[0], "new-bottom splits moving the part reaching only new bottom states")
	assert.Positive(t, paths.newBottomSplit[1], "new-bottom splits moving the part reaching old bottom states")
	t.Logf("%+v", paths)
}

// checkWalkBound checks the charges of fullCheck's visits and register's
// walks (the design comment of gjRefine): every visit is of a scheduled
// slice and is a split, a skipped visit (its witness transition, of a
// one-state block, read so once), or finds its block stable (reading at
// least one marked transition); every transition is read so at most once
// in the run; every scheduling is followed by at least one visit; and
// register walks only slices that some bottom state has (at most its
// bottom states' transitions), the constellation-inert one (at most one
// per registration) or slices it schedules. So the walks are O(n + m).
func (r *gjRefiner) checkWalkBound() error {
	p := r.paths
	reads := 0
	for t, n := range r.visitReads {
		if n > 1 {
			return fmt.Errorf("transition %d read %d times by visits", t, n)
		}
		reads += int(n)
	}
	splits := p.split[0] + p.split[1]
	switch {
	case p.visitUnscheduled > 0:
		return fmt.Errorf("%d visits of unscheduled slices", p.visitUnscheduled)
	case p.visits != p.skipped+p.stable+splits:
		return fmt.Errorf("visits %d != skipped %d + stable %d + splits %d", p.visits, p.skipped, p.stable, splits)
	case p.skipped+p.stable > reads:
		return fmt.Errorf("skipped %d + stable %d visits, but only %d transitions read by visits", p.skipped, p.stable, reads)
	case p.scheduled > p.visits:
		return fmt.Errorf("%d slices scheduled, %d visits", p.scheduled, p.visits)
	case p.regHad > p.bottomOut:
		return fmt.Errorf("register walked %d slices some bottom state has, read %d bottom transitions", p.regHad, p.bottomOut)
	case p.regInert > p.registrations:
		return fmt.Errorf("register walked %d constellation-inert slices in %d registrations", p.regInert, p.registrations)
	case p.regWalk > p.regHad+p.regInert+p.scheduled:
		return fmt.Errorf("register walked %d slices: %d had, %d inert, %d scheduled", p.regWalk, p.regHad, p.regInert, p.scheduled)
	}
	return nil
}

func (p *gjPaths) add(q gjPaths) {
	p.visits += q.visits
	p.visitUnscheduled += q.visitUnscheduled
	p.registrations += q.registrations
	p.bottomOut += q.bottomOut
	p.regWalk += q.regWalk
	p.regHad += q.regHad
	p.regInert += q.regInert
	p.scheduled += q.scheduled
	p.wholeSlices += q.wholeSlices
	p.noSearch += q.noSearch
	p.skipped += q.skipped
	p.registered += q.registered
	p.noBottomSlices += q.noBottomSlices
	p.stable += q.stable
	p.noBottomWith += q.noBottomWith
	p.split[0] += q.split[0]
	p.split[1] += q.split[1]
	p.newBottomSplit[0] += q.newBottomSplit[0]
	p.newBottomSplit[1] += q.newBottomSplit[1]
}

// check verifies the invariants of a gjRefiner between rounds.
func (r *gjRefiner) check() error {
	k := r.k
	for i, s := range r.perm {
		if r.where[s] != int32(i) {
			return fmt.Errorf("where[%d] = %d, perm[%d] = %d", s, r.where[s], i, s)
		}
	}
	for x := int32(0); x < r.numBlocks; x++ {
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
			if inert != r.inertOut[s] {
				return fmt.Errorf("state %d: inertOut %d, counted %d", s, r.inertOut[s], inert)
			}
			if (i < r.begin[x]+r.bottom[x]) != (inert == 0) {
				return fmt.Errorf("block %d: state %d at %d is bottom %v, bottom zone ends at %d", x, s, i, inert == 0, r.begin[x]+r.bottom[x])
			}
		}
		if r.size(x) == 1 {
			continue
		}
		if r.blockSched[x] >= 0 {
			return fmt.Errorf("block %d has scheduled slices after its check", x)
		}
		inSlices := 0
		for b := r.blockBC[x]; b >= 0; b = r.sl[b].next {
			if r.sl[b].block != x || r.sl[b].sched || !r.sl[b].linked {
				return fmt.Errorf("slice %d in the list of block %d has bcBlock %d, sched %v, linked %v", b, x, r.sl[b].block, r.sl[b].sched, r.sl[b].linked)
			}
			if r.sl[b].begin == r.sl[b].end {
				return fmt.Errorf("empty slice %d in the list of block %d", b, x)
			}
			if r.sl[b].mark < r.sl[b].begin || r.sl[b].mark > r.sl[b].end {
				return fmt.Errorf("slice %d: marked part starts at %d outside [%d, %d]", b, r.sl[b].mark, r.sl[b].begin, r.sl[b].end)
			}
			markedFrom := map[int32]bool{}
			for _, t := range r.bt[r.sl[b].mark:r.sl[b].end] {
				s := k.src[t]
				if r.inertOut[s] != 0 || markedFrom[s] {
					return fmt.Errorf("slice %d: marked transition %d from a non-bottom state or a second one from state %d", b, t, s)
				}
				markedFrom[s] = true
			}
			for p := r.sl[b].begin; p < r.sl[b].end; p++ {
				t := r.bt[p]
				first := r.bt[r.sl[b].begin]
				switch {
				case r.tr[t].pos != p || r.tr[t].bc != b:
					return fmt.Errorf("transition %d at %d of slice %d: btPos %d, bcOf %d", t, p, b, r.tr[t].pos, r.tr[t].bc)
				case r.block[k.src[t]] != x:
					return fmt.Errorf("slice %d of block %d holds transition %d from block %d", b, x, t, r.block[k.src[t]])
				case k.lab[t] != k.lab[first] || r.constOf[r.block[k.dst[t]]] != r.constOf[r.block[k.dst[first]]]:
					return fmt.Errorf("slice %d mixes labels or target constellations", b)
				}
				inSlices++
			}
		}
		out := 0
		cells := map[int32]int32{}
		cellKey := map[int32][3]int32{}
		for _, s := range r.perm[r.begin[x]:r.end[x]] {
			out += int(k.out[s+1] - k.out[s])
			for t := k.out[s]; t < k.out[s+1]; t++ {
				c := r.tr[t].cell
				cells[c]++
				key := [3]int32{s, k.lab[t], r.constOf[r.block[k.dst[t]]]}
				if old, ok := cellKey[c]; ok && old != key {
					return fmt.Errorf("cell %d holds (state, label, constellation) %v and %v", c, old, key)
				}
				cellKey[c] = key
			}
		}
		if out != inSlices {
			return fmt.Errorf("block %d: %d transitions, %d in its slices", x, out, inSlices)
		}
		for c, n := range cells {
			if r.cellCnt[c] != n {
				return fmt.Errorf("cell %d: count %d, %d transitions", c, r.cellCnt[c], n)
			}
		}
	}
	if len(r.dirtyList) != 0 || r.nextConstellation() >= 0 {
		return fmt.Errorf("not finished")
	}
	return nil
}

// TestGJSweep compares GJ (and Fast) with GV on random LTSs of 25 to 224
// states, sizes at which GJ's checks of blocks with new bottom states
// register nested parts and split under slices no bottom state has (see
// the counts in TestGJInvariants).
func TestGJSweep(t *testing.T) {
	seeds := 2000
	if testing.Short() {
		seeds = 200
	}
	for seed := range seeds {
		requireAgreesWithGV(t, randomLTS(uint64(9_000_000+seed), 25+seed%200), fmt.Sprintf("seed %d", seed))
	}
}
