package lts

import (
	"encoding/binary"
	"math/bits"
)

// quickLines reads canonical transition lines (those quickLine reads) at
// the start of data, at most max of them, into b, and returns the bytes
// and the lines it took; it stops at the first line that quickLine does
// not read whole from data, which the caller reads line by line, as it
// reads the rest of the buffer.
//
// On a file of millions of lines this is most of the reader's time. Most
// lines are read by bulkLines, whose loop has no call, so that Go keeps
// its variables in registers; it stops at any line it is not sure of,
// which is read here by quickLine, a label not in bulkLines' cache among
// them: its id is then cached.
func (p *autParser) quickLines(b *Builder, data []byte, nstates, max int64) (used int, lines int64) {
	for lines < max {
		room := b.room(max - lines)
		if room == 0 {
			break
		}
		w := len(b.src)
		src, lab, dst := b.src[w:w+room], b.lab[w:w+room], b.dst[w:w+room]
		end := 0
		for end < room {
			n, e := bulkLines(data[used:], src, lab, dst, end, uint64(nstates), &p.labels)
			used, end = used+n, e
			if end == room {
				break
			}
			s, label, d, name, n, ok := p.quickLine(b, data[used:], nstates)
			if !ok {
				break
			}
			p.labels.add(name, label)
			src[end], lab[end], dst[end] = s, label, d
			used += n
			end++
		}
		b.src, b.lab, b.dst = b.src[:w+end], b.lab[:w+end], b.dst[:w+end]
		lines += int64(end)
		if end < room {
			break
		}
	}
	return used, lines
}

// bulkLines reads the canonical lines at the start of data into
// src[end:], lab[end:] and dst[end:] until they are full, as quickLine
// would, and returns the bytes read and the new end. It stops, without
// reading it, at a line whose label is not "tau" or in the cache, that
// has a number of more than seven digits or another shape, or that
// starts within window bytes of the end of data: quickLine reads that
// one, or does not.
//
// Each line is read in a window of the next 64 bytes, which holds all of
// a line that this loop reads (at most 37 bytes); the indices into it are
// masked to the window's size, which changes none (each is below the
// mask, as the comments say), so that Go checks no bounds. Each number is
// read by one 8-byte load (swarNumber), and so is each half of a label of
// up to 15 bytes, which is found in the cache by a hash of the two words;
// "tau", most labels of a model checker's LTS, by one 4-byte comparison.
func bulkLines(data []byte, src, lab, dst []int32, end int, nstates uint64, cache *labelCache) (i, newEnd int) {
	lab, dst = lab[:len(src)], dst[:len(src)] // one length, one test below
	for end < len(src) && i+window <= len(data) {
		h := (*[window]byte)(data[i : i+window])
		if h[0] != '(' {
			break
		}
		s, n := swarNumber(binary.LittleEndian.Uint64(h[1:9]))
		if uint(n-1) >= 7 || s >= nstates { // n is 1 to 7
			break
		}
		// Stored now, so that s needs no register the rest of the way;
		// a line that fails below is not counted, and its entries are
		// overwritten or cut off.
		src[end] = int32(s)
		open := (n + 3) & 15 // the label's first byte, after `,"`: n+3 <= 10
		if h[(open-2)&15] != ',' || h[(open-1)&15] != '"' {
			break
		}
		w0 := binary.LittleEndian.Uint64(h[open : open+8])
		var label int32
		q := open + 3 // the label's closing '"'
		if uint32(w0) != tauQuote {
			w1 := binary.LittleEndian.Uint64(h[open+8 : open+16])
			size := labelSize(w0, w1) & 15 // at most 15
			if size == 0 {
				break
			}
			w0 &= lowBytes(min(size, 8))
			w1 &= lowBytes(max(size-8, 0))
			e := cache.slot(w0, w1, size)
			if e.size != int32(size) || e.w0 != w0 || e.w1 != w1 {
				break
			}
			label = e.id
			q = open + size
		}
		lab[end] = label
		q &= 31 // open+15 <= 25
		if h[q+1] != ',' {
			break
		}
		d, n := swarNumber(binary.LittleEndian.Uint64(h[q+2 : q+10]))
		k := (q + 2 + n) & 63 // the ')': q+9 <= 34
		if uint(n-1) >= 7 || d >= nstates || h[k] != ')' {
			break
		}
		if h[(k+1)&63] == '\n' {
			i += k + 2
		} else if h[(k+1)&63] == '\r' && h[(k+2)&63] == '\n' {
			i += k + 3
		} else {
			break
		}
		dst[end] = int32(d)
		end++
	}
	return i, end
}

// window is the bytes of data that bulkLines reads a line in.
const window = 64

// load64 returns the eight bytes of data at i as binary.LittleEndian
// reads them: the byte at i lowest.
func load64(data []byte, i int) uint64 { return binary.LittleEndian.Uint64(data[i : i+8]) }

// tauQuote is the bytes `tau"` as binary.LittleEndian.Uint32 reads them.
const tauQuote = 't' | 'a'<<8 | 'u'<<16 | '"'<<24

// swarNumber reads the decimal digits at the start of w, eight bytes of
// text in memory order (binary.LittleEndian), all at once ("SIMD within a
// register"), and returns their value and count: n is 0 when w does not
// start with a digit and 8 when all eight bytes are digits (the value is
// then not computed: the number may go on).
func swarNumber(w uint64) (v uint64, n int) {
	// A byte is a digit when its high nibble is 3 and its low nibble plus
	// 6 does not carry; neither test carries into the next byte.
	nonDigit := (w&0xF0F0F0F0F0F0F0F0 ^ 0x3030303030303030) |
		(w&0x0F0F0F0F0F0F0F0F+0x0606060606060606)&0xF0F0F0F0F0F0F0F0
	n = bits.TrailingZeros64(nonDigit) >> 3
	if n == 0 || n == 8 {
		return 0, n
	}
	// Subtracting '0' from every byte borrows upwards only from the bytes
	// after the digits, which the shift drops; the digits move to the top,
	// with zero bytes, leading zeros, before them.
	x := (w - 0x3030303030303030) << (8 * uint(8-n))
	// Pairs, then fours, then the eight digits (Lemire's method): the
	// first byte is the most significant digit.
	x = x*10 + x>>8
	x = ((x&0x000000FF000000FF)*(100+1000000<<32) + (x>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32
	return x, n
}

// labelSize returns the length of the label whose bytes start w0 and go
// on in w1 (as load64 reads them): the bytes before the first '"', which
// must come before any line break, and from 1 to 15 of them; else 0.
func labelSize(w0, w1 uint64) int {
	q, nl := firstByte(w0, '"'), firstByte(w0, '\n')
	if q < 8 {
		if q < nl {
			return q
		}
		return 0
	}
	if nl < 8 {
		return 0
	}
	q, nl = firstByte(w1, '"'), firstByte(w1, '\n')
	if q < 8 && q < nl {
		return 8 + q
	}
	return 0
}

// firstByte returns the index of the first byte c in w (as load64 reads
// it), or 8 if there is none. The borrow of the zero-byte test marks only
// bytes above a zero one wrongly, so the lowest mark is exact.
func firstByte(w uint64, c byte) int {
	x := w ^ 0x0101010101010101*uint64(c)
	return bits.TrailingZeros64((x-0x0101010101010101)&^x&0x8080808080808080) >> 3
}

// lowBytes returns a mask of the low n bytes of a word, 0 ≤ n ≤ 8.
func lowBytes(n int) uint64 {
	if n == 0 {
		return 0
	}
	return ^uint64(0) >> (64 - 8*uint(n))
}

// labelCache holds the ids of labels of up to 15 bytes that the .aut
// reader has met, for bulkLines: a direct-mapped table indexed by a hash
// of the label's bytes, which each entry keeps, zero-padded, to check.
// Entries are replaced on collision; a miss only costs a map lookup.
type labelCache [256]labelEntry

type labelEntry struct {
	w0, w1 uint64 // the label's bytes, as load64 reads them, zero-padded
	size   int32  // the label's length; 0 in an empty entry
	id     int32
}

// slot returns the entry for the label with the given words and size.
func (c *labelCache) slot(w0, w1 uint64, size int) *labelEntry {
	h := (w0 ^ bits.RotateLeft64(w1, 29) ^ uint64(size)) * 0x9E3779B97F4A7C15
	return &c[h>>56]
}

// add caches the id of the label name, if it has at most 15 bytes.
func (c *labelCache) add(name []byte, id int32) {
	if len(name) == 0 || len(name) > 15 {
		return
	}
	var buf [16]byte
	copy(buf[:], name)
	w0, w1 := load64(buf[:], 0), load64(buf[:], 8)
	*c.slot(w0, w1, len(name)) = labelEntry{w0: w0, w1: w1, size: int32(len(name)), id: id}
}
