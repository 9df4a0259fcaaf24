package explore

import (
	"bytes"
	"hash/maphash"
)

// stateSet stores canonical state encodings in an arena of byte chunks and
// finds them with an open-addressing hash table of (hash, id) words; no Go
// map and no per-state heap object. State ids are dense, in insertion order.
type stateSet struct {
	chunks [][]byte
	pos    []uint64 // chunk<<32 | offset
	lens   []uint16
	table  []uint64 // hash<<32 | id+1; 0 = empty
	seed   maphash.Seed
	bytes  int64
}

const chunkSize = 1 << 24

func newStateSet() *stateSet {
	return &stateSet{table: make([]uint64, 1<<12), seed: maphash.MakeSeed()}
}

func (s *stateSet) len() int { return len(s.lens) }

func (s *stateSet) get(id int32) []byte {
	p := s.pos[id]
	off := uint32(p)
	return s.chunks[p>>32][off : off+uint32(s.lens[id])]
}

// insert adds enc if absent and returns its id and whether it is new.
func (s *stateSet) insert(enc []byte) (int32, bool) {
	if (len(s.lens)+1)*2 > len(s.table) {
		s.grow()
	}
	h := uint32(maphash.Bytes(s.seed, enc))
	mask := uint32(len(s.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := s.table[i]
		if e == 0 {
			id := int32(len(s.lens))
			s.table[i] = uint64(h)<<32 | uint64(id+1)
			s.add(enc)
			return id, true
		}
		if uint32(e>>32) == h {
			id := int32(uint32(e)) - 1
			if bytes.Equal(s.get(id), enc) {
				return id, false
			}
		}
	}
}

func (s *stateSet) add(enc []byte) {
	n := len(s.chunks)
	if n == 0 || len(s.chunks[n-1])+len(enc) > chunkSize {
		s.chunks = append(s.chunks, make([]byte, 0, chunkSize))
		n++
	}
	c := s.chunks[n-1]
	s.pos = append(s.pos, uint64(n-1)<<32|uint64(len(c)))
	s.lens = append(s.lens, uint16(len(enc)))
	s.chunks[n-1] = append(c, enc...)
	s.bytes += int64(len(enc))
}

func (s *stateSet) grow() {
	old := s.table
	s.table = make([]uint64, 2*len(old))
	mask := uint32(len(s.table) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := uint32(e>>32) & mask
		for s.table[i] != 0 {
			i = (i + 1) & mask
		}
		s.table[i] = e
	}
}

// encode appends st to dst as zigzag varints: small values take one byte.
func encode(dst []byte, st []int32) []byte {
	for _, v := range st {
		u := uint32(v<<1) ^ uint32(v>>31)
		for u >= 0x80 {
			dst = append(dst, byte(u)|0x80)
			u >>= 7
		}
		dst = append(dst, byte(u))
	}
	return dst
}

// decode appends the values encoded in b to dst.
func decode(dst []int32, b []byte) []int32 {
	var u uint32
	var shift uint
	for _, c := range b {
		u |= uint32(c&0x7f) << shift
		if c < 0x80 {
			dst = append(dst, int32(u>>1)^-int32(u&1))
			u, shift = 0, 0
		} else {
			shift += 7
		}
	}
	return dst
}
