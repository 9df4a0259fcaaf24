package record

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Nil is the absent value (EDN nil, JSON null): what a read of a register
// never written returns and what a dequeue of an empty queue returns. It is
// a string no parser can produce from a user's text.
const Nil = "\x00nil"

// Pending is the return time of an operation that never returned.
const Pending int64 = math.MaxInt64

// Pos is where an operation was read from (1-based line; 0 when built in code).
type Pos struct {
	Line int // 1-based line; 0 when built in code
	Col  int // 1-based column; 0 when built in code or not known
}

// Op is one operation of a history: a call and its return on one client.
type Op struct {
	Client int // the client (process) that ran it; its operations do not overlap
	// Call and Return are timestamps; only their order matters. Return is
	// Pending when the operation never returned: it may or may not have
	// taken effect, at any time after its call.
	Call, Return int64
	Method       string // the operation's name, as the specification knows it
	// Key names the independent object the operation acts on ("" if none).
	Key    string
	Args   []string // the arguments, each a value's canonical text (history/format)
	Result string   // the result's canonical text; "" for none, Nil for nil
	// Unknown says the result was not observed; it matches any result.
	Unknown bool
	Pos     Pos // where it was read from
}

// IsPending reports whether op never returned.
func (op *Op) IsPending() bool { return op.Return == Pending }

// String renders op as `c3 write(4)`, `c8 get() on key 7 -> ""`: values
// as show renders them, the key after the call.
func (op *Op) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "c%d %s(", op.Client, op.Method)
	for i, a := range op.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(ShowValue(a))
	}
	b.WriteString(")")
	if op.Key != "" {
		b.WriteString(" on key " + ShowValue(op.Key))
	}
	switch {
	case op.IsPending():
		b.WriteString(" pending")
	case op.Unknown:
		b.WriteString(" -> ?")
	case op.Result != "" || op.Method == "read" || op.Method == "get":
		b.WriteString(" -> " + ShowValue(op.Result))
	}
	return b.String()
}

// ShowValue renders a value for people: its canonical text (history/format), which
// says its type (a string is quoted, so a read of "" is seen), Nil as nil.
func ShowValue(v string) string {
	switch v {
	case Nil:
		return "nil"
	case "":
		return `""` // a value built in code as the empty string
	}
	return v
}

// History is a recorded execution: its operations and where it came from.
type History struct {
	Name string // the file it was read from ("<stdin>" when piped), or a name given in code
	// Format is the format the history was read in (one of Formats but
	// "auto"), whose data model its values follow; "" when built in code.
	Format string
	// NilRead is the reading the reader applied to reads of nil
	// (NilReadAuto when built in code).
	NilRead NilRead
	CASFail CASFail // the reading the reader applied to failed cas operations
	Ops     []Op    // the operations, in the order read
	// Notes are what the reader decided that the user should know (a
	// convention chosen); Warnings are what in the input looks wrong but
	// did not stop the check (events skipped, a client's operations
	// overlapping). One line each, starting with the file name and, when
	// it concerns one place, line and column.
	Notes, Warnings []string
}

// Keys returns the distinct keys of h in order of first appearance.
func (h *History) Keys() []string {
	seen := map[string]bool{}
	var keys []string
	for i := range h.Ops {
		k := h.Ops[i].Key
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// Clients returns the distinct clients of h in increasing order.
func (h *History) Clients() []int {
	seen := map[int]bool{}
	var cs []int
	for i := range h.Ops {
		if c := h.Ops[i].Client; !seen[c] {
			seen[c] = true
			cs = append(cs, c)
		}
	}
	sort.Ints(cs)
	return cs
}

// Validate checks the invariants every reader guarantees: a call before its
// return, a pending operation has an unknown result.
func (h *History) Validate() error {
	for i := range h.Ops {
		op := &h.Ops[i]
		if op.Return < op.Call {
			return fmt.Errorf("%s: operation %d (%s) returns at %d before its call at %d", h.Name, i, op, op.Return, op.Call)
		}
		if op.IsPending() && !op.Unknown {
			return fmt.Errorf("%s: pending operation %d (%s) has a known result", h.Name, i, op)
		}
	}
	return nil
}
