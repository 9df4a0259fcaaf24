package reduce

import (
	"github.com/linbis/linbis/frontend/ir"
	"math/bits"
	"slices"
)

// The keys of the per-thread forms (see computeKeys): a thread's rows of
// the arrays with [thread] dimensions, and the visited sets of its loops
// over threads.

// keyWidth is the number of key slots of a thread's row of ta: the row
// itself, or, for a square array, the diagonal element and the row and
// column without it, each sorted (a permutation reorders them).
func (s *Symmetry) keyWidth(ta ir.ThreadArray) int {
	if ta.Square {
		return 1 + 2*(s.Threads-1)
	}
	return int(ta.RowLen)
}

// rowKey writes into key the key of thread t's row of ta in st and returns
// its width; references and thread ids are replaced as in computeKeys
// (tidKey for the latter). A square array's row is keyed by its diagonal
// element and the sorted values of the row and of the column without it;
// the thread is marked when any of those is not 0 (null, no thread), since
// its exchange with a thread of equal key would then move other threads'
// entries too.
func (s *Symmetry) rowKey(st []int32, t int, ta ir.ThreadArray, key []int32, tidKey func(int, int32) int32) int {
	slot := func(a int32) int32 {
		v := st[a]
		switch s.Kinds[a] {
		case kindRef:
			v = s.refKey(v)
		case kindThreadID:
			v = tidKey(t, v)
		}
		s.Marked[t] = s.Marked[t] || v == keyMarker
		return v
	}
	row := ta.Off + int32(t)*ta.RowLen
	if !ta.Square {
		for k := range ta.RowLen {
			key[k] = slot(row + k)
		}
		return int(ta.RowLen)
	}
	n := s.Threads
	key[0] = slot(row + int32(t))
	r, c := key[1:n], key[n:2*n-1]
	i := 0
	for u := range n {
		if u == t {
			continue
		}
		ra, ca := row+int32(u), ta.Off+int32(u)*ta.RowLen+int32(t)
		s.Marked[t] = s.Marked[t] || st[ra] != 0 || st[ca] != 0
		r[i], c[i] = slot(ra), slot(ca)
		i++
	}
	slices.Sort(r)
	slices.Sort(c)
	return 2*n - 1
}

// setKey is the key of the visited set set of a loop of thread t: whether
// it holds t, and twice the number of the other threads it holds, which it
// counts in named (a key > 1 marks the thread).
func (s *Symmetry) setKey(t int, set uint32, named []int32) int32 {
	k := int32(0)
	for b := set; b != 0; b &= b - 1 {
		u := bits.TrailingZeros32(b)
		if u == t {
			k++
			continue
		}
		k += 2
		named[u*s.KeyLen]++
	}
	return k
}
