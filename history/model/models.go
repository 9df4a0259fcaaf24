package model

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/linbis/linbis/history/record"
)

// Model describes one built-in model. The table of them, Builtins, is
// the one place that names a model's methods, its settable initial
// value and its polynomial procedure: Builtin, Models, GuessModel, the
// specs' Validate, Check's choice of procedure and the command line's
// help all read it.
type Model struct {
	// Name is the model's name as --model spells it.
	Name string
	// Methods maps each method to its number of arguments (-1: any).
	Methods map[string]int
	// Prefer lists methods whose use makes GuessModel choose this model
	// before those above it in Builtins (Jepsen's enqueue and dequeue
	// choose the unordered queue its queue workloads are checked with).
	Prefer []string
	// State describes the state and what the methods return, for people.
	State string
	// Initial describes the initial state when --initial can set it
	// (WithInitial), and is "" when it cannot.
	Initial string
	// Fast is the polynomial procedure that decides the model's
	// partitions when it applies (Search: none; see Algorithm).
	Fast Procedure

	// spec is the model's specification.
	spec Spec
}

// Builtins is the table of the built-in models, in the order in which
// GuessModel tries them.
var Builtins = []Model{
	{Name: "register", Methods: map[string]int{"read": 0, "get": 0, "write": 1, "put": 1},
		State: "read/get -> value, write/put v", Initial: "nil", spec: register{init: record.Nil}},
	{Name: "cas-register", Methods: map[string]int{"read": 0, "get": 0, "write": 1, "put": 1, "cas": 2, "compare-and-set": 2},
		State: "register + cas [from to] -> true/false", Initial: "nil", spec: register{cas: true, init: record.Nil}},
	{Name: "queue", Methods: map[string]int{"enq": 1, "enqueue": 1, "offer": 1, "deq": 0, "dequeue": 0, "poll": 0},
		State: "FIFO; deq -> value, or nil when empty", Fast: QueuePatterns, spec: sequence{fifo: true}},
	{Name: "stack", Methods: map[string]int{"push": 1, "pop": 0},
		State: "LIFO; pop -> value, or nil when empty", Fast: StackPeel, spec: sequence{}},
	{Name: "set", Methods: map[string]int{"add": 1, "remove": 1, "contains": 1, "read": 0},
		State: "add v, remove v (-> changed?), contains v -> true/false, read -> the whole set", spec: set{}},
	{Name: "counter", Methods: map[string]int{"inc": -1, "dec": -1, "add": 1, "read": 0, "get": 0},
		State: "inc [n], dec [n], add n, read/get -> integer", Initial: "0", spec: counter{init: "0"}},
	{Name: "kv", Methods: map[string]int{"get": 0, "read": 0, "put": 1, "write": 1, "append": 1},
		State: "per key: get -> string, put v, append v (nil reads equal \"\")", Initial: `""`, spec: kv{}},
	{Name: "mutex", Methods: map[string]int{"acquire": 0, "release": 0, "lock": 0, "unlock": 0},
		State: "acquire/lock when free, release/unlock when held", spec: mutex{}},
	{Name: "multi-register", Methods: map[string]int{"txn": -1},
		State: "txn [[:r k v] [:w k v] ...] (Knossos: :read, :write), atomic", Initial: "no register written; --initial {:x 0 :y 0}", spec: multiRegister{}},
	{Name: "unordered-queue", Methods: map[string]int{"enqueue": 1, "enq": 1, "dequeue": 0, "deq": 0}, Prefer: []string{"enqueue", "dequeue"},
		State: "a multiset; dequeue -> any element, or nil when empty", spec: unorderedQueue{}},
}

// Names lists the built-in model names, in the order of Builtins.
var Names = modelNames()

func modelNames() []string {
	names := make([]string, len(Builtins))
	for i := range Builtins {
		names[i] = Builtins[i].Name
	}
	return names
}

// lookupModel returns the table's model called name, or nil.
func lookupModel(name string) *Model {
	for i := range Builtins {
		if Builtins[i].Name == name {
			return &Builtins[i]
		}
	}
	return nil
}

// methodsOf returns the methods of the built-in model called name.
func methodsOf(name string) map[string]int { return lookupModel(name).Methods }

// Builtin returns the built-in specification called name.
func Builtin(name string) (Spec, error) {
	if m := lookupModel(name); m != nil {
		return m.spec, nil
	}
	return nil, fmt.Errorf("unknown model %q: expected one of %s", name, strings.Join(Names, ", "))
}

// FastProcedure returns the polynomial procedure that may decide the
// partitions of spec: that of the table's model when spec is that model
// as Builtin returns it (not a product over keys, not another Spec of
// the same name), else Search.
func FastProcedure(spec Spec) Procedure {
	for i := range Builtins {
		if m := &Builtins[i]; m.Fast != Search && spec == m.spec {
			return m.Fast
		}
	}
	return Search
}

// covers reports whether m has every method of used.
func (m *Model) covers(used map[string]bool) bool {
	for f := range used {
		if _, ok := m.Methods[f]; !ok {
			return false
		}
	}
	return true
}

// GuessModel picks the built-in model whose methods cover those of h: the
// first in Builtins, unless a later one that covers them prefers one of
// its methods (Model.Prefer).
func GuessModel(h *record.History) (string, error) {
	used := map[string]bool{}
	for i := range h.Ops {
		used[h.Ops[i].Method] = true
	}
	if len(used) == 0 {
		return Builtins[0].Name, nil
	}
	guess := ""
	for i := range Builtins {
		m := &Builtins[i]
		if !m.covers(used) {
			continue
		}
		if slices.ContainsFunc(m.Prefer, func(f string) bool { return used[f] }) {
			return m.Name, nil
		}
		if guess == "" {
			guess = m.Name
		}
	}
	if guess != "" {
		return guess, nil
	}
	var ms []string
	for m := range used {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	return "", fmt.Errorf("%s: no built-in model has the methods %s: give --model", h.Name, strings.Join(ms, ", "))
}

// WithInitial returns spec starting from value instead of its default
// initial state (Jepsen's register tests start at 0, Knossos's models at
// nil); only the models whose Model.Initial is set have one.
func WithInitial(spec Spec, value string) (Spec, error) {
	if s, ok := spec.(interface{ withInitial(string) (Spec, error) }); ok {
		return s.withInitial(value)
	}
	var have []string
	for i := range Builtins {
		if Builtins[i].Initial != "" {
			have = append(have, Builtins[i].Name)
		}
	}
	return nil, fmt.Errorf("model %s has no settable initial value (%s have)", spec.Name(), strings.Join(have, ", "))
}

// Help describes the built-in models for the command line's help,
// one line each: name, state and methods, initial value.
func Help() string {
	var b strings.Builder
	for i := range Builtins {
		m := &Builtins[i]
		fmt.Fprintf(&b, "  %-16s %s", m.Name, m.State)
		if m.Initial != "" {
			fmt.Fprintf(&b, "; initially %s", m.Initial)
		}
		if m.Fast != Search {
			fmt.Fprintf(&b, "; %s", m.Fast)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Procedure names a decision procedure that decided a partition.
type Procedure uint8

const (
	// Search is the Wing–Gong–Lowe search (search.go).
	Search Procedure = iota
	// QueuePatterns is the bad-pattern check for queues (queue.go).
	QueuePatterns
	// StackPeel is the peeling procedure for stacks (stack.go).
	StackPeel
)

// String names the procedure as the CLI prints it.
func (p Procedure) String() string {
	return [...]string{"search", "queue-patterns", "stack-peel"}[p]
}

// MarshalText makes a procedure its name in JSON.
func (p Procedure) MarshalText() ([]byte, error) { return []byte(p.String()), nil }
