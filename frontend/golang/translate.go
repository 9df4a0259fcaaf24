package golang

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/linbis/linbis/frontend/intop"
	"github.com/linbis/linbis/frontend/syntax"
)

// The translation writes the target as a model of the modeling language
// (frontend/LANGUAGE.md), which the .lin front end then compiles to the
// instruction set like any other: so every route (bisimulation, refinement,
// on the fly with its reductions, progress, --steps, --export, --html)
// works on Go input unchanged. Every statement of the model is preceded by
// an origin directive (syntax.OriginDirective) naming the Go line it comes
// from, so that errors, traces and listings cite the Go source.
//
// The model:
//   - a heap type per Go type that is allocated or pointed to (a struct's
//     fields flattened: nested structs and arrays give a field per leaf;
//     atomics and locks are one int, bool or ref field each; a non-struct
//     type is boxed in a node with one field v);
//   - `shared Obj ref T`, the object, made by the init block (the
//     constructor, inlined, or a zero T), and a shared variable per
//     package variable the methods use;
//   - a method per client method, every call of the package's functions
//     inlined, the SSA blocks structured with labelled loops (Ramsey,
//     "Beyond Relooper", ICFP 2022): a loop header is `Lb: while true`, a
//     block reached by several forward edges is entered by `break Bb` out
//     of a `Bb: while true` around the code that precedes it, a back edge
//     is `continue Lb` (which ends the step, as a Go loop's iteration
//     does), the φ-nodes are assignments on the edges;
//   - one statement per access to memory (a load, a store, an atomic
//     operation): one step each; purely local work is folded;
//   - `spec auto`: each method one atomic step (Yang et al.).

// Model returns the target as a model of the modeling language: its file
// name (for messages) and source. Constructs the loader accepts but the
// translation does not handle yet are refused, one line each.
func (t *Target) Model() (string, []byte, error) {
	g := &gen{t: t, heaps: map[string]*heapType{}, sources: map[string][]string{}}
	src := g.model()
	if len(g.errs) > 0 {
		g.errs.RemoveMultiples()
		return "", nil, g.errs
	}
	return t.Pkg.Pkg.Name() + "." + t.Type.Obj().Name() + ".lin", src, nil
}

// gen is the state of one translation.
type gen struct {
	t     *Target
	errs  syntax.ErrorList
	heaps map[string]*heapType // by Go type string
	// unsafeTypes: the types whose pointers the code converts to and from
	// unsafe.Pointer (unsafeHeap), nil until computed; unsafePos: the
	// first such conversion of each.
	unsafeTypes []types.Type
	unsafePos   []token.Pos
	// heapOrder lists the heap types in the order they were made.
	heapOrder []*heapType
	sources   map[string][]string // Go files' lines, by name
	globals   map[*ssa.Global]string
	// lens: per slice element type (its type string), the capacity of
	// the backing arrays of its slices (sliceLens).
	lens map[string]int64
	// slicedAllocs: the arrays allocated by the code that it slices, made
	// as nodes of their slices' backing arrays (slicedArray).
	slicedAllocs map[*ssa.Alloc]bool
	// The method being written: its body, its locals' declarations, a
	// counter for fresh names.
	out    strings.Builder
	indent int
	decls  []string
	fresh  int
	// plain: the next line written makes a plain access to memory
	// (line marks it with a plain directive and clears it).
	plain bool
	// atomic: each method is one atomic block (a reference specification).
	atomic bool
	// moveTmps: the temporaries of the element moves of the method being
	// written (slices.go's moveTmp).
	moveTmps map[string][]string
	// backs: the slices of the method being written whose elements are an
	// array field's or a package array's, by their header's offset local
	// (slices.go's backing); heapHeld: the offset locals of headers that
	// have held a slice of a backing array.
	backs    map[string]*backing
	heapHeld map[string]bool
	// anyTags, if not nil, holds the tag of each integer type (by type
	// string) that the any values hold, when they hold several (anyType).
	anyTags map[string]int32
	// valueElem, if not nil, is the type the atomic.Values hold pointers
	// to (value.go).
	valueElem types.Type
}

// heapType is a heap node type of the model.
type heapType struct {
	name   string
	fields []slot
}

// slot is a leaf of a flattened Go type: its name and model type; nilAny:
// an any (or atomic.Value), whose zero value, nil, is held as EMPTY.
type slot struct {
	name, typ string
	nilAny    bool
}

// refuse records a construct the translation does not handle yet.
func (g *gen) refuse(pos token.Pos, construct, why string) {
	g.errs.Add(g.t.Position(pos), fmt.Sprintf("%s is not supported (%s)", construct, why))
}

// keywords of the modeling language, which Go names must avoid.
var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`object spec auto client heap shared method init if else while return
		atomic assert await free retire new skip lin true false null int bool ref threads ops values forever
		only break continue var choose or any proc for explicit wrap word thread in others tid nthreads EMPTY Obj`) {
		keywords[k] = true
	}
}

// ident makes a Go name usable in the model.
func ident(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := strings.TrimRight(b.String(), "_")
	if keywords[s] || s == "" {
		s += "_"
	}
	return s
}

// model writes the whole model.
func (g *gen) model() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "// generated by linbis from Go package %s, type %s\n", g.t.Pkg.Pkg.Path(), g.t.typeName())
	b.WriteString(g.object("object"))
	if g.t.Spec == nil {
		b.WriteString("spec auto\n")
	} else {
		// The reference type, each method one atomic step.
		spec := &gen{t: g.t.Spec, heaps: map[string]*heapType{}, sources: g.sources, atomic: true}
		b.WriteString(spec.object("spec"))
		g.errs = append(g.errs, spec.errs...)
	}
	if t := g.t; len(t.Only) > 0 {
		var only []string
		for _, th := range slices.Sorted(maps.Keys(t.Only)) {
			only = append(only, fmt.Sprintf("only %d: %s", th, strings.Join(t.Only[th], ", ")))
		}
		fmt.Fprintf(&b, "client { %s }\n", strings.Join(only, "; "))
	}
	return []byte(b.String())
}

// object writes the target as an object (keyword "object") or a
// specification ("spec"): its heap types, the shared variables, the init
// block and the methods.
func (g *gen) object(keyword string) string {
	t := g.t
	g.sliceLens()
	g.anyType()
	g.valueElem = g.valueType()
	objHeap := g.heap(t.Type, t.Type.Obj().Pos())
	g.globals = map[*ssa.Global]string{}
	var shared []string
	for _, gl := range t.Globals {
		name := "g_" + ident(gl.Name())
		g.globals[gl] = name
		for _, s := range g.flatten(gl.Type().(*types.Pointer).Elem(), name, gl.Pos()) {
			if t.LocGlobals[gl] { // holding addresses (Target.LocGlobals)
				elem, _ := holder(gl.Type().(*types.Pointer).Elem())
				s.typ = "loc " + g.scalar(elem, gl.Pos())
			}
			decl := fmt.Sprintf("  shared %s %s", s.name, s.typ)
			if s.nilAny {
				decl += " = EMPTY"
			}
			shared = append(shared, decl)
		}
	}
	g.globalInits(shared)
	var methods []string
	for _, m := range t.Methods {
		methods = append(methods, g.method(m))
	}
	init := g.initBlock(objHeap)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s {\n", keyword, ident(t.Type.Obj().Name()))
	for _, h := range g.heapOrder {
		var fs []string
		for _, f := range h.fields {
			fs = append(fs, f.name+" "+f.typ)
		}
		if len(fs) == 0 {
			fs = []string{"unused_ bool"}
		}
		fmt.Fprintf(&b, "  heap %s { %s }\n", h.name, strings.Join(fs, "; "))
	}
	fmt.Fprintf(&b, "  shared Obj ref %s\n", objHeap.name)
	for _, s := range shared {
		b.WriteString(s + "\n")
	}
	b.WriteString(init)
	for _, m := range methods {
		b.WriteString(m)
	}
	b.WriteString("}\n")
	return b.String()
}

// globalInits gives the package variables their initial values: the
// constants the package's initialisation stores in them.
func (g *gen) globalInits(shared []string) {
	init := g.t.Pkg.Func("init")
	if init == nil {
		return
	}
	for _, b := range init.Blocks {
		for _, in := range b.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok {
				continue
			}
			gl, ok := st.Addr.(*ssa.Global)
			if !ok || g.globals[gl] == "" || isPool(gl.Type().(*types.Pointer).Elem()) {
				continue // a pool starts empty; its New is poolNews'
			}
			k, ok := st.Val.(*ssa.Const)
			if !ok {
				g.refuse(st.Pos(), "initialising package variable "+gl.Name()+" with a non-constant value", "package variables the methods use start as constants")
				continue
			}
			for i, s := range shared {
				if strings.HasPrefix(s, "  shared "+g.globals[gl]+" ") {
					shared[i] += " = " + g.constant(k, st.Pos())
				}
			}
		}
	}
}

// heap returns the heap type for values of Go type typ (what a pointer to
// typ points to), making it on first use.
func (g *gen) heap(typ types.Type, pos token.Pos) *heapType {
	key := types.TypeString(typ, nil)
	if h, ok := g.heaps[key]; ok {
		return h
	}
	if us := g.unsafeTargets(); len(us) > 1 && slices.ContainsFunc(us, func(u types.Type) bool { return types.Identical(u, typ) }) {
		return g.unionHeap(us, pos)
	}
	h := &heapType{name: g.freshName(heapName(typ))}
	g.heaps[key] = h
	g.heapOrder = append(g.heapOrder, h)
	if _, ok := typ.Underlying().(*types.Struct); ok && !isBuiltinType(typ) {
		h.fields = g.flatten(typ, "", pos)
	} else {
		h.fields = g.flatten(typ, "v", pos)
	}
	return h
}

// heapName returns the name of the heap type of typ.
func heapName(typ types.Type) string {
	if at, ok := typ.(*types.Array); ok { // a slice's or an array's elements
		return ident(fmt.Sprintf("arr%d_%s", at.Len(), types.TypeString(at.Elem(), func(*types.Package) string { return "" })))
	}
	return ident(types.TypeString(typ, func(*types.Package) string { return "" }))
}

// freshName returns name, or name with underscores appended, unused by
// the heap types made so far.
func (g *gen) freshName(name string) string {
	for taken := true; taken; {
		taken = false
		for _, h := range g.heapOrder {
			if h.name == name {
				name += "_"
				taken = true
			}
		}
	}
	return name
}

// unionHeap returns the heap type of the types us, whose pointers the
// code converts to and from unsafe.Pointer: one node type whose fields
// are theirs, all of them (an unsafe.Pointer is a reference to such a
// node, whichever Go type it points to, and a conversion changes nothing;
// a node of one Go type leaves the other types' fields zero, so the
// states are those of separate node types, with more slots). Two of the
// types with a field of one name but different model types are refused.
func (g *gen) unionHeap(us []types.Type, pos token.Pos) *heapType {
	var names []string
	for _, u := range us {
		names = append(names, heapName(u))
	}
	h := &heapType{name: g.freshName(strings.Join(names, "_or_"))}
	for _, u := range us {
		g.heaps[types.TypeString(u, nil)] = h
	}
	g.heapOrder = append(g.heapOrder, h)
	have := map[string]slot{}
	for i, u := range us {
		var fs []slot
		if _, ok := u.Underlying().(*types.Struct); ok && !isBuiltinType(u) {
			fs = g.flatten(u, "", pos)
		} else {
			fs = g.flatten(u, "v", pos)
		}
		for _, f := range fs {
			if old, ok := have[f.name]; ok {
				if old != f {
					g.refuse(g.unsafePos[i], fmt.Sprintf("unsafe.Pointer converted to pointers to types with a field %s of different types (here *%s)", f.name, types.TypeString(u, types.RelativeTo(g.t.Pkg.Pkg))), "not translated yet: name the fields apart")
				}
				continue
			}
			have[f.name] = f
			h.fields = append(h.fields, f)
		}
	}
	return h
}

func isBuiltinType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	ok, _ = builtinType(n)
	return ok
}

// flatten returns the leaves of a value of type typ stored under name:
// a struct's fields (name_field, or field at the top), an array's
// elements (name_i), else one slot.
func (g *gen) flatten(typ types.Type, name string, pos token.Pos) []slot {
	join := func(a, b string) string {
		if a == "" {
			return ident(b)
		}
		return a + "_" + b
	}
	if isPool(typ) {
		return g.poolSlotsOf(name, pos)
	}
	if !isBuiltinType(typ) {
		switch u := typ.Underlying().(type) {
		case *types.Struct:
			var out []slot
			for i := range u.NumFields() {
				f := u.Field(i)
				if f.Name() == "_" {
					continue // padding (_ [64]byte): never read nor written but as zero, so not held
				}
				if g.t.locFields[locField{u, i}] { // holding addresses (Target.locFields)
					elem, _ := holder(f.Type())
					out = append(out, slot{name: join(name, f.Name()), typ: "loc " + g.scalar(elem, pos)})
					continue
				}
				out = append(out, g.flatten(f.Type(), join(name, f.Name()), pos)...)
			}
			return out
		case *types.Array:
			var out []slot
			for i := range u.Len() {
				out = append(out, g.flatten(u.Elem(), join(name, fmt.Sprint(i)), pos)...)
			}
			return out
		case *types.Slice: // its header: the backing array, offset, length, capacity (slices.go)
			return []slot{{name: join(name, "p"), typ: "ref " + g.sliceHeap(u, pos).name},
				{name: join(name, "o"), typ: "int"}, {name: join(name, "l"), typ: "int"}, {name: join(name, "c"), typ: "int"}}
		}
	}
	return []slot{{name: name, typ: g.scalar(typ, pos), nilAny: isAny(typ) && !(g.valueElem != nil && isBuiltinType(typ))}}
}

// isAny reports whether values of typ are interfaces held as one slot (any,
// atomic.Value): nil is EMPTY, an integer itself.
func isAny(typ types.Type) bool {
	if n, ok := types.Unalias(typ).(*types.Named); ok && isBuiltinType(typ) {
		return n.Obj().Name() == "Value"
	}
	_, ok := typ.Underlying().(*types.Interface)
	return ok
}

// newNode returns the model expression that allocates a node of h: its
// any fields start as nil (EMPTY), the others zero.
func (h *heapType) newNode() string {
	var inits []string
	for _, f := range h.fields {
		if f.nilAny {
			inits = append(inits, f.name+": EMPTY")
		}
	}
	return "new " + h.name + "{" + strings.Join(inits, ", ") + "}"
}

// scalar returns the model type of a one-slot Go type.
func (g *gen) scalar(typ types.Type, pos token.Pos) string {
	if n, ok := types.Unalias(typ).(*types.Named); ok && isBuiltinType(typ) {
		switch n.Obj().Name() {
		case "Bool":
			return "bool"
		case "Pointer":
			return "ref " + g.heap(n.TypeArgs().At(0), pos).name
		case "Value":
			if g.valueElem != nil { // holding pointers (value.go)
				return "ref " + g.heap(g.valueElem, pos).name
			}
			return "int" // holding integers, or nil (EMPTY)
		}
		return "int" // the integers, Mutex (0 or 1), RWMutex (-1 written, n readers)
	}
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "bool"
		case u.Kind() == types.UnsafePointer:
			return "ref " + g.unsafeHeap(pos).name
		}
		switch u.Kind() {
		case types.Int8:
			return "int(-128..127) wrap"
		case types.Uint8:
			return "int(0..255) wrap"
		case types.Int16:
			return "int(-32768..32767) wrap"
		case types.Uint16:
			return "int(0..65535) wrap"
		}
		return "int"
	case *types.Pointer:
		return "ref " + g.heap(u.Elem(), pos).name
	case *types.Slice:
		return "ref " + g.sliceHeap(u, pos).name
	case *types.Interface:
		return "int" // holding integers of one type (anyType), or nil (EMPTY)
	case *types.Struct, *types.Array:
		g.refuse(pos, "struct or array value held in a variable", "not translated yet: a struct value is copied from memory, passed, and returned by a function of one block")
	}
	return "int"
}

// sliceLens finds the capacity of the backing arrays of the slices of
// each element type (slices.go): the largest constant (or constructor's
// constant argument) a make gives them, at least sliceCap when a make has
// a length known only as the code runs or an append grows them, and the
// length of the arrays the code slices (slicedArray).
func (g *gen) sliceLens() {
	g.lens, g.slicedAllocs = map[string]int64{}, map[*ssa.Alloc]bool{}
	grow := func(elem types.Type, n int64) {
		k := types.TypeString(elem, nil)
		g.lens[k] = max(g.lens[k], n)
	}
	for _, fn := range g.t.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				switch in := in.(type) {
				case *ssa.MakeSlice:
					elem := in.Type().Underlying().(*types.Slice).Elem()
					n := int64(sliceCap)
					for _, l := range []ssa.Value{in.Len, in.Cap} {
						switch l := l.(type) {
						case *ssa.Const:
							n = max(n, l.Int64())
						case *ssa.Parameter:
							if fn == g.t.Ctor {
								n = max(n, g.t.CtorArgs[slices.Index(fn.Params, l)].Int64())
							}
						}
					}
					if n > maxArray {
						g.refuse(in.Pos(), fmt.Sprintf("make of a slice of %d elements", n), fmt.Sprintf("at most %d", maxArray))
						n = maxArray
					}
					grow(elem, n)
				case *ssa.Call:
					if b, ok := in.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
						grow(in.Type().Underlying().(*types.Slice).Elem(), sliceCap)
					}
				case *ssa.Slice:
					if a, ok := slicedArray(in); ok { // its node is the slices' backing array
						g.slicedAllocs[a] = true
						at := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
						grow(at.Elem(), at.Len())
					}
				}
			}
		}
	}
}

// anyType finds the integer types the any values of the code the client
// reaches hold. An any is held as the integer itself (nil as EMPTY) when
// they are of one type; of several, each value carries its type's tag
// (anyTags, 1 …): tag·2^25 plus the value, which must lie within ±2^24
// (else a model error), so that a type assertion or a type switch tells
// the types apart. atomic.Value, whose Store panics on a value of another
// type than the one it holds, holds one type.
func (g *gen) anyType() {
	var held []types.Type
	var first token.Pos
	note := func(t types.Type, pos token.Pos) {
		for _, h := range held {
			if types.Identical(h, t) {
				return
			}
		}
		if len(held) == 0 {
			first = pos
		}
		held = append(held, t)
	}
	value := token.NoPos
	for _, fn := range g.t.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				switch in := in.(type) {
				case *ssa.MakeInterface:
					if !onlyPanics(in) && !g.t.carriesPointer(in) {
						note(in.X.Type(), in.Pos())
					}
				case *ssa.TypeAssert:
					if !g.t.carriesPointer(in) {
						note(in.AssertedType, in.Pos())
					}
				case *ssa.Call:
					if f, ok := in.Call.Value.(*ssa.Function); ok {
						if i, ok := intrinsicOf(f); ok && i.Recv == "Value" {
							value = in.Pos()
						}
					}
				}
			}
		}
	}
	if len(held) < 2 {
		return
	}
	switch {
	case value.IsValid():
		g.refuse(value, fmt.Sprintf("atomic.Value with the any values of the code holding integers of several types (%s and %s)", held[0], held[1]), "an atomic.Value holds one type")
	case len(held) > maxAnyTags:
		g.refuse(first, fmt.Sprintf("any holding integers of %d types", len(held)), fmt.Sprintf("at most %d", maxAnyTags))
	}
	g.anyTags = map[string]int32{}
	for i, h := range held {
		g.anyTags[types.TypeString(h, nil)] = int32(i + 1)
	}
}

// maxAnyTags bounds the integer types an any holds (anyType).
const maxAnyTags = 15

// sliceHeap returns the heap type of the backing arrays of the slices
// of type st: a node of their capacity (sliceLens).
func (g *gen) sliceHeap(st *types.Slice, pos token.Pos) *heapType {
	return g.heap(types.NewArray(st.Elem(), g.capOf(st)), pos)
}

// capOf returns the capacity of the backing arrays of slices of type st.
func (g *gen) capOf(st *types.Slice) int64 {
	return max(g.lens[types.TypeString(st.Elem(), nil)], 1)
}

// firstUse returns v's first use as a value, nil if none.
func firstUse(v ssa.Value) ssa.Value {
	for _, u := range uses(v) {
		if x, ok := u.(ssa.Value); ok {
			return x
		}
	}
	return nil
}

// unsafeHeap returns the heap type an unsafe.Pointer refers to: that of
// the one pointer type every conversion to or from unsafe.Pointer in the
// code the client reaches uses, or the union of those types'
// (unionHeap). Without conversions an unsafe.Pointer is nil or a copy of
// another: a node of its own type, which none is made of.
func (g *gen) unsafeHeap(pos token.Pos) *heapType {
	us := g.unsafeTargets()
	if len(us) == 0 {
		return g.heap(types.Typ[types.UnsafePointer], pos)
	}
	return g.heap(us[0], pos)
}

// unsafeTargets returns the types whose pointers the code the client
// reaches converts to and from unsafe.Pointer, in the order of the
// conversions (the addresses of Target.AddrCasts aside).
func (g *gen) unsafeTargets() []types.Type {
	if g.unsafeTypes != nil {
		return g.unsafeTypes
	}
	g.unsafeTypes = []types.Type{}
	for _, fn := range g.t.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				cv, ok := in.(*ssa.Convert)
				if !ok || g.t.AddrCasts[cv] != nil || g.t.AddrCasts[firstUse(cv)] != nil {
					continue // an address converted through unsafe.Pointer (Target.AddrCasts)
				}
				for _, ty := range []types.Type{cv.X.Type(), cv.Type()} {
					if p, ok := ty.Underlying().(*types.Pointer); ok && !slices.ContainsFunc(g.unsafeTypes, func(u types.Type) bool { return types.Identical(u, p.Elem()) }) {
						g.unsafeTypes = append(g.unsafeTypes, p.Elem())
						g.unsafePos = append(g.unsafePos, cv.Pos())
					}
				}
			}
		}
	}
	return g.unsafeTypes
}

// fieldName returns the flattened name of field i of struct type st
// within a value stored under base ("" at a node's top).
func fieldName(st *types.Struct, i int, base string) string {
	if base == "" {
		return ident(st.Field(i).Name())
	}
	return base + "_" + st.Field(i).Name()
}

// goLine returns the Go source text of the line of pos, trimmed.
func (g *gen) goLine(pos token.Pos) string {
	p := g.t.Fset.Position(pos)
	lines, ok := g.sources[p.Filename]
	if !ok {
		src, _ := os.ReadFile(p.Filename)
		lines = strings.Split(string(src), "\n")
		g.sources[p.Filename] = lines
	}
	if p.Line < 1 || p.Line > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[p.Line-1])
}

// origin writes the origin directive of Go position pos to b.
func (g *gen) origin(b *strings.Builder, pos token.Pos) {
	g.directive(b, syntax.OriginDirective, pos)
}

// directive writes an origin or a plain directive for pos to b.
func (g *gen) directive(b *strings.Builder, d string, pos token.Pos) {
	p := g.t.Position(pos)
	fmt.Fprintf(b, "%s%s:%d:%d %s\n", d, p.File, p.Line, p.Col, g.goLine(pos))
}

// line writes one line of the method being written, after an origin
// directive for pos if it is valid.
func (g *gen) line(pos token.Pos, format string, args ...any) {
	switch {
	case pos.IsValid() && g.plain:
		g.directive(&g.out, syntax.PlainDirective, pos)
	case pos.IsValid():
		g.origin(&g.out, pos)
	}
	g.plain = false
	g.out.WriteString(strings.Repeat("  ", g.indent+2))
	fmt.Fprintf(&g.out, format, args...)
	g.out.WriteByte('\n')
}

// local declares a fresh local of model type typ and returns its name.
func (g *gen) local(prefix, typ string) string {
	g.fresh++
	name := fmt.Sprintf("%s%d", prefix, g.fresh)
	g.decls = append(g.decls, fmt.Sprintf("var %s %s", name, typ))
	return name
}

// method writes a client method.
func (g *gen) method(fn *ssa.Function) string {
	g.out.Reset()
	g.decls, g.fresh, g.indent, g.moveTmps = nil, 0, 0, nil
	g.backs, g.heapHeld = map[string]*backing{}, map[string]bool{}
	fr := newFrame(g, fn, "")
	var params []string
	for i, p := range fn.Params {
		if i == 0 && fn.Signature.Recv() != nil {
			fr.vals[p] = "Obj"
			continue
		}
		name := ident("p_" + p.Name())
		fr.vals[p] = name
		params = append(params, name+" "+g.scalar(p.Type(), p.Pos()))
	}
	results := fn.Signature.Results()
	var result string
	switch {
	case results.Len() == 1:
		result = " " + g.scalar(results.At(0).Type(), fn.Pos())
	case results.Len() > 1:
		// A tuple's int components take a range, so that the tuple packs
		// into one value (LANGUAGE.md): as wide as 2^24 combinations allow.
		ints := 0
		for r := range results.Variables() {
			if g.scalar(r.Type(), fn.Pos()) != "bool" {
				ints++
			}
		}
		bits := (24 - (results.Len() - ints)) / max(ints, 1)
		var rs []string
		for r := range results.Variables() {
			if ty := g.scalar(r.Type(), fn.Pos()); ty == "bool" {
				rs = append(rs, ty)
			} else {
				hi := 1<<(bits-1) - 1
				rs = append(rs, fmt.Sprintf("int(%d..%d)", -hi-1, hi))
			}
		}
		result = " (" + strings.Join(rs, ", ") + ")"
	}
	fr.returns = true
	g.body(fr)
	var b strings.Builder
	if f := resultFormats(results, g.anyTags != nil); f != "" {
		b.WriteString(syntax.ResultsDirective + f + "\n")
	}
	g.origin(&b, fn.Pos())
	fmt.Fprintf(&b, "  method %s(%s)%s {\n", MethodName(fn), strings.Join(params, ", "), result)
	for _, d := range g.decls {
		// The locals are declared (zeroed) on entry: the function's line.
		g.origin(&b, fn.Pos())
		b.WriteString("    " + d + "\n")
	}
	if g.atomic { // a reference specification's method: one atomic step
		g.origin(&b, fn.Pos())
		b.WriteString("    atomic {\n")
	}
	b.WriteString(g.out.String())
	if g.atomic {
		b.WriteString("    }\n")
	}
	if syn := fn.Syntax(); syn != nil {
		g.origin(&b, syn.End()-1) // the closing brace: where a method ends
	}
	b.WriteString("  }\n")
	return b.String()
}

// resultFormats returns the results directive's formats for a method's
// results (syntax.ResultsDirective): the integer kind (u64, i32) of an
// integer of 32 bits and more, whose slot holds its bits, its signed
// view or a code, and whose value -2^30 the modeling language would print
// as EMPTY; any (anytag when tagged: the any values carry their types'
// tags) for an any; "" if there are none.
func resultFormats(results *types.Tuple, tagged bool) string {
	var fs []string
	special := false
	for r := range results.Variables() {
		f := "-"
		if isAny(r.Type()) {
			f, special = "any", true
			if tagged {
				f = "anytag"
			}
		}
		if k, ok := intKind(r.Type()); ok && k.Bits() >= 32 {
			f, special = k.String(), true
		}
		fs = append(fs, f)
	}
	if !special {
		return ""
	}
	return strings.Join(fs, ",")
}

// initBlock writes the init block: the object made by the constructor,
// inlined, or a zero node.
func (g *gen) initBlock(obj *heapType) string {
	g.out.Reset()
	g.decls, g.fresh, g.indent, g.moveTmps = nil, 0, 0, nil
	g.backs, g.heapHeld = map[string]*backing{}, map[string]bool{}
	if g.t.Ctor == nil {
		g.line(g.t.Type.Obj().Pos(), "Obj = %s", obj.newNode())
	} else {
		fr := newFrame(g, g.t.Ctor, "")
		for i, p := range g.t.Ctor.Params {
			fr.vals[p] = g.constant(g.t.CtorArgs[i], g.t.Ctor.Pos())
		}
		res := g.local("r", "ref "+obj.name)
		fr.dests = []string{res}
		fr.exit = "C0"
		g.line(g.t.Ctor.Pos(), "C0: while true {")
		g.indent++
		g.body(fr)
		g.indent--
		g.line(token.NoPos, "}")
		g.line(g.t.Ctor.Pos(), "Obj = %s", res)
	}
	var b strings.Builder
	b.WriteString("  init {\n")
	for _, d := range g.decls {
		b.WriteString("    " + d + "\n")
	}
	b.WriteString(g.out.String())
	b.WriteString("  }\n")
	return b.String()
}

// constant returns the model text of a Go constant.
func (g *gen) constant(k *ssa.Const, pos token.Pos) string {
	switch {
	case k.IsNil() && isAny(k.Type()):
		return "EMPTY" // a nil any
	case k.IsNil():
		return "null"
	case k.Value == nil:
		if b, ok := k.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 {
			return "false"
		}
		return "0"
	}
	if b, ok := k.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 {
		return k.Value.ExactString()
	}
	if b, ok := k.Type().Underlying().(*types.Basic); ok && widthOf(b) <= 16 {
		return k.Value.ExactString() // narrow types keep their natural value
	}
	v, ok := SignedView(k.Value, k.Type())
	if kind, _ := intKind(k.Type()); kind.Bits() == 64 && (!ok || v < intop.DirectMin) {
		// Held as a code (package intop): made by an operation.
		u, _ := constant.Uint64Val(constant.BinaryOp(k.Value, token.AND, constant.MakeUint64(^uint64(0))))
		return intCall(intop.Join, kind, 0, int32Text(int32(uint32(u>>32))), int32Text(int32(uint32(u))))
	}
	return int32Text(v)
}

// int32Text returns the model text of a 32-bit value.
func int32Text(v int32) string {
	if v == -1<<30 {
		return "EMPTY" // the modeling language's EMPTY, printed so in labels
	}
	if v < -1<<24 {
		return bigConstant(v) // beyond the modeling language's own arithmetic
	}
	if v < 0 {
		return fmt.Sprintf("(%d)", v)
	}
	return fmt.Sprint(v)
}
