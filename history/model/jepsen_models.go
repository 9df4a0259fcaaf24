package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/record"
)

// This file holds the models of Jepsen's workloads that have no older
// counterpart here, with the semantics of Knossos's models of the same
// names: mutex, multi-register and unordered-queue. (Jepsen's set shape,
// a final read of the whole set, is the set model's read.)

// mutex is a lock: acquire when free, release when held; results are
// ignored. Knossos's mutex.
type mutex struct{ byKey }

func (mutex) Name() string { return "mutex" }
func (mutex) Init() string { return "free" }
func (mutex) Validate(op *record.Op) error {
	return arity(op, "mutex", methodsOf("mutex"))
}

func (mutex) Step(s string, op *record.Op) (bool, string) {
	if op.Method == "acquire" || op.Method == "lock" {
		return s == "free", "held"
	}
	return s == "held", "free"
}

// multiRegister is a map of registers read and written by transactions
// (Knossos's multi-register, Jepsen's :txn): a txn's value is a sequence
// of micro-operations [:r k v] (read k, seeing v; v nil: not known) and
// [:w k v] (write v to k), applied atomically, in order. A register never
// written reads nil. The recorded result is the completed transaction
// (reads filled in); a pending one is taken from its invocation, reads
// unknown. States list key=value pairs, sorted by key, each ended by
// sepElem.
type multiRegister struct {
	byKey
	init string // the initial state: no register written, unless WithInitial
}

func (multiRegister) Name() string   { return "multi-register" }
func (m multiRegister) Init() string { return m.init }

// withInitial starts the registers from a map of their values ({:x 0
// :y 0}, as Knossos's (multi-register {:x 0 :y 0})); nil is no value.
func (m multiRegister) withInitial(v string) (Spec, error) {
	if v == record.Nil {
		m.init = ""
		return m, nil
	}
	open, items, ok := format.Elements(v)
	if !ok || open != '{' {
		return nil, fmt.Errorf("initial value %s of model multi-register: expected a map of registers to values, such as {:x 0 :y 0}", record.ShowValue(v))
	}
	regs := map[string]string{}
	for i := 0; i < len(items); i += 2 {
		if strings.Contains(items[i]+items[i+1], SepElem) || strings.Contains(items[i]+items[i+1], SepKey) {
			return nil, fmt.Errorf("initial value %s contains a control character reserved for state encodings", record.ShowValue(v))
		}
		regs[items[i]] = items[i+1]
	}
	m.init = encodeRegisters(regs)
	return m, nil
}

// MicroOp is one [f k v] of a transaction.
type MicroOp struct {
	Write bool   // a write (w); false: a read (r)
	Key   string // the key read or written
	Value string // Nil: a read whose value is not known
}

// SepKey separates a key from its value in a multi-register state.
const SepKey = "\x1e"

// ParseTxn reads a transaction written in EDN ([[:r :x 1] [:w :y 2]], or
// Knossos's [[:read :x 1] [:write :y 2]]) or JSON ([["r","x",1],["w","y",2]]).
func ParseTxn(text string) ([]MicroOp, error) {
	_, items, ok := format.Elements(text)
	if !ok || text[0] != '[' {
		return nil, fmt.Errorf("txn %s: expected a sequence of [f k v] micro-operations, f :r or :w", record.ShowValue(text))
	}
	txn := make([]MicroOp, 0, len(items))
	for _, m := range items {
		_, parts, ok := format.Elements(m)
		if !ok || m[0] != '[' || len(parts) != 3 {
			return nil, fmt.Errorf("txn %s: expected [f k v] micro-operations, found %s", record.ShowValue(text), record.ShowValue(m))
		}
		f := strings.TrimPrefix(parts[0], ":")
		if s, ok := format.Unquote(parts[0]); ok {
			f = s
		}
		write := f == "w" || f == "write"
		if !write && f != "r" && f != "read" {
			return nil, fmt.Errorf("txn %s: micro-operation %s: expected :r or :w (Knossos: :read or :write)", record.ShowValue(text), record.ShowValue(parts[0]))
		}
		k, val := parts[1], parts[2]
		if strings.Contains(k+val, SepElem) || strings.Contains(k+val, SepKey) {
			return nil, fmt.Errorf("txn %s: a key or value contains a control character reserved for state encodings", record.ShowValue(text))
		}
		txn = append(txn, MicroOp{Write: write, Key: k, Value: val})
	}
	return txn, nil
}

// txnText is the transaction of an invocation: its one argument (EDN's
// :value), or its arguments as the micro-operations (JSON Lines, where an
// array input gives several arguments).
func txnText(args []string) string {
	if len(args) == 1 {
		if _, items, ok := format.Elements(args[0]); ok && len(items) > 0 && strings.HasPrefix(items[0], "[") {
			return args[0] // already a sequence of micro-operations
		}
	}
	return "[" + strings.Join(args, " ") + "]"
}

func (multiRegister) Validate(op *record.Op) error {
	if err := arity(op, "multi-register", methodsOf("multi-register")); err != nil {
		return err
	}
	want, err := ParseTxn(txnText(op.Args))
	if err != nil {
		return err
	}
	if op.Unknown {
		return nil
	}
	done, err := ParseTxn(op.Result)
	if err != nil {
		return fmt.Errorf("result: %w", err)
	}
	if len(done) != len(want) {
		return fmt.Errorf("txn result %s has %d micro-operations, its invocation %d", record.ShowValue(op.Result), len(done), len(want))
	}
	return nil
}

func (multiRegister) Step(s string, op *record.Op) (bool, string) {
	text := op.Result
	if op.Unknown {
		text = txnText(op.Args)
	}
	txn, err := ParseTxn(text)
	if err != nil {
		return false, s
	}
	regs := map[string]string{}
	for _, kv := range strings.Split(s, SepElem) {
		if k, v, ok := strings.Cut(kv, SepKey); ok {
			regs[k] = v
		}
	}
	for _, m := range txn {
		cur, ok := regs[m.Key]
		if !ok {
			cur = record.Nil
		}
		switch {
		case m.Write:
			regs[m.Key] = m.Value
		case op.Unknown || m.Value == record.Nil:
		case m.Value != cur:
			return false, s
		}
	}
	return true, encodeRegisters(regs)
}

// encodeRegisters is the state of registers regs: key=value pairs sorted
// by key, each ended by sepElem.
func encodeRegisters(regs map[string]string) string {
	keys := make([]string, 0, len(regs))
	for k := range regs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + SepKey + regs[k] + SepElem)
	}
	return b.String()
}

// ShowState renders a multi-register state as {k v, …}.
func (multiRegister) ShowState(s string) string {
	var parts []string
	for _, kv := range strings.Split(strings.TrimSuffix(s, SepElem), SepElem) {
		if k, v, ok := strings.Cut(kv, SepKey); ok {
			parts = append(parts, record.ShowValue(k)+" "+record.ShowValue(v))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// unorderedQueue is a multiset of values: enqueue adds one, dequeue removes
// one (any) and returns it, or nil when empty (Knossos's unordered-queue).
// A dequeue with an unknown result may remove any element, so the model is
// nondeterministic; its states are the sets of possible multisets (the
// subset construction), each multiset a sorted sequence of elements ended
// by sepElem, the sets' members separated by sepSet.
type unorderedQueue struct{ byKey }

// sepSet separates the possible contents of an unordered queue.
const sepSet = "\x1d"

func (unorderedQueue) Name() string { return "unordered-queue" }
func (unorderedQueue) Init() string { return "" }
func (unorderedQueue) Validate(op *record.Op) error {
	err := arity(op, "unordered-queue", methodsOf("unordered-queue"))
	if err == nil && strings.Contains(strings.Join(append(op.Args, op.Result), ""), sepSet) {
		return fmt.Errorf("value contains a control character reserved for state encodings")
	}
	return err
}

func (unorderedQueue) Step(s string, op *record.Op) (bool, string) {
	next := map[string]bool{}
	for _, content := range strings.Split(s, sepSet) {
		elems := SplitElems(content)
		if op.Method == "enqueue" || op.Method == "enq" {
			next[joinSorted(append(elems, op.Args[0]))] = true
			continue
		}
		if len(elems) == 0 && (op.Unknown || op.Result == record.Nil) {
			next[content] = true
		}
		for i, e := range elems {
			if (op.Unknown || e == op.Result) && (i == 0 || elems[i-1] != e) {
				next[joinSorted(append(elems[:i:i], elems[i+1:]...))] = true
			}
		}
	}
	if len(next) == 0 {
		return false, s
	}
	states := make([]string, 0, len(next))
	for c := range next {
		states = append(states, c)
	}
	sort.Strings(states)
	return true, strings.Join(states, sepSet)
}

// ShowState renders the possible contents, {[a b] | [a]} when more than one.
func (unorderedQueue) ShowState(s string) string {
	parts := strings.Split(s, sepSet)
	for i, p := range parts {
		parts[i] = ShowState(p)
		if p == "" {
			parts[i] = "[]"
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "{" + strings.Join(parts, " | ") + "}"
}

// SplitElems lists the elements of a sequence state.
func SplitElems(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, SepElem), SepElem)
}

// joinSorted encodes elems, sorted, as a sequence state.
func joinSorted(elems []string) string {
	sort.Strings(elems)
	var b strings.Builder
	for _, e := range elems {
		b.WriteString(e + SepElem)
	}
	return b.String()
}
