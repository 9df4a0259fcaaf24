package golang

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/linbis/linbis/frontend/intop"

	"golang.org/x/tools/go/ssa"
)

// addr is a location of the model: a field of the node a reference
// expression holds, or a shared variable (base "").
type addr struct {
	base string     // a reference expression (a local, Obj), "" for a shared variable
	name string     // the flattened field name, or the shared variable's name
	typ  types.Type // the Go type stored there
	// node is the Go type of the node base refers to (nil for a shared
	// variable): its heap type is the model type of base.
	node types.Type
	// dyn, if not nil, makes the location an element chosen by a variable
	// index: name is then unused.
	dyn *dynIndex
	// held, if not "", is the loc local that holds the address (a φ's, or
	// one loaded from a loc field or variable or returned by a function,
	// Target.LocVals): name is then *held.
	held string
}

// dynIndex is an element of an array chosen by a variable index: the
// index's model text (a local or a constant) and the flattened name of
// the location for each index.
type dynIndex struct {
	index string
	names []string
}

// loc returns the location's model text.
func (a addr) loc() string {
	if a.base == "" {
		return a.name
	}
	return a.base + "." + a.name
}

// frame is a function being written: a client method, the constructor,
// or a function of the package inlined where it is called.
type frame struct {
	g  *gen
	fn *ssa.Function
	// vals: the model text of the function's values (locals, folded
	// expressions, the receiver Obj, parameters bound to arguments);
	// addrs: the values that are addresses.
	vals  map[ssa.Value]string
	addrs map[ssa.Value]addr
	// plainFold: the plain loads folded into the if that tests them.
	plainFold map[ssa.Value]bool
	// returns: a client method (Return is a return); else dests receive
	// the results and exit is the label a return breaks out of ("": the
	// body falls through).
	returns bool
	dests   []string
	exit    string
	// results, for an inlined function of one block, receives the text
	// of the values it returns (no locals needed); resultAddr, the address
	// it returns (Target.AddrResults).
	results    *[]string
	resultAddr *addr
	prefix     string // of labels, unique per inlined call
	rpo        map[*ssa.BasicBlock]int
	// header: loop headers (the target of a back edge); merge: blocks
	// entered by several forward edges.
	header, merge map[*ssa.BasicBlock]bool
	defers        []deferred
	// varargs: the arguments of a variadic call of append, by the array
	// SSA makes of them (their texts, by index); varargIdx: the addresses
	// of its elements.
	varargs   map[ssa.Value][]string
	varargIdx map[ssa.Value]varargRef
	varargOf  map[*ssa.Slice]ssa.Value // the varargs array a slice of it slices
}

// varargRef is element i of the varargs array alloc.
type varargRef struct {
	alloc ssa.Value
	i     int
}

// newFrame returns the frame of fn, its labels prefixed by prefix.
func newFrame(g *gen, fn *ssa.Function, prefix string) *frame {
	return &frame{g: g, fn: fn, vals: map[ssa.Value]string{}, addrs: map[ssa.Value]addr{},
		plainFold: map[ssa.Value]bool{}, prefix: prefix,
		varargs: map[ssa.Value][]string{}, varargIdx: map[ssa.Value]varargRef{}, varargOf: map[*ssa.Slice]ssa.Value{}}
}

// deferred is a deferred call: its callee and arguments, captured where
// the defer runs, and the local flag that says it ran ("" when its block
// dominates every return).
type deferred struct {
	in   *ssa.Defer
	args []arg
	flag string
}

// arg is an argument of a call: an address or a value's text.
type arg struct {
	addr *addr
	text string
}

// body writes fn's blocks, structured.
func (g *gen) body(fr *frame) {
	fn := fr.fn
	fr.rpo = map[*ssa.BasicBlock]int{}
	var post []*ssa.BasicBlock
	seen := map[*ssa.BasicBlock]bool{}
	var visit func(b *ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		seen[b] = true
		for _, s := range b.Succs {
			if !seen[s] {
				visit(s)
			}
		}
		post = append(post, b)
	}
	visit(fn.Blocks[0])
	for i, b := range post {
		fr.rpo[b] = len(post) - 1 - i
	}
	fr.header, fr.merge = map[*ssa.BasicBlock]bool{}, map[*ssa.BasicBlock]bool{}
	for b := range fr.rpo {
		forward := 0
		for _, p := range b.Preds {
			if fr.rpo[p] >= fr.rpo[b] {
				fr.header[b] = true
			} else {
				forward++
			}
		}
		fr.merge[b] = forward > 1
	}
	g.doTree(fr, fn.Blocks[0])
}

// doTree writes block x and the blocks it dominates (Ramsey's doTree).
func (g *gen) doTree(fr *frame, x *ssa.BasicBlock) {
	var ys []*ssa.BasicBlock
	for _, y := range x.Dominees() {
		if fr.merge[y] {
			ys = append(ys, y)
		}
	}
	slices.SortFunc(ys, func(a, b *ssa.BasicBlock) int { return fr.rpo[b] - fr.rpo[a] })
	if fr.header[x] {
		g.line(blockPos(x), "%sL%d: while true {", fr.prefix, x.Index)
		g.indent++
		g.nodeWithin(fr, x, ys)
		g.indent--
		g.line(token.NoPos, "}")
		return
	}
	g.nodeWithin(fr, x, ys)
}

// nodeWithin writes x's code inside the blocks after which its merge
// children ys come, the latest last.
func (g *gen) nodeWithin(fr *frame, x *ssa.BasicBlock, ys []*ssa.BasicBlock) {
	if len(ys) == 0 {
		g.block(fr, x)
		return
	}
	y := ys[0]
	g.line(token.NoPos, "%sB%d: while true {", fr.prefix, y.Index)
	g.indent++
	g.nodeWithin(fr, x, ys[1:])
	g.indent--
	g.line(token.NoPos, "}")
	g.doTree(fr, y)
}

// doBranch writes the transfer of control from x to y: the φ moves, then
// a continue (a back edge), a break (to a merge node) or y's own code.
func (g *gen) doBranch(fr *frame, x, y *ssa.BasicBlock, pos token.Pos) {
	g.phiMoves(fr, x, y, pos)
	switch {
	case fr.rpo[y] <= fr.rpo[x]:
		g.line(pos, "continue %sL%d", fr.prefix, y.Index)
	case fr.merge[y]:
		g.line(token.NoPos, "break %sB%d", fr.prefix, y.Index)
	default:
		g.doTree(fr, y)
	}
}

// phiMoves assigns y's φ-nodes their values on the edge from x, through
// temporaries when one reads another.
func (g *gen) phiMoves(fr *frame, x, y *ssa.BasicBlock, pos token.Pos) {
	k := slices.Index(y.Preds, x)
	var phis []*ssa.Phi
	for _, in := range y.Instrs {
		if phi, ok := in.(*ssa.Phi); ok {
			phis = append(phis, phi)
		}
	}
	if len(phis) == 0 {
		return
	}
	readsPhi := false
	for _, phi := range phis {
		if p, ok := phi.Edges[k].(*ssa.Phi); ok && p.Block() == y {
			readsPhi = true
		}
	}
	vals := make([]string, len(phis))
	for i, phi := range phis {
		if g.t.LocPhis[phi] {
			vals[i] = fr.locValue(phi.Edges[k], pos)
		} else {
			vals[i] = fr.value(phi.Edges[k], pos)
		}
		if readsPhi {
			tmp := g.localOf("m", phi.Type(), pos)
			if g.t.LocPhis[phi] {
				tmp = g.local("m", "loc "+g.scalar(phi.Type().Underlying().(*types.Pointer).Elem(), pos))
			}
			g.assign(tmp, vals[i], phi.Type(), pos)
			vals[i] = tmp
		}
	}
	for i, phi := range phis {
		epos := pos // the value merged, if it has a position
		if in, ok := phi.Edges[k].(ssa.Instruction); ok && in.Pos().IsValid() {
			epos = in.Pos()
		}
		if dst := fr.phiLocal(phi); dst != vals[i] {
			g.assign(dst, vals[i], phi.Type(), epos)
		}
	}
}

// phiLocal returns the local of a φ-node, declaring it on first use.
func (fr *frame) phiLocal(phi *ssa.Phi) string {
	if v, ok := fr.vals[phi]; ok {
		return v
	}
	var v string
	if fr.g.t.LocPhis[phi] {
		v = fr.g.local("f", "loc "+fr.g.scalar(phi.Type().Underlying().(*types.Pointer).Elem(), phi.Pos()))
	} else {
		v = fr.g.localOf("f", phi.Type(), phi.Pos())
	}
	fr.vals[phi] = v
	return v
}

// innerElem returns the location of the element in.Index, a variable, of
// the arrays of n elements that a, an element chosen by a variable index,
// stands for (a[i][j]): one element of them all, chosen by the index
// i·n + j, each index checked first as Go checks it (an index out of
// range panics: a model error).
func (g *gen) innerElem(fr *frame, in *ssa.IndexAddr, a addr, n int64, pos token.Pos) addr {
	j := g.simpleValue(fr.value(in.Index, pos), pos)
	g.line(pos, "assert %s >= 0 && %s < %d && %s >= 0 && %s < %d", a.dyn.index, a.dyn.index, len(a.dyn.names), j, j, n)
	k := g.local("i", "int")
	g.line(pos, "%s = %s * %d + %s", k, a.dyn.index, n, j)
	d := &dynIndex{index: k}
	for _, name := range a.dyn.names {
		for e := range n {
			d.names = append(d.names, join(name, fmt.Sprint(e)))
		}
	}
	return addr{base: a.base, node: a.node, typ: in.Type().(*types.Pointer).Elem(), dyn: d}
}

// bindLoc makes v, a loc a function of the package returned (its text
// x), an address held in a loc local.
func (fr *frame) bindLoc(v ssa.Value, x string, pos token.Pos) {
	elem := v.Type().Underlying().(*types.Pointer).Elem()
	l := fr.g.local("t", "loc "+fr.g.scalar(elem, pos))
	fr.g.line(pos, "%s = %s", l, x)
	fr.addrs[v] = addr{name: "*" + l, typ: elem, held: l}
}

// isAddr reports whether v is an address the translation follows
// statically (of a field, an element, a package variable), or a loc.
func (fr *frame) isAddr(v ssa.Value) bool {
	if _, ok := fr.addrs[v]; ok {
		return true
	}
	switch v := v.(type) {
	case *ssa.Global:
		return true
	case *ssa.Phi:
		return fr.g.t.LocPhis[v]
	}
	return false
}

// locValue returns the loc of the address v, which a φ-node of addresses
// (Target.LocPhis) takes, a comparison compares or a loc field holds: &x
// of its location, the loc local that holds it, or the null loc for nil.
func (fr *frame) locValue(v ssa.Value, pos token.Pos) string {
	if phi, ok := v.(*ssa.Phi); ok && fr.g.t.LocPhis[phi] {
		return fr.phiLocal(phi)
	}
	if isNil(v) { // a local never written: the null loc
		return fr.g.local("z", "loc "+fr.g.scalar(v.Type().Underlying().(*types.Pointer).Elem(), pos))
	}
	a := fr.addrOf(v, pos)
	if a.held != "" {
		return a.held
	}
	if a.dyn != nil { // the element's address, chosen as the element is (one branch each)
		l := fr.g.local("t", "loc "+fr.g.scalar(a.typ, pos))
		fr.g.eachElem(a, pos, func(at addr) { fr.g.line(pos, "%s = &%s", l, at.loc()) })
		return l
	}
	return "&" + a.loc()
}

// localOf declares a fresh local for a value of Go type typ and returns
// its text: a struct or an array value takes a local per leaf
// (structs.go).
func (g *gen) localOf(prefix string, typ types.Type, pos token.Pos) string {
	if isScalar(typ) {
		return g.local(prefix, g.scalar(typ, pos))
	}
	var leaves []string
	for _, s := range g.flatten(typ, "", pos) {
		leaves = append(leaves, g.local(prefix, s.typ))
	}
	return structVal(leaves)
}

// assign writes dst = x, leaf by leaf for a struct value of Go type typ;
// a slice's header takes the backing of the slice assigned
// (adoptBacking).
func (g *gen) assign(dst, x string, typ types.Type, pos token.Pos) {
	ds, ok1 := structLeaves(dst)
	xs, ok2 := structLeaves(x)
	if !ok1 || !ok2 {
		g.line(token.NoPos, "%s = %s", dst, x)
		return
	}
	if _, ok := typ.Underlying().(*types.Slice); ok && len(ds) == 4 && len(xs) == 4 {
		g.adoptBacking(ds, xs, pos)
	} else {
		for _, l := range xs {
			if g.backs[l] != nil {
				g.refuse(pos, "copying a struct or an array value that holds a slice of an array field or a package array", "not translated yet: such a slice is used where it is made")
				return
			}
		}
	}
	for i := range ds {
		if ds[i] != xs[i] {
			g.line(token.NoPos, "%s = %s", ds[i], xs[i])
		}
	}
}

// blockPos returns the position of a block's first instruction that has
// one.
func blockPos(b *ssa.BasicBlock) token.Pos {
	for _, in := range b.Instrs {
		if p := in.Pos(); p.IsValid() {
			return p
		}
	}
	return token.NoPos
}

// value returns the model text of v.
func (fr *frame) value(v ssa.Value, pos token.Pos) string {
	if s, ok := fr.vals[v]; ok {
		return s
	}
	switch v := v.(type) {
	case *ssa.Const:
		if _, ok := v.Type().Underlying().(*types.Slice); ok {
			return structVal([]string{"null", "0", "0", "0"}) // a nil slice
		}
		return fr.g.constant(v, pos)
	case *ssa.Phi:
		return fr.phiLocal(v)
	}
	fr.g.refuse(pos, fmt.Sprintf("value %s (%T)", v.Name(), v), "not translated yet")
	return "0"
}

// addrOf returns the location an address value denotes: a field or an
// element's address, a package variable, or a pointer to a node (its one
// field v, or its fields from the top for a struct).
func (fr *frame) addrOf(v ssa.Value, pos token.Pos) addr {
	if a, ok := fr.addrs[v]; ok {
		return a
	}
	if gl, ok := v.(*ssa.Global); ok {
		return addr{name: fr.g.globals[gl], typ: gl.Type().(*types.Pointer).Elem()}
	}
	if phi, ok := v.(*ssa.Phi); ok && fr.g.t.LocPhis[phi] { // a loc: the location it refers to
		l := fr.phiLocal(phi)
		return addr{name: "*" + l, typ: phi.Type().Underlying().(*types.Pointer).Elem(), held: l}
	}
	elem := v.Type().Underlying().(*types.Pointer).Elem()
	name, node := "v", elem
	if _, ok := elem.Underlying().(*types.Struct); ok && !isBuiltinType(elem) {
		name = ""
	}
	if al, ok := v.(*ssa.Alloc); ok && fr.g.slicedAllocs[al] { // a backing array (slicedArray)
		at := elem.Underlying().(*types.Array)
		node = types.NewArray(at.Elem(), fr.g.capOf(types.NewSlice(at.Elem())))
	}
	return addr{base: fr.value(v, pos), name: name, typ: elem, node: node}
}

// join names a leaf below a flattened name.
func join(base, name string) string {
	if base == "" {
		return ident(name)
	}
	return base + "_" + name
}

// isScalar reports whether values of typ take one slot.
func isScalar(typ types.Type) bool {
	if isBuiltinType(typ) {
		return true
	}
	switch typ.Underlying().(type) {
	case *types.Struct, *types.Array, *types.Slice:
		return false
	}
	return true
}

// uses returns v's referrers other than debugging references.
func uses(v ssa.Value) []ssa.Instruction {
	var out []ssa.Instruction
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			if _, ok := r.(*ssa.DebugRef); !ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// pointerAny reports whether in is an any that only carries a pointer
// through a container of anys (an atomic.Value, a sync.Pool: value.go,
// pool.go), so that the model may keep the pointer itself: a pointer
// converted to any whose every use (at least one) is one that puts it into
// the container (puts), or the result of a call that takes one out (takes)
// asserted to a pointer type. Both containers decide this the same way and
// differ only in their calls, hence one walk of the referrers.
func pointerAny(in ssa.Instruction, puts func(mi *ssa.MakeInterface, u ssa.Instruction) bool, takes func(*ssa.CallCommon) bool) bool {
	switch in := in.(type) {
	case *ssa.MakeInterface:
		if _, ok := in.X.Type().Underlying().(*types.Pointer); !ok {
			return false
		}
		us := uses(in)
		for _, u := range us {
			if !puts(in, u) {
				return false
			}
		}
		return len(us) > 0
	case *ssa.TypeAssert:
		call, ok := in.X.(*ssa.Call)
		_, ptr := in.AssertedType.Underlying().(*types.Pointer)
		return ok && ptr && takes(call.Common())
	}
	return false
}

// nextInstr returns the instruction after in within its block, debugging
// references skipped.
func nextInstr(in ssa.Instruction) ssa.Instruction {
	instrs := in.Block().Instrs
	i := slices.Index(instrs, in)
	for i++; i < len(instrs); i++ {
		if _, ok := instrs[i].(*ssa.DebugRef); !ok {
			return instrs[i]
		}
	}
	return nil
}

// narrow reports whether an integer type is 8 or 16 bits wide: its values
// are stored as they are, in a wrapping range.
func narrow(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && widthOf(b) <= 16
}

// define gives v the model text x: folded into its one use when that is
// the next If of its block (an access to memory) or in its block (pure
// work), else assigned to a local at pos.
//
// plain says that the access to memory is a plain one (checked for data
// races): the statement that makes it is marked so (PlainDirective).
func (fr *frame) define(v ssa.Value, x string, pos token.Pos, memory, plain bool) {
	us := uses(v)
	if len(us) == 0 {
		if memory {
			fr.g.plain = plain
			fr.g.line(pos, "%s = %s", fr.g.local("u", fr.g.scalar(v.Type(), pos)), x)
		}
		return
	}
	in := v.(ssa.Instruction)
	if len(us) == 1 && !narrow(v.Type()) {
		_, isPhi := us[0].(*ssa.Phi)
		_, isIf := us[0].(*ssa.If)
		if memory && isIf && nextInstr(in) == us[0] ||
			!memory && !isPhi && us[0].Block() == in.Block() {
			fr.vals[v] = x
			if plain {
				fr.plainFold[v] = true // the if's test makes the access
			}
			return
		}
	}
	name := fr.g.local("t", fr.g.scalar(v.Type(), pos))
	fr.vals[v] = name
	fr.g.plain = plain
	fr.g.line(pos, "%s = %s", name, x)
}

// block writes the instructions of b and its transfer of control.
func (g *gen) block(fr *frame, b *ssa.BasicBlock) {
	for _, in := range b.Instrs {
		g.instr(fr, in)
	}
}

// binOps maps Go's comparisons to the model's (the integers' arithmetic
// is intBinary's).
var binOps = map[token.Token]string{
	token.EQL: "==", token.NEQ: "!=", token.LSS: "<", token.LEQ: "<=", token.GTR: ">", token.GEQ: ">=",
}

// instr writes one instruction.
func (g *gen) instr(fr *frame, in ssa.Instruction) {
	pos := posOf(in)
	errs := len(g.errs)
	defer func() {
		// A refused value's uses say nothing more: the refusal is the
		// one line about it.
		if v, ok := in.(ssa.Value); ok && len(g.errs) > errs {
			if _, done := fr.vals[v]; !done {
				fr.vals[v] = "0"
			}
		}
	}()
	switch in := in.(type) {
	case *ssa.DebugRef, *ssa.Phi:
	case *ssa.MakeInterface:
		if onlyPanics(in) {
			return // panic's message, not part of the model
		}
		if g.t.carriesPointer(in) {
			fr.vals[in] = fr.value(in.X, pos) // a pool's object or a Value's pointer, the reference itself
			return
		}
		if g.anyTags != nil { // tagged with its type (anyType)
			x := g.simpleValue(fr.value(in.X, pos), pos)
			g.line(pos, "assert %s >= (-16777216) && %s < 16777216", x, x) // the tag's room
			fr.define(in, intCall(intop.Add, intop.I32, 0, x, g.anyTag(in.X.Type())), pos, false, false)
			return
		}
		// An integer in an any is the integer (anyType: one type only),
		// nil EMPTY: an any holding -2^30 would be nil, a model error.
		x := g.simpleValue(fr.value(in.X, pos), pos)
		if _, isConst := in.X.(*ssa.Const); !isConst || x == "EMPTY" {
			g.line(pos, "assert %s != EMPTY", x)
		}
		fr.define(in, x, pos, false, false)
	case *ssa.ChangeInterface:
		fr.define(in, fr.value(in.X, pos), pos, false, false)
	case *ssa.TypeAssert:
		x := fr.value(in.X, pos)
		if g.t.carriesPointer(in) { // a pool's object or a Value's pointer, a reference (pool.go, value.go)
			if !in.CommaOk {
				g.line(pos, "assert %s != null", x) // asserting on nil panics
				fr.define(in, x, pos, false, false)
				return
			}
			ok := g.local("t", "bool")
			g.line(pos, "%s = %s != null", ok, x)
			fr.vals[in] = tuple(x, ok)
			return
		}
		x = g.simpleValue(x, pos)
		// The value held, and the test that it is one of the asserted
		// type: not nil, and with the type's tag when tagged (anyType).
		val, test := x, x+" != EMPTY"
		if g.anyTags != nil {
			tag := g.anyTag(in.AssertedType)
			val = intCall(intop.Sub, intop.I32, 0, x, tag)
			test = intCall(intop.Shr, intop.I32, intop.I32, intCall(intop.Add, intop.I32, 0, x, "16777216"), "25") + " == " + fmt.Sprint(g.anyTags[types.TypeString(in.AssertedType, nil)])
		}
		if !in.CommaOk {
			g.line(pos, "assert %s", test) // asserting on nil or another type panics
			fr.define(in, val, pos, false, false)
			return
		}
		v, ok := g.local("t", g.scalar(in.AssertedType, pos)), g.local("t", "bool")
		g.line(pos, "%s = %s", ok, test)
		g.line(pos, "if %s { %s = %s } else { %s = 0 }", ok, v, val, v)
		fr.vals[in] = tuple(v, ok)
	case *ssa.MakeSlice:
		g.makeSlice(fr, in, pos)
	case *ssa.Alloc:
		if isVarargs(in) { // the arguments of append: see append (slices.go)
			fr.varargs[in] = make([]string, in.Type().(*types.Pointer).Elem().(*types.Array).Len())
			return
		}
		h := g.heap(in.Type().(*types.Pointer).Elem(), pos)
		if g.slicedAllocs[in] { // a backing array of its slices (slicedArray)
			h = g.sliceHeap(types.NewSlice(in.Type().(*types.Pointer).Elem().Underlying().(*types.Array).Elem()), pos)
		}
		name := g.local("a", "ref "+h.name)
		fr.vals[in] = name
		g.line(pos, "%s = %s", name, h.newNode())
	case *ssa.FieldAddr:
		a := fr.addrOf(in.X, pos)
		st := in.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		f := st.Field(in.Field)
		fa := addr{base: a.base, name: join(a.name, f.Name()), typ: f.Type(), node: a.node}
		if a.dyn != nil {
			fa.dyn = &dynIndex{index: a.dyn.index}
			for _, n := range a.dyn.names {
				fa.dyn.names = append(fa.dyn.names, join(n, f.Name()))
			}
		}
		fr.addrs[in] = fa
	case *ssa.IndexAddr:
		var at *types.Array
		var a addr
		if _, ok := in.X.Type().Underlying().(*types.Slice); ok {
			fr.addrs[in] = g.sliceElem(fr, in, pos)
			return
		} else if al, ok := in.X.(*ssa.Alloc); ok && fr.varargs[al] != nil {
			k, _ := in.Index.(*ssa.Const)
			fr.varargIdx[in] = varargRef{al, int(k.Int64())}
			return
		} else {
			at = in.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
			a = fr.addrOf(in.X, pos)
		}
		if k, ok := in.Index.(*ssa.Const); ok {
			i, fits := SignedView(k.Value, k.Type())
			if !fits || i < 0 || int64(i) >= at.Len() {
				g.line(pos, "assert false") // index out of range: a panic
				return
			}
			fa := addr{base: a.base, name: join(a.name, fmt.Sprint(i)), typ: at.Elem(), node: a.node}
			if a.dyn != nil { // an element of each of the outer elements
				fa.dyn = &dynIndex{index: a.dyn.index}
				for _, n := range a.dyn.names {
					fa.dyn.names = append(fa.dyn.names, join(n, fmt.Sprint(i)))
				}
			}
			fr.addrs[in] = fa
			return
		}
		if a.dyn != nil {
			fr.addrs[in] = g.innerElem(fr, in, a, at.Len(), pos)
			return
		}
		idx := fr.value(in.Index, pos)
		if !simple(idx) {
			// The index is read once, here, whichever element is accessed.
			tmp := g.local("i", "int")
			g.line(pos, "%s = %s", tmp, idx)
			idx = tmp
		}
		d := &dynIndex{index: idx}
		for i := range at.Len() {
			d.names = append(d.names, join(a.name, fmt.Sprint(i)))
		}
		fr.addrs[in] = addr{base: a.base, typ: at.Elem(), dyn: d, node: a.node}
	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			a := fr.addrOf(in.X, pos)
			if _, isArray := a.typ.Underlying().(*types.Array); isArray && len(uses(in)) == 0 {
				// go/ssa loads the array a range statement ranges over
				// (for i := range c.shards) even when it uses only the
				// index, and Go then does not evaluate it: no access.
				return
			}
			if !isScalar(a.typ) {
				g.loadStruct(fr, in, a, pos) // field by field (structs.go)
				return
			}
			if g.t.LocVals[in] { // an address from a loc field, held in a loc local
				l := g.local("t", "loc "+g.scalar(in.Type().Underlying().(*types.Pointer).Elem(), pos))
				g.access(a, pos, true, func(loc string) string { return l + " = " + loc })
				fr.addrs[in] = addr{name: "*" + l, typ: in.Type().Underlying().(*types.Pointer).Elem(), held: l}
				return
			}
			if a.dyn == nil {
				fr.define(in, a.loc(), pos, true, true)
				return
			}
			r := g.local("t", g.scalar(in.Type(), pos))
			fr.vals[in] = r
			g.access(a, pos, true, func(loc string) string { return r + " = " + loc })
		case token.NOT:
			fr.define(in, "!"+fr.value(in.X, pos), pos, false, false)
		case token.SUB:
			x := fr.value(in.X, pos)
			if k, ok := intKind(in.X.Type()); ok {
				fr.define(in, intCall(intop.Sub, k, 0, "0", x), pos, false, false)
				return
			}
			fr.define(in, "(-"+x+")", pos, false, false)
		case token.XOR: // ^x: every bit flipped
			k, _ := intKind(in.X.Type())
			fr.define(in, intCall(intop.Xor, k, 0, fr.value(in.X, pos), "(-1)"), pos, false, false)
		default:
			g.refuse(pos, "operator "+in.Op.String(), "not translated yet")
		}
	case *ssa.BinOp:
		if fr.isAddr(in.X) || fr.isAddr(in.Y) { // addresses compared: locs
			if !(fr.isAddr(in.X) || isNil(in.X)) || !(fr.isAddr(in.Y) || isNil(in.Y)) {
				g.refuse(pos, "comparing the address of a field, an element or a package variable with another pointer", "addresses are compared with addresses and nil")
				return
			}
			if isNil(in.Y) && fr.addrOf(in.X, pos).held == "" || isNil(in.X) && fr.addrOf(in.Y, pos).held == "" {
				fr.define(in, fmt.Sprint(in.Op == token.NEQ), pos, false, false) // an address is never nil
				return
			}
			fr.define(in, fmt.Sprintf("(%s %s %s)", fr.locValue(in.X, pos), binOps[in.Op], fr.locValue(in.Y, pos)), pos, false, false)
			return
		}
		x, y := fr.value(in.X, pos), fr.value(in.Y, pos)
		if g.valueElem != nil && (isValueResult(in.X) || isValueResult(in.Y)) { // a Value's pointer and nil (value.go)
			if isNil(in.X) {
				x = "null"
			}
			if isNil(in.Y) {
				y = "null"
			}
		}
		if _, ok := in.X.Type().Underlying().(*types.Slice); ok { // s == nil: its array
			xs, _ := structLeaves(x)
			ys, _ := structLeaves(y)
			fr.define(in, fmt.Sprintf("(%s %s %s)", xs[0], binOps[in.Op], ys[0]), pos, false, false)
			return
		}
		if e, ok := intBinary(in.Op, in.X.Type(), in.Y.Type(), x, y); ok {
			fr.define(in, e, pos, false, false) // at the type's width (ints.go)
			return
		}
		op, ok := binOps[in.Op]
		if !ok {
			g.refuse(pos, "operator "+in.Op.String()+" on "+in.X.Type().String(), "on integers only")
			return
		}
		fr.define(in, fmt.Sprintf("(%s %s %s)", x, op, y), pos, false, false)
	case *ssa.Convert:
		if from, ok := g.t.AddrCasts[in]; ok { // the location itself, seen as another pointer
			a := fr.addrOf(from, pos)
			if want, got := g.scalar(in.Type().Underlying().(*types.Pointer).Elem(), pos), g.scalar(a.typ, pos); want != got {
				g.refuse(pos, "converting an address of a "+got+" slot to a pointer to "+want, "the slot holds another type")
				return
			}
			a.typ = in.Type().Underlying().(*types.Pointer).Elem()
			fr.addrs[in] = a
			return
		}
		if fr.isAddr(in.X) {
			return // to unsafe.Pointer, converted on (AddrCasts)
		}
		x := fr.value(in.X, pos)
		from, fok := intKind(in.X.Type())
		to, tok := intKind(in.Type())
		if fok && tok && from != to {
			// Truncated or extended as Go does.
			x = intCall(intop.Conv, to, from, x)
		}
		fr.define(in, x, pos, false, false)
	case *ssa.ChangeType:
		if a, ok := fr.addrs[in.X]; ok {
			fr.addrs[in] = a
			return
		}
		fr.define(in, fr.value(in.X, pos), pos, false, false)
	case *ssa.Store:
		if _, _, ok := poolNewStore(in); ok {
			return // a pool's New, called where Get needs it (pool.go)
		}
		if r, ok := fr.varargIdx[in.Addr]; ok {
			fr.varargs[r.alloc][r.i] = fr.value(in.Val, pos)
			return
		}
		a := fr.addrOf(in.Addr, pos)
		if !isScalar(a.typ) {
			if k, ok := in.Val.(*ssa.Const); ok && k.Value == nil {
				g.zero(a, pos)
				return
			}
			g.storeStruct(a, fr.value(in.Val, pos), pos) // field by field (structs.go)
			return
		}
		var x string
		if g.t.HoldsLocs(in.Addr) { // a loc field or package variable (Target.locFields)
			x = fr.locValue(in.Val, pos)
		} else {
			x = fr.value(in.Val, pos)
		}
		g.access(a, pos, true, func(loc string) string { return loc + " = " + x })
	case *ssa.Field:
		g.field(fr, in, pos)
	case *ssa.Slice:
		g.sliceExpr(fr, in, pos)
	case *ssa.Call:
		g.call(fr, in, in.Common(), pos, nil)
	case *ssa.Extract:
		ds, ok := strings.CutPrefix(fr.vals[in.Tuple], tuplePrefix)
		if !ok {
			g.refuse(pos, "this use of several results", "not translated yet")
			return
		}
		fr.vals[in] = strings.Split(ds, tupleSep)[in.Index]
		if g.t.LocVals[in] {
			fr.bindLoc(in, fr.vals[in], pos)
		}
	case *ssa.Defer:
		g.deferCall(fr, in, pos)
	case *ssa.RunDefers:
		for i := len(fr.defers) - 1; i >= 0; i-- {
			d := fr.defers[i]
			if d.flag != "" {
				g.line(token.NoPos, "if %s {", d.flag)
				g.indent++
			}
			g.call(fr, nil, d.in.Common(), posOf(d.in), d.args)
			if d.flag != "" {
				g.indent--
				g.line(token.NoPos, "}")
			}
		}
	case *ssa.Panic:
		g.line(pos, "assert false")
		if fr.returns && fr.fn.Signature.Results().Len() > 0 {
			// Never reached; the model's checker wants every path of a
			// method with a result to end in a return.
			var zs []string
			for r := range fr.fn.Signature.Results().Variables() {
				zs = append(zs, zeroText(g.scalar(r.Type(), pos)))
			}
			g.line(token.NoPos, "return %s", strings.Join(zs, ", "))
		}
	case *ssa.Return:
		if g.t.AddrResults[fr.fn] && !fr.returns { // the address itself (Target.AddrResults)
			a := fr.addrOf(in.Results[0], pos)
			fr.resultAddr = &a
			if fr.results == nil && fr.exit != "" {
				g.line(token.NoPos, "break %s", fr.exit)
			}
			return
		}
		var rs []string
		for i, r := range in.Results {
			if g.t.LocResults[fr.fn]&(1<<i) != 0 { // a loc result (Target.LocResults)
				rs = append(rs, fr.locValue(r, pos))
				continue
			}
			rs = append(rs, fr.value(r, pos))
		}
		switch {
		case fr.returns && len(rs) == 0:
			g.line(pos, "return")
			return
		case fr.returns:
			g.line(pos, "return %s", strings.Join(rs, ", "))
			return
		case fr.results != nil:
			*fr.results = rs
			return
		}
		for i, r := range rs {
			if _, ok := structLeaves(r); ok {
				g.assign(fr.dests[i], r, fr.fn.Signature.Results().At(i).Type(), pos)
				continue
			}
			g.line(pos, "%s = %s", fr.dests[i], r)
		}
		if fr.exit != "" {
			g.line(token.NoPos, "break %s", fr.exit)
		}
	case *ssa.Jump:
		g.doBranch(fr, in.Block(), in.Block().Succs[0], pos)
	case *ssa.If:
		b := in.Block()
		if c, ok := in.Cond.(ssa.Instruction); ok && c.Pos().IsValid() {
			pos = c.Pos() // the if tests its condition: cite the condition's line
		}
		g.plain = fr.plainFold[in.Cond]
		g.line(pos, "if %s {", fr.value(in.Cond, pos))
		g.indent++
		g.doBranch(fr, b, b.Succs[0], pos)
		g.indent--
		g.line(token.NoPos, "} else {")
		g.indent++
		g.doBranch(fr, b, b.Succs[1], pos)
		g.indent--
		g.line(token.NoPos, "}")
	default:
		g.refuse(pos, fmt.Sprintf("%T", in)[5:], "not translated yet")
	}
}

// A call's several results are held as one text: tuplePrefix, then
// their texts separated by tupleSep (which no model text contains).
const tuplePrefix, tupleSep = "tuple:", "\x00"

// tuple returns the text of several results.
func tuple(vals ...string) string { return tuplePrefix + strings.Join(vals, tupleSep) }

// simpleValue returns x, or a fresh local assigned x when x is not a
// name or a literal (so that it is evaluated once).
func (g *gen) simpleValue(x string, pos token.Pos) string {
	if simple(x) {
		return x
	}
	tmp := g.local("t", "int")
	g.line(pos, "%s = %s", tmp, x)
	return tmp
}

// anyTag returns the text of tag·2^25 for the integer type t in an any
// (anyType).
func (g *gen) anyTag(t types.Type) string {
	return fmt.Sprint(int64(g.anyTags[types.TypeString(t, nil)]) << 25)
}

// zeroText is the zero value of a model type.
func zeroText(typ string) string {
	switch {
	case typ == "bool":
		return "false"
	case strings.HasPrefix(typ, "ref "):
		return "null"
	}
	return "0"
}

// zero stores the zero value in every leaf of a struct or an array.
func (g *gen) zero(a addr, pos token.Pos) {
	for _, s := range g.flatten(a.typ, a.name, pos) {
		z := zeroText(s.typ)
		switch {
		case s.nilAny:
			z = "EMPTY"
		case strings.HasPrefix(s.typ, "loc "): // a local never written: the null loc
			z = g.local("z", s.typ)
		}
		g.plain = true
		g.line(pos, "%s = %s", addr{base: a.base, name: s.name}.loc(), z)
	}
}

// deferCall records a deferred call, its arguments evaluated now.
func (g *gen) deferCall(fr *frame, in *ssa.Defer, pos token.Pos) {
	d := deferred{in: in}
	for i, a := range in.Call.Args {
		if _, ok := fr.addrs[a]; ok || i == 0 && isIntrinsicCall(in.Common()) {
			ad := fr.addrOf(a, pos)
			d.args = append(d.args, arg{addr: &ad})
			continue
		}
		x := fr.value(a, pos)
		if _, ok := a.(*ssa.Const); !ok {
			tmp := g.local("d", g.scalar(a.Type(), pos))
			g.line(pos, "%s = %s", tmp, x)
			x = tmp
		}
		d.args = append(d.args, arg{text: x})
	}
	for _, b := range fr.fn.Blocks {
		for _, r := range b.Instrs {
			if _, ok := r.(*ssa.RunDefers); ok && !in.Block().Dominates(b) {
				d.flag = g.local("d", "bool")
			}
		}
		if d.flag != "" {
			break
		}
	}
	if d.flag != "" {
		g.line(pos, "%s = true", d.flag)
	}
	fr.defers = append(fr.defers, d)
}

func isIntrinsicCall(c *ssa.CallCommon) bool {
	f, ok := c.Value.(*ssa.Function)
	if !ok {
		return false
	}
	_, ok = intrinsicOf(f)
	return ok
}

// call writes a call: of an intrinsic, or of a function of the package,
// inlined. v is the call's value (nil for a deferred call); bound, if not
// nil, are the arguments evaluated already (a deferred call's).
func (g *gen) call(fr *frame, v *ssa.Call, c *ssa.CallCommon, pos token.Pos, bound []arg) {
	args := bound
	if args == nil {
		for i, a := range c.Args {
			if i > 0 && isIntrinsicCall(c) && g.t.HoldsLocs(c.Args[0]) { // into an atomic.Pointer of locs
				args = append(args, arg{text: fr.locValue(a, pos)})
				continue
			}
			if _, ok := fr.addrs[a]; ok || i == 0 && isIntrinsicCall(c) {
				ad := fr.addrOf(a, pos)
				args = append(args, arg{addr: &ad})
			} else {
				args = append(args, arg{text: fr.value(a, pos)})
			}
		}
	}
	switch f := c.Value.(type) {
	case *ssa.Builtin:
		g.builtin(fr, v, f, args, pos)
	case *ssa.Function:
		if in, ok := intrinsicOf(f); ok {
			g.intrinsic(fr, v, in, args, pos)
			return
		}
		g.inline(fr, v, f, args, pos)
	}
}

// builtin writes len, cap, min and max.
func (g *gen) builtin(fr *frame, v *ssa.Call, f *ssa.Builtin, args []arg, pos token.Pos) {
	switch f.Name() {
	case "len", "cap":
		if _, ok := v.Call.Args[0].Type().Underlying().(*types.Slice); ok {
			h, ok := structLeaves(args[0].text)
			if !ok { // a slice refused already
				fr.vals[v] = "0"
				return
			}
			if f.Name() == "len" {
				fr.vals[v] = h[2]
			} else {
				fr.vals[v] = h[3]
			}
			return
		}
		if at, ok := v.Call.Args[0].Type().Underlying().(*types.Array); ok {
			fr.define(v, fmt.Sprint(at.Len()), pos, false, false)
			return
		}
		if pt, ok := v.Call.Args[0].Type().Underlying().(*types.Pointer); ok {
			if at, ok := pt.Elem().Underlying().(*types.Array); ok {
				fr.define(v, fmt.Sprint(at.Len()), pos, false, false)
				return
			}
		}
	case "append":
		if v != nil {
			g.appendSlice(fr, v, pos)
			return
		}
	case "copy":
		if v != nil {
			g.copySlice(fr, v, pos)
			return
		}
	case "min", "max":
		r := g.local("t", g.scalar(v.Type(), pos))
		fr.vals[v] = r
		g.line(pos, "%s = %s", r, args[0].text)
		for _, a := range args[1:] {
			test := less(v.Type(), a.text, r)
			if f.Name() == "max" {
				test = less(v.Type(), r, a.text)
			}
			g.line(pos, "if %s { %s = %s }", test, r, a.text)
		}
		return
	}
	g.refuse(pos, "built-in "+f.Name()+" here", "not translated yet")
}

// intrinsic writes an operation of sync/atomic, sync or runtime: one step.
func (g *gen) intrinsic(fr *frame, v *ssa.Call, in Intrinsic, args []arg, pos token.Pos) {
	if in.Pkg == "runtime" { // Gosched: a step that changes nothing
		g.line(pos, "atomic { skip }")
		return
	}
	a := *args[0].addr
	if in.Recv == "Pool" {
		var key poolKey
		if v != nil {
			key, _ = poolOf(v.Call.Args[0])
		}
		g.pool(fr, v, in.Name, a, key, args, pos)
		return
	}
	val := func(i int) string { return args[i].text }
	if in.Recv == "Value" && g.valueElem != nil { // holding pointers (value.go): nil is null
		ref := "ref " + g.heap(g.valueElem, pos).name
		val = func(i int) string {
			if args[i].text == "EMPTY" {
				return "null"
			}
			return args[i].text
		}
		if in.Name == "Load" || in.Name == "Swap" {
			r := g.local("t", ref)
			if v != nil {
				fr.vals[v] = r
			}
			g.access(a, pos, false, func(loc string) string {
				if in.Name == "Load" {
					return r + " = " + loc
				}
				return fmt.Sprintf("atomic { %s = %s; %s = %s }", r, loc, loc, val(1))
			})
			return
		}
	}
	// stmt writes the statement f makes of the location; result gives the
	// call the value f makes of it (a memory access).
	stmt := func(f func(loc string) string) { g.access(a, pos, false, f) }
	result := func(f func(loc string) string) {
		switch {
		case v == nil:
			stmt(f)
		case a.dyn == nil:
			fr.define(v, f(a.loc()), pos, true, false)
		default:
			r := g.local("t", g.scalar(v.Type(), pos))
			fr.vals[v] = r
			stmt(func(loc string) string { return r + " = " + f(loc) })
		}
	}
	op := in.Name
	if in.Recv == "" { // LoadInt32 → Load
		for _, p := range []string{"CompareAndSwap", "Load", "Store", "Add", "Swap", "And", "Or"} {
			if strings.HasPrefix(op, p) {
				op = p
				break
			}
		}
	}
	switch in.Recv {
	case "Mutex", "RWMutex":
		held := "1"
		if in.Recv == "RWMutex" {
			held = "(-1)"
		}
		switch op {
		case "Lock":
			if in.Recv == "RWMutex" {
				g.rwLock(a, pos)
				return
			}
			stmt(func(loc string) string { return fmt.Sprintf("while !cas(%s, 0, %s) { skip }", loc, held) })
		case "Unlock":
			stmt(func(loc string) string { return fmt.Sprintf("atomic { assert %s == %s; %s = 0 }", loc, held, loc) })
		case "TryLock":
			result(func(loc string) string { return fmt.Sprintf("cas(%s, 0, %s)", loc, held) })
		case "RLock":
			ok := g.local("k", "bool")
			g.line(pos, "%s = false", ok)
			stmt(func(loc string) string {
				return fmt.Sprintf("while !%s { atomic { if %s >= 0 { %s = %s + 1; %s = true } } }", ok, loc, loc, loc, ok)
			})
		case "RUnlock": // a reader leaves, also while a writer waits
			stmt(func(loc string) string {
				return fmt.Sprintf("atomic { assert %s > 0 || %s < (-2); if %s > 0 { %s = %s - 1 } else { %s = %s + 1 } }", loc, loc, loc, loc, loc, loc, loc)
			})
		case "TryRLock":
			ok := g.local("k", "bool")
			stmt(func(loc string) string {
				return fmt.Sprintf("atomic { %s = false; if %s >= 0 { %s = %s + 1; %s = true } }", ok, loc, loc, loc, ok)
			})
			if v != nil {
				fr.vals[v] = ok
			}
		}
		return
	}
	if v != nil && g.t.LocVals[v] { // a loc from an atomic.Pointer of locs (Load, Swap)
		elem, _ := holder(a.typ)
		l := g.local("t", "loc "+g.scalar(elem, pos))
		if op == "Load" {
			stmt(func(loc string) string { return l + " = " + loc })
		} else {
			stmt(func(loc string) string { return fmt.Sprintf("atomic { %s = %s; %s = %s }", l, loc, loc, val(1)) })
		}
		fr.addrs[v] = addr{name: "*" + l, typ: elem, held: l}
		return
	}
	switch op {
	case "Load":
		result(func(loc string) string { return loc })
	case "Store":
		stmt(func(loc string) string { return loc + " = " + val(1) })
	case "CompareAndSwap":
		result(func(loc string) string { return fmt.Sprintf("cas(%s, %s, %s)", loc, val(1), val(2)) })
	case "Add", "Swap", "And", "Or":
		r := g.local("t", g.scalar(args0Type(v, in), pos))
		if v != nil {
			fr.vals[v] = r
		}
		k, _ := intKind(a.typ)
		switch op {
		case "Add": // the new value
			stmt(func(loc string) string {
				return fmt.Sprintf("atomic { %s = %s; %s = %s }", loc, intCall(intop.Add, k, 0, loc, val(1)), r, loc)
			})
		case "Swap": // the old value
			stmt(func(loc string) string { return fmt.Sprintf("atomic { %s = %s; %s = %s }", r, loc, loc, val(1)) })
		default: // And, Or: the old value
			o := map[string]intop.Op{"And": intop.And, "Or": intop.Or}[op]
			stmt(func(loc string) string {
				return fmt.Sprintf("atomic { %s = %s; %s = %s }", r, loc, loc, intCall(o, k, 0, loc, val(1)))
			})
		}
	default:
		g.refuse(pos, in.String(), "not translated yet")
	}
}

// rwLock writes RWMutex.Lock with Go's writer preference: a writer
// first takes the lock from other writers and announces itself, which
// blocks new readers (RLock waits while the lock is negative), then waits
// for the readers already in to leave. The lock's slot holds n ≥ 0
// readers, −1 a writer holding it, −2−n a writer waiting for n readers;
// each of the writer's two steps spins (a τ-step) while it cannot go on.
// So a goroutine that takes the read lock twice deadlocks when a writer
// comes between, as in Go.
func (g *gen) rwLock(a addr, pos token.Pos) {
	k := g.local("k", "int") // 0: not announced; 1: waiting for readers; 2: holding
	g.line(pos, "%s = 0", k)
	g.access(a, pos, false, func(loc string) string {
		return fmt.Sprintf("while %s != 2 { atomic { if %s == 0 { if %s == 0 { %s = (-1); %s = 2 } else if %s > 0 { %s = (-2) - %s; %s = 1 } } else if %s == (-2) { %s = (-1); %s = 2 } } }",
			k, k, loc, loc, k, loc, loc, loc, k, loc, loc, k)
	})
}

// access writes the statement f makes of location a: for an element
// chosen by a variable index, one branch per element, each with its own
// constant location (one step, whichever runs), and a panic for an index
// out of range.
func (g *gen) access(a addr, pos token.Pos, plain bool, f func(loc string) string) {
	g.eachElem(a, pos, func(at addr) {
		g.plain = plain
		g.line(pos, "%s", f(at.loc()))
	})
}

// args0Type returns the type of an atomic operation's result.
func args0Type(v *ssa.Call, in Intrinsic) types.Type {
	if v != nil {
		return v.Type()
	}
	return types.Typ[types.Int]
}

// inline writes the body of f where it is called, its parameters bound
// to the arguments and its results to the call's value v.
func (g *gen) inline(fr *frame, v *ssa.Call, f *ssa.Function, args []arg, pos token.Pos) {
	vals, a := g.inlineCall(f, args, pos)
	switch {
	case a != nil && v != nil:
		fr.addrs[v] = *a
	case v == nil || len(vals) == 0:
	case len(vals) == 1 && g.t.LocVals[v]:
		fr.bindLoc(v, vals[0], pos)
	case len(vals) == 1:
		fr.vals[v] = vals[0]
	default:
		fr.vals[v] = tuple(vals...)
	}
}

// inlineCall writes the body of f, its parameters bound to args, and
// returns the texts of its results (fresh locals, or the values a
// function of one block returns), or the address it returns
// (Target.AddrResults).
func (g *gen) inlineCall(f *ssa.Function, args []arg, pos token.Pos) ([]string, *addr) {
	g.fresh++
	sub := newFrame(g, f, fmt.Sprintf("c%d_", g.fresh))
	for i, p := range f.Params {
		switch a := args[i]; {
		case a.addr != nil:
			sub.addrs[p] = *a.addr
		case simple(a.text) || strings.HasPrefix(a.text, structPrefix):
			sub.vals[p] = a.text // a struct value's leaves are locals
		default:
			tmp := g.local("p", g.scalar(p.Type(), pos))
			g.line(pos, "%s = %s", tmp, a.text)
			sub.vals[p] = tmp
		}
	}
	results := f.Signature.Results()
	if len(f.Blocks) == 1 {
		// One block: its return is its last instruction, and the values
		// it returns stand for the call's (a value is never assigned
		// twice).
		sub.results = &[]string{}
		g.body(sub)
		return *sub.results, sub.resultAddr
	}
	for i, r := range slices.Collect(results.Variables()) {
		if g.t.AddrResults[f] {
			break // the address its one return gives (Target.AddrResults)
		}
		if g.t.LocResults[f]&(1<<i) != 0 { // a loc result (Target.LocResults)
			sub.dests = append(sub.dests, g.local("r", "loc "+g.scalar(r.Type().Underlying().(*types.Pointer).Elem(), pos)))
			continue
		}
		if g.t.newFuncs()[f] {
			// A pool's New returns its object as an any.
			sub.dests = append(sub.dests, g.local("r", "ref "+g.poolHeap(pos).name))
			continue
		}
		sub.dests = append(sub.dests, g.localOf("r", r.Type(), pos))
	}
	sub.exit = sub.prefix + "C"
	g.line(pos, "%s: while true {", sub.exit)
	g.indent++
	g.body(sub)
	g.indent--
	g.line(token.NoPos, "}")
	return sub.dests, sub.resultAddr
}

// simple reports whether a model expression is a name, a literal or a
// negative literal in parentheses, which may be substituted for a
// parameter wherever it is used.
func simple(x string) bool {
	if inner, ok := strings.CutPrefix(x, "(-"); ok {
		x = strings.TrimSuffix(inner, ")")
	}
	if x == "" {
		return false
	}
	for _, r := range x {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
