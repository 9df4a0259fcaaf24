package onthefly

import mbits "math/bits"

// chainHeads holds the head of each state's chain of pairs (fly.go's
// headPair): its last pair, -1 while it has none. A state is stored when
// a pair first reaches it, and that pair is stored next (flySearch.follow),
// so the states' first pairs come in the order of the states: the first
// pair of state s is the s-th of the pairs that are their state's first.
// A bit a pair says which those are, and every 32nd state's first pair is
// kept (samples), from which the others are found by counting the bits
// (first). Most states keep one pair (HP 3/3: 22.28 M pairs over 21.83 M
// states): the heads of the others, whose last pair is not their first,
// are kept in a hash table (more), a bit a state saying which. That is
// about 2.2 bits a state and a pair beside the table's 10 to 16 bytes for
// each state of several pairs, where an int32 a state, packed, took 25
// bits at HP 3/3 (66.3 MB; 17.6 here, 8.4 of them the table).
//
// When the states of several pairs pass an eighth of the states (Treiber
// 6/1 keeps 3 pairs a state), the table would cost more than the heads
// themselves: the heads are then kept as they were, each in as many bits
// as its block's largest needs (packedInt32s), for the rest of the search.
//
// A state paired out of that order (one stored for a violation's replay
// at the end of the search) goes to the table as well. get only reads, so
// any number of goroutines may call it beside each other, but not beside
// add or set (the search's expanders read while nothing is written).
type chainHeads struct {
	n      int // states
	packed bool
	heads  packedInt32s // the heads, when packed
	// firsts has bit p set when pair p is its state's first, the states
	// 0 to nfirst-1 in order (states nfirst and after have none there);
	// samples[j] is the first pair of state 32j, and last the largest
	// pair set in firsts.
	firsts  bits
	nfirst  int
	samples chunked[int32]
	last    int32
	// multi marks the states whose head is in more.
	multi bits
	more  headTable
}

const (
	headSampleBits = 5
	// headsPackedAt: the heads are packed once the table holds more
	// than one state in headsPackedShare, past headsPackedMin states.
	headsPackedShare = 8
	headsPackedMin   = 1 << 16
)

// Len returns the number of states.
func (h *chainHeads) Len() int { return h.n }

// add appends a state whose head is v (-1: no pair yet) and returns its
// index.
func (h *chainHeads) add(v int32) int {
	s := h.n
	h.n++
	if h.packed {
		return h.heads.add(v)
	}
	if v >= 0 {
		h.set(s, v)
	}
	return s
}

// get returns the head of state s.
func (h *chainHeads) get(s int) int32 {
	switch {
	case h.packed:
		return h.heads.get(s)
	case h.multi.has(s):
		return h.more.get(int32(s))
	case s >= h.nfirst:
		return -1
	}
	return h.first(s)
}

// first returns the first pair of state s < nfirst: the (s%32)-th bit
// set in firsts from its sample's.
func (h *chainHeads) first(s int) int32 {
	p := int(h.samples.get(s >> headSampleBits))
	r := s & (1<<headSampleBits - 1)
	w := p >> 6
	x := h.firsts.words.get(w) >> (p & 63) << (p & 63)
	for {
		if c := mbits.OnesCount64(x); r >= c {
			r -= c
			w++
			x = h.firsts.words.get(w)
			continue
		}
		return int32(w<<6 + select64(x, r))
	}
}

// select64 returns the position of the r-th bit set in x (from 0), which
// has more than r bits set: the byte that holds it from the bytes' running
// counts, side by side in a word (Vigna, "Broadword implementation of
// rank/select queries", 2008), then the bit from a table.
func select64(x uint64, r int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	c := x - x>>1&0x5555555555555555
	c = c&0x3333333333333333 + c>>2&0x3333333333333333
	c = (c + c>>4) & 0x0f0f0f0f0f0f0f0f
	c *= ones // byte i: the bits set in bytes 0 to i
	// The bytes whose running count is at most r come before r's.
	i := uint(mbits.OnesCount64(((uint64(r)*ones|highs)-c)&highs)) * 8
	before := int(c << 8 >> i & 0xff)
	return int(i) + int(selectInByte[uint8(x>>i)][r-before])
}

// selectInByte[b][r] is the position of the r-th bit set in b.
var selectInByte = func() (t [256][8]uint8) {
	for b := range 256 {
		r := 0
		for i := range 8 {
			if b&(1<<i) != 0 {
				t[b][r] = uint8(i)
				r++
			}
		}
	}
	return t
}()

// set sets the head of state s to v, a pair stored after every pair set
// before.
func (h *chainHeads) set(s int, v int32) {
	switch {
	case h.packed:
		h.heads.set(s, v)
		return
	case h.multi.has(s):
	case s == h.nfirst && (s == 0 || v > h.last):
		// The state's first pair, in order.
		if s&(1<<headSampleBits-1) == 0 {
			h.samples.add(v)
		}
		h.firsts.set(int(v), true)
		h.nfirst++
		h.last = v
		return
	default:
		h.multi.set(s, true)
	}
	h.more.put(int32(s), v)
	if h.n >= headsPackedMin && h.more.n*headsPackedShare > h.n {
		h.pack()
	}
}

// pack keeps the heads packed from now on.
func (h *chainHeads) pack() {
	var p packedInt32s
	for s := range h.n {
		p.add(h.get(s))
	}
	*h = chainHeads{n: h.n, packed: true, heads: p}
}

// bytes returns the bytes of the blocks and the table.
func (h *chainHeads) bytes() int {
	if h.packed {
		return h.heads.r.bytes()
	}
	return (len(h.firsts.words.blocks)*8+len(h.samples.blocks)*4+len(h.multi.words.blocks)*8)*chunkLen + len(h.more.slots)*8
}

// headTable maps states to heads: open addressing, linear probing, a slot
// state+1 in its high 32 bits and the head in its low ones (0: empty).
type headTable struct {
	slots []uint64
	n     int
}

// slot returns the home slot of state s.
func (t *headTable) slot(s int32) uint64 {
	return uint64(uint32(s)*0x9e3779b1) * uint64(len(t.slots)) >> 32
}

// get returns the head of state s, which the table holds.
func (t *headTable) get(s int32) int32 {
	key := uint64(s+1) << 32
	for i := t.slot(s); ; i++ {
		if i == uint64(len(t.slots)) {
			i = 0
		}
		if e := t.slots[i]; e&^(1<<32-1) == key {
			return int32(uint32(e))
		}
	}
}

// put sets the head of state s to v.
func (t *headTable) put(s int32, v int32) {
	if (t.n+1)*4 > len(t.slots)*3 {
		old := t.slots
		t.slots = make([]uint64, max(1<<10, 2*len(old)))
		t.n = 0
		for _, e := range old {
			if e != 0 {
				t.put(int32(e>>32)-1, int32(uint32(e)))
			}
		}
	}
	key := uint64(s+1) << 32
	for i := t.slot(s); ; i++ {
		if i == uint64(len(t.slots)) {
			i = 0
		}
		switch e := t.slots[i]; {
		case e == 0:
			t.n++
			fallthrough
		case e&^(1<<32-1) == key:
			t.slots[i] = key | uint64(uint32(v))
			return
		}
	}
}
