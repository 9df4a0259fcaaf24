package onthefly

import (
	"hash/maphash"
	"slices"
	"unsafe"

	"github.com/linbis/linbis/frontend/ir"
)

// stateStore holds the implementation states of the on-the-fly search by
// their parts. A state vector is the shared variables, each thread's slots
// and the heap (ir.Layout), and few distinct values of each part recur
// across millions of states: the idle threads' locals, the same few heaps.
// Each distinct part is stored once, as its int32s (partVals), found
// through a table of parts; a state is the tuple of its parts' ids, its
// root, of a fixed size k (threads + 2), found through an open-addressing
// table of its own. Its id is its root's index, dense in insertion order,
// and it costs 4k bytes and a table slot, with no header and no offset.
//
// This is the recursive state compression of Laarman, van de Pol and Weber
// ("Parallel recursive state compression for free", SPIN 2011) cut at one
// level, at the layout's seams rather than by halving the vector: their
// binary tree of pairs stores the parts' tuples as pairs of pairs, and on
// the HP stack the node under the root, the threads' tuple, is new with
// nearly every state, so that the inner nodes would cost about as much as
// the tuple saves (benchmarks/RESULTS.md, "Bytes per state and per pair
// on the fly").
//
// A lookup, the search's most frequent operation (most successors are
// stored already), hashes the whole vector and compares it part by part
// with the roots whose slots hold the same hash bits, reading the parts
// in place: it looks no part up. Only a new state's parts are looked up,
// and added if new, when it is inserted.
type stateStore struct {
	bounds []int32 // the parts' first slots (the heap's runs to the vector's end)
	// Part p's values are partVals' list at partAt[p], partLen[p] long;
	// partTable finds them (hash<<32 | p+1; 0 is an empty slot).
	partVals  lists
	partAt    []uint32
	partLen   []uint16
	partTable []uint64
	// roots[s>>rootBits][(s&rootMask)*k:][:k] are state s's part ids.
	roots [][]uint32
	k     int
	n     int
	table []uint64 // hash<<32 | id+1; 0 is an empty slot
	seed  maphash.Seed
	ids   []uint32 // the part ids of the state inserted last
}

// Roots are kept in fixed blocks of 1<<rootBits states (see chunked).
const (
	rootBits = 16
	rootMask = 1<<rootBits - 1
)

func newStateStore(l *ir.Layout) *stateStore {
	s := &stateStore{table: make([]uint64, 1<<10), partTable: make([]uint64, 1<<8), seed: maphash.MakeSeed()}
	s.bounds = append(s.bounds, 0)
	for t := range int(l.Threads) {
		s.bounds = append(s.bounds, l.ThreadBase(t))
	}
	s.bounds = append(s.bounds, l.HeapBase)
	s.k = len(s.bounds)
	s.ids = make([]uint32, s.k)
	return s
}

// len returns the number of states stored.
func (s *stateStore) len() int { return s.n }

// part returns part i of v.
func (s *stateStore) part(v []int32, i int) []int32 {
	if i+1 < s.k {
		return v[s.bounds[i]:s.bounds[i+1]]
	}
	return v[s.bounds[i]:]
}

// asBytes returns the bytes of v, in place.
func asBytes(v []int32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
}

// root returns the part ids of state id.
func (s *stateStore) root(id int32) []uint32 {
	o := int(id&rootMask) * s.k
	return s.roots[id>>rootBits][o : o+s.k]
}

// hash returns the hash of vector v.
func (s *stateStore) hash(v []int32) uint32 { return uint32(maphash.Bytes(s.seed, asBytes(v))) }

// partOf returns the values of part p.
func (s *stateStore) partOf(p uint32) []int32 {
	return s.partVals.list(int(s.partAt[p]), int(s.partLen[p]))
}

// is reports whether state id is vector v.
func (s *stateStore) is(id int32, v []int32) bool {
	for i, p := range s.root(id) {
		if !slices.Equal(s.partOf(p), s.part(v, i)) {
			return false
		}
	}
	return true
}

// partID returns the id of part values w, adding them if new.
func (s *stateStore) partID(w []int32) uint32 {
	h := s.hash(w)
	mask := uint64(len(s.partTable) - 1)
	i := uint64(h) & mask
	for ; s.partTable[i] != 0; i = (i + 1) & mask {
		if e := s.partTable[i]; uint32(e>>32) == h && slices.Equal(s.partOf(uint32(e)-1), w) {
			return uint32(e) - 1
		}
	}
	p := uint32(len(s.partAt))
	list, at := s.partVals.alloc(len(w))
	copy(list, w)
	s.partAt, s.partLen = append(s.partAt, uint32(at)), append(s.partLen, uint16(len(w)))
	s.partTable[i] = uint64(h)<<32 | uint64(p) + 1
	if len(s.partAt)*4 > len(s.partTable)*3 {
		s.partTable = regrow(s.partTable)
	}
	return p
}

// probe returns the table slot of vector v, whose hash is h, and its
// state's id, or the empty slot where it would go and -1.
func (s *stateStore) probe(v []int32, h uint32) (uint64, int32) {
	mask := uint64(len(s.table) - 1)
	for i := uint64(h) & mask; ; i = (i + 1) & mask {
		e := s.table[i]
		if e == 0 {
			return i, -1
		}
		if uint32(e>>32) == h {
			if id := int32(uint32(e) - 1); s.is(id, v) {
				return i, id
			}
		}
	}
}

// find returns the id of state v, whose hash is h, -1 if it is not
// stored.
func (s *stateStore) find(v []int32, h uint32) int32 {
	_, id := s.probe(v, h)
	return id
}

// insert returns the id of state v, whose hash is h, adding it if new.
func (s *stateStore) insert(v []int32, h uint32) (int32, bool) {
	i, id := s.probe(v, h)
	if id >= 0 {
		return id, false
	}
	if (s.n+1)*4 > len(s.table)*3 {
		s.table = regrow(s.table)
		i, _ = s.probe(v, h)
	}
	for k := range s.k {
		// Successors of one state, inserted one after another, share
		// most parts: compare with the state inserted last before hashing.
		if w := s.part(v, k); s.n == 0 || !slices.Equal(s.partOf(s.ids[k]), w) {
			s.ids[k] = s.partID(w)
		}
	}
	id = int32(s.n)
	if id&rootMask == 0 {
		s.roots = append(s.roots, make([]uint32, (rootMask+1)*s.k))
	}
	copy(s.root(id), s.ids)
	s.table[i] = uint64(h)<<32 | uint64(id) + 1
	s.n++
	return id, true
}

// regrow returns a table twice as large with the slots of old, whose
// hashes are their high 32 bits.
func regrow(old []uint64) []uint64 {
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
	for _, p := range s.root(id) {
		dst = append(dst, s.partOf(p)...)
	}
	return dst
}
