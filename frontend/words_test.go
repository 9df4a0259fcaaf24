package frontend

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/lts"
)

// wordModel stores a (reference, tag) word in one shared location.
const wordModel = `object O {
  word W { ref ref N; tag int }
  heap N { v int }
  shared top W = W(null, 1)
  method bump() bool { return cas(top, W(null, 1), W(new N{v: 5}, 2)) }
  method peek() int {
    w := top
    if w.ref == null { return w.tag }
    return w.ref.v + w.tag * 10
  }
}
spec auto`

// TestGoldenWord pins the LTS of wordModel for one thread and two
// operations, derived by hand. bump's return reads and swaps top whole
// (one shared access, so the return is the ret step itself); peek reads
// top whole into w (a τ that stops before the return), then returns from
// w and, if w.ref is a node, its field.
//
//	0 (top = W(null,1)) -call bump→ 1 -ret bump true→ 3 (top = W(#1,2), #1{v:5})
//	0 -call peek→ 2 -τ→ 4 (w = W(null,1)) -ret peek 1→ 7 (top as in 0)
//	3 -call bump→ 5 -ret bump false→ 8: the cas fails on the tag alone
//	  (expected W(null,1), found W(#1,2)); 8 is idle after two operations
//	  with top = W(#1,2) and the node #1, reachable only through the word
//	  (so the collector must follow references inside words)
//	3 -call peek→ 6 -τ→ 9 -ret peek 25 (5 + 2·10)→ 8
//	7 -call bump→ 10 -ret bump true→ 8
//	7 -call peek→ 11 -τ→ 12 -ret peek 1→ 13
//
// 14 states, 15 transitions.
func TestGoldenWord(t *testing.T) {
	want := `des (0, 15, 14)
(0,"call(1,bump)",1)
(0,"call(1,peek)",2)
(1,"ret(1,bump,true)",3)
(2,"tau",4)
(3,"call(1,bump)",5)
(3,"call(1,peek)",6)
(4,"ret(1,peek,1)",7)
(5,"ret(1,bump,false)",8)
(6,"tau",9)
(7,"call(1,bump)",10)
(7,"call(1,peek)",11)
(9,"ret(1,peek,25)",8)
(10,"ret(1,bump,true)",8)
(11,"tau",12)
(12,"ret(1,peek,1)",13)
`
	assert.Equal(t, want, autOf(t, wordModel, Bounds{Threads: 1, Ops: 2, Values: []int{1}}))
}

// TestRewritesAgreeWithWorkarounds holds the bundled models rewritten
// with words, unions, local arrays and tuple results to their earlier
// versions (testdata/workarounds), which kept each field of a word in a
// field or variable of its own and made every access of the pair an
// atomic block, merged RDCSS's value and descriptor into one node type,
// collected the snapshot into scalar locals, and wrote the Herlihy-Wing
// queue's swap and fetch-and-add as atomic blocks: both must give
// divergence-preserving branching bisimilar implementations. This
// cross-checks the lowering of each new form (whole reads, writes and cas
// over several slots, equality, field reads; type tests and conversions;
// indexed locals; swap and faa) against the old encodings, on the models' own bounds.
func TestRewritesAgreeWithWorkarounds(t *testing.T) {
	for _, tc := range []struct {
		model, pairs string
		b            Bounds
	}{
		{"harris-michael", "harris-michael-pairs.lin", Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}},
		{"harris-michael-nomark", "harris-michael-nomark-pairs.lin", Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}},
		{"tagged-treiber", "tagged-treiber-pairs.lin", Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}},
		{"elimination-stack", "elimination-stack-pairs.lin", Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}},
		{"elimination-stack", "elimination-stack-pairs.lin", Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}},
		{"rdcss", "rdcss-merged.lin", Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}},
		{"snapshot", "snapshot-scalars.lin", Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}},
		{"hw-queue", "hw-queue-atomic.lin", Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}},
		{"hw-queue", "hw-queue-atomic.lin", Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}},
	} {
		t.Run(tc.model, func(t *testing.T) {
			src, err := Example(tc.model)
			require.NoError(t, err)
			words := implOf(t, tc.model+".lin", src, tc.b)
			src, err = os.ReadFile("testdata/workarounds/" + tc.pairs)
			require.NoError(t, err)
			pairs := implOf(t, tc.pairs, src, tc.b)
			c, err := bisim.Compare(words, pairs, bisim.DivBranching, bisim.Options{})
			require.NoError(t, err)
			assert.True(t, c.Equivalent, "%s and its earlier version %s differ", tc.model, tc.pairs)
		})
	}
}

// modelError compiles the implementation of the model src under b and
// returns the model error it must stop with.
func modelError(t *testing.T, name, src string, b Bounds) *AssertionError {
	t.Helper()
	m, err := Parse(name, []byte(src))
	require.NoError(t, err)
	_, err = CompileImpl(m, b, Options{})
	var me *AssertionError
	require.True(t, errors.As(err, &me), "not a model error: %v", err)
	return me
}

// implOf compiles the implementation of the model src under b.
func implOf(t *testing.T, name string, src []byte, b Bounds) *lts.LTS {
	t.Helper()
	m, err := Parse(name, src)
	require.NoError(t, err)
	impl, err := CompileImpl(m, b, Options{})
	require.NoError(t, err)
	return impl
}
