package ir

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// The values both front ends and the machine share, and the bounds of the
// most-general client a program is compiled for.

// Empty is the value of the EMPTY constant; it prints as EMPTY in labels.
const Empty int32 = -(1 << 30)

// Binop applies the binary operator op to x and y; false for a division
// by zero.
func Binop(op syntax.Token, x, y int32) (int32, bool) {
	b := func(c bool) int32 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case syntax.ADD:
		return x + y, true
	case syntax.SUB:
		return x - y, true
	case syntax.MUL:
		return int32(int64(x) * int64(y) % (1 << 31)), true
	case syntax.QUO:
		if y == 0 {
			return 0, false
		}
		return x / y, true
	case syntax.REM:
		if y == 0 {
			return 0, false
		}
		return x % y, true
	case syntax.EQL:
		return b(x == y), true
	case syntax.NEQ:
		return b(x != y), true
	case syntax.LSS:
		return b(x < y), true
	case syntax.LEQ:
		return b(x <= y), true
	case syntax.GTR:
		return b(x > y), true
	case syntax.GEQ:
		return b(x >= y), true
	}
	return 0, true
}

// Default client bounds, used for what a client block leaves out.
const (
	DefaultThreads = 2
	DefaultOps     = 2
)

// ClientBounds returns the bounds of prog's client block, with
// DefaultThreads threads, DefaultOps operations and values 1..2 for
// anything it leaves out.
func ClientBounds(prog *check.Program) Bounds {
	b := Bounds{Threads: DefaultThreads, Ops: DefaultOps, Values: []int{1, 2}}
	if c := prog.Client; c != nil {
		if c.Threads > 0 {
			b.Threads = c.Threads
		}
		if c.Ops != 0 {
			b.Ops = c.Ops
		}
		if len(c.Values) > 0 {
			b.Values = append([]int(nil), c.Values...)
		}
		for _, o := range c.Only {
			if b.Only == nil {
				b.Only = map[int][]string{}
			}
			for _, id := range o.Methods {
				b.Only[o.Thread] = append(b.Only[o.Thread], id.Name)
			}
		}
	}
	return b
}

// Bounds are the bounds of the most-general client: Threads threads each
// performing up to Ops operations (-1: forever), each with any argument
// drawn from Values. Its JSON form is the one shape of bounds in every
// --json output of linbis.
type Bounds struct {
	Threads int   `json:"threads"` // the number of client threads
	Ops     int   `json:"ops"`     // operations per thread; -1 = forever
	Values  []int `json:"values"`  // the argument values the clients pass, in order
	// Only restricts threads (numbered from 1) to some methods, from the
	// client block's `only` lines; nil means every thread calls every method.
	Only map[int][]string `json:"only,omitempty"`
}

// String prints the bounds as threads=N ops=M values=V,….
func (b Bounds) String() string {
	ops := fmt.Sprint(b.Ops)
	if b.Ops < 0 {
		ops = "forever"
	}
	vs := make([]string, len(b.Values))
	for i, v := range b.Values {
		vs[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("threads=%d ops=%s values=%s", b.Threads, ops, strings.Join(vs, ","))
}

// FormatValue renders a value of kind k as labels print it.
func FormatValue(k check.Kind, v int32) string {
	switch {
	case k == check.Bool && v == 0:
		return "false"
	case k == check.Bool:
		return "true"
	case v == Empty:
		return "EMPTY"
	}
	return strconv.Itoa(int(v))
}

// Mode says how a program's memory and steps are modelled.
type Mode struct {
	// Explicit: explicit memory, nodes come back only through free (see
	// semantics.Options).
	Explicit bool
	// FineGrained: accesses to thread-private nodes are steps of their own
	// (see semantics.Options).
	FineGrained bool
}
