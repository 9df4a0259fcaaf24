package history

import "math/bits"

// Data structures over gaps (see stack.go) for the stack peeling: a set of
// free gaps with predecessor and successor queries, a min segment tree
// with range add that reports gaps whose count reaches zero, and a
// segment tree of ranges that hands back, once, the ranges stabbed by a
// gap.

// Peeling states of a stack value.
const (
	toCheck uint8 = iota
	waiting
	done
)

// gapSet is a set of gaps in [0, n) as a bitset with a summary bitset of
// its non-empty words; prev and next scan at most two words and the
// summary (n/4096 words).
type gapSet struct {
	n       int32
	words   []uint64
	summary []uint64
}

func newGapSet(n int32) *gapSet {
	w := (int(n) + 63) / 64
	return &gapSet{n: n, words: make([]uint64, w), summary: make([]uint64, (w+63)/64)}
}

func (s *gapSet) add(g int32) {
	s.words[g>>6] |= 1 << (g & 63)
	s.summary[g>>12] |= 1 << ((g >> 6) & 63)
}

// next is the least member >= x, or n.
func (s *gapSet) next(x int32) int32 {
	if x >= s.n {
		return s.n
	}
	x = max(x, 0)
	w := x >> 6
	if m := s.words[w] >> (x & 63); m != 0 {
		return x + int32(bits.TrailingZeros64(m))
	}
	// The next non-empty word after w, by the summary.
	w++
	for sw := int(w >> 6); sw < len(s.summary); sw++ {
		m := s.summary[sw]
		if sw == int(w>>6) {
			m &= ^uint64(0) << (w & 63)
		}
		if m != 0 {
			wi := int32(sw)<<6 + int32(bits.TrailingZeros64(m))
			return wi<<6 + int32(bits.TrailingZeros64(s.words[wi]))
		}
	}
	return s.n
}

// prev is the greatest member <= x, or -1.
func (s *gapSet) prev(x int32) int32 {
	if x < 0 {
		return -1
	}
	w := x >> 6
	if m := s.words[w] << (63 - x&63); m != 0 {
		return x - int32(bits.LeadingZeros64(m))
	}
	w--
	if w < 0 {
		return -1
	}
	for sw := int(w >> 6); sw >= 0; sw-- {
		m := s.summary[sw]
		if sw == int(w>>6) {
			m &= ^uint64(0) >> (63 - w&63)
		}
		if m != 0 {
			wi := int32(sw)<<6 + 63 - int32(bits.LeadingZeros64(m))
			return wi<<6 + 63 - int32(bits.LeadingZeros64(s.words[wi]))
		}
	}
	return -1
}

// minAddTree holds one count per gap under range add; zero finds a gap
// whose count is 0 and retires it (it is never reported again).
type minAddTree struct {
	size int
	min  []int32 // subtree minimum, lazy adds excluded above
	lazy []int32
}

const retired = int32(1 << 30)

func newMinAddTree(counts []int32) *minAddTree {
	size := 1
	for size < len(counts) {
		size *= 2
	}
	t := &minAddTree{size: size, min: make([]int32, 2*size), lazy: make([]int32, 2*size)}
	for i := range size {
		t.min[size+i] = retired
		if i < len(counts) {
			t.min[size+i] = counts[i]
		}
	}
	for i := size - 1; i >= 1; i-- {
		t.min[i] = min(t.min[2*i], t.min[2*i+1])
	}
	return t
}

// add adds d to the counts of gaps [l, r).
func (t *minAddTree) add(l, r, d int32) { t.addRec(1, 0, int32(t.size), l, r, d) }

func (t *minAddTree) addRec(node, nl, nr, l, r, d int32) {
	if r <= nl || nr <= l {
		return
	}
	if l <= nl && nr <= r {
		t.min[node] += d
		t.lazy[node] += d
		return
	}
	mid := (nl + nr) / 2
	t.addRec(2*node, nl, mid, l, r, d)
	t.addRec(2*node+1, mid, nr, l, r, d)
	t.min[node] = min(t.min[2*node], t.min[2*node+1]) + t.lazy[node]
}

// zero returns a gap whose count is 0 and retires it, or -1 if none.
func (t *minAddTree) zero() int32 {
	if t.min[1] != 0 {
		return -1
	}
	// Descend along a zero, tracking the lazy adds above.
	node, acc := 1, int32(0)
	path := [64]int{}
	depth := 0
	for node < t.size {
		acc += t.lazy[node]
		path[depth] = node
		depth++
		if t.min[2*node]+acc == 0 {
			node = 2 * node
		} else {
			node = 2*node + 1
		}
	}
	g := int32(node - t.size)
	t.min[node] = retired
	for k := depth - 1; k >= 0; k-- {
		n := path[k]
		t.min[n] = min(t.min[2*n], t.min[2*n+1]) + t.lazy[n]
	}
	return g
}

// stabTree stores ranges of gaps with a value each; stab(g) hands back
// the values of the stored ranges containing g that are waiting, and
// forgets those ranges. A range lives in O(log n) nodes; each stored
// entry is handed back or dropped once.
type stabTree struct {
	size int32
	head []int32 // per node: first entry, -1 if none
	next []int32 // per entry: next entry of the same node
	val  []int32 // per entry: the value
}

func newStabTree(n int32) *stabTree {
	size := int32(1)
	for size < n {
		size *= 2
	}
	t := &stabTree{size: size, head: make([]int32, 2*size)}
	for i := range t.head {
		t.head[i] = -1
	}
	return t
}

// insert stores range [l, r) with value v.
func (t *stabTree) insert(l, r, v int32) {
	for l, r = l+t.size, r+t.size; l < r; l, r = l/2, r/2 {
		if l&1 == 1 {
			t.push(l, v)
			l++
		}
		if r&1 == 1 {
			r--
			t.push(r, v)
		}
	}
}

func (t *stabTree) push(node, v int32) {
	t.next = append(t.next, t.head[node])
	t.val = append(t.val, v)
	t.head[node] = int32(len(t.val) - 1)
}

// stab appends to work the waiting values of the ranges containing g,
// marking them toCheck, and forgets all ranges containing g.
func (t *stabTree) stab(g int32, work []int32, state []uint8) []int32 {
	for node := g + t.size; node >= 1; node /= 2 {
		for e := t.head[node]; e >= 0; e = t.next[e] {
			if v := t.val[e]; state[v] == waiting {
				state[v] = toCheck
				work = append(work, v)
			}
		}
		t.head[node] = -1
	}
	return work
}
