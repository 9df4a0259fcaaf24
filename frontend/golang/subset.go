package golang

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/linbis/linbis/frontend/syntax"
)

// maxArray bounds the length of an array or a slice made with a constant
// length: each element is a slot of the state vector.
const maxArray = 1024

// checker walks the functions the client reaches, collecting them and
// refusing every construct outside the subset (frontend/GO.md).
type checker struct {
	t    *Target
	errs syntax.ErrorList
	// done: functions walked; active: those on the walk's stack (a call of
	// one is recursion).
	done, active map[*ssa.Function]bool
	// interior: parameters that some call passes the address of a field,
	// an element or a package variable (see addrUses).
	interior map[*ssa.Parameter]bool
	globals  map[*ssa.Global]bool
	// compared: the comparisons of addresses, each with its other
	// operand, which must be an address too (or nil).
	compared [][2]ssa.Value
	// typeWhy caches typeReason; inProgress guards recursive types.
	typeWhy    map[types.Type]string
	inProgress map[types.Type]bool
}

// check walks the methods and the constructor, and everything they call
// in the package, filling Funcs and Globals.
func (t *Target) check() error {
	t.poolNew = map[poolKey]*ssa.Function{}
	t.LocPhis = map[*ssa.Phi]bool{}
	t.locFields, t.LocVals, t.LocResults = map[locField]bool{}, map[ssa.Value]bool{}, map[*ssa.Function]uint64{}
	t.LocGlobals, t.AddrCasts = map[*ssa.Global]bool{}, map[ssa.Value]ssa.Value{}
	t.AddrResults, t.AddrCalls = map[*ssa.Function]bool{}, map[ssa.Value]bool{}
	c := &checker{t: t, done: map[*ssa.Function]bool{}, active: map[*ssa.Function]bool{},
		interior: map[*ssa.Parameter]bool{}, globals: map[*ssa.Global]bool{},
		typeWhy: map[types.Type]string{}, inProgress: map[types.Type]bool{}}
	// A field outside the subset is reported once, where it is declared,
	// rather than at every use.
	st := t.Type.Underlying().(*types.Struct)
	for f := range st.Fields() {
		if why := c.typeReason(f.Type()); why != "" && f.Name() != "_" {
			c.refuse(f.Pos(), "field "+f.Name()+" of type "+c.typeString(f.Type()), why)
		}
	}
	if len(c.errs) > 0 {
		c.errs.RemoveMultiples()
		return c.errs
	}
	roots := append([]*ssa.Function(nil), t.Methods...)
	if t.Ctor != nil {
		roots = append(roots, t.Ctor)
	}
	for _, fn := range roots {
		c.walk(fn)
	}
	c.locLoads()
	for _, cmp := range c.compared {
		if _, phi := cmp[1].(*ssa.Phi); !c.isAddr(cmp[1]) && !isNil(cmp[1]) && !phi { // a φ is a loc when it merges addresses
			c.refuse(posOf(cmp[0].(ssa.Instruction)), "comparing the address of a field, an element or a package variable with another pointer", "addresses are compared with addresses and nil")
		}
	}
	for g := range c.globals {
		t.Globals = append(t.Globals, g)
	}
	sortGlobals(t.Globals)
	for k, fn := range t.poolNews() {
		t.poolNew[k] = fn
		c.walk(fn)
	}
	c.errs.RemoveMultiples()
	return c.errs.Err()
}

// refuse records that construct, at pos, is outside the subset; why says
// what is supported instead.
func (c *checker) refuse(pos token.Pos, construct, why string) {
	c.errs.Add(c.t.Position(pos), fmt.Sprintf("%s is not supported (%s)", construct, why))
}

// walk checks fn and, depth first, the functions it calls; it appends fn
// to Funcs after its callees.
func (c *checker) walk(fn *ssa.Function) {
	if c.done[fn] {
		return
	}
	c.done[fn], c.active[fn] = true, true
	if fn.Blocks == nil {
		c.refuse(fn.Pos(), "function "+fn.Name()+" without a body", "the package's own functions are translated from their Go source")
	}
	for _, p := range fn.Params {
		pos := p.Pos()
		if !pos.IsValid() {
			pos = fn.Pos()
		}
		c.value(p, pos)
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			c.instr(fn, in)
		}
	}
	c.active[fn] = false
	c.t.Funcs = append(c.t.Funcs, fn)
}

// posOf returns the position of an instruction, or of the nearest one
// that uses its value, or of its function.
func posOf(in ssa.Instruction) token.Pos {
	if p := in.Pos(); p.IsValid() {
		return p
	}
	if v, ok := in.(ssa.Value); ok && v.Referrers() != nil {
		for _, r := range *v.Referrers() {
			if p := r.Pos(); p.IsValid() {
				return p
			}
		}
	}
	return in.Parent().Pos()
}

// instr checks one instruction.
func (c *checker) instr(fn *ssa.Function, in ssa.Instruction) {
	pos := posOf(in)
	if st, ok := in.(*ssa.Store); ok {
		if key, newFn, ok := poolNewStore(st); ok { // s.pool.New = func() any { … }
			if old := c.t.poolNew[key]; old != nil && old != newFn {
				c.refuse(pos, "a pool given two New functions", "a pool's New is set once, to one function")
			}
			c.t.poolNew[key] = newFn
			c.walk(newFn)
			return
		}
	}
	switch in := in.(type) {
	case *ssa.Alloc, *ssa.Phi, *ssa.Extract, *ssa.Field, *ssa.ChangeType, *ssa.Store,
		*ssa.If, *ssa.Jump, *ssa.Return, *ssa.RunDefers, *ssa.Panic, *ssa.DebugRef:
	case *ssa.FieldAddr:
		if isPool(in.X.Type().Underlying().(*types.Pointer).Elem()) {
			return // a pool's New, set by a store poolNewStore finds (pool.go)
		}
		c.addrUses(in)
	case *ssa.IndexAddr:
		if _, ok := in.X.Type().Underlying().(*types.Basic); ok {
			c.refuse(pos, "indexing a string", "strings are outside the subset")
			return
		}
		c.addrUses(in)
	case *ssa.Index:
		if _, ok := in.X.Type().Underlying().(*types.Basic); ok {
			c.refuse(pos, "indexing a string", "strings are outside the subset")
			return
		}
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			c.refuse(pos, "channel receive", "channels are outside the subset; the client starts the goroutines")
			return
		}
	case *ssa.BinOp:
		if types.IsInterface(in.X.Type()) && !isNil(in.X) && !isNil(in.Y) {
			c.refuse(pos, "comparison of two interface values", "an any value may be compared with nil, or converted back with a type assertion")
			return
		}
		if in.Op == token.SHL || in.Op == token.SHR {
			if b, ok := in.Y.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger == 0 {
				c.refuse(pos, "shift by "+b.String(), "shift counts are integers")
				return
			}
		}
	case *ssa.Convert:
		if why := convertReason(in.X.Type(), in.Type()); why != "" {
			c.refuse(pos, fmt.Sprintf("conversion from %s to %s", c.typeString(in.X.Type()), c.typeString(in.Type())), why)
			return
		}
	case *ssa.ChangeInterface:
		if !isEmptyInterface(in.Type()) {
			c.refuse(pos, "conversion to "+c.typeString(in.Type()), "the only interface supported is any, holding integers")
			return
		}
	case *ssa.MakeInterface:
		if onlyPanics(in) {
			return // panic("…"): the value is only printed
		}
		if c.t.carriesPointer(in) {
			break // a pool's object (pool.go), an atomic.Value's pointer (value.go)
		}
		if b, ok := in.X.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			c.refuse(pos, "conversion of "+c.typeString(in.X.Type())+" to an interface", "an any value may hold integers only")
			return
		}
	case *ssa.TypeAssert:
		if c.t.carriesPointer(in) {
			break // a pool's object (pool.go), an atomic.Value's pointer (value.go)
		}
		if b, ok := in.AssertedType.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			c.refuse(pos, "type assertion to "+c.typeString(in.AssertedType), "an any value holds integers: assert an integer type")
			return
		}
	case *ssa.MakeSlice:
	case *ssa.Call:
		c.call(fn, pos, in.Common(), false)
	case *ssa.Defer:
		if inLoop(in.Block()) {
			c.refuse(pos, "defer inside a loop", "a function's deferred calls must be bounded: defer outside loops")
			return
		}
		c.call(fn, pos, in.Common(), true)
	case *ssa.Go:
		c.refuse(pos, "go statement", "the most-general client starts the goroutines; the object's methods may not")
		return
	case *ssa.MakeClosure:
		c.refuse(in.Fn.Pos(), "function literal", "closures are not translated: call a named function or method")
		return
	case *ssa.MakeMap:
		c.refuse(pos, "map", "use an array or a slice of constant length")
		return
	case *ssa.MapUpdate:
		c.refuse(pos, "map update", "use an array or a slice of constant length")
		return
	case *ssa.Lookup:
		c.refuse(pos, "map or string index", "use an array or a slice of constant length")
		return
	case *ssa.MakeChan:
		c.refuse(pos, "channel", "channels are outside the subset; the client starts the goroutines")
		return
	case *ssa.Send:
		c.refuse(pos, "channel send", "channels are outside the subset; the client starts the goroutines")
		return
	case *ssa.Select:
		c.refuse(pos, "select statement", "channels are outside the subset")
		return
	case *ssa.Next:
		return // refused with its Range
	case *ssa.Range:
		c.refuse(pos, "range over a map or a string", "range over an integer, an array or a slice of constant length")
		return
	case *ssa.Slice:
		if a, ok := in.X.(*ssa.Alloc); ok && a.Comment == "varargs" {
			return // the arguments of a variadic call: the call is checked
		}
		if _, ok := in.X.Type().Underlying().(*types.Basic); ok {
			c.refuse(pos, "slicing a string", "strings are outside the subset")
			return
		}
	case *ssa.SliceToArrayPointer:
		c.refuse(pos, "conversion of a slice to an array pointer", "index the slice")
		return
	case *ssa.MultiConvert:
		c.refuse(pos, "conversion of a type parameter", "generic types are instantiated: name the type with its type arguments")
		return
	default:
		c.refuse(pos, fmt.Sprintf("%T", in), "not in the subset")
		return
	}
	if v, ok := in.(ssa.Value); ok {
		if _, isCall := in.(*ssa.Call); !isCall { // a call's results were checked with its callee
			c.value(v, pos)
		}
	}
	for _, op := range in.Operands(nil) {
		if op == nil || *op == nil {
			continue
		}
		switch x := (*op).(type) {
		case *ssa.Const:
			if _, ok := in.(*ssa.MakeInterface); !ok {
				c.constant(x, pos)
			}
		case *ssa.Global:
			if !c.globals[x] {
				c.globals[x] = true
				c.value(x, pos)
				c.addrUses(x)
			}
		case *ssa.Function:
			if _, ok := in.(ssa.CallInstruction); !ok || in.(ssa.CallInstruction).Common().Value != x {
				c.refuse(pos, "function value "+x.Name(), "functions are only called, not stored or passed")
			}
		}
	}
}

// value refuses a value whose type is outside the subset.
func (c *checker) value(v ssa.Value, pos token.Pos) {
	if why := c.typeReason(v.Type()); why != "" {
		c.refuse(pos, "value of type "+c.typeString(v.Type()), why)
	}
}

// constant refuses a constant outside the subset: a string or a float
// (every integer constant is held: a 64-bit one beyond 32 bits as a code,
// package intop).
func (c *checker) constant(k *ssa.Const, pos token.Pos) {
	if k.Value == nil {
		return // nil, or the zero value of a type checked with its value
	}
	if why := c.typeReason(k.Type()); why != "" {
		c.refuse(pos, "constant of type "+c.typeString(k.Type()), why)
		return
	}
}

// SignedView returns the value of an integer constant of type typ as the
// machine holds it: its two's-complement bits at typ's width read as a
// signed number, and whether that fits in int32.
func SignedView(v constant.Value, typ types.Type) (int32, bool) {
	b, ok := typ.Underlying().(*types.Basic)
	if !ok {
		return 0, false
	}
	if b.Info()&types.IsUnsigned != 0 {
		u, exact := constant.Uint64Val(v)
		if !exact {
			return 0, false
		}
		s := int64(u) // the bits at width 64; narrower unsigned values are below 2^(w-1) or wrap below
		if w := widthOf(b); w < 64 && u >= 1<<(w-1) {
			s = int64(u) - 1<<w
		}
		return int32(s), s >= math.MinInt32 && s <= math.MaxInt32
	}
	s, exact := constant.Int64Val(v)
	return int32(s), exact && s >= math.MinInt32 && s <= math.MaxInt32
}

// widthOf returns the width in bits of an integer type (int, uint and
// uintptr are 64 bits wide, as on the platforms Go's atomics target).
func widthOf(b *types.Basic) uint {
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	}
	return 64
}

// call checks a call (or a deferred call): of a function of the package,
// walked in turn; of an intrinsic; of an allowed builtin.
func (c *checker) call(fn *ssa.Function, pos token.Pos, call *ssa.CallCommon, deferred bool) {
	if call.IsInvoke() {
		c.refuse(pos, "call of method "+call.Method.Name()+" through an interface", "calls are static: of the package's functions and methods, sync/atomic, sync.Mutex, sync.RWMutex, sync.Pool, runtime.Gosched")
		return
	}
	switch f := call.Value.(type) {
	case *ssa.Builtin:
		switch f.Name() {
		case "len", "cap", "min", "max":
			if !deferred {
				return
			}
		case "append", "copy":
			if _, ok := call.Args[1].Type().Underlying().(*types.Slice); ok && !deferred {
				return
			}
		}
		c.refuse(pos, "built-in "+f.Name()+" here", "of the built-ins, len, cap, min, max, append and copy of slices, and panic are supported")
		return
	case *ssa.Function:
		if in, ok := intrinsicOf(f); ok {
			if in.Recv == "Pool" && in.Name == "Put" {
				if mi, ok := call.Args[1].(*ssa.MakeInterface); !ok || !poolAny(mi, nil) {
					c.refuse(pos, "putting a value that is not a pointer into a sync.Pool", "pools hold pointers of one type: pool.Put(p), pool.Get().(*T)")
				}
			}
			return
		} else if f.Blocks == nil || f.Pkg != c.t.Pkg && f.Synthetic == "" {
			c.refuseCall(pos, f, in)
			return
		}
		if f.Signature.Variadic() {
			c.refuse(pos, "call of variadic function "+f.Name(), "call functions with a fixed number of parameters")
			return
		}
		if c.active[f] {
			c.refuse(pos, "recursive call of "+f.Name(), "calls are inlined, so they may not form a cycle")
			return
		}
		c.walk(f)
		for i, a := range call.Args {
			if c.isAddr(a) {
				p := f.Params[i]
				if !c.interior[p] {
					c.interior[p] = true
					c.addrUses(p)
				}
			}
		}
		return
	}
	if _, ok := call.Value.(*ssa.MakeClosure); !ok { // a closure is refused where it is made
		c.refuse(pos, "call of a function value", "calls are static: of the package's functions and methods")
	}
}

// refuseCall refuses the call of a function of another package.
func (c *checker) refuseCall(pos token.Pos, f *ssa.Function, in Intrinsic) {
	name := in.String()
	if in.Pkg == "" {
		name = f.String()
	}
	switch {
	case in.Pkg == "sync" && in.Recv == "Pool":
		c.refuse(pos, "sync.Pool", "not yet translated")
	case in.Pkg == "sync/atomic" || in.Pkg == "sync":
		c.refuse(pos, "call of "+name, "of sync/atomic, the Load, Store, Add, Swap, CompareAndSwap, And and Or functions and methods; of sync, Mutex and RWMutex")
	default:
		c.refuse(pos, "call of "+name, "only the package's own functions are translated; of the standard library, sync/atomic, sync.Mutex, sync.RWMutex and runtime.Gosched")
	}
}

// isAddr reports whether v is the address of a field, an element or a
// package variable, rather than a pointer to a whole allocated variable,
// or such an address loaded from a loc field.
func (c *checker) isAddr(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Global:
		return true
	case *ssa.Parameter:
		return c.interior[v]
	case *ssa.ChangeType:
		return c.isAddr(v.X)
	}
	return c.t.LocVals[v] || c.t.AddrCasts[v] != nil || c.t.AddrCalls[v]
}

// locField is a field of a struct type.
type locField struct {
	st    *types.Struct
	field int
}

// locFieldOf returns the field whose address a is, if a is the address
// of a field of pointer type, or an atomic.Pointer, that a loc can hold
// (holder).
func locFieldOf(a ssa.Value) (locField, bool) {
	fa, ok := a.(*ssa.FieldAddr)
	if !ok {
		return locField{}, false
	}
	if _, ok := holder(fa.Type().Underlying().(*types.Pointer).Elem()); !ok {
		return locField{}, false
	}
	return locField{fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct), fa.Field}, true
}

// locLoads finds the loads of the loc fields (Target.locFields) and
// package variables (LocGlobals), and the
// calls of functions with loc results (Target.LocResults), and checks
// their values' uses as addresses'; such a value stored into another
// field or returned by another function makes that one hold locs too, so
// they are found until no more are.
func (c *checker) locLoads() {
	mark := func(v ssa.Value) bool {
		if c.t.LocVals[v] {
			return false
		}
		c.t.LocVals[v] = true
		c.addrUses(v)
		return true
	}
	for more := true; more; {
		more = false
		for _, fn := range c.t.Funcs {
			for _, b := range fn.Blocks {
				for _, in := range b.Instrs {
					switch in := in.(type) {
					case *ssa.UnOp:
						if in.Op == token.MUL && c.t.HoldsLocs(in.X) {
							more = mark(in) || more
						}
					case *ssa.Call:
						callee, _ := in.Call.Value.(*ssa.Function)
						if callee != nil && c.t.AddrResults[callee] && !c.t.AddrCalls[in] {
							c.t.AddrCalls[in] = true // the address the callee returns (AddrResults)
							c.addrUses(in)
							more = true
							continue
						}
						if callee != nil && len(in.Call.Args) > 0 && c.t.HoldsLocs(in.Call.Args[0]) {
							if intr, ok := intrinsicOf(callee); ok && intr.Recv == "Pointer" && (intr.Name == "Load" || intr.Name == "Swap") {
								more = mark(in) || more // a loc loaded from an atomic.Pointer
							}
							continue
						}
						bits := c.t.LocResults[callee]
						if bits == 0 {
							continue
						}
						if in.Call.Signature().Results().Len() == 1 {
							more = mark(in) || more
							continue
						}
						for _, u := range uses(in) {
							if x, ok := u.(*ssa.Extract); ok && bits&(1<<x.Index) != 0 {
								more = mark(x) || more
							}
						}
					}
				}
			}
		}
	}
}

// HoldsLocs reports whether the address a is a loc field's
// (locFields) or a package variable's that holds locs (LocGlobals).
func (t *Target) HoldsLocs(a ssa.Value) bool {
	if gl, ok := a.(*ssa.Global); ok {
		return t.LocGlobals[gl]
	}
	k, ok := locFieldOf(a)
	return ok && t.locFields[k]
}

// isRoot reports whether fn is a client method or the constructor, whose
// results are not inlined into a caller.
func (t *Target) isRoot(fn *ssa.Function) bool {
	return fn == t.Ctor || slices.Contains(t.Methods, fn)
}

// addrCast follows the address v converted to unsafe.Pointer by cv, and
// reports whether every use of cv converts it on to a pointer to a
// scalar (Target.AddrCasts), whose uses are then an address's.
func (c *checker) addrCast(v ssa.Value, cv *ssa.Convert) bool {
	if b, ok := cv.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.UnsafePointer {
		return false
	}
	us := uses(cv)
	for _, u := range us {
		if to, ok := u.(*ssa.Convert); !ok || !locable(to.Type()) {
			return false
		}
	}
	for _, u := range us {
		if c.t.AddrCasts[u.(ssa.Value)] == nil {
			c.t.AddrCasts[u.(ssa.Value)] = v
			c.addrUses(u.(ssa.Value))
		}
	}
	return len(us) > 0
}

// holder returns the type of the locations that the pointer field or
// variable of type t, or the atomic.Pointer[T] t, holds the addresses of,
// if a loc can hold them (locable).
func holder(t types.Type) (types.Type, bool) {
	if n, ok := types.Unalias(t).(*types.Named); ok && isBuiltinType(t) && n.Obj().Name() == "Pointer" {
		elem := n.TypeArgs().At(0)
		return elem, isScalar(elem)
	}
	if !locable(t) {
		return nil, false
	}
	return t.Underlying().(*types.Pointer).Elem(), true
}

// holdLocs makes the field or the package variable whose address a is
// (a pointer or an atomic.Pointer, holder) one that holds locs, and
// reports whether it is one.
func (c *checker) holdLocs(a ssa.Value) bool {
	if gl, ok := a.(*ssa.Global); ok {
		if _, ok := holder(gl.Type().Underlying().(*types.Pointer).Elem()); ok {
			c.t.LocGlobals[gl] = true
			return true
		}
		return false
	}
	k, ok := locFieldOf(a)
	if ok {
		c.t.locFields[k] = true
	}
	return ok
}

// locable reports whether an address of type t may be held in a loc of
// the modeling language: it points to one slot (not a struct or an
// array, whose fields are flattened into their node).
func locable(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && isScalar(p.Elem())
}

// addrUses refuses the uses of an address (of a field, an element, a
// package variable) other than those the translation follows statically:
// loading from it, storing through it, taking a field's or an element's
// address from it, comparing it (== and !=) with such addresses and nil,
// merging it with such addresses (a loc), storing it into a field of
// pointer type (which then holds locs), returning it from a function of
// the package (whose result then is a loc), and passing it to an intrinsic
// (as the location it operates on) or to a function of the package (whose
// parameter is then such an address too). A pointer to a whole allocated variable (new,
// &T{}) is a reference and may go anywhere.
func (c *checker) addrUses(v ssa.Value) {
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op == token.MUL {
				continue
			}
		case *ssa.Store:
			if r.Addr == v && r.Val != v {
				continue
			}
			if r.Val == v && r.Addr != v && c.holdLocs(r.Addr) {
				continue // a field or a package variable of locs (locLoads)
			}
		case *ssa.Return:
			if fn := r.Parent(); !locable(v.Type()) && !c.t.isRoot(fn) && returnsOnce(fn) && len(r.Results) == 1 {
				c.t.AddrResults[fn] = true // the call's value is the address (locLoads)
				continue
			}
			if fn := r.Parent(); locable(v.Type()) && !c.t.isRoot(fn) && len(r.Results) <= 64 {
				for i, x := range r.Results {
					if x == v {
						c.t.LocResults[fn] |= 1 << i // a loc result (locLoads)
					}
				}
				continue
			}
		case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.DebugRef:
			continue
		case *ssa.ChangeType: // (*uint32)(l) of an l *SpinLock: the same location, its type named otherwise
			c.addrUses(r)
			continue
		case *ssa.Slice: // x.buf[lo:hi]: a slice of the array there (slices.go's backing)
			if r.X == v {
				continue
			}
		case *ssa.Convert: // (*P)(unsafe.Pointer(&x.f)): the location x.f, seen as a P
			if c.addrCast(v, r) {
				continue
			}
		case *ssa.BinOp: // == and != of locs (lower.go): with addresses and nil only
			other := r.X
			if other == v {
				other = r.Y
			}
			if (r.Op == token.EQL || r.Op == token.NEQ) && locable(v.Type()) {
				c.compared = append(c.compared, [2]ssa.Value{r, other}) // checked once the loc loads are known
				continue
			}
		case *ssa.Phi:
			if locable(r.Type()) { // held in a loc (lower.go's locValue)
				if !c.t.LocPhis[r] {
					c.t.LocPhis[r] = true
					c.addrUses(r)
				}
				continue
			}
		case ssa.CallInstruction:
			cc := r.Common()
			if f, ok := cc.Value.(*ssa.Function); ok && !cc.IsInvoke() {
				if in, intr := intrinsicOf(f); intr {
					if len(cc.Args) > 0 && cc.Args[0] == v && !contains(cc.Args[1:], v) {
						continue
					}
					if in.Recv == "Pointer" && in.Name != "Load" && cc.Args[0] != v && c.holdLocs(cc.Args[0]) {
						continue // an atomic.Pointer of locs (Store, Swap, CompareAndSwap)
					}
				} else if f.Pkg == c.t.Pkg || f.Synthetic != "" {
					for i, a := range cc.Args { // the parameter is an address too (as call marks it)
						if p := f.Params[i]; a == v && !c.interior[p] {
							c.interior[p] = true
							c.addrUses(p)
						}
					}
					continue
				} else {
					continue // the call itself is refused
				}
			}
		}
		_, isStore := r.(*ssa.Store)
		_, isCall := r.(ssa.CallInstruction)
		if p, ok := v.Type().Underlying().(*types.Pointer); ok && !isScalar(p.Elem()) && (isStore || isCall) {
			if _, isStruct := p.Elem().Underlying().(*types.Struct); isStruct { // stored or passed on as a pointer
				c.refuse(posOf(r), "keeping the address of a struct held in a field, an element or a package variable as a pointer (a node inside another, &q.stub)", "a node is allocated on its own: declare the field a pointer (stub *node) and allocate it (&node{}); such an address may be loaded from, stored through and passed to the package's functions")
				continue
			}
		}
		c.refuse(posOf(r), "keeping the address of a field, an element or a package variable", "such an address may be loaded from, stored through, compared with another, stored into a field, a package variable or an atomic.Pointer, returned by a function of the package, converted through unsafe.Pointer to another pointer, and passed to sync/atomic or to the package's functions, but not returned by a method of the client or converted otherwise")
	}
}

// returnsOnce reports whether fn has one return statement (its other
// paths panic or loop).
func returnsOnce(fn *ssa.Function) bool {
	n := 0
	for _, b := range fn.Blocks {
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			n++
		}
	}
	return n == 1
}

func contains(vs []ssa.Value, v ssa.Value) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// isNil reports whether v is the constant nil.
func isNil(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

func isEmptyInterface(t types.Type) bool {
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.Empty()
}

// onlyPanics reports whether every use of v is a panic.
func onlyPanics(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		if _, ok := r.(*ssa.Panic); !ok {
			if _, ok := r.(*ssa.DebugRef); !ok {
				return false
			}
		}
	}
	return true
}

// inLoop reports whether block b lies on a cycle of its function's
// control flow.
func inLoop(b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == b {
			return true
		}
		if !seen[x] {
			seen[x] = true
			stack = append(stack, x.Succs...)
		}
	}
	return false
}

// convertReason says why a conversion is outside the subset, "" if it is
// inside: between integer types (wrapping to the target's width), and
// between unsafe.Pointer and pointers.
func convertReason(from, to types.Type) string {
	fb, fok := from.Underlying().(*types.Basic)
	tb, tok := to.Underlying().(*types.Basic)
	isInt := func(b *types.Basic, ok bool) bool { return ok && b.Info()&types.IsInteger != 0 }
	isUnsafe := func(b *types.Basic, ok bool) bool { return ok && b.Kind() == types.UnsafePointer }
	_, fptr := from.Underlying().(*types.Pointer)
	_, tptr := to.Underlying().(*types.Pointer)
	switch {
	case isInt(fb, fok) && isInt(tb, tok):
		return ""
	case isUnsafe(fb, fok) && tptr, fptr && isUnsafe(tb, tok), isUnsafe(fb, fok) && isUnsafe(tb, tok):
		return ""
	case isUnsafe(fb, fok) || isUnsafe(tb, tok):
		return "unsafe.Pointer converts to and from pointers only: no pointer arithmetic"
	}
	return "conversions are between integer types, and between unsafe.Pointer and pointers"
}

// typeReason says why values of type t are outside the subset, "" if
// they are inside.
func (c *checker) typeReason(t types.Type) string {
	if why, ok := c.typeWhy[t]; ok {
		return why
	}
	if c.inProgress[t] {
		return "" // a recursive type: decided where it started
	}
	c.inProgress[t] = true
	why := c.typeReason1(t)
	delete(c.inProgress, t)
	c.typeWhy[t] = why
	return why
}

func (c *checker) typeReason1(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if ok, refused := builtinType(n); ok {
			if n.Obj().Name() == "Pointer" && n.TypeArgs().Len() == 1 {
				return c.typeReason(n.TypeArgs().At(0))
			}
			return ""
		} else if refused != "" {
			return refused + " is outside the subset: of sync, Mutex, RWMutex and Pool are; of sync/atomic, its functions and the types Int32, Int64, Uint32, Uint64, Uintptr, Bool, Pointer and Value"
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&(types.IsInteger|types.IsBoolean) != 0, u.Kind() == types.UnsafePointer, u.Kind() == types.UntypedNil:
			return ""
		case u.Info()&types.IsString != 0:
			return "strings are outside the subset"
		case u.Info()&types.IsFloat != 0, u.Info()&types.IsComplex != 0:
			return "floating-point and complex numbers are outside the subset"
		}
		return u.String() + " is outside the subset"
	case *types.Pointer:
		return c.typeReason(u.Elem())
	case *types.Struct:
		for f := range u.Fields() {
			if why := c.typeReason(f.Type()); why != "" && f.Name() != "_" { // padding, markers (_ [0]func()): never accessed, not held
				return why
			}
		}
		return ""
	case *types.Array:
		if u.Len() > maxArray {
			return fmt.Sprintf("arrays have at most %d elements", maxArray)
		}
		return c.typeReason(u.Elem())
	case *types.Slice:
		return c.typeReason(u.Elem())
	case *types.Interface:
		if u.Empty() {
			return ""
		}
		return "the only interface supported is any, holding integers"
	case *types.Tuple:
		for v := range u.Variables() {
			if why := c.typeReason(v.Type()); why != "" {
				return why
			}
		}
		return ""
	case *types.Map:
		return "maps are outside the subset: use an array or a slice of constant length"
	case *types.Chan:
		return "channels are outside the subset"
	case *types.Signature:
		return "function values are outside the subset: call functions by name"
	}
	return t.String() + " is outside the subset"
}

// typeString prints a type relative to the package.
func (c *checker) typeString(t types.Type) string {
	return types.TypeString(t, types.RelativeTo(c.t.Pkg.Pkg))
}

// sortGlobals orders globals by position.
func sortGlobals(gs []*ssa.Global) {
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && gs[j].Pos() < gs[j-1].Pos(); j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}
