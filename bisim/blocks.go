package bisim

import (
	"slices"

	"github.com/linbis/linbis/lts"
)

// blockPartition is the partition core that fastRefine and gjRefine share:
// the blocks as ranges of one permutation of the kernel states, the
// bottom-state counts that their stability arguments rest on, and the
// marked set of a round (the sources of a splitter's transitions).
//
// Invariants between operations: perm is a permutation of the states and
// where its inverse; block b is perm[begin[b]:end[b]] and block[s] == b for
// each of those states; st[s].inertOut is the number of τ-steps of s into
// its own block and bottom[b] the number of states of b without one. Each
// refiner keeps more per block and may order a block's range (GJ keeps its
// bottom states first).
type blockPartition struct {
	k *kernel // the graph refined

	// The blocks.
	block     []int32    // per state: its block
	perm      []int32    // the states, grouped by block
	where     []int32    // per state: its index in perm
	begin     []int32    // per block: the start of its range in perm
	end       []int32    // per block: the end of its range in perm
	numBlocks int32      // blocks so far; block ids are 0..numBlocks-1
	st        []stateRec // per state: its inert τ-steps and its mark
	bottom    []int32    // per block: its bottom states (inertOut == 0)

	// A round's marked set (startRound, then each refiner's markState):
	// the states s with st[s].mark == epoch.
	epoch     uint32  // the current round's mark
	queue     []int32 // the marked states, in order of marking
	touched   []int32 // the blocks holding a marked state
	count     []int32 // per block: its marked states (0 outside a round)
	bcount    []int32 // per block: its marked bottom states (0 outside a round)
	cut       []int32 // per block: where a split places its moved part (each refiner says how)
	newBottom []int32 // the states that lost their last inert τ-step in the current split

	work int64 // elementary steps: states and transitions read or moved (see refineStats)
}

// stateRec is what the core keeps per state beside its block and place.
// A round marks the sources of a splitter's transitions one by one,
// reading each one's mark and then its inert τ-steps (whether it is a
// bottom state), in no order that caches favour: in one record that is
// one cache miss instead of two.
type stateRec struct {
	inertOut int32  // its inert τ-steps (τ-steps inside its block)
	mark     uint32 // the round's epoch if it is marked in this round
}

// newBlockPartition returns the partition of k's states into one block;
// the caller fills perm and where, and inertOut, bottom[0] and the τ index
// if τ can be inert.
func newBlockPartition(k *kernel) blockPartition {
	n := k.n
	p := blockPartition{k: k, block: make([]int32, n), perm: make([]int32, n), where: make([]int32, n),
		st: make([]stateRec, n)}
	p.addBlock(0, n)
	return p
}

// addBlock appends block numBlocks covering perm[lo:hi] to the per-block
// slices of the core and returns it; the caller sets block[] of its states
// and its bottom count.
func (p *blockPartition) addBlock(lo, hi int32) int32 {
	b := p.numBlocks
	p.numBlocks++
	p.begin = appendBlockEntry(p.begin, lo, p.k.n)
	p.end = appendBlockEntry(p.end, hi, p.k.n)
	p.bottom = appendBlockEntry(p.bottom, 0, p.k.n)
	p.count = appendBlockEntry(p.count, 0, p.k.n)
	p.bcount = appendBlockEntry(p.bcount, 0, p.k.n)
	p.cut = appendBlockEntry(p.cut, 0, p.k.n)
	return b
}

// appendBlockEntry appends v to a per-block slice. Such slices grow with
// the blocks, since the coarsest partition of a big LTS usually has far
// fewer blocks than states, but never beyond n entries (n kernel states),
// the most blocks there can be (as for a strong bisimilarity that is
// nearly the identity).
func appendBlockEntry[T any](s []T, v T, n int32) []T {
	if len(s) == cap(s) {
		c := max(min(max(2*cap(s), 1024), int(n)), len(s)+1)
		s = slices.Grow(s, c-len(s))
	}
	return append(s, v)
}

// size returns the number of states of block b.
func (p *blockPartition) size(b int32) int32 { return p.end[b] - p.begin[b] }

// swap exchanges the states at positions i and j of perm.
func (p *blockPartition) swap(i, j int32) {
	p.work++
	si, sj := p.perm[i], p.perm[j]
	p.perm[i], p.perm[j] = sj, si
	p.where[si], p.where[sj] = j, i
}

// startRound begins a new, empty marked set.
func (p *blockPartition) startRound() {
	p.nextMarkEpoch()
	p.queue = p.queue[:0]
	p.touched = p.touched[:0]
}

// nextMarkEpoch starts a new, empty set of marks, clearing them when the
// epoch wraps around (see nextEpoch).
func (p *blockPartition) nextMarkEpoch() {
	if p.epoch++; p.epoch == 0 {
		for i := range p.st {
			p.st[i].mark = 0
		}
		p.epoch = 1
	}
}

// tauStepsBetween calls lose(s) for every τ-step s → d from a state of
// block reach to a state of block rest, reading whichever side is
// smaller: the τ-steps out of reach's states (τ comes first among a
// state's transitions, see newKernel) or, through tauInto (each
// refiner's index of the sources of the τ-steps into a state), the
// τ-steps into rest's states. After a block splits into reach and rest
// these are the steps that stopped being inert.
func (p *blockPartition) tauStepsBetween(reach, rest int32, tauInto func(d int32) []int32, lose func(s int32)) {
	k := p.k
	reachStates, restStates := p.perm[p.begin[reach]:p.end[reach]], p.perm[p.begin[rest]:p.end[rest]]
	if len(reachStates) <= len(restStates) {
		p.work += int64(len(reachStates))
		for _, s := range reachStates {
			for t := k.out[s]; t < k.out[s+1] && k.lab[t] == lts.Tau; t++ {
				p.work++
				if p.block[k.dst[t]] == rest {
					lose(s)
				}
			}
		}
		return
	}
	p.work += int64(len(restStates))
	for _, d := range restStates {
		src := tauInto(d)
		p.work += int64(len(src))
		for _, s := range src {
			if p.block[s] == reach {
				lose(s)
			}
		}
	}
}
