package frontend

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// ltsDigest is the first 8 bytes, in hex, of a SHA-256 over the number of
// states and, transition by transition in the explorer's order, source,
// target, label name, thread and source step. It pins the breadth-first
// numbering of the states and the metadata, not only the shape.
func ltsDigest(l *lts.LTS) string {
	h := sha256.New()
	var b [4]byte
	w := func(v int32) {
		binary.LittleEndian.PutUint32(b[:], uint32(v))
		h.Write(b[:])
	}
	w(l.NumStates)
	for t := range l.Src {
		w(l.Src[t])
		w(l.Dst[t])
		h.Write([]byte(l.Labels[l.Label[t]]))
		w(int32(l.Meta.Thread[t]))
		w(int32(l.Meta.Step[t]))
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:8])
}

// TestExplorePinned pins the LTSs the explorer produces for a few bundled
// models, so that a change made for speed (state encoding, hashing, heap
// renumbering) cannot silently change the semantics: the state and
// transition counts and a digest of the whole LTS, in exploration order,
// with its labels, threads and source steps. The figures were produced by
// the explorer before its state set and heap renumbering were optimised
// and are reproduced unchanged by the optimised one. A deliberate change
// of the semantics must update them and say why.
func TestExplorePinned(t *testing.T) {
	cases := []struct {
		model        string
		threads, ops int
		values       []int
		explicit     bool
		impl, spec   [2]int
		implDigest   string
		specDigest   string
	}{
		// A step whose shared access is a cas became one of two source
		// steps, by the cas's outcome (ir/casoutcome.go): the digests of
		// the implementations with a cas changed, their counts did not.
		{"counter1", 3, 1, []int{1}, false, [2]int{324, 864}, [2]int{324, 864}, "f72209384380e31f", "bd9f6a10a231cfd9"},
		{"treiber", 2, 2, []int{1, 2}, false, [2]int{5167, 9956}, [2]int{1149, 2404}, "c10a8161662f6519", "aa873d9344cbb3b6"},
		{"treiber", 3, 1, []int{1}, false, [2]int{1374, 3396}, [2]int{423, 1098}, "5b6d07d995431fb9", "a27883435e25a79f"},
		{"treiber-free", 2, 2, []int{1, 2}, true, [2]int{6369, 12380}, [2]int{1149, 2404}, "e03e7ea73d296d99", "aa873d9344cbb3b6"},
		{"hp-stack", 2, 2, []int{1, 2}, false, [2]int{13219, 25136}, [2]int{1149, 2404}, "e03ced44f8ed1384", "aa873d9344cbb3b6"},
		{"hp-stack", 2, 2, []int{1, 2}, true, [2]int{13465, 25692}, [2]int{1149, 2404}, "719be9ebf2e1ea02", "aa873d9344cbb3b6"},
		// hp-stack's Retire_Node and Scan and hp-stack-revised's retireNode
		// became procedures, as in their papers: the digests, taken before,
		// did not change.
		{"hp-stack-revised", 2, 2, []int{1, 2}, false, [2]int{10803, 20764}, [2]int{1149, 2404}, "ecff152b064f8e70", "aa873d9344cbb3b6"},
		{"hp-stack-revised", 2, 2, []int{1, 2}, true, [2]int{11415, 22070}, [2]int{1149, 2404}, "7b214e3adf2c2d8a", "aa873d9344cbb3b6"},
		{"ms-queue", 3, 1, []int{1}, false, [2]int{8522, 22692}, [2]int{423, 1098}, "eca6db0960e4f48e", "3aed5a9dedd16ab0"},
		// hw-queue's INC and SWAP became faa and swap, one step each as
		// their atomic blocks were: the counts did not change, the digest
		// did (an atomic block numbered a source step per statement).
		{"hw-queue", 2, 2, []int{1, 2}, false, [2]int{2331, 4634}, [2]int{822, 1664}, "93fc6bab4183c58e", "c5b315fcf8da2e83"},
		{"shann-queue", 2, 2, []int{1, 2}, false, [2]int{34116, 66104}, [2]int{1272, 2616}, "96d52de4362ad86f", "7afa83741efea568"},
		{"kregister", 3, 1, []int{1}, false, [2]int{2142, 6063}, [2]int{343, 954}, "daf27cabdaa8e076", "201ba71d1fb8cd76"},
		{"spinlock-stack", 3, 1, []int{1}, false, [2]int{1152, 3045}, [2]int{423, 1098}, "96b490ba253009c5", "653db1b88adf641c"},
		{"treiber-free", 2, 3, []int{1, 2}, true, [2]int{73112, 147536}, [2]int{6544, 14266}, "d975d5ebb1fe7181", "df36b48533af8f8a"},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/%d-%d/values=%d/explicit=%v", c.model, c.threads, c.ops, len(c.values), c.explicit)
		t.Run(name, func(t *testing.T) {
			src, err := Example(c.model)
			require.NoError(t, err)
			m, err := Parse(c.model+".lin", src)
			require.NoError(t, err)
			o := Options{}
			o.Explicit = c.explicit
			impl, spec, err := Compile(m, Bounds{Threads: c.threads, Ops: c.ops, Values: c.values}, o)
			require.NoError(t, err)
			assert.Equal(t, c.impl, [2]int{int(impl.NumStates), impl.NumTransitions()}, "implementation states, transitions")
			assert.Equal(t, c.spec, [2]int{int(spec.NumStates), spec.NumTransitions()}, "specification states, transitions")
			assert.Equal(t, c.implDigest, ltsDigest(impl), "implementation digest")
			assert.Equal(t, c.specDigest, ltsDigest(spec), "specification digest")
		})
	}
}
