package reduce

import (
	"github.com/linbis/linbis/frontend/ir"
	"math/bits"
)

// The keys of the per-thread forms (see blockKey): a thread's rows of
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

// squareKey writes into key the key of thread t's row of the square
// array ta in st and returns its width and whether it holds a marker: its
// diagonal element and the sorted values of the row and of the column
// without it, references and thread ids replaced as in blockKey
// (slotKey). The thread is marked when any of those is not 0 (null, no
// thread), since its exchange with a thread of equal key would then move
// other threads' entries too.
func (s *Symmetry) squareKey(st []int32, t int, ta *ir.ThreadArray, key []int32, names []int32) (int, bool) {
	n := s.Threads
	row := ta.Off + int32(t)*ta.RowLen
	a := row + int32(t)
	key[0] = s.slotKey(a, st[a], t, names)
	marked := key[0] == keyMarker
	r, c := key[1:n], key[n:2*n-1]
	i := 0
	for u := range n {
		if u == t {
			continue
		}
		ra, ca := row+int32(u), ta.Off+int32(u)*ta.RowLen+int32(t)
		r[i], c[i] = s.slotKey(ra, st[ra], t, names), s.slotKey(ca, st[ca], t, names)
		marked = marked || st[ra] != 0 || st[ca] != 0 || r[i] == keyMarker || c[i] == keyMarker
		i++
	}
	sortSmall(r)
	sortSmall(c)
	return 2*n - 1, marked
}

// rowKindsOf returns, per tid-indexed array, the kind of its slots when
// they are all of one kind, else kindMixed (see restKey).
func (s *Symmetry) rowKindsOf() []uint8 {
	kinds := make([]uint8, len(s.TidArrays))
	for i, ta := range s.TidArrays {
		k := kindMixed
		if ta.RowLen > 0 {
			k = s.Kinds[ta.Off]
		}
		for a := ta.Off; a < ta.Off+int32(s.Threads)*ta.RowLen; a++ {
			if s.Kinds[a] != k {
				k = kindMixed
				break
			}
		}
		kinds[i] = k
	}
	return kinds
}

// sortSmall sorts a few values: insertion sort, without slices.Sort's
// calls.
func sortSmall(a []int32) {
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for ; j > 0 && a[j-1] > v; j-- {
			a[j] = a[j-1]
		}
		a[j] = v
	}
}

// setKey is the key of the visited set set of a loop of thread t: whether
// it holds t, and twice the number of the other threads it holds, which it
// counts in names (a key > 1 marks the thread).
func setKey(t int, set uint32, names []int32) int32 {
	k := int32(0)
	for b := set; b != 0; b &= b - 1 {
		u := bits.TrailingZeros32(b)
		if u == t {
			k++
			continue
		}
		k += 2
		names[u]++
	}
	return k
}
