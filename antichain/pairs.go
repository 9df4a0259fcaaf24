package antichain

// Pairs holds the explored pairs (implementation state, subset) in flat
// slices indexed by pair id, with the step that first reached each (for
// the counterexample).
//
// With pruning, a pair (s, P) is not added when a live pair (s, Q) with
// Q ⊆ P is stored, and adding (s, P) kills the live pairs (s, Q) with
// Q ⊋ P (dead: stored, but not to be expanded). The live subsets of a
// state are then an antichain, its ⊆-minimal ones, chained from the state
// (head, next): a subset ⊆ P and a subset ⊋ P cannot both be live, so one
// pass over the chain does both, and unlinks the pairs it kills.
//
// A pair stored already is found by a hash index of the pairs, or, without
// one, by its state's chain: a state has few pairs, and its chain is
// walked anyway for the antichain, so the index, some 8 bytes a pair,
// buys little there (the on-the-fly route's measured choice,
// onthefly/fly.go). Without the index, a pair met again after it was
// killed is refused as subsumed (a smaller live subset covers it) rather
// than as stored; without pruning, the chain holds every pair.
type Pairs struct {
	// State, Subset, Parent and Via are per pair: its state and subset,
	// the pair and the step id it was first reached from (-1 at the
	// root).
	State, Subset, Parent, Via []int32

	head []int32 // per implementation state: its last live pair, -1 = none
	next []int32 // per pair: the live pair before it in its state's chain

	index []int32 // open addressing over pair ids, -1 = empty; nil: none

	// chain: the pairs are chained by state, for the antichain or to be
	// found without the index.
	chain bool
	prune bool
	dead  []uint64 // bitset over pairs: subsumed after they were stored
	norm  *Subsets
	// Subsumed counts the pairs not added because a live pair of the
	// same state had a subset ⊆ theirs.
	Subsumed int64
}

// NewPairs returns an empty store whose subsets are norm's, pruning with
// the antichain when prune is set, with a hash index of the pairs when
// index is; states is a hint of the number of implementation states (0
// if unknown).
func NewPairs(norm *Subsets, prune, index bool, states int32) *Pairs {
	ps := &Pairs{norm: norm, prune: prune, chain: prune || !index}
	if index {
		ps.index = make([]int32, 1024)
		for i := range ps.index {
			ps.index[i] = -1
		}
	}
	if ps.chain {
		ps.head = make([]int32, states)
		for i := range ps.head {
			ps.head[i] = -1
		}
	}
	return ps
}

// Len returns the number of pairs stored.
func (ps *Pairs) Len() int { return len(ps.State) }

// pairHash mixes a pair into a 64-bit hash (the finaliser of MurmurHash3).
func pairHash(s, p int32) uint64 {
	h := uint64(uint32(s))<<32 | uint64(uint32(p))
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// Add stores (s, sub), reached from pair parent by step via, and returns
// its id, or -1 when it is stored already or, pruning, subsumed.
func (ps *Pairs) Add(s, sub, parent, via int32) int32 {
	var slot uint64
	if ps.index != nil {
		mask := uint64(len(ps.index) - 1)
		slot = pairHash(s, sub) & mask
		for ; ps.index[slot] >= 0; slot = (slot + 1) & mask {
			if id := ps.index[slot]; ps.State[id] == s && ps.Subset[id] == sub {
				return -1
			}
		}
	} else if ps.stored(s, sub) {
		return -1
	}
	if ps.prune && !ps.minimal(s, sub) {
		ps.Subsumed++
		return -1
	}
	id := int32(len(ps.State))
	ps.State = append(ps.State, s)
	ps.Subset = append(ps.Subset, sub)
	ps.Parent = append(ps.Parent, parent)
	ps.Via = append(ps.Via, via)
	if ps.index != nil {
		ps.index[slot] = id
		if 2*len(ps.State) > len(ps.index) {
			ps.rehash()
		}
	}
	if ps.chain {
		if int(s) >= len(ps.head) {
			ps.grow(s)
		}
		ps.next = append(ps.next, ps.head[s])
		ps.head[s] = id
	}
	if ps.prune && id&63 == 0 {
		ps.dead = append(ps.dead, 0)
	}
	return id
}

// stored reports whether (s, sub) is in the chain of s.
func (ps *Pairs) stored(s, sub int32) bool {
	if int(s) >= len(ps.head) {
		return false
	}
	// Comparing ids is cheaper than an inclusion (minimal).
	for q := ps.head[s]; q >= 0; q = ps.next[q] {
		if ps.Subset[q] == sub {
			return true
		}
	}
	return false
}

// grow makes room for state s in head.
func (ps *Pairs) grow(s int32) {
	for int(s) >= len(ps.head) {
		ps.head = append(ps.head, -1)
	}
}

// minimal reports whether no live pair of state s has a subset ⊆ sub; if
// so, it kills and unlinks those whose subsets are ⊋ sub.
func (ps *Pairs) minimal(s, sub int32) bool {
	if int(s) >= len(ps.head) {
		return true
	}
	prev := int32(-1)
	for q := ps.head[s]; q >= 0; q = ps.next[q] {
		other := ps.Subset[q]
		if ps.norm.Includes(sub, other) {
			return false
		}
		if ps.norm.Includes(other, sub) {
			ps.dead[q>>6] |= 1 << (q & 63)
			if prev < 0 {
				ps.head[s] = ps.next[q]
			} else {
				ps.next[prev] = ps.next[q]
			}
			continue
		}
		prev = q
	}
	return true
}

// Put implements PairStore, for a search layered by steps, with a
// store made without the index: it stores (s, sub) in its state's chain,
// kills no pair and records no parent (Parent and Via -1: the search
// rebuilds its paths, Search.Path).
func (ps *Pairs) Put(s, sub int32) int32 {
	id := int32(len(ps.State))
	ps.State = append(ps.State, s)
	ps.Subset = append(ps.Subset, sub)
	ps.Parent = append(ps.Parent, -1)
	ps.Via = append(ps.Via, -1)
	if int(s) >= len(ps.head) {
		ps.grow(s)
	}
	ps.next = append(ps.next, ps.head[s])
	ps.head[s] = id
	return id
}

// SubsetOf implements PairStore.
func (ps *Pairs) SubsetOf(p int32) int32 { return ps.Subset[p] }

// Last implements PairStore.
func (ps *Pairs) Last(s int32) int32 {
	if int(s) >= len(ps.head) {
		return -1
	}
	return ps.head[s]
}

// Before implements PairStore.
func (ps *Pairs) Before(p int32) int32 { return ps.next[p] }

// Dead reports whether pair id was subsumed after it was stored.
func (ps *Pairs) Dead(id int32) bool {
	return ps.prune && ps.dead[id>>6]&(1<<(id&63)) != 0
}

// rehash doubles the index.
func (ps *Pairs) rehash() {
	ps.index = make([]int32, 2*len(ps.index))
	for i := range ps.index {
		ps.index[i] = -1
	}
	mask := uint64(len(ps.index) - 1)
	for id := range ps.State {
		i := pairHash(ps.State[id], ps.Subset[id]) & mask
		for ps.index[i] >= 0 {
			i = (i + 1) & mask
		}
		ps.index[i] = int32(id)
	}
}

// Path returns the step ids from the initial pair to pair p, followed by
// last.
func (ps *Pairs) Path(p, last int32) []int32 {
	rev := []int32{last}
	for ; ps.Parent[p] >= 0; p = ps.Parent[p] {
		rev = append(rev, ps.Via[p])
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
