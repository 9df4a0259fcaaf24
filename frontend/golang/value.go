package golang

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// atomic.Value holding pointers. Go code publishes an immutable object
// through an atomic.Value (copy on write: v.Store(&cfg), v.Load().(*Config)).
// When the Values of the code the client reaches hold pointers of one
// type *T, a Value is a reference to a node of T (nil as null): Store,
// Swap and CompareAndSwap take the pointer converted to any, Load and
// Swap give an any that the code asserts to *T (a nil one panics, as in
// Go) or compares with nil. Values holding integers are any values
// (anyType).

// valueCall returns the name of the atomic.Value method c calls, "" if
// it calls none.
func valueCall(c *ssa.CallCommon) string {
	f, ok := c.Value.(*ssa.Function)
	if !ok || c.IsInvoke() {
		return ""
	}
	in, ok := intrinsicOf(f)
	if !ok || in.Pkg != "sync/atomic" || in.Recv != "Value" {
		return ""
	}
	return in.Name
}

// valueAny reports whether an any value of the code is an atomic.Value's
// pointer: a pointer converted to any only to be stored into a Value
// (Store, Swap, CompareAndSwap), or a Value's Load or Swap asserted to a
// pointer type.
func valueAny(in ssa.Instruction) bool {
	return pointerAny(in, valuePuts, valueTakes)
}

// valuePuts reports whether u, a use of the any mi, stores it into a
// Value (Store, Swap, CompareAndSwap) whose address is not mi's pointer
// itself: a Value holding its own address is no node of the code's.
func valuePuts(mi *ssa.MakeInterface, u ssa.Instruction) bool {
	c, ok := u.(*ssa.Call)
	if !ok {
		return false
	}
	switch valueCall(c.Common()) {
	case "Store", "Swap", "CompareAndSwap":
		return c.Common().Args[0] != mi.X
	}
	return false
}

// valueTakes reports whether c gives a Value's content: Load or Swap.
func valueTakes(c *ssa.CallCommon) bool {
	n := valueCall(c)
	return n == "Load" || n == "Swap"
}

// valueType finds the type the atomic.Values of the code hold pointers
// to (valueAny), nil when they hold none; it refuses pointers of two
// types, pointers beside integers, and the uses of a Value's pointer
// other than asserting it to its type, comparing it with nil and
// storing it back (CompareAndSwap's old value).
func (g *gen) valueType() types.Type {
	var elem types.Type
	var ints token.Pos
	note := func(t types.Type, pos token.Pos) {
		p := t.Underlying().(*types.Pointer).Elem()
		switch {
		case elem == nil:
			elem = p
		case !types.Identical(elem, p):
			q := types.RelativeTo(g.t.Pkg.Pkg)
			g.refuse(pos, "atomic.Value holding pointers of two types (*"+types.TypeString(elem, q)+" and *"+types.TypeString(p, q)+")", "not translated yet: an atomic.Value holds one type, and the code's Values one type between them")
		}
	}
	var loads []*ssa.Call
	for _, fn := range g.t.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				switch in := in.(type) {
				case *ssa.MakeInterface:
					if valueAny(in) {
						note(in.X.Type(), posOf(in))
					}
				case *ssa.TypeAssert:
					if valueAny(in) {
						note(in.AssertedType, posOf(in))
					}
				case *ssa.Call:
					if valueTakes(in.Common()) {
						loads = append(loads, in)
					}
					if valueCall(in.Common()) == "" {
						continue
					}
					for _, a := range in.Common().Args[1:] {
						if mi, ok := a.(*ssa.MakeInterface); ok && !valueAny(mi) && !ints.IsValid() {
							ints = posOf(mi) // an integer stored
						}
					}
				}
			}
		}
	}
	if elem == nil {
		return nil
	}
	if ints.IsValid() {
		g.refuse(ints, "atomic.Value holding an integer where the code's Values hold pointers", "not translated yet: the code's Values hold integers, or pointers of one type")
	}
	for _, l := range loads {
		for _, u := range uses(l) {
			switch u := u.(type) {
			case *ssa.TypeAssert:
				if valueAny(u) {
					continue
				}
			case *ssa.BinOp:
				if isNil(u.X) || isNil(u.Y) {
					continue
				}
			case *ssa.Call:
				if valueCall(u.Common()) == "CompareAndSwap" && u.Common().Args[1] == ssa.Value(l) {
					continue
				}
			}
			g.refuse(posOf(u), "this use of an atomic.Value holding pointers", "not translated yet: assert the value to its pointer type, compare it with nil, or pass it to CompareAndSwap as the old value")
		}
	}
	return elem
}

// isValueResult reports whether v is the any an atomic.Value's Load or
// Swap returns.
func isValueResult(v ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	return ok && valueTakes(c.Common())
}
