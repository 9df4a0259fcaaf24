package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/lts"
)

// TestArrayFieldsAreFields: an array field of a node or a word is its
// elements as fields of their own, one slot each (LANGUAGE.md, Array
// fields). The model below indexes a node's array and a word's array at
// run time (faa on an element, a word built from a local array, an
// element read from a word in a local); the same object with two scalar
// fields in place of each array, chosen by a local branch, must give the
// same LTS byte for byte: the same steps, states and returned values. An
// element at the wrong slot, or an access of an element that took a step
// of its own, would change it.
func TestArrayFieldsAreFields(t *testing.T) {
	const arrays = `object O {
  word Reg { val int(0..3); view [2] int(0..3) }
  heap Cell { key int; cnt [2] int; next ref Cell }
  shared R Reg
  shared C ref Cell = null
  init { C = new Cell{key: 1} }
  method update(v int) int {
    c := C
    faa(c.cnt[v - 1], 1)
    var a [2] int(0..3)
    a[v - 1] = R.val
    old := R
    cas(R, old, Reg(v, a))
    r := R
    return r.view[v - 1] * 4 + c.cnt[2 - v]
  }
}
spec auto
`
	const fields = `object O {
  word Reg { val int(0..3); view0 int(0..3); view1 int(0..3) }
  heap Cell { key int; cnt0 int; cnt1 int; next ref Cell }
  shared R Reg
  shared C ref Cell = null
  init { C = new Cell{key: 1} }
  method update(v int) int {
    c := C
    if v == 1 { faa(c.cnt0, 1) } else { faa(c.cnt1, 1) }
    a0 := 0
    a1 := 0
    if v == 1 { a0 = R.val } else { a1 = R.val }
    old := R
    cas(R, old, Reg(v, a0, a1))
    r := R
    if v == 1 { return r.view0 * 4 + c.cnt1 }
    return r.view1 * 4 + c.cnt0
  }
}
spec auto
`
	b := Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}
	got, want := implOf(t, "arrays.lin", []byte(arrays), b), implOf(t, "fields.lin", []byte(fields), b)
	c, err := bisim.Compare(got, want, bisim.Strong, bisim.Options{})
	require.NoError(t, err)
	assert.True(t, c.Equivalent, "array fields and scalar fields differ")
	// Not vacuous: a view's element written by the other thread is read
	// back (4·1 + a count of 1).
	assert.True(t, hasLabel(got, "ret(1,update,5)"), "no ret(1,update,5)")
}

// hasLabel reports whether some transition of l carries label name.
func hasLabel(l *lts.LTS, name string) bool {
	for t := range l.Label {
		if l.LabelName(int32(t)) == name {
			return true
		}
	}
	return false
}
