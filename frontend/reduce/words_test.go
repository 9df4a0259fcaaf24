package reduce

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
)

// wordLockStack is a Treiber stack whose top is a (reference, tag) word,
// guarded by a lock word (owner, count) that holds a thread id in one
// field and data in the other: the symmetry checker must treat the owner
// field as a thread-id location and the count as data, and the
// canonicaliser the reference inside Top as a root.
const wordLockStack = `object WordLockStack {
  word Owned { owner int; count int }
  word Tagged { ref ref Node; tag int }
  heap Node { value int; next ref Node }
  shared lock Owned
  shared Top Tagged
  method push(v int) {
    o := lock
    while !cas(lock, Owned(0, o.count), Owned(tid, o.count + 1)) { o = lock }
    t := Top
    Top = Tagged(new Node{value: v, next: t.ref}, t.tag + 1)
    o = lock
    if o.owner == tid { lock = Owned(0, o.count) }
  }
  method pop() int {
    t := Top
    if t.ref == null { return EMPTY }
    if cas(Top, t, Tagged(t.ref.next, t.tag + 1)) { return t.ref.value }
    return EMPTY
  }
}
spec auto`

// TestSymmetryWords: a word field that holds thread ids is a thread-id
// location of its own (lock.owner, the first slot), the other fields
// data; the representatives and the permuted transitions pass the
// checks of TestSymmetryCanonicalRepresentatives in both heap modes.
func TestSymmetryWords(t *testing.T) {
	s := checkSymmetric(t, "wordlock.lin", wordLockStack, rand.New(rand.NewPCG(26, 1)))
	assert.Equal(t, []int32{0}, s.TidShared, "lock.owner only")
	assert.Equal(t, []int32{2}, s.FixedRoots, "Top.ref")
}

// symmetryRefusal returns why the symmetry checker refuses the model src
// (v.lin) at two threads; it must refuse it.
func symmetryRefusal(t *testing.T, src string) string {
	t.Helper()
	prog := parseSource(t, "v.lin", src)
	b := ir.Bounds{Threads: 2, Ops: 1, Values: []int{1}}
	p, err := ir.Compile(prog, prog.Impl, b.Threads, b.Values, false, false)
	require.NoError(t, err)
	s, reason := NewSymmetry(p, b)
	assert.Nil(t, s)
	return reason
}

// checkSymmetric requires the symmetry checker to accept the model src
// at three threads and one operation, and its representatives to pass the
// checks of TestSymmetryCanonicalRepresentatives, both objects in both
// heap modes; it returns the implementation's symmetry.
func checkSymmetric(t *testing.T, name, src string, r *rand.Rand) *Symmetry {
	t.Helper()
	b := ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}
	prog := parseSource(t, name, src)
	p, err := ir.Compile(prog, prog.Impl, b.Threads, b.Values, false, false)
	require.NoError(t, err)
	s, reason := NewSymmetry(p, b)
	require.NotNil(t, s, reason)
	for _, obj := range []*check.Object{prog.Impl, prog.Spec} {
		for _, mode := range symmetryModes {
			t.Run(obj.Name+"/"+mode.name, func(t *testing.T) {
				x := exploreStates(t, prog, obj, b, mode.explicit)
				s, reason := NewSymmetry(x.p, b)
				require.NotNil(t, s, reason)
				checkRepresentatives(t, r, x, s)
			})
		}
	}
	return s
}

// TestSymmetryRefusesWords: a thread id in an array of words, as its
// index or stored in it, and one stored in a word field of a node, are
// refused (permuting an array of words would move several slots per
// element, which the symmetry does not do).
func TestSymmetryRefusesWords(t *testing.T) {
	for _, c := range []struct{ name, decl, body, want string }{
		{"stored in an array of words", "shared A [1..nthreads] Owned", "A[1] = Owned(tid, 0)",
			"a thread id is stored in A.owner, an array of words"},
		{"index of an array of words", "shared A [1..nthreads] Owned", "A[tid] = Owned(0, 1)",
			"a thread id indexes A.owner, an array of words"},
		{"in a node's word", "shared P ref N", "P = new N{w: Owned(tid, 0)}",
			"a thread id is stored in a heap field"},
		{"cas into a node's word", "shared P ref N = null", "if P != null { cas(P.w, Owned(0, 0), Owned(tid, 0)) }",
			"is used stored"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `object O {
  word Owned { owner int; count int }
  heap N { w Owned }
  ` + c.decl + `
  method m() { ` + c.body + ` }
}
spec auto`
			reason := symmetryRefusal(t, src)
			assert.Contains(t, reason, c.want)
			assert.True(t, strings.HasPrefix(reason, "v.lin:5:"), reason)
		})
	}
}
