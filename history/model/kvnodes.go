package model

import (
	"strings"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/record"
)

// Charger is charged for the memory that a search's instance of a spec
// holds (ForSearch); a negative charge releases.
type Charger interface {
	Charge(bytes int64)
}

// ForSearch returns spec's instance for one search, charged to c, or spec
// itself. An instance's states are understood by that instance alone:
// render them with its ShowState (ShowStateOf).
func ForSearch(spec Spec, c Charger) Spec {
	if f, ok := spec.(interface{ forSearch(Charger) Spec }); ok {
		return f.forSearch(c)
	}
	return spec
}

// forSearch gives each search its own tree of values.
//
// The value of a key is a put's value followed by appended values. As the
// whole text, each state of a search held a copy of all of it (Porcupine's
// kv histories append hundreds of values to a key: the texts were most of
// the memory); so a search's kv keeps values as nodes of a tree, a node
// being a value appended to its parent's, and a state is a node's 4-byte
// id. States of equal text with different nodes (put "ab"; put "a" then
// append "b") are equivalent, just not merged.
func (k kv) forSearch(c Charger) Spec {
	k.nodes = &kvNodes{ids: map[uint64]uint32{}, valueIDs: map[string]uint32{}, acct: c}
	return k
}

// ShowState renders a state as its text.
func (k kv) ShowState(s string) string {
	if k.nodes != nil {
		s = k.nodes.text(k.nodes.id(s))
	}
	return ShowState(s)
}

// kvNodes are the values of one kv search: node i is the value
// values[nodes[i].value] appended to the value of node nodes[i].parent,
// or that value alone when its parent is noParent. A node with a parent
// holds a string, and so does its parent (other appends make a node of
// their whole text).
type kvNodes struct {
	nodes    []kvNode
	ids      map[uint64]uint32 // parent<<32 | value -> node
	values   []string          // the canonical values met, each once
	valueIDs map[string]uint32
	acct     Charger // charged for the nodes and values
}

// kvNode is a value: values[value] appended to the parent node's.
type kvNode struct {
	parent, value uint32
}

// noParent is the parent of a whole value.
const noParent = ^uint32(0)

// node interns a node.
func (t *kvNodes) node(parent uint32, value string) uint32 {
	v, ok := t.valueIDs[value]
	if !ok {
		v = uint32(len(t.values))
		t.values = append(t.values, value)
		t.valueIDs[value] = v
		t.acct.Charge(48) // the slot and the map entry; the text is the operation's
	}
	key := uint64(parent)<<32 | uint64(v)
	if id, ok := t.ids[key]; ok {
		return id
	}
	id := uint32(len(t.nodes))
	t.nodes = append(t.nodes, kvNode{parent, v})
	t.ids[key] = id
	t.acct.Charge(32) // the node and its map entry
	return id
}

// state encodes a node as a state; id decodes it.
func (t *kvNodes) state(id uint32) string {
	return string([]byte{byte(id), byte(id >> 8), byte(id >> 16), byte(id >> 24)})
}

func (t *kvNodes) id(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// text is the canonical text of node id's value.
func (t *kvNodes) text(id uint32) string {
	n := t.nodes[id]
	if n.parent == noParent {
		return t.values[n.value]
	}
	return appendText(t.text(n.parent), t.values[n.value])
}

// equals reports whether node id's value is the canonical value want,
// comparing the quoted pieces from the end instead of building the text.
func (t *kvNodes) equals(id uint32, want string) bool {
	n := t.nodes[id]
	if n.parent == noParent {
		return t.values[n.value] == want
	}
	if !format.IsString(want) {
		return false // a node with a parent holds a string
	}
	rest := want[1 : len(want)-1]
	for n.parent != noParent {
		v := t.values[n.value]
		piece := v[1 : len(v)-1]
		if !strings.HasSuffix(rest, piece) {
			return false
		}
		rest = rest[:len(rest)-len(piece)]
		n = t.nodes[n.parent]
	}
	v := t.values[n.value]
	return v[1:len(v)-1] == rest
}

func (t *kvNodes) step(s string, op *record.Op) (bool, string) {
	id := t.id(s)
	switch op.Method {
	case "get", "read":
		return op.Unknown || t.equals(id, op.Result) || (op.Result == record.Nil && t.equals(id, emptyString)), s
	case "put", "write":
		return true, t.state(t.node(noParent, op.Args[0]))
	}
	v, base := op.Args[0], t.nodes[id]
	switch {
	case !format.IsString(v) || !format.IsString(t.values[base.value]):
		text := appendText(t.text(id), v) // a value that is no string: the whole text
		t.acct.Charge(int64(len(text)))
		return true, t.state(t.node(noParent, text))
	case base.parent == noParent && t.values[base.value] == emptyString:
		return true, t.state(t.node(noParent, v)) // "" followed by v is v
	}
	return true, t.state(t.node(id, v))
}
