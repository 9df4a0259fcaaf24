package onthefly

import (
	"context"
	"encoding/binary"
	mbits "math/bits"
	"slices"
	"unsafe"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/internal/limits"
)

// stateStore holds the implementation states of the on-the-fly search by
// their parts. A state vector is the shared variables, each thread's slots
// and the heap (ir.Layout), and few distinct values of each part recur
// across millions of states: the idle threads' locals, the same few heaps.
// Each distinct part is stored once, as its int32s (partVals), found
// through a table of parts of its kind (shared, a thread's, heap), which
// numbers them: a state is the tuple of its parts' ids, its root, of a
// fixed size k (threads + 2), found through an open-addressing table of
// its own. Its id is its root's index, dense in insertion order, and it
// costs k ids, each of as many bits as the count of its kind's parts
// needs (roots.go), and a table slot, with no header and no offset. The
// kinds are numbered apart because their counts differ by orders of
// magnitude: at HP 3/2, 4 178 shared parts, 157 threads' and 97 heaps'.
//
// This is the recursive state compression of Laarman, van de Pol and Weber
// ("Parallel recursive state compression for free", SPIN 2011) cut at one
// level, at the layout's seams rather than by halving the vector: their
// binary tree of pairs stores the parts' tuples as pairs of pairs, and on
// the HP stack the node under the root, the threads' tuple, is new with
// nearly every state, so that the inner nodes would cost about as much as
// the tuple saves (benchmarks/RESULTS.md, `verify --method fly`, "Bytes
// per state and per pair").
//
// A lookup, the search's most frequent operation (most successors are
// stored already), hashes the vector (its parts' hashes combined, hash)
// and compares it part by part with the roots whose slots hold the same
// hash bits, reading the parts in place: it looks no part up. Only a new
// state's parts are looked up, and added if new, when it is inserted.
//
// hash, find, vector and len only read, so any number of goroutines may
// call them at once; insert writes (it may move the table and a block of
// roots), so it must not run beside any of them.
type stateStore struct {
	bounds []int32 // the parts' first slots (the heap's runs to the vector's end)
	// The parts' values are partVals' lists; kinds[kind(i)] numbers and
	// finds the parts at position i of a tuple.
	partVals lists
	kinds    [3]partKind
	// roots holds each state's part ids, k of them (roots.go).
	roots *roots
	k     int
	// table finds the states: a slot holds a state's id+1 in its low
	// idBits bits (enough for any id the table can take, limit) and the
	// high bits of its hash's upper half in the others (a tag, which
	// spares most comparisons); 0 is an empty slot. A state's slot is
	// found by probing linearly from its home slot, its hash's low half
	// scaled to the table's size (Lemire's multiply-shift reduction), so
	// that the tag and the home slot use different bits of the hash and
	// the table need not have a power of two slots: it grows by a
	// quarter, not by doubling, so that it is between 60 and 75 % full
	// (between 37.5 and 75 % when it doubled), which makes 4 bytes a slot
	// 5.3 to 6.7 a state (5.3 to 10.7). The slot holds neither the whole
	// hash nor the home slot: a growth finds every state's hash again
	// from its parts' (grow), which costs a fraction of hashing its
	// vector, so that the growths by a quarter cost less than the
	// doublings did. The slots are in segments of tableSegLen (slotTable),
	// reused by the growth: the table grows by new segments and leaves no
	// old table behind as garbage (a growth by a quarter would leave four
	// times the table's bytes, which the collector frees only when the
	// heap has doubled).
	table  slotTable
	limit  int // the states the table takes before it grows (tableLoad)
	idBits uint
	ids    []uint32 // the part ids of the state inserted last
	// blockIDs is grow's buffer: a block's tuples, kept from one growth
	// to the next (a block of them each time would be garbage).
	blockIDs []uint32
}

func newStateStore(l *ir.Layout) *stateStore {
	s := &stateStore{}
	s.resize(1 << 10)
	for i := range s.kinds {
		s.kinds[i].table = make([]uint64, 1<<8)
	}
	s.bounds = append(s.bounds, 0)
	for t := range int(l.Threads) {
		s.bounds = append(s.bounds, l.ThreadBase(t))
	}
	s.bounds = append(s.bounds, l.HeapBase)
	s.k = len(s.bounds)
	s.ids = make([]uint32, s.k)
	s.roots = newRoots(s.k)
	return s
}

// len returns the number of states stored.
func (s *stateStore) len() int { return s.roots.n }

// part returns part i of v.
func (s *stateStore) part(v []int32, i int) []int32 {
	if i+1 < s.k {
		return v[s.bounds[i]:s.bounds[i+1]]
	}
	return v[s.bounds[i]:]
}

// hash returns the hash of vector v: its parts' hashes combined in
// order, so that grow finds a state's hash from the hashes of its parts,
// kept (partKind.hash), without building its vector.
func (s *stateStore) hash(v []int32) uint64 {
	var h uint64
	at := int32(0)
	for _, end := range s.bounds[1:] {
		h = h*hashMul + partHash(v[at:end])
		at = end
	}
	return h*hashMul + partHash(v[at:])
}

// hashMul combines the parts' hashes (hash): odd, so that each part's
// hash reaches every bit above its lowest set one.
const hashMul = 0x9e3779b97f4a7c15

// partHash returns the hash of part values w: wyhash's multiply-mix
// (Wang Yi), a 128-bit multiplication folded to 64 bits for each 16 bytes
// but the last 1 to 16, which are read as two words, overlapping if need
// be, and mixed with the length by a last multiplication: hash/maphash
// costs more than that on short parts, and a vector has k of them
// (Treiber 6/1's, 8). Its low bits, which place the part (partID) and the
// state (hash), depend on every bit of every value.
func partHash(w []int32) uint64 {
	b := asBytes(w)
	x, y := uint64(len(b))^hashSecret0, uint64(hashSecret1)
	for ; len(b) > 16; b = b[16:] {
		y = mum(binary.LittleEndian.Uint64(b)^hashSecret1, binary.LittleEndian.Uint64(b[8:])^y)
	}
	switch n := len(b); {
	case n >= 8:
		x ^= binary.LittleEndian.Uint64(b)
		y ^= binary.LittleEndian.Uint64(b[n-8:])
	case n == 4:
		x ^= uint64(binary.LittleEndian.Uint32(b))
	}
	return mum(x^hashSecret2, y^hashSecret3)
}

// wyhash's secrets.
const (
	hashSecret0 = 0xa0761d6478bd642f
	hashSecret1 = 0xe7037ed1a0b428db
	hashSecret2 = 0x8ebc6af09c88c6e3
	hashSecret3 = 0x589965cc75374cc3
)

// mum returns the 128-bit product of a and b folded to 64 bits.
func mum(a, b uint64) uint64 {
	hi, lo := mbits.Mul64(a, b)
	return hi ^ lo
}

// asBytes returns the bytes of v, in place.
func asBytes(v []int32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
}

// partKind numbers the parts of a kind: part p's values are partVals'
// list at at[p], len[p] long, and hash[p] is their hash (partHash); table
// finds them (hash<<32 | p+1; 0 is an empty slot).
type partKind struct {
	at    []uint32
	len   []uint16
	hash  []uint64
	table []uint64
}

// kind returns the kind of the parts at position i of a tuple: 0 for the
// shared variables, 1 for a thread's slots, 2 for the heap.
func (s *stateStore) kind(i int) *partKind {
	switch i {
	case 0:
		return &s.kinds[0]
	case s.k - 1:
		return &s.kinds[2]
	}
	return &s.kinds[1]
}

// parts returns the number of parts stored.
func (s *stateStore) parts() int {
	return len(s.kinds[0].at) + len(s.kinds[1].at) + len(s.kinds[2].at)
}

// partOf returns the values of part p of kind c.
func (s *stateStore) partOf(c *partKind, p uint32) []int32 {
	return s.partVals.list(int(c.at[p]), int(c.len[p]))
}

// is reports whether state id is vector v.
func (s *stateStore) is(id int32, v []int32) bool {
	t := s.roots.tuple(id)
	for i := range s.k {
		if !slices.Equal(s.partOf(s.kind(i), t.id(i)), s.part(v, i)) {
			return false
		}
	}
	return true
}

// partID returns the id of part values w of kind c, adding them if new.
func (s *stateStore) partID(c *partKind, w []int32) uint32 {
	g := partHash(w)
	h := uint32(g)
	mask := uint64(len(c.table) - 1)
	i := uint64(h) & mask
	for ; c.table[i] != 0; i = (i + 1) & mask {
		if e := c.table[i]; uint32(e>>32) == h && slices.Equal(s.partOf(c, uint32(e)-1), w) {
			return uint32(e) - 1
		}
	}
	p := uint32(len(c.at))
	list, at := s.partVals.alloc(len(w))
	copy(list, w)
	c.at, c.len, c.hash = append(c.at, uint32(at)), append(c.len, uint16(len(w))), append(c.hash, g)
	c.table[i] = uint64(h)<<32 | uint64(p) + 1
	if len(c.at)*4 > len(c.table)*3 {
		c.table = regrowParts(c.table)
	}
	return p
}

// The table is at most tableLoadNum/tableLoadDen full, and grows by
// 1/tableGrowth of its slots.
const (
	tableLoadNum, tableLoadDen = 3, 4
	tableGrowth                = 4
)

// resize gives the store an empty table of at least n slots.
func (s *stateStore) resize(n int) {
	s.table.resize(n)
	s.limit = s.table.n * tableLoadNum / tableLoadDen
	s.idBits = uint(mbits.Len(uint(s.limit)))
}

// home returns the slot where the probe for hash h starts.
func (s *stateStore) home(h uint64) uint64 { return uint64(uint32(h)) * uint64(s.table.n) >> 32 }

// slotTable is the table's slots, n of them, in segments of tableSegLen
// (one shorter segment while n is below it).
type slotTable struct {
	segs [][]uint32
	n    int
}

const (
	tableSegBits = 16
	tableSegLen  = 1 << tableSegBits
)

// at returns slot i.
func (t *slotTable) at(i uint64) *uint32 { return &t.segs[i>>tableSegBits][i&(tableSegLen-1)] }

// resize empties the table and gives it at least n slots: a multiple of
// tableSegLen past it, the segments it has kept and cleared.
func (t *slotTable) resize(n int) {
	if n <= tableSegLen {
		t.segs, t.n = [][]uint32{make([]uint32, n)}, n
		return
	}
	n = (n + tableSegLen - 1) &^ (tableSegLen - 1)
	if len(t.segs[0]) < tableSegLen {
		t.segs = t.segs[:0]
	}
	for _, seg := range t.segs {
		clear(seg)
	}
	for len(t.segs)*tableSegLen < n {
		t.segs = append(t.segs, make([]uint32, tableSegLen))
	}
	t.n = n
}

// tag returns the bits of hash h that a slot keeps beside an id.
func (s *stateStore) tag(h uint64) uint32 { return uint32(h>>32) >> s.idBits << s.idBits }

// probe returns the table slot of vector v, whose hash is h, and its
// state's id, or the empty slot where it would go and -1.
func (s *stateStore) probe(v []int32, h uint64) (uint64, int32) {
	tag, idMask := s.tag(h), uint32(1)<<s.idBits-1
	for i := s.home(h); ; i++ {
		if i == uint64(s.table.n) {
			i = 0
		}
		e := *s.table.at(i)
		if e == 0 {
			return i, -1
		}
		if e&^idMask == tag {
			if id := int32(e&idMask - 1); s.is(id, v) {
				return i, id
			}
		}
	}
}

// find returns the id of state v, whose hash is h, -1 if it is not
// stored.
func (s *stateStore) find(v []int32, h uint64) int32 {
	_, id := s.probe(v, h)
	return id
}

// insert returns the id of state v, whose hash is h, adding it if new.
func (s *stateStore) insert(v []int32, h uint64) (int32, bool) {
	i, id := s.probe(v, h)
	if id >= 0 {
		return id, false
	}
	if s.len()+1 > s.limit {
		s.grow(nil)
		i, _ = s.probe(v, h)
	}
	for k := range s.k {
		// Successors of one state, inserted one after another, share
		// most parts: compare with the state inserted last before hashing.
		if w := s.part(v, k); s.len() == 0 || !slices.Equal(s.partOf(s.kind(k), s.ids[k]), w) {
			s.ids[k] = s.partID(s.kind(k), w)
		}
	}
	id = s.roots.add(s.ids)
	*s.table.at(i) = s.tag(h) | uint32(id+1)
	return id, true
}

// reserve grows the table, if need be, so that n more states can be
// inserted without growing it. The growth polls ctx (see grow): a search
// calls it where it can stop, before it inserts a state's successors.
func (s *stateStore) reserve(ctx context.Context, n int) error {
	for s.len()+n > s.limit {
		if err := s.grow(ctx); err != nil {
			return err
		}
	}
	return nil
}

// grow makes the table 1/tableGrowth larger, and puts every state in it
// again from its hash, combined from its parts' (hash), in the order of
// the ids. It polls ctx (nil: never) before it starts, and returns its
// error with the store as it was; once begun, it runs to its end (a few
// seconds of CPU time at a hundred million states), since the new table
// takes the old one's slots: a stop halfway would leave the store unfit
// for the replay of a violation found before the stop.
func (s *stateStore) grow(ctx context.Context) error {
	if err := limits.Err(ctx); err != nil {
		return err
	}
	s.resize(s.table.n + s.table.n/tableGrowth)
	// hashes[i] are the hashes of the parts at position i of a tuple.
	hashes := make([][]uint64, s.k)
	for i := range hashes {
		hashes[i] = s.kind(i).hash
	}
	id := uint32(0)
	for b := range s.roots.blocks {
		s.blockIDs = s.roots.block(s.blockIDs, b)
		for t := s.blockIDs; len(t) > 0; t = t[s.k:] {
			var h uint64
			for i, hs := range hashes {
				h = h*hashMul + hs[t[i]]
			}
			i := s.home(h)
			for *s.table.at(i) != 0 {
				if i++; i == uint64(s.table.n) {
					i = 0
				}
			}
			id++
			*s.table.at(i) = s.tag(h) | id
		}
	}
	return nil
}

// regrowParts returns a table of parts twice as large with the slots of
// old, whose hashes are their high 32 bits.
func regrowParts(old []uint64) []uint64 {
	table := make([]uint64, 2*len(old))
	mask := uint64(len(table) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := e >> 32 & mask
		for table[i] != 0 {
			i = (i + 1) & mask
		}
		table[i] = e
	}
	return table
}

// vector appends the vector of state id to dst.
func (s *stateStore) vector(dst []int32, id int32) []int32 {
	t := s.roots.tuple(id)
	for i := range s.k {
		dst = append(dst, s.partOf(s.kind(i), t.id(i))...)
	}
	return dst
}
