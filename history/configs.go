package history

import (
	"runtime/metrics"
	"sync/atomic"
)

// configSet is the memo of the search: the set of configurations
// (linearized operations, spec state) already explored. A configuration
// reached twice has the same future, so the second visit is pruned.
//
// A configuration is stored as a header (its hash, a tag word) and a key of
// words (see search.go for what the tag and key hold: only the bits of the
// linearized set from the first unplaced operation on, so that a key has a
// handful of words however long the history). Keys live in chunks that
// never move once allocated: growing the set allocates a new chunk instead
// of copying the old ones, so the memory held is what is stored and the
// peak is no higher. The index is open addressing with linear probing over
// ids of stored entries.
type configSet struct {
	// chunks hold the entries back to back: hash, tag, key length, key.
	// An entry never straddles two chunks; a chunk is at most chunkWords
	// long unless one entry needs more.
	chunks [][]uint64
	// inUse counts the chunks holding entries; those after them are kept
	// from an earlier search (reset) and filled again in order.
	inUse int
	slots []uint32 // ref+1 of an entry (chunk<<chunkShift | offset); 0 is empty
	count int
	acct  *account
}

const (
	chunkShift = 16
	chunkWords = 1 << chunkShift // 512 KiB
	firstChunk = 256             // small histories need small memos
)

// insertion is what configSet.insert did.
type insertion uint8

const (
	// seen: the configuration was already in the set.
	seen insertion = iota
	// added: the configuration is new and now in the set.
	added
	// full: the configuration is new but the memory budget cannot hold
	// it; the search must stop (pruning it would be unsound).
	full
)

func newConfigSet(acct *account) *configSet {
	s := &configSet{}
	s.reset(acct)
	return s
}

// reset empties the set for a new search charged to acct, keeping the
// index and the chunks it has (charged to acct too: they are held).
func (s *configSet) reset(acct *account) {
	if s.slots == nil {
		s.slots = make([]uint32, 1024)
	} else {
		clear(s.slots)
	}
	held := int64(len(s.slots)) * 4
	for i := range s.chunks {
		s.chunks[i] = s.chunks[i][:0]
		held += int64(cap(s.chunks[i])) * 8
	}
	s.inUse, s.count, s.acct = 0, 0, acct
	acct.charge(held)
}

// insert adds the configuration (hash, tag, key) unless present; hash
// must be well mixed (it indexes the table).
func (s *configSet) insert(hash, tag uint64, key []uint64) insertion {
	j, found := s.probe(hash, tag, key)
	if found {
		return seen
	}
	if 2*(s.count+1) > len(s.slots) {
		if !s.acct.afford(int64(len(s.slots)) * 8) {
			return full
		}
		s.grow()
		j, _ = s.probe(hash, tag, key)
	}
	ref, ok := s.store(hash, tag, key)
	if !ok {
		return full
	}
	s.slots[j] = ref + 1
	s.count++
	return added
}

// probe returns the slot holding the configuration, or the empty slot
// where it would go.
func (s *configSet) probe(hash, tag uint64, key []uint64) (slot uint64, found bool) {
	mask := uint64(len(s.slots) - 1)
	j := hash & mask
	for ; s.slots[j] != 0; j = (j + 1) & mask {
		if s.equal(s.slots[j]-1, hash, tag, key) {
			return j, true
		}
	}
	return j, false
}

// entry returns the words of the entry at ref: hash, tag, length, key.
func (s *configSet) entry(ref uint32) []uint64 {
	c := s.chunks[ref>>chunkShift]
	off := ref & (chunkWords - 1)
	return c[off : off+3+uint32(c[off+2])]
}

func (s *configSet) equal(ref uint32, hash, tag uint64, key []uint64) bool {
	c := s.chunks[ref>>chunkShift]
	off := ref & (chunkWords - 1)
	if c[off] != hash || c[off+1] != tag || c[off+2] != uint64(len(key)) {
		return false
	}
	for i, w := range key {
		if c[off+3+uint32(i)] != w {
			return false
		}
	}
	return true
}

// store appends an entry to the last chunk, or to a new one.
func (s *configSet) store(hash, tag uint64, key []uint64) (uint32, bool) {
	need := 3 + len(key)
	last := s.inUse - 1
	if last < 0 || len(s.chunks[last])+need > cap(s.chunks[last]) {
		if s.inUse < len(s.chunks) && cap(s.chunks[s.inUse]) >= need {
			s.inUse++ // a chunk kept from an earlier search
		} else {
			if s.inUse == 1<<(32-chunkShift)-1 {
				return 0, false // the refs are exhausted (32 GiB of configurations)
			}
			size := chunkWords
			if last < 0 {
				size = firstChunk
			} else if c := cap(s.chunks[last]); c < chunkWords {
				size = 2 * c
			}
			size = max(size, need)
			if !s.acct.afford(int64(size) * 8) {
				return 0, false
			}
			s.acct.charge(int64(size) * 8)
			if s.inUse < len(s.chunks) { // a kept chunk too small for this entry
				s.acct.charge(-int64(cap(s.chunks[s.inUse])) * 8)
				s.chunks[s.inUse] = make([]uint64, 0, size)
			} else {
				s.chunks = append(s.chunks, make([]uint64, 0, size))
			}
			s.inUse++
		}
		last = s.inUse - 1
	}
	c := s.chunks[last]
	ref := uint32(last)<<chunkShift | uint32(len(c))
	c = append(c, hash, tag, uint64(len(key)))
	s.chunks[last] = append(c, key...)
	return ref, true
}

// grow doubles the index; the entries stay where they are.
func (s *configSet) grow() {
	old := s.slots
	s.slots = make([]uint32, 2*len(old))
	s.acct.charge(int64(len(s.slots)) * 4)
	mask := uint64(len(s.slots) - 1)
	for _, r := range old {
		if r == 0 {
			continue
		}
		j := s.entry(r - 1)[0] & mask
		for s.slots[j] != 0 {
			j = (j + 1) & mask
		}
		s.slots[j] = r
	}
	s.acct.charge(-int64(len(old)) * 4) // garbage now
}

// budget is the memory that the searches running at once may hold
// together, in bytes: what they store (configurations, interned states,
// tables), not an estimate from their counts.
type budget struct {
	limit int64 // 0: none
	used  atomic.Int64
	peak  atomic.Int64 // the most used so far
	// live, if positive, bounds the live heap as the last collection
	// measured it: what the charges miss (maps' spare room, the
	// collector's) is seen there.
	live int64
}

// liveOver reports whether the live heap is past b.live.
func (b *budget) liveOver() bool {
	if b == nil || b.live <= 0 {
		return false
	}
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(m)
	return int64(m[0].Value.Uint64()) > b.live
}

// account is one search's share of a budget: what it charged, released
// when the search ends.
type account struct {
	b    *budget // nil: no budget
	held int64
	full bool // a structure could not grow within the budget
}

// charge records n more bytes held (n < 0: released).
func (a *account) charge(n int64) {
	a.held += n
	if a.b != nil {
		used := a.b.used.Add(n)
		for p := a.b.peak.Load(); used > p && !a.b.peak.CompareAndSwap(p, used); p = a.b.peak.Load() {
		}
	}
}

// afford reports whether n more bytes stay within the budget.
func (a *account) afford(n int64) bool {
	return a.b == nil || a.b.limit <= 0 || a.b.used.Load()+n <= a.b.limit
}

// exhausted reports whether the budget is spent.
func (a *account) exhausted() bool { return a.full || !a.afford(0) }

// Charge is charge, for the spec instances of model.ForSearch.
func (a *account) Charge(n int64) { a.charge(n) }

// close releases everything the search held.
func (a *account) close() { a.charge(-a.held) }
