package semantics

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// StateSet stores canonical state encodings in an arena of byte chunks and
// finds them with an open-addressing (linear probing) hash table; no Go map
// and no per-state heap object. State ids are dense, in insertion order.
//
// Layout, chosen for cache behaviour: the exploration is dominated by
// lookups of successors, most of which are already present, and each
// lookup in a large set costs a cache miss in the table plus one to
// compare with the stored state. A table slot holds 32 bits of the hash
// next to the arena offset of its record (in 4-byte units: records are
// aligned), and a record holds the state's id and length in front of its
// bytes, so a lookup touches one table line and, only when the hash bits
// match, one arena line; there are no separate offset or length arrays.
// States are read back in id order, which is arena order, through a
// cursor (next). Growing the table walks the old one in order: with the
// hash bits in the slot, the writes into the new table are nearly
// sequential too.
//
// Concurrent lookups. One goroutine inserts; others may look states up at
// the same time (find), without locks: a slot is written atomically after
// its record, the table is replaced (grow) by publishing the new one
// atomically, and records never move. A lookup may miss a state inserted
// while it ran, or look in a table that has just been replaced, but a
// state it finds is there with that id: the inserting goroutine looks up
// again only what was not found.
//
// Concurrent inserts (claim), for the explorer: the goroutines that
// expand states add the successors they do not find themselves, each
// writing records into arena chunks of its own and taking a table slot
// with a compare-and-swap, so that one record wins for each state. Such a
// record is unnumbered at first; one goroutine numbers records afterwards
// (setID), in the order of the sequential search, so that ids stay
// breadth-first and deterministic while the probing and copying run on
// every core. A set is used through insert or through claim, not both.
type StateSet struct {
	// Records: id uint32, length uint16, encoding, padding to 4 bytes.
	// chunks[:nchunks] are in use, used[k] bytes of chunk k.
	Chunks  [maxChunks]*[chunkSize]byte
	Used    [maxChunks]int32         // bytes in use of each chunk
	Nchunks int                      // the chunks allocated
	Table   []uint64                 // hash<<32 | offset/4+1; 0 = empty
	Shared  atomic.Pointer[[]uint64] // the table published for concurrent readers (lookup)
	N       int                      // the states inserted (Len)
	Seed    maphash.Seed             // the seed of the states' hashes (Hash)
	Bytes   int64                    // the inserted states' encodings, in bytes
	// Reading cursor of next: chunk and offset of the next record.
	Rc, Ro int
	// LastRec is the offset in the last chunk of the record added last.
	LastRec int32
	// ChunkMu guards the allocation of chunks (nchunks).
	ChunkMu sync.Mutex
	// For claim: tableMu is held shared by the claiming goroutines and
	// exclusively to grow the table; claimed counts the records claimed
	// plus the slots reserved (reserve) and not yet released.
	TableMu sync.RWMutex
	Claimed atomic.Int64 // the records claimed plus the slots reserved and not yet released
}

const (
	chunkBits = 24
	chunkSize = 1 << chunkBits
	maxChunks = 1 << (32 + 2 - chunkBits) // offsets/4 fit in 32 bits: 16 GiB
	recHeader = 6                         // id uint32, length uint16
)

// NewStateSet returns an empty state set.
func NewStateSet() *StateSet {
	s := &StateSet{Table: make([]uint64, 1<<12), Seed: maphash.MakeSeed()}
	s.publish()
	return s
}

// publish makes the current table the one that find reads.
func (s *StateSet) publish() {
	t := s.Table
	s.Shared.Store(&t)
}

// Len returns the number of states inserted (by insert; claimed records
// are counted by their numbering).
func (s *StateSet) Len() int { return s.N }

// Hash returns the hash of an encoding: its low bits index the table.
func (s *StateSet) Hash(enc []byte) uint32 { return hashState(s.Seed, enc) }

// hashState is the hash of an encoding under a set's seed, for the
// goroutines that hash states without touching the set.
func hashState(seed maphash.Seed, enc []byte) uint32 { return uint32(maphash.Bytes(seed, enc)) }

// recLen is the size of a record with an encoding of n bytes.
func recLen(n int) int { return (recHeader + n + 3) &^ 3 }

// slotRef is what a table slot keeps of a record's arena offset:
// offset/4+1 in its low 32 bits (0 is an empty slot), so that 32 bits
// address the whole 16 GiB arena.
func slotRef(off uint64) uint64 { return off>>2 + 1 }

// RecordOffset is the arena offset of the record that slot e refers to.
// The arithmetic is 64-bit: offsets pass 4 GiB on large state spaces.
func RecordOffset(e uint64) uint64 { return uint64(uint32(e)-1) << 2 }

// record returns the id and encoding of the record of a table slot; the
// id is -1 while a claimed record is not numbered.
func (s *StateSet) record(e uint64) (int32, []byte) {
	return s.ID(uint32(e)), s.Encoding(RecordOffset(e))
}

// idField returns the id field of the record that a slot's low 32 bits
// (ref) refer to. Records are 4-byte aligned, so it can be accessed
// atomically: a claimed record is numbered while others read it.
func (s *StateSet) idField(ref uint32) *uint32 {
	off := RecordOffset(uint64(ref))
	return (*uint32)(unsafe.Pointer(&s.Chunks[off>>chunkBits][off&(chunkSize-1)]))
}

// ID returns the id of the record ref refers to, -1 if it is not numbered.
func (s *StateSet) ID(ref uint32) int32 { return int32(atomic.LoadUint32(s.idField(ref))) }

// SetID numbers the claimed record ref refers to.
func (s *StateSet) SetID(ref uint32, id int32) { atomic.StoreUint32(s.idField(ref), uint32(id)) }

// unnumbered is the id field of a claimed record before setID.
const unnumbered = ^uint32(0)

// next returns the arena offset of the state after the one it returned
// last (the first state on the first call): states are read back in id
// order. encoding gives the state's bytes.
func (s *StateSet) next() uint64 {
	if s.Ro == int(s.Used[s.Rc]) {
		s.Rc, s.Ro = s.Rc+1, 0
	}
	off := uint64(s.Rc)<<chunkBits | uint64(s.Ro)
	s.Ro += recLen(int(binary.LittleEndian.Uint16(s.Chunks[s.Rc][s.Ro+4:])))
	return off
}

// Encoding returns the encoding of the record at an arena offset that
// next returned. It may run while another goroutine inserts: records never
// move.
func (s *StateSet) Encoding(off uint64) []byte {
	c := s.Chunks[off>>chunkBits]
	o := off & (chunkSize - 1)
	n := uint64(binary.LittleEndian.Uint16(c[o+4:]))
	return c[o+recHeader : o+recHeader+n]
}

// Slot returns the table slot where a lookup of hash h starts. Claims
// may be under way (within reserve and release, which keep the table).
func (s *StateSet) Slot(h uint32) uint64 {
	return atomic.LoadUint64(&s.Table[uint64(h)&uint64(len(s.Table)-1)])
}

// Touch reads the head of the record that slot e, the first slot for hash
// h, points to if its hash bits match, and returns a value depending on it
// so that the read is not optimised away.
//
// Reading the first slots of all the successors of a state (slot), then
// touching their records, before looking any of them up lets the
// processor overlap the cache misses, which lookups one after another
// cannot do: each waits for the previous one's outcome, and a branch on a
// loaded value that is mispredicted discards the loads issued after it.
func (s *StateSet) Touch(e uint64, h uint32) uint64 {
	// Without branches: off is the record's offset if the slot is used and
	// its hash bits match, else 0, a record that is in the cache anyway.
	hashEq := (uint64(uint32(e>>32)^h) - 1) >> 63 // 1 if equal
	used := 1 - (uint64(uint32(e))-1)>>63         // 1 if e != 0
	off := RecordOffset(e) & -(hashEq & used)
	// The length field, in the record's line: the id may be being written
	// (setID), the length never changes.
	return uint64(s.Chunks[off>>chunkBits][off&(chunkSize-1)+4])
}

// lookup is a snapshot of a set for concurrent lookups (find): the table
// published when it was taken. Take a new one now and then to see the
// states inserted since. Only the tests look states up this way, to hold
// the set to what its concurrent insertions (Insert, Claim) promise: a
// published table is readable while another goroutine inserts.
type lookup struct {
	s     *StateSet
	table []uint64
}

// snapshot returns a lookup on the table published last.
func (s *StateSet) snapshot() lookup { return lookup{s, *s.Shared.Load()} }

// find returns the id of enc, whose hash is h, or -1 if it is not in the
// snapshot's table (yet). It may run while another goroutine inserts.
func (l lookup) find(enc []byte, h uint32) int32 {
	id, _ := l.findRef(enc, h)
	return id
}

// findRef is find that also returns the reference to the record found (0
// if none): a claimed record may be found before it is numbered (id -1).
func (l lookup) findRef(enc []byte, h uint32) (int32, uint32) {
	mask := uint64(len(l.table) - 1)
	for i := uint64(h) & mask; ; i = (i + 1) & mask {
		e := atomic.LoadUint64(&l.table[i])
		if e == 0 {
			return -1, 0
		}
		if uint32(e>>32) == h {
			if id, b := l.s.record(e); bytes.Equal(b, enc) {
				return id, uint32(e)
			}
		}
	}
}

// Insert adds enc, whose hash is h, if absent and returns its id and
// whether it is new.
func (s *StateSet) Insert(enc []byte, h uint32) (int32, bool) {
	// Grow at a load of 3/4: a table twice as large costs a grow, whose
	// writes and fresh pages are a good part of the inserting goroutine's
	// time, and memory, and saves less in probes than it costs (a slot
	// keeps 32 hash bits, and the next slots are in the same cache line).
	if (s.N+1)*4 > len(s.Table)*3 {
		s.grow()
	}
	mask := uint64(len(s.Table) - 1)
	for i := uint64(h) & mask; ; i = (i + 1) & mask {
		e := s.Table[i]
		if e == 0 {
			id := int32(s.N)
			atomic.StoreUint64(&s.Table[i], uint64(h)<<32|slotRef(s.add(id, enc)))
			return id, true
		}
		if uint32(e>>32) == h {
			if id, b := s.record(e); bytes.Equal(b, enc) {
				return id, false
			}
		}
	}
}

// LastOffset returns the arena offset of the record added last (by
// insert), for a caller that reads states back by id rather than in order.
func (s *StateSet) LastOffset() uint64 {
	k := s.Nchunks - 1
	return uint64(k)<<chunkBits | uint64(s.LastRec)
}

// add appends a record and returns its offset.
func (s *StateSet) add(id int32, enc []byte) uint64 {
	k := s.Nchunks
	size := recLen(len(enc))
	if k == 0 || int(s.Used[k-1])+size > chunkSize {
		k = s.allocChunk() + 1
	}
	c := s.Chunks[k-1]
	o := s.Used[k-1]
	off := uint64(k-1)<<chunkBits | uint64(o)
	binary.LittleEndian.PutUint32(c[o:], uint32(id))
	binary.LittleEndian.PutUint16(c[o+4:], uint16(len(enc)))
	copy(c[o+recHeader:], enc) // the padding is zero already
	s.Used[k-1] = o + int32(size)
	s.LastRec = o
	s.N++
	s.Bytes += int64(len(enc))
	return off
}

// allocChunk adds an arena chunk and returns its index.
func (s *StateSet) allocChunk() int {
	s.ChunkMu.Lock()
	defer s.ChunkMu.Unlock()
	k := s.Nchunks
	if k == maxChunks {
		panic("state arena full (16 GiB)") // beyond the state limit
	}
	s.Chunks[k] = new([chunkSize]byte)
	s.Nchunks++
	return k
}

// ArenaCursor is where a claiming goroutine writes its next record: in a
// chunk of its own (none yet when c is nil).
type ArenaCursor struct {
	chunk *[chunkSize]byte
	Kind  int   // c's index in the set's chunks
	off   int32 // offset of the next record in c
}

// Reserve holds the table for up to k claims, growing it first if k more
// records would take it past its load of 3/4. The caller claims, then
// calls release.
func (s *StateSet) Reserve(k int) {
	for {
		s.TableMu.RLock()
		if n := s.Claimed.Add(int64(k)); n*4 <= int64(len(s.Table))*3 {
			return
		}
		s.Claimed.Add(-int64(k))
		s.TableMu.RUnlock()
		s.TableMu.Lock()
		// No claims are under way: claimed counts the records.
		for (s.Claimed.Load()+int64(k))*4 > int64(len(s.Table))*3 {
			s.grow()
		}
		s.TableMu.Unlock()
	}
}

// Release ends the claims of a reserve for k, of which added added a
// record.
func (s *StateSet) Release(k, added int) {
	s.Claimed.Add(int64(added - k))
	s.TableMu.RUnlock()
}

// Claim adds enc, whose hash is h, unnumbered, unless it is in the table,
// and returns the id of its record (-1 if unnumbered), the reference to
// the record (what a slot keeps of it) and whether it added it; a's chunk
// receives the record. Several goroutines may claim at once, within
// reserve and release, and others find.
func (s *StateSet) Claim(enc []byte, h uint32, a *ArenaCursor) (int32, uint32, bool) {
	t := s.Table // not replaced before release
	mask := uint64(len(t) - 1)
	var ref uint64 // the record written at a, not yet published
	for i := uint64(h) & mask; ; i = (i + 1) & mask {
		e := atomic.LoadUint64(&t[i])
		if e == 0 {
			if ref == 0 {
				ref = slotRef(s.stage(a, enc))
			}
			if atomic.CompareAndSwapUint64(&t[i], 0, uint64(h)<<32|ref) {
				a.off += int32(recLen(len(enc)))
				return -1, uint32(ref), true
			}
			// Another goroutine took the slot: it may hold enc. The
			// record written stays unused at a, to be overwritten.
			e = atomic.LoadUint64(&t[i])
		}
		if uint32(e>>32) == h {
			if id, b := s.record(e); bytes.Equal(b, enc) {
				return id, uint32(e), false
			}
		}
	}
}

// stage writes an unnumbered record of enc at a, starting a chunk if the
// current one is full, and returns its arena offset; a is advanced only
// when the record is published.
func (s *StateSet) stage(a *ArenaCursor, enc []byte) uint64 {
	size := recLen(len(enc))
	if a.chunk == nil || int(a.off)+size > chunkSize {
		a.Kind = s.allocChunk()
		a.chunk, a.off = s.Chunks[a.Kind], 0
	}
	c, o := a.chunk, a.off
	binary.LittleEndian.PutUint32(c[o:], unnumbered)
	binary.LittleEndian.PutUint16(c[o+4:], uint16(len(enc)))
	copy(c[o+recHeader:], enc) // the padding is not read
	return uint64(a.Kind)<<chunkBits | uint64(o)
}

// grow doubles the table and publishes the new one.
func (s *StateSet) grow() {
	old := s.Table
	s.Table = make([]uint64, 2*len(old))
	mask := uint64(len(s.Table) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := e >> 32 & mask
		for s.Table[i] != 0 {
			i = (i + 1) & mask
		}
		s.Table[i] = e
	}
	s.publish()
}

// Encode appends st to dst as zigzag varints (see encodeTo).
func Encode(dst []byte, st []int32) []byte {
	dst = slices.Grow(dst, maxEncoding(len(st)))
	return dst[:len(dst)+encodeTo(dst[len(dst):cap(dst)], st)]
}

// maxEncoding is the longest encoding of n values.
func maxEncoding(n int) int { return 5 * n }

// encodeTo writes st to b, which has room for maxEncoding(len(st)) bytes,
// as zigzag varints, and returns the number of bytes written: small values
// take one byte. Runs of values in [0, 64), the common case, are coded
// many at a time by packSmallPrefix; the others one by one.
func encodeTo(b []byte, st []int32) int {
	b = b[:maxEncoding(len(st))]
	i := 0
	for {
		k := packSmallPrefix(b[i:], st)
		i += k
		if k == len(st) { // before reslicing: the common case, all small
			return i
		}
		// The 64-bit zigzag varint of an int32 is its 32-bit one.
		i += binary.PutVarint(b[i:], int64(st[k]))
		st = st[k+1:]
	}
}

// Decode appends the values encoded in b to dst (see decodeTo).
func Decode(dst []int32, b []byte) []int32 {
	dst = slices.Grow(dst, len(b))
	return dst[:len(dst)+DecodeTo(dst[len(dst):cap(dst)], b)]
}

// DecodeTo writes the values encoded in b to out, which has room for
// len(b) values (a value takes at least a byte), and returns their number.
// Runs of one-byte codes of values in [0, 64) are decoded many at a time
// by unpackSmallPrefix.
func DecodeTo(out []int32, b []byte) int {
	out = out[:len(b)]
	k := 0 // values decoded; the codes of k values take at least k bytes
	for {
		m := unpackSmallPrefix(out[k:], b)
		k += m
		if b = b[m:]; len(b) == 0 {
			return k
		}
		v, m := binary.Varint(b) // the encodings are ours: never malformed
		out[k] = int32(v)
		k++
		b = b[m:]
	}
}
