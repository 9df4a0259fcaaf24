package frontend

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
)

func sequentialOf(t *testing.T, name string) *semantics.Sequential {
	t.Helper()
	src, err := Example(name)
	require.NoError(t, err)
	m, err := Parse(name+".lin", src)
	require.NoError(t, err)
	s, err := semantics.NewSequential(m.Program, m.Program.Spec, semantics.SequentialOptions{})
	require.NoError(t, err)
	return s
}

func sequentialSrc(t *testing.T, src string) (*semantics.Sequential, error) {
	t.Helper()
	m, err := Parse("t.lin", []byte(src))
	require.NoError(t, err)
	return semantics.NewSequential(m.Program, m.Program.Spec, semantics.SequentialOptions{})
}

// call runs one call that must have exactly one outcome.
func call(t *testing.T, s *semantics.Sequential, state, method string, args ...int) (value, next string) {
	t.Helper()
	outs, err := s.Call(state, method, args)
	require.NoError(t, err)
	require.Len(t, outs, 1, "%s%v in %s", method, args, s.Show(state))
	return outs[0].Value, outs[0].Next
}

// TestSequentialContainers runs the specs of Treiber's stack and the MS
// queue (and the array queue of Herlihy–Wing) through push/pop and
// enq/deq: LIFO and FIFO order, EMPTY on empty, and back to the initial
// state once empty (garbage collection and canonical renumbering).
func TestSequentialContainers(t *testing.T) {
	for _, tc := range []struct {
		model, ins, del string
		lifo            bool
	}{
		{"treiber", "push", "pop", true},
		{"ms-queue", "enq", "deq", false},
		{"treiber-free", "push", "pop", true},
	} {
		t.Run(tc.model, func(t *testing.T) {
			s := sequentialOf(t, tc.model)
			st := s.Init()
			v, st2 := call(t, s, st, tc.del)
			assert.Equal(t, "EMPTY", v)
			assert.Equal(t, st, st2, "removing from empty changes nothing")
			for _, x := range []int{1, 2, 3} {
				v, st = call(t, s, st, tc.ins, x)
				assert.Equal(t, "", v, "%s has no result", tc.ins)
			}
			want := []string{"1", "2", "3"}
			if tc.lifo {
				want = []string{"3", "2", "1"}
			}
			for _, w := range want {
				v, st = call(t, s, st, tc.del)
				assert.Equal(t, w, v)
			}
			v, st = call(t, s, st, tc.del)
			assert.Equal(t, "EMPTY", v)
			assert.Equal(t, s.Init(), st, "empty again is the initial state")
		})
	}
}

func TestSequentialRegisterInitAndShow(t *testing.T) {
	s := sequentialOf(t, "kregister")
	v, _ := call(t, s, s.Init(), "read")
	assert.Equal(t, "2", v, "RegisterSpec starts at 2")
	_, st := call(t, s, s.Init(), "write", 0)
	v, st2 := call(t, s, st, "read")
	assert.Equal(t, "0", v)
	assert.Equal(t, st, st2)
	assert.Equal(t, "R=0", s.Show(st))

	q := sequentialOf(t, "treiber")
	_, st = call(t, q, q.Init(), "push", 5)
	_, st = call(t, q, st, "push", 7)
	assert.Equal(t, "Top=#1 #1Node{value: 7, next: #2} #2Node{value: 5, next: null}", q.Show(st))

	hw := sequentialOf(t, "hw-queue")
	_, st = call(t, hw, hw.Init(), "enq", 4)
	assert.Equal(t, "Front=0 Rear=1 Q=[4 0 0 0 0 0 0 0]", hw.Show(st))
	assert.Equal(t, []semantics.Signature{
		{Name: "enq", Params: hw.Methods()[0].Params, Result: hw.Methods()[0].Result},
		{Name: "deq", Result: hw.Methods()[1].Result},
	}, hw.Methods())
}

// TestSequentialBlockingAndNontermination: a call that cannot complete
// has no outcome (await false; a loop that never returns), rather than an
// error or a hang.
func TestSequentialBlockingAndNontermination(t *testing.T) {
	hw := sequentialOf(t, "hw-queue")
	outs, err := hw.Call(hw.Init(), "deq", nil)
	require.NoError(t, err)
	assert.Empty(t, outs, "deq of the empty Herlihy–Wing spec blocks")

	s, err := sequentialSrc(t, `object O {
  shared x int = 0
  method spin() { while true { x = 1 } }
  method bad() int { assert x == 5; return 1 }
  method get() int { return x }
}
spec auto
`)
	require.NoError(t, err)
	outs, err = s.Call(s.Init(), "get", nil)
	require.NoError(t, err)
	assert.Equal(t, []semantics.Outcome{{Value: "0", Next: s.Init()}}, outs)
	_, err = s.Call(s.Init(), "spin", nil)
	require.Error(t, err, "an atomic block that never ends is a model error")
	_, err = s.Call(s.Init(), "bad", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "t.lin:4:")
	assert.Contains(t, err.Error(), "assertion failed")

	loop, err := sequentialSrc(t, `object O {
  shared x int = 0
  method spin() { while true { x = 1 } }
}
spec S {
  shared x int = 0
  method spin() { while true { atomic { x = 1 } } }
}
`)
	require.NoError(t, err)
	outs, err = loop.Call(loop.Init(), "spin", nil)
	require.NoError(t, err)
	assert.Empty(t, outs, "a spec loop of atomic steps never returns: no outcome")
}

func TestSequentialErrors(t *testing.T) {
	s := sequentialOf(t, "treiber")
	_, err := s.Call(s.Init(), "enq", []int{1})
	assert.ErrorContains(t, err, "no method enq")
	_, err = s.Call(s.Init(), "push", nil)
	assert.ErrorContains(t, err, "push takes 1 argument(s), got 0")
	_, err = s.Call(s.Init(), "push", []int{1 << 25})
	assert.ErrorContains(t, err, "exceeds")
	_, err = s.Call("garbage", "pop", nil)
	assert.ErrorContains(t, err, "not a state")

	r, err := sequentialSrc(t, `object R {
  shared x int(0..3) = 0
  method write(v int(0..3)) { x = v }
  method ok() bool { return x == 1 }
}
spec auto
`)
	require.NoError(t, err)
	_, err = r.Call(r.Init(), "write", []int{4})
	assert.ErrorContains(t, err, "outside the declared range")
	_, st := call(t, r, r.Init(), "write", 1)
	v, _ := call(t, r, st, "ok")
	assert.Equal(t, "true", v)

	_, err = sequentialSrc(t, `object T {
  shared a [1..nthreads] int = 0
  method set() { a[tid] = 1 }
}
spec auto
`)
	assert.True(t, errors.Is(err, semantics.ErrUsesThreads), "%v", err)
	assert.ErrorContains(t, err, "t.lin:2:")
}

func TestParseValue(t *testing.T) {
	s := sequentialOf(t, "treiber")
	sig, ok := s.Method("push")
	require.True(t, ok)
	for _, tc := range []struct {
		text string
		want int
		bad  bool
	}{
		{"3", 3, false}, {"-2", -2, false}, {"EMPTY", int(ir.Empty), false},
		{"x", 0, true}, {"99999999", 0, true}, {"true", 0, true},
	} {
		v, err := semantics.ParseValue(sig.Params[0], tc.text)
		if tc.bad {
			assert.Error(t, err, tc.text)
			continue
		}
		require.NoError(t, err, tc.text)
		assert.Equal(t, tc.want, v)
		assert.Equal(t, tc.text, semantics.FormatValue(sig.Params[0].Kind, v))
	}
}

// TestSequentialForeignStates: strings that are no state of the object
// are refused by Call and quoted by Show, never a panic.
func TestSequentialForeignStates(t *testing.T) {
	s := sequentialOf(t, "treiber")
	_, st := call(t, s, s.Init(), "push", 1)
	for _, bad := range []string{"", "\x02", st[:len(st)-1], st + "\x00", "\x00\x00\x00\x00\x02\x09\x00\x02\x00", "\x0a" + st[1:]} {
		_, err := s.Call(bad, "pop", nil)
		assert.ErrorContains(t, err, "not a state", "%q", bad)
		assert.Equal(t, fmt.Sprintf("%q", bad), s.Show(bad))
	}
}
