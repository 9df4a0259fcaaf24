package history

import (
	"encoding/binary"
	"sort"
	"strings"

	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
)

var _ model.Spec = (*keyed)(nil)

// keyed is the product of independent copies of an object, one per key of
// a history: the unpartitioned view of a multi-key history. A product
// state holds, for each key in a fixed order, the 4-byte id of that key's
// object state, interned here, so that product states stay short however
// much the objects hold. Not safe for concurrent use; Check gives it a
// single partition.
type keyed struct {
	inner  model.Spec
	keys   []string
	slot   map[string]int
	ids    map[string]uint32
	states []string
	acct   *account // charged for the interned object states (nil: no budget)
}

// newKeyed returns the product of inner over the keys of ops.
func newKeyed(inner model.Spec, ops []record.Op) *keyed {
	k := &keyed{inner: inner, slot: map[string]int{}, ids: map[string]uint32{}}
	for i := range ops {
		if _, ok := k.slot[ops[i].Key]; !ok {
			k.slot[ops[i].Key] = len(k.keys)
			k.keys = append(k.keys, ops[i].Key)
		}
	}
	return k
}

func (k *keyed) Name() string { return k.inner.Name() }

func (k *keyed) Validate(op *record.Op) error { return k.inner.Validate(op) }

func (k *keyed) Partition(ops []record.Op) [][]int { return [][]int{seq(len(ops))} }

func (k *keyed) intern(s string) uint32 {
	id, ok := k.ids[s]
	if !ok {
		id = uint32(len(k.states))
		k.ids[s] = id
		k.states = append(k.states, s)
		if k.acct != nil {
			k.acct.charge(stateCost(s))
		}
	}
	return id
}

func (k *keyed) Init() string {
	b := make([]byte, 4*len(k.keys))
	id := k.intern(k.inner.Init())
	for i := range k.keys {
		binary.LittleEndian.PutUint32(b[4*i:], id)
	}
	return string(b)
}

func (k *keyed) Step(s string, op *record.Op) (bool, string) {
	i, known := k.slot[op.Key]
	if !known {
		return false, s // not an operation of the history the product was built for
	}
	id := slotID(s, i)
	ok, next := k.inner.Step(k.states[id], op)
	if !ok {
		return false, s
	}
	nid := k.intern(next)
	if nid == id {
		return true, s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:4*i])
	b.Write(binary.LittleEndian.AppendUint32(make([]byte, 0, 4), nid))
	b.WriteString(s[4*i+4:])
	return true, b.String()
}

// slotID decodes the id of key slot i of a product state.
func slotID(s string, i int) uint32 {
	return uint32(s[4*i]) | uint32(s[4*i+1])<<8 | uint32(s[4*i+2])<<16 | uint32(s[4*i+3])<<24
}

// ShowState renders a product state as {key: state, …}, keys sorted.
func (k *keyed) ShowState(s string) string {
	parts := make([]string, len(k.keys))
	for i, key := range k.keys {
		parts[i] = record.ShowValue(key) + ": " + model.ShowStateOf(k.inner, k.states[slotID(s, i)])
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, ", ") + "}"
}

// seq returns 0, 1, …, n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// isSeq reports whether s is seq(n).
func isSeq(s []int, n int) bool {
	if len(s) != n {
		return false
	}
	for i, x := range s {
		if x != i {
			return false
		}
	}
	return true
}
