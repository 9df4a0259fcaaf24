package refine

import "github.com/linbis/linbis/antichain"

// pairStore holds the explored pairs (implementation state, spec subset) in
// parallel flat slices indexed by pair id, with the transition that first
// reached each (for the counterexample), a hash set for exact duplicates and,
// when antichains are on, per implementation state the list of pairs whose
// subsets are ⊆-minimal among those explored from that state.
type pairStore struct {
	state, subset []int32
	parent, via   []int32 // predecessor pair and impl transition; -1 at the root

	table []int32 // open addressing over pair ids, -1 = empty

	antichain bool
	acHead    []int32  // per impl state: first pair of its antichain, -1 = none
	acNext    []int32  // per pair: next pair in the same antichain
	dead      []uint64 // bitset: pairs subsumed after they were queued

	norm     *antichain.Subsets
	subsumed int64 // pairs not added because a smaller subset was explored
}

func newPairStore(implStates int32, norm *antichain.Subsets, prune bool) *pairStore {
	ps := &pairStore{table: make([]int32, 1024), antichain: prune, norm: norm}
	for i := range ps.table {
		ps.table[i] = -1
	}
	if prune {
		ps.acHead = make([]int32, implStates)
		for i := range ps.acHead {
			ps.acHead[i] = -1
		}
	}
	return ps
}

func (ps *pairStore) len() int { return len(ps.state) }

func pairHash(s, p int32) uint64 {
	h := uint64(uint32(s))<<32 | uint64(uint32(p))
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// add records (s, p), reached from pair parent by impl transition via, and
// returns its id, or -1 when it is known already or subsumed.
func (ps *pairStore) add(s, p, parent, via int32) int32 {
	mask := uint64(len(ps.table) - 1)
	i := pairHash(s, p) & mask
	for ; ps.table[i] >= 0; i = (i + 1) & mask {
		if id := ps.table[i]; ps.state[id] == s && ps.subset[id] == p {
			return -1
		}
	}
	if ps.antichain && !ps.updateAntichain(s, p) {
		ps.subsumed++
		return -1
	}
	id := int32(len(ps.state))
	ps.state = append(ps.state, s)
	ps.subset = append(ps.subset, p)
	ps.parent = append(ps.parent, parent)
	ps.via = append(ps.via, via)
	ps.table[i] = id
	if 2*len(ps.state) > len(ps.table) {
		ps.rehash()
	}
	if ps.antichain {
		ps.acNext = append(ps.acNext, ps.acHead[s])
		ps.acHead[s] = id
		if id&63 == 0 {
			ps.dead = append(ps.dead, 0)
		}
	}
	return id
}

// updateAntichain reports whether subset p is new for impl state s, i.e. no
// explored subset of s is ⊆ p. If so, it unlinks and kills the explored
// pairs of s whose subsets are ⊋ p. Because the list is an antichain, a
// subset ⊆ p and a subset ⊋ p cannot both be in it, so one pass does both.
func (ps *pairStore) updateAntichain(s, p int32) bool {
	prev := int32(-1)
	for e := ps.acHead[s]; e >= 0; e = ps.acNext[e] {
		q := ps.subset[e]
		if ps.norm.Includes(p, q) {
			return false
		}
		if ps.norm.Includes(q, p) {
			ps.dead[e>>6] |= 1 << (e & 63)
			if prev < 0 {
				ps.acHead[s] = ps.acNext[e]
			} else {
				ps.acNext[prev] = ps.acNext[e]
			}
			continue
		}
		prev = e
	}
	return true
}

// isDead reports whether pair id was subsumed after it was queued.
func (ps *pairStore) isDead(id int32) bool {
	return ps.antichain && ps.dead[id>>6]&(1<<(id&63)) != 0
}

func (ps *pairStore) rehash() {
	ps.table = make([]int32, 2*len(ps.table))
	for i := range ps.table {
		ps.table[i] = -1
	}
	mask := uint64(len(ps.table) - 1)
	for id := range ps.state {
		i := pairHash(ps.state[id], ps.subset[id]) & mask
		for ps.table[i] >= 0 {
			i = (i + 1) & mask
		}
		ps.table[i] = int32(id)
	}
}
