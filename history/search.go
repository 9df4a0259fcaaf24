package history

import (
	"sort"
	"sync/atomic"
	"time"
)

// This file holds the general decision procedure for one partition: the
// Wing–Gong search for a linearization (Wing and Gong, "Testing and
// verifying concurrent objects", JPDC 1993) with the two improvements of
// Lowe ("Testing for linearizability", CCPE 2017) that Porcupine also uses:
//
//   - Just-in-time linearization over a doubly linked list of call and
//     return entries in real-time order: walking the list, a call entry is
//     a candidate to linearize next; reaching the return entry of an
//     operation not yet linearized means no choice made so far can be
//     extended, so the search backtracks. Linearizing lifts both entries
//     out of the list (dancing links), backtracking puts them back.
//   - Memoisation of configurations (set of linearized operations, spec
//     state): a configuration reached twice has the same future, so the
//     second visit is pruned. Sets are bitsets with an incrementally
//     maintained XOR hash (one random word per operation), states are
//     interned strings, and the table is open addressing over flat slices.
//
// Invariants: the list holds exactly the entries of operations not yet
// linearized, in time order; stack[i] is the i-th linearized operation with
// the state before it; bits and hash describe the operations on the stack.
//
// Pending operations (never returned, result unknown) may or may not take
// effect: their return entries sit after every other entry, and the search
// succeeds as soon as every returned operation is linearized.

// searchResult is the outcome of searching one partition.
type searchResult struct {
	verdict Verdict
	// prefix is, when not linearizable, the longest linearizable prefix
	// found; when linearizable, a linearization (local op indices; pending
	// operations left out did not take effect).
	prefix  []int
	stuck   int // op that could not be placed after prefix, -1 if none
	state   string
	configs int64
	// limit says which budget stopped an Unknown search ("time", "memory").
	limit string
}

// stop tells a search to give up (time budget, memory budget, or another
// partition failed).
type stop struct {
	deadline time.Time // zero: none
	cancel   *atomic.Bool
	maxBytes int64 // memory budget of one search; 0: none
	// configs, if set, accumulates memoised configurations of all
	// searches, and report is called after each addition.
	configs *atomic.Int64
	report  func()
}

func (s stop) now() bool {
	if s.cancel != nil && s.cancel.Load() {
		return true
	}
	return !s.deadline.IsZero() && time.Now().After(s.deadline)
}

// search decides whether ops (all acting on one object of spec) are linearizable.
func search(ops []Op, spec Spec, st stop) searchResult {
	n := len(ops)
	res := searchResult{stuck: -1}
	// Entries 2i (call) and 2i+1 (return) of op i, sorted by time; at equal
	// times calls come first, so such operations count as concurrent.
	order := make([]int32, 2*n)
	for i := range order {
		order[i] = int32(i)
	}
	at := func(e int32) int64 {
		if e&1 == 0 {
			return ops[e>>1].Call
		}
		return ops[e>>1].Return
	}
	sort.SliceStable(order, func(a, b int) bool {
		ta, tb := at(order[a]), at(order[b])
		if ta != tb {
			return ta < tb
		}
		return order[a]&1 < order[b]&1
	})
	// Doubly linked list over entry ids; node 2n is the head sentinel.
	head := int32(2 * n)
	next := make([]int32, 2*n+1)
	prev := make([]int32, 2*n+1)
	last := head
	for _, e := range order {
		next[last], prev[e] = e, last
		last = e
	}
	next[last] = -1
	lift := func(e int32) { // remove e and e+1 (call and return)
		for _, x := range [2]int32{e, e + 1} {
			next[prev[x]] = next[x]
			if next[x] >= 0 {
				prev[next[x]] = prev[x]
			}
		}
	}
	unlift := func(e int32) { // reinsert in reverse order of removal
		for _, x := range [2]int32{e + 1, e} {
			next[prev[x]] = x
			if next[x] >= 0 {
				prev[next[x]] = x
			}
		}
	}

	remaining := 0
	for i := range ops {
		if !ops[i].IsPending() {
			remaining++
		}
	}
	if remaining == 0 {
		res.verdict = Linearizable
		return res
	}

	words := (n + 63) / 64
	bits := make([]uint64, words)
	zob := make([]uint64, n)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range zob {
		zob[i] = splitmix(&x)
	}
	var hash uint64
	m := newMemo(words)
	sc := newStepCache(spec)
	state := sc.intern(spec.Init())

	type frame struct {
		entry int32
		state int32
	}
	stack := make([]frame, 0, n)
	e := next[head]
	reported := 0
	for iter := 0; ; iter++ {
		if iter&4095 == 0 {
			if st.configs != nil {
				st.configs.Add(int64(m.count - reported))
				reported = m.count
				st.report()
			}
			if st.now() {
				res.verdict, res.limit = Unknown, "time"
				break
			}
			if st.maxBytes > 0 && m.bytes()+sc.bytes > st.maxBytes {
				res.verdict, res.limit = Unknown, "memory"
				break
			}
		}
		if e&1 == 0 { // a call: try to linearize it now
			i := e >> 1
			if ns := sc.step(state, int(i), &ops[i]); ns >= 0 {
				bits[i>>6] |= 1 << (i & 63)
				hash ^= zob[i]
				if m.insert(bits, hash, ns) {
					stack = append(stack, frame{e, state})
					state = ns
					lift(e)
					if !ops[i].IsPending() {
						remaining--
						if remaining == 0 {
							res.verdict, res.stuck, res.prefix = Linearizable, -1, res.prefix[:0]
							for _, f := range stack { // the witness
								res.prefix = append(res.prefix, int(f.entry>>1))
							}
							break
						}
					}
					e = next[head]
					continue
				}
				bits[i>>6] &^= 1 << (i & 63)
				hash ^= zob[i]
			}
			e = next[e]
			continue
		}
		// The return of an operation not linearized: backtrack.
		if len(stack) >= len(res.prefix) && (len(stack) > len(res.prefix) || res.stuck < 0) {
			res.prefix = res.prefix[:0]
			for _, f := range stack {
				res.prefix = append(res.prefix, int(f.entry>>1))
			}
			res.stuck = int(e >> 1)
			res.state = sc.states[state]
		}
		if len(stack) == 0 {
			res.verdict = NotLinearizable
			break
		}
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := top.entry >> 1
		state = top.state
		bits[i>>6] &^= 1 << (i & 63)
		hash ^= zob[i]
		if !ops[i].IsPending() {
			remaining++
		}
		unlift(top.entry)
		e = next[top.entry]
	}
	res.configs = int64(m.count)
	if st.configs != nil {
		st.configs.Add(int64(m.count - reported))
	}
	if res.verdict == Unknown {
		res.prefix, res.stuck, res.state = nil, -1, ""
	}
	return res
}

// splitmix is the SplitMix64 generator (Steele, Lea, Flood 2014).
func splitmix(x *uint64) uint64 {
	*x += 0x9E3779B97F4A7C15
	z := *x
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// mix finalises a hash for table indexing.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// memo is a set of (bitset, state) configurations: open addressing with
// linear probing over flat slices, bitsets stored in one arena.
type memo struct {
	words int
	arena []uint64 // entry j's bitset is arena[j*words : (j+1)*words]
	state []int32
	hash  []uint64
	slots []int32 // entry id + 1; 0 is empty
	count int
}

// bytes estimates the memory held by m.
func (m *memo) bytes() int64 {
	return int64(cap(m.arena))*8 + int64(cap(m.state))*4 + int64(cap(m.hash))*8 + int64(len(m.slots))*4
}

func newMemo(words int) *memo {
	return &memo{words: words, slots: make([]int32, 1024)}
}

// insert adds (bits, st) unless present; it reports whether it was new.
func (m *memo) insert(bits []uint64, h uint64, st int32) bool {
	full := mix(h ^ uint64(st+1)*0xC2B2AE3D27D4EB4F)
	mask := uint64(len(m.slots) - 1)
	for j := full & mask; ; j = (j + 1) & mask {
		s := m.slots[j]
		if s == 0 {
			break
		}
		id := int(s - 1)
		if m.hash[id] == full && m.state[id] == st && equalWords(m.arena[id*m.words:(id+1)*m.words], bits) {
			return false
		}
	}
	id := m.count
	m.count++
	m.arena = append(m.arena, bits...)
	m.state = append(m.state, st)
	m.hash = append(m.hash, full)
	if 2*m.count > len(m.slots) {
		m.grow()
	} else {
		m.place(id)
	}
	return true
}

func (m *memo) place(id int) {
	mask := uint64(len(m.slots) - 1)
	j := m.hash[id] & mask
	for m.slots[j] != 0 {
		j = (j + 1) & mask
	}
	m.slots[j] = int32(id + 1)
}

func (m *memo) grow() {
	m.slots = make([]int32, 2*len(m.slots))
	for id := 0; id < m.count; id++ {
		m.place(id)
	}
}

func equalWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// stepCache interns spec states and remembers transitions, so that the
// search calls Spec.Step once per (state, operation) pair.
type stepCache struct {
	spec   Spec
	ids    map[string]int32
	states []string
	keys   []uint64 // open addressing: state<<32|op+1, 0 empty
	vals   []int32  // next state, or -1 when the step is not allowed
	count  int
	bytes  int64 // estimated memory of states and table
}

func newStepCache(spec Spec) *stepCache {
	return &stepCache{spec: spec, ids: map[string]int32{}, keys: make([]uint64, 1024), vals: make([]int32, 1024)}
}

func (c *stepCache) intern(s string) int32 {
	if id, ok := c.ids[s]; ok {
		return id
	}
	id := int32(len(c.states))
	c.ids[s] = id
	c.states = append(c.states, s)
	c.bytes += int64(len(s)) + 64 // the string, its map entry and slice slot
	return id
}

// step returns the state after op i from state, or -1 if not allowed.
func (c *stepCache) step(state int32, i int, op *Op) int32 {
	key := uint64(state)<<32 | uint64(i+1)
	mask := uint64(len(c.keys) - 1)
	j := mix(key) & mask
	for ; c.keys[j] != 0; j = (j + 1) & mask {
		if c.keys[j] == key {
			return c.vals[j]
		}
	}
	ns := int32(-1)
	if ok, next := c.spec.Step(c.states[state], op); ok {
		ns = c.intern(next)
	}
	c.keys[j], c.vals[j] = key, ns
	c.count++
	if 2*c.count > len(c.keys) {
		oldK, oldV := c.keys, c.vals
		c.keys, c.vals = make([]uint64, 2*len(oldK)), make([]int32, 2*len(oldK))
		c.bytes += int64(len(oldK)) * 12
		mask = uint64(len(c.keys) - 1)
		for t, k := range oldK {
			if k != 0 {
				j := mix(k) & mask
				for c.keys[j] != 0 {
					j = (j + 1) & mask
				}
				c.keys[j], c.vals[j] = k, oldV[t]
			}
		}
	}
	return ns
}
