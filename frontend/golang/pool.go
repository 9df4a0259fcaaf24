package golang

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// sync.Pool. A pool holds the objects put back and not yet taken; Get
// returns any one of them, or a fresh object from New (nil without one):
// Go's pool may drop an object at any time and miss one put on another
// processor, so either is always possible. That is exactly how recycling
// nodes through a pool reintroduces ABA (a node popped, put back and
// pushed again while another goroutine still holds it) and races on the
// recycled node's fields.
//
// The model: a pool is poolSlots reference fields (of the one pointer
// type its objects have, in the code the client reaches); Put stores into
// the first empty slot, or drops the object when all are full (as Go's pool
// may); Get, one atomic step, takes the object of any slot, or none, and
// when it took none calls New, inlined after it. A pool of poolSlots
// objects is enough for the recycling bugs: each needs one object back.

// poolSlots is the number of objects a pool holds.
const poolSlots = 2

// isPool reports whether t is sync.Pool.
func isPool(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Pool"
}

// poolCall returns the method of sync.Pool that c calls ("Get", "Put"),
// "" if it calls none.
func poolCall(c *ssa.CallCommon) string {
	f, ok := c.Value.(*ssa.Function)
	if !ok {
		return ""
	}
	in, ok := intrinsicOf(f)
	if !ok || in.Recv != "Pool" {
		return ""
	}
	return in.Name
}

// poolAny reports whether an any value of the code is a pool's object: a
// pointer converted to any to be put into a pool or returned by a pool's
// New, or a pool's Get's result asserted to its pointer type.
func poolAny(in ssa.Instruction, news map[*ssa.Function]bool) bool {
	puts := func(mi *ssa.MakeInterface, u ssa.Instruction) bool {
		switch u := u.(type) {
		case *ssa.Call:
			return poolCall(u.Common()) == "Put"
		case *ssa.Return:
			return news[mi.Parent()] // New's result, into the pool's hands
		}
		return false
	}
	takes := func(c *ssa.CallCommon) bool { return poolCall(c) == "Get" }
	return pointerAny(in, puts, takes)
}

// poolKey names a pool: a package variable, or a field (of every object
// of its struct type).
type poolKey struct {
	global *ssa.Global
	field  *types.Var
}

// poolOf returns the pool the address x denotes (a package variable or
// a field), and whether it is one.
func poolOf(x ssa.Value) (poolKey, bool) {
	switch x := x.(type) {
	case *ssa.Global:
		return poolKey{global: x}, true
	case *ssa.FieldAddr:
		st := x.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		return poolKey{field: st.Field(x.Field)}, true
	}
	return poolKey{}, false
}

// poolNewStore returns the pool whose New a store sets and the function
// it stores (a function literal without free variables, or a function of
// the package): `s.pool.New = func() any { … }` in a constructor.
func poolNewStore(st *ssa.Store) (poolKey, *ssa.Function, bool) {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	fn, isFn := st.Val.(*ssa.Function)
	if !ok || !isFn || !isPool(fa.X.Type().Underlying().(*types.Pointer).Elem()) {
		return poolKey{}, nil, false
	}
	k, ok := poolOf(fa.X)
	return k, fn, ok
}

// poolNews finds the New function of each package variable of type
// sync.Pool the client reaches: the function literal (without free
// variables) its declaration gives New, `var pool = sync.Pool{New: …}`
// (the package's initialisation stores it into a composite literal, then
// copies that into the variable). A New set by the code the client
// reaches (a constructor) the checker finds (subset.go).
func (t *Target) poolNews() map[poolKey]*ssa.Function {
	news := map[poolKey]*ssa.Function{}
	init := t.Pkg.Func("init")
	if init == nil {
		return news
	}
	lits := map[ssa.Value]*ssa.Function{} // a composite literal's New
	for _, b := range init.Blocks {
		for _, in := range b.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok {
				continue
			}
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
				if fn, ok := st.Val.(*ssa.Function); ok && isPool(fa.X.Type().(*types.Pointer).Elem()) {
					lits[fa.X] = fn
				}
				continue
			}
			gl, ok := st.Addr.(*ssa.Global)
			if !ok || !isPool(gl.Type().(*types.Pointer).Elem()) || !slices.Contains(t.Globals, gl) {
				continue
			}
			if ld, ok := st.Val.(*ssa.UnOp); ok && ld.Op == token.MUL && lits[ld.X] != nil {
				news[poolKey{global: gl}] = lits[ld.X]
			}
		}
	}
	for x, fn := range lits {
		if gl, ok := x.(*ssa.Global); ok && slices.Contains(t.Globals, gl) {
			news[poolKey{global: gl}] = fn
		}
	}
	return news
}

// poolHeap returns the heap type of the pools' objects: what the one
// pointer type that the code puts into pools and asserts their objects to
// points to.
func (g *gen) poolHeap(pos token.Pos) *heapType {
	var elem types.Type
	news := g.t.newFuncs()
	for _, fn := range g.t.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if !poolAny(in, news) {
					continue
				}
				var p types.Type
				switch in := in.(type) {
				case *ssa.MakeInterface:
					p = in.X.Type()
				case *ssa.TypeAssert:
					p = in.AssertedType
				}
				e := p.Underlying().(*types.Pointer).Elem()
				if elem != nil && !types.Identical(elem, e) {
					g.refuse(in.Pos(), fmt.Sprintf("sync.Pool holding objects of two types (%s and %s)", elem, e), "not translated yet: the pools hold pointers of one type")
				}
				elem = e
			}
		}
	}
	if elem == nil {
		g.refuse(pos, "sync.Pool whose objects are never put or asserted to a pointer type", "pools hold pointers: pool.Put(p), pool.Get().(*T)")
		elem = types.NewStruct(nil, nil)
	}
	return g.heap(elem, pos)
}

// carriesPointer reports whether in is an any that carries a pointer of
// the code's: a pool's object (poolAny) or an atomic.Value's pointer
// (valueAny). The model keeps the pointer itself, a reference.
func (t *Target) carriesPointer(in ssa.Instruction) bool {
	return poolAny(in, t.newFuncs()) || valueAny(in)
}

// newFuncs returns the pools' New functions as a set.
func (t *Target) newFuncs() map[*ssa.Function]bool {
	s := map[*ssa.Function]bool{}
	for _, fn := range t.poolNew {
		s[fn] = true
	}
	return s
}

// poolSlotsOf returns the slots of a pool stored under name.
func (g *gen) poolSlotsOf(name string, pos token.Pos) []slot {
	h := g.poolHeap(pos)
	var out []slot
	for i := range poolSlots {
		out = append(out, slot{name: join(name, fmt.Sprint(i)), typ: "ref " + h.name})
	}
	return out
}

// pool writes a call of Get or Put on the pool at a, named key (for its
// New).
func (g *gen) pool(fr *frame, v *ssa.Call, name string, a addr, key poolKey, args []arg, pos token.Pos) {
	h := g.poolHeap(pos)
	loc := func(i int) string { return addr{base: a.base, name: join(a.name, fmt.Sprint(i))}.loc() }
	if name == "Put" {
		var b strings.Builder
		for i := range poolSlots {
			if i > 0 {
				b.WriteString(" else ")
			}
			fmt.Fprintf(&b, "if %s == null { %s = %s }", loc(i), loc(i), args[1].text)
		}
		g.line(pos, "atomic { %s }", b.String()) // all full: dropped, as Go's pool may
		return
	}
	r, k := g.local("t", "ref "+h.name), g.local("k", "int")
	var b strings.Builder
	fmt.Fprintf(&b, "atomic { %s = null; %s = any 0..%d; ", r, k, poolSlots)
	for i := range poolSlots {
		if i > 0 {
			b.WriteString(" else ")
		}
		fmt.Fprintf(&b, "if %s == %d { %s = %s; %s = null }", k, i, r, loc(i), loc(i))
	}
	b.WriteString(" }")
	g.line(pos, "%s", b.String())
	if v != nil {
		fr.vals[v] = r
	}
	if newFn := g.t.poolNew[key]; newFn != nil {
		g.line(pos, "if %s == null {", r)
		g.indent++
		res, _ := g.inlineCall(newFn, nil, pos)
		g.line(pos, "%s = %s", r, res[0])
		g.indent--
		g.line(token.NoPos, "}")
	}
}
