package model

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/record"
)

// Spec is a sequential specification: a deterministic state machine over
// operations. States are strings so that the checker can intern and hash
// them (a state's encoding is the state). A nondeterministic object is
// made deterministic by taking sets of states as states (unordered-queue,
// and the model specs of cmd/linbis).
//
// A Spec may also have these methods, which the package looks for:
//
//   - ShowState(state string) string renders a state for people in the
//     evidence (otherwise ShowState of the package is used);
//   - Err() error reports a failure met while stepping (a model spec's
//     failed assertion), after which no verdict holds; callers check it;
//   - withInitial(value string) (Spec, error), unexported, makes WithInitial
//     work for the built-in models with a single value.
type Spec interface {
	// Name is the model's name as given to --model.
	Name() string
	// Init is the initial state.
	Init() string
	// Step applies op to state. ok is false when op's recorded result is
	// impossible in state. When op.Unknown, any result is allowed, so ok
	// must be true whenever the method can take effect at all.
	Step(state string, op *record.Op) (ok bool, next string)
	// Validate rejects operations the model does not know (wrong method or
	// arity), so that bad input is an error rather than a false verdict.
	Validate(op *record.Op) error
	// Partition splits ops into groups of independent objects
	// (P-compositionality): ops is linearizable iff every group is.
	Partition(ops []record.Op) [][]int
}

// SepElem ends each element of a sequence or set state; Validate rejects
// values containing it.
const SepElem = "\x1f"

// The built-in models implement Spec (checked at compile time).
var (
	_ Spec = register{}
	_ Spec = kv{}
	_ Spec = sequence{}
	_ Spec = set{}
	_ Spec = counter{}
	_ Spec = mutex{}
	_ Spec = multiRegister{}
	_ Spec = unorderedQueue{}
)

// byKey is the Partition of every built-in model: one group per key.
type byKey struct{}

func (byKey) Partition(ops []record.Op) [][]int { return PartitionByKey(ops) }

// PartitionByKey groups operation indices by Op.Key, groups in order of
// the key's first appearance.
func PartitionByKey(ops []record.Op) [][]int {
	// Count first, so that the groups are slices of one array: growing
	// each by appending allocated three times the memory.
	index := map[string]int{}
	var sizes []int
	last, lastGroup := "", -1 // the previous operation's key and group: runs of one key are common
	group := func(key string) int {
		if lastGroup >= 0 && key == last {
			return lastGroup
		}
		g, ok := index[key]
		if !ok {
			g = len(sizes)
			index[key] = g
			sizes = append(sizes, 0)
		}
		last, lastGroup = key, g
		return g
	}
	for i := range ops {
		sizes[group(ops[i].Key)]++
	}
	all := make([]int, len(ops))
	groups := make([][]int, len(sizes))
	from := 0
	for g, n := range sizes {
		groups[g] = all[from : from : from+n]
		from += n
	}
	for i := range ops {
		g := group(ops[i].Key)
		groups[g] = append(groups[g], i)
	}
	return groups
}

// arity checks op's method against the allowed ones and their argument counts.
func arity(op *record.Op, model string, methods map[string]int) error {
	n, ok := methods[op.Method]
	if !ok {
		names := make([]string, 0, len(methods))
		for m := range methods {
			names = append(names, m)
		}
		sort.Strings(names)
		return fmt.Errorf("model %s has no method %q: expected one of %s", model, op.Method, strings.Join(names, ", "))
	}
	if n >= 0 && len(op.Args) != n {
		return fmt.Errorf("%s of model %s takes %d argument(s), found %d", op.Method, model, n, len(op.Args))
	}
	for _, v := range op.Args {
		if err := encodable(v); err != nil {
			return err
		}
	}
	return encodable(op.Result)
}

// encodable refuses a value that contains the separator of state encodings.
func encodable(v string) error {
	if strings.Contains(v, SepElem) {
		return fmt.Errorf("value %q contains a control character reserved for state encodings", v)
	}
	return nil
}

// register is a read/write register, with compare-and-set when cas is set.
type register struct {
	byKey
	cas  bool
	init string // the initial value, Nil unless WithInitial
}

func (r register) withInitial(v string) (Spec, error) {
	if strings.Contains(v, SepElem) {
		return nil, fmt.Errorf("initial value %q contains a control character reserved for state encodings", v)
	}
	r.init = v
	return r, nil
}

func (r register) Name() string {
	if r.cas {
		return "cas-register"
	}
	return "register"
}
func (r register) Init() string { return r.init }

func (r register) Validate(op *record.Op) error {
	if err := arity(op, r.Name(), methodsOf(r.Name())); err != nil {
		return err
	}
	if record.IsCAS(op.Method) && !op.Unknown && op.Result != "true" && op.Result != "false" {
		return fmt.Errorf("cas result %s: expected true or false", record.ShowValue(op.Result))
	}
	return nil
}

func (register) Step(s string, op *record.Op) (bool, string) {
	switch op.Method {
	case "read", "get":
		return op.Unknown || op.Result == s, s
	case "write", "put":
		return true, op.Args[0]
	}
	// cas
	hit := op.Args[0] == s
	next := s
	if hit {
		next = op.Args[1]
	}
	return op.Unknown || (op.Result == "true") == hit, next
}

// kv is one key of a key-value store: get, put and append of strings; a
// missing key reads as the empty string (a nil result equals "").
//
// A search steps its own instance (ForSearch, kvnodes.go), whose states
// are nodes of a tree of appended values instead of whole texts.
type kv struct {
	byKey
	init  string   // every key's initial value, the empty string unless WithInitial
	nodes *kvNodes // one search's values; nil in the table's kv, whose states are texts
}

// emptyString is the canonical empty string, kv's initial value.
const emptyString = `""`

func (k kv) withInitial(v string) (Spec, error) {
	if v == record.Nil {
		v = emptyString
	}
	k.init = v
	return k, nil
}

func (kv) Name() string { return "kv" }
func (k kv) Init() string {
	init := k.init
	if init == "" {
		init = emptyString
	}
	if k.nodes != nil {
		return k.nodes.state(k.nodes.node(noParent, init))
	}
	return init
}
func (kv) Validate(op *record.Op) error {
	return arity(op, "kv", methodsOf("kv"))
}

func (k kv) Step(s string, op *record.Op) (bool, string) {
	if k.nodes != nil {
		return k.nodes.step(s, op)
	}
	switch op.Method {
	case "get", "read":
		return op.Unknown || op.Result == s || (op.Result == record.Nil && s == emptyString), s
	case "put", "write":
		return true, op.Args[0]
	}
	return true, appendText(s, op.Args[0])
}

// appendText is kv's append: the string of s's text followed by v's. Two
// strings are joined in their quoted form (quoteString quotes each
// character on its own); another value contributes its canonical text,
// nil none.
func appendText(s, v string) string {
	if format.IsString(s) && format.IsString(v) {
		return s[:len(s)-1] + v[1:]
	}
	text := func(x string) string {
		if t, ok := format.Unquote(x); ok {
			return t
		}
		if x == record.Nil {
			return ""
		}
		return x
	}
	return format.QuoteString(text(s) + text(v))
}

// sequence is a FIFO queue (fifo) or a LIFO stack; removing from an empty
// one returns Nil. The state lists the elements, each ended by sepElem,
// oldest first.
type sequence struct {
	byKey
	fifo bool
}

func (q sequence) Name() string {
	if q.fifo {
		return "queue"
	}
	return "stack"
}
func (sequence) Init() string { return "" }

func (q sequence) Validate(op *record.Op) error {
	return arity(op, q.Name(), methodsOf(q.Name()))
}

// IsInsert reports whether op adds an element (enq, push, …).
func IsInsert(op *record.Op) bool {
	switch op.Method {
	case "enq", "enqueue", "offer", "push":
		return true
	}
	return false
}

func (q sequence) Step(s string, op *record.Op) (bool, string) {
	if IsInsert(op) {
		return true, s + op.Args[0] + SepElem
	}
	if s == "" {
		return op.Unknown || op.Result == record.Nil, s
	}
	var v, rest string
	if q.fifo {
		i := strings.Index(s, SepElem)
		v, rest = s[:i], s[i+1:]
	} else {
		i := strings.LastIndex(s[:len(s)-1], SepElem) + 1
		v, rest = s[i:len(s)-1], s[:i]
	}
	return op.Unknown || op.Result == v, rest
}

// set is a set of values: add and remove (results true/false optional:
// whether the set changed), contains (result true/false) and read, whose
// result is the whole set, as Jepsen's set workload reads it (#{1 2},
// [1 2]; in any order).
type set struct{ byKey }

func (set) Name() string { return "set" }
func (set) Init() string { return "" }
func (set) Validate(op *record.Op) error {
	if err := arity(op, "set", methodsOf("set")); err != nil {
		return err
	}
	if op.Method == "contains" && !op.Unknown && op.Result != "true" && op.Result != "false" {
		return fmt.Errorf("contains result %s: expected true or false", record.ShowValue(op.Result))
	}
	if op.Method == "read" && !op.Unknown {
		if _, err := parseElems(op.Result); err != nil {
			return err
		}
	}
	return nil
}

// parseElems reads a collection of values (EDN #{…}, […], (…) or JSON
// […]) into a set state: its distinct elements sorted, each ended by
// sepElem.
func parseElems(text string) (string, error) {
	if text == record.Nil {
		return "", nil // Jepsen reads an empty set as nil at times
	}
	open, items, ok := format.Elements(text)
	if !ok || open == '{' {
		return "", fmt.Errorf("read result %s: expected a collection of the set's elements, such as #{1 2} or [1, 2]", record.ShowValue(text))
	}
	elems := make([]string, 0, len(items))
	for _, e := range items {
		if err := encodable(e); err != nil {
			return "", err
		}
		elems = append(elems, e+SepElem) // sorted as set.Step keeps them
	}
	return strings.Join(slices.Compact(slices.Sorted(slices.Values(elems))), ""), nil
}

func (set) Step(s string, op *record.Op) (bool, string) {
	if op.Method == "read" {
		if op.Unknown {
			return true, s
		}
		got, err := parseElems(op.Result)
		return err == nil && got == s, s
	}
	elems := strings.SplitAfter(s, SepElem)
	elems = elems[:len(elems)-1] // the last piece is empty
	v := op.Args[0] + SepElem
	i := sort.SearchStrings(elems, v)
	in := i < len(elems) && elems[i] == v
	want := func(b bool) bool {
		return op.Unknown || (op.Result != "true" && op.Result != "false") || (op.Result == "true") == b
	}
	switch op.Method {
	case "contains":
		return op.Unknown || (op.Result == "true") == in, s
	case "add":
		if in {
			return want(false), s
		}
		elems = append(elems[:i], append([]string{v}, elems[i:]...)...)
		return want(true), strings.Join(elems, "")
	}
	if !in {
		return want(false), s
	}
	return want(true), strings.Join(append(elems[:i:i], elems[i+1:]...), "")
}

// counter is an integer, starting at 0 unless WithInitial: inc and dec (by
// 1 or by their argument), add n, and read/get returning the value.
type counter struct {
	byKey
	init string
}

func (c counter) withInitial(v string) (Spec, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("initial value %q of model counter: expected an integer", v)
	}
	c.init = strconv.FormatInt(n, 10)
	return c, nil
}

func (counter) Name() string   { return "counter" }
func (c counter) Init() string { return c.init }
func (counter) Validate(op *record.Op) error {
	if err := arity(op, "counter", methodsOf("counter")); err != nil {
		return err
	}
	if len(op.Args) > 1 {
		return fmt.Errorf("%s of model counter takes at most 1 argument, found %d", op.Method, len(op.Args))
	}
	if len(op.Args) == 1 {
		if _, err := strconv.ParseInt(op.Args[0], 10, 64); err != nil {
			return fmt.Errorf("%s argument %s: expected an integer", op.Method, record.ShowValue(op.Args[0]))
		}
	}
	if (op.Method == "read" || op.Method == "get") && !op.Unknown {
		if _, err := strconv.ParseInt(op.Result, 10, 64); err != nil {
			return fmt.Errorf("%s result %s: expected an integer", op.Method, record.ShowValue(op.Result))
		}
	}
	return nil
}

func (counter) Step(s string, op *record.Op) (bool, string) {
	n, _ := strconv.ParseInt(s, 10, 64)
	d := int64(1)
	if len(op.Args) == 1 {
		d, _ = strconv.ParseInt(op.Args[0], 10, 64)
	}
	switch op.Method {
	case "read", "get":
		r, err := strconv.ParseInt(op.Result, 10, 64)
		return op.Unknown || (err == nil && r == n), s
	case "dec":
		d = -d
	}
	return true, strconv.FormatInt(n+d, 10)
}

// ShowState renders a state of a built-in spec for people: elements of
// queues, stacks and sets in brackets, nil as nil.
func ShowState(s string) string {
	if strings.Contains(s, SepElem) {
		parts := strings.Split(strings.TrimSuffix(s, SepElem), SepElem)
		for i := range parts {
			parts[i] = record.ShowValue(parts[i])
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	return record.ShowValue(s)
}

// ShowStateOf renders a state of spec, by the spec's own ShowState method
// if it has one.
func ShowStateOf(spec Spec, s string) string {
	if sh, ok := spec.(interface{ ShowState(string) string }); ok {
		return sh.ShowState(s)
	}
	return ShowState(s)
}
