package onthefly

import "bytes"

// succCache remembers where recent successors went: for the encoding of
// a successor as the stepper computes it (canonical for the heap, in its
// own thread order), the stored state that represents it and the
// permutation to that state. Canonicalising a successor under the symmetry
// reduction is the on-the-fly search's main cost, and about half of the
// successors computed are vectors computed before (benchmarks/RESULTS.md):
// the two orders of independent steps of two threads, met again one or two
// levels later. A hit gives exactly what
// canon and stabilizer would give, so the search stores and finds the
// same pairs; only successors whose representative is stored and whose
// stabiliser gives no alternative permutations are remembered.
//
// It is a direct-mapped table over a ring of encodings: a newer successor
// evicts the one in its slot, and the ring overwrites the oldest
// encodings (a slot whose bytes were overwritten is a miss). Keys are the
// whole encodings, compared byte for byte: a hit is never a guess.
type succCache struct {
	slots []cacheSlot
	ring  []byte
	pos   uint64 // bytes written into the ring so far
}

// cacheSlot is a remembered successor: its encoding at ring position at-1
// (0: empty), n bytes long, its hash, its representative's id and the
// permutation's id.
type cacheSlot struct {
	at   uint64
	hash uint32
	n    uint16
	perm permID
	to   int32
}

// Sizes of the cache: it starts small (a small search should not pay for
// clearing a large one) and grows with the states stored, up to
// maxCacheSlots slots and a ring of cacheRingPer bytes a slot (22 MiB).
// The successors it serves are met again a level or two later: at HP 3/3
// (21.8 M states, 64.9 M successors) 2^18 slots recognise 18.31 M of them,
// 2^19 slots 19.17 M for 23 MB more and 2^20 slots 20.13 M for 68 MB
// more: 2 % more canonicalisations at 2^18 than at 2^19, within the noise
// of the CPU time, for a byte a pair (benchmarks/RESULTS.md, "Bytes per
// state and per pair").
const (
	minCacheSlots = 1 << 10
	maxCacheSlots = 1 << 18
	cacheRingPer  = 64 // ring bytes per slot
)

func newSuccCache(slots int) *succCache {
	return &succCache{slots: make([]cacheSlot, slots), ring: make([]byte, slots*cacheRingPer)}
}

// fit makes the cache fit a search of states stored states, growing it
// if that is larger than it is, up to most slots.
func (c *succCache) fit(states, most int) *succCache {
	if states <= len(c.slots) || len(c.slots) >= most {
		return c
	}
	n := len(c.slots)
	for n < states && n < most {
		n *= 2
	}
	return newSuccCache(n)
}

// find returns the representative and permutation remembered for the
// encoding enc, whose hash is h.
func (c *succCache) find(enc []byte, h uint32) (to int32, perm permID, ok bool) {
	sl := &c.slots[h&uint32(len(c.slots)-1)]
	if sl.at == 0 || sl.hash != h || int(sl.n) != len(enc) {
		return 0, 0, false
	}
	at := sl.at - 1
	if c.pos-at > uint64(len(c.ring)) { // overwritten since
		return 0, 0, false
	}
	o := at % uint64(len(c.ring))
	if !bytes.Equal(c.ring[o:o+uint64(len(enc))], enc) {
		return 0, 0, false
	}
	return sl.to, sl.perm, true
}

// add remembers that the encoding enc, whose hash is h, goes to the stored
// state to by the permutation perm.
func (c *succCache) add(enc []byte, h uint32, to int32, perm permID) {
	size := uint64(len(c.ring))
	if uint64(len(enc)) > size/4 {
		return
	}
	o := c.pos % size
	if o+uint64(len(enc)) > size { // no record straddles the end of the ring
		c.pos += size - o
		o = 0
	}
	copy(c.ring[o:], enc)
	c.slots[h&uint32(len(c.slots)-1)] = cacheSlot{at: c.pos + 1, hash: h, n: uint16(len(enc)), perm: perm, to: to}
	c.pos += uint64(len(enc))
}

// succCaches are the parts of the search's cache of recent successors,
// one per expander: a successor's part is chosen by its hash, so that
// every expander looks up in all of them while the states of a batch are
// expanded (reading only), and then fills them each on a goroutine of its
// own (flySearch.remember). Together they are as large as one cache.
type succCaches []*succCache

func newSuccCaches(parts int) succCaches {
	c := make(succCaches, parts)
	for i := range c {
		c[i] = newSuccCache(minCacheSlots)
	}
	return c
}

// part returns the part of the successor whose hash is h: by its high
// bits, since its low ones choose its slot.
func (c succCaches) part(h uint32) int { return int(uint64(h) * uint64(len(c)) >> 32) }

// find is succCache.find in h's part.
func (c succCaches) find(enc []byte, h uint32) (to int32, perm permID, ok bool) {
	return c[c.part(h)].find(enc, h)
}

// fit grows the parts to fit a search of states stored states,
// maxCacheSlots slots in all at most.
func (c succCaches) fit(states int) {
	for i, part := range c {
		c[i] = part.fit(states/len(c), maxCacheSlots/len(c))
	}
}
