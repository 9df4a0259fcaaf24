package golang

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Slices. A slice value is its header, as in Go: the backing array (a
// node of the element type's capacity, sliceLens), the offset of its
// first element there, its length and its capacity; four leaves of a
// struct value (structs.go), one slot each in memory. Reading or writing a
// header in memory is one step (Go's three words, plainly); its elements
// are reached through the array with a variable index. make makes an
// array; s[lo:hi:max] a header on the same array; append stores in place
// while the capacity allows, else makes an array of twice the capacity
// (at least the length needed, at most the array's), copies the elements
// (one step) and stores there, as Go's append does. An array the code
// allocates and slices is made as a backing array (slicedArray). A
// slice of an array field or of a package array keeps that array
// (backing): its header's array leaf is the node that holds the field (Obj
// for a package array) and its elements are the field's. A slice longer than
// the array, an index or a slice expression out of range are model
// errors. Go's capacities after growth depend on its allocator's size
// classes; the model's double, which is Go's for word-sized elements up
// to 256.

// sliceCap is the capacity of the backing arrays of a slice type that
// append grows, or that a make of a length known only as the code runs
// makes (unless a constant make asks for more).
const sliceCap = 8

// isVarargs reports whether an allocation is the array of a variadic
// call's arguments (append's).
func isVarargs(a *ssa.Alloc) bool { return a.Comment == "varargs" }

// header returns the leaves of a slice value, materialised in locals when
// they are not names or literals.
func (g *gen) header(x string, pos token.Pos) []string {
	h, ok := structLeaves(x)
	if !ok || len(h) != 4 {
		g.refuse(pos, "this slice value", "not translated yet")
		return []string{"null", "0", "0", "0"}
	}
	for i := range h {
		h[i] = g.simpleValue(h[i], pos)
	}
	return h
}

// makeSlice writes make([]T, len, cap).
func (g *gen) makeSlice(fr *frame, in *ssa.MakeSlice, pos token.Pos) {
	st := in.Type().Underlying().(*types.Slice)
	h := g.sliceHeap(st, pos)
	p := g.local("a", "ref "+h.name)
	l, c := g.simpleValue(fr.value(in.Len, pos), pos), g.simpleValue(fr.value(in.Cap, pos), pos)
	g.line(pos, "assert %s >= 0 && %s <= %s && %s <= %d", l, l, c, c, g.capOf(st)) // Go panics; beyond the model's array, a model error
	g.line(pos, "%s = %s", p, h.newNode())
	fr.vals[in] = structVal([]string{p, "0", l, c})
}

// backing is the array that the elements of a slice are in when it is
// not a node of the slice type's backing arrays: an array field of a node
// (x.buf[:], an element of an array of arrays, a *[4]int's node), or a
// package array (g[1:]). Such a slice's header is held as any other's, its
// array leaf the node that holds the array (a reference of that node's
// heap type; Obj for a package array, so that it is never nil), and the
// frame knows it by its header's offset leaf, a local that each slice
// expression makes (gen.backs): the header is passed, sliced, indexed,
// ranged over and copied as any other, and merged (φ-nodes, the results of
// functions) with slices of the same array field. Appending to one,
// storing one into memory, and merging one with a slice of another array
// are refused.
type backing struct {
	node  types.Type // the Go type of the node, nil for a package array
	names []string   // the flattened names of the elements
}

func (b *backing) same(c *backing) bool {
	return (b.node == nil) == (c.node == nil) && (b.node == nil || types.Identical(b.node, c.node)) && slices.Equal(b.names, c.names)
}

// arrayRef is an array of the model: the node that holds it ("" for
// shared variables) and its elements' flattened names.
type arrayRef struct {
	base  string
	node  types.Type
	names []string
}

// elems returns the array of the slice whose header is h.
func (g *gen) elems(h []string, st *types.Slice) arrayRef {
	if b := g.backs[h[1]]; b != nil {
		if b.node == nil {
			return arrayRef{names: b.names}
		}
		return arrayRef{base: h[0], node: b.node, names: b.names}
	}
	g.heapHeld[h[1]] = true // used as a slice of a backing array of its own
	cp := g.capOf(st)
	a := arrayRef{base: h[0], node: types.NewArray(st.Elem(), cp)}
	for e := range cp {
		a.names = append(a.names, join("v", fmt.Sprint(e)))
	}
	return a
}

// sliceElem returns the location of the element in.Index of a slice.
func (g *gen) sliceElem(fr *frame, in *ssa.IndexAddr, pos token.Pos) addr {
	st := in.X.Type().Underlying().(*types.Slice)
	h := g.header(fr.value(in.X, pos), pos)
	i := g.simpleValue(fr.value(in.Index, pos), pos)
	g.line(pos, "assert %s >= 0 && %s < %s", i, i, h[2]) // index out of range: a panic
	k := g.local("i", "int")
	g.line(pos, "%s = %s + %s", k, h[1], i)
	a := g.elems(h, st)
	return addr{base: a.base, node: a.node, typ: st.Elem(), dyn: &dynIndex{index: k, names: a.names}}
}

// adoptBacking writes nothing; it gives the header ds, assigned the header
// xs (a φ-node's, a function's result), the backing of xs (retyping its
// array leaf's local), or refuses the assignment when ds holds slices of
// another array.
func (g *gen) adoptBacking(ds, xs []string, pos token.Pos) {
	bx, bd := g.backs[xs[1]], g.backs[ds[1]]
	switch {
	case bx == nil && xs[0] == "null": // a nil slice, of any array
		return
	case bx == nil && bd == nil:
		g.heapHeld[ds[1]] = true
		return
	case bx != nil && bd == nil && !g.heapHeld[ds[1]]:
		heap := g.heap(g.t.Type, pos).name
		if bx.node != nil {
			heap = g.heap(bx.node, pos).name
		}
		g.retype(ds[0], "ref "+heap)
		g.backs[ds[1]] = bx
		return
	case bx != nil && bd != nil && bx.same(bd):
		return
	}
	g.refuse(pos, "merging a slice of an array field or a package array with a slice of another array", "not translated yet: such a slice is used where it is made, or merged with slices of the same array")
}

// retype changes the declared model type of local l.
func (g *gen) retype(l, typ string) {
	for i, d := range g.decls {
		if strings.HasPrefix(d, "var "+l+" ") {
			g.decls[i] = "var " + l + " " + typ
		}
	}
}

// sliceExpr writes s[lo:hi:max] of a slice, or gives the arguments of a
// variadic call (the array SSA makes of them, sliced).
func (g *gen) sliceExpr(fr *frame, in *ssa.Slice, pos token.Pos) {
	if al, ok := in.X.(*ssa.Alloc); ok && fr.varargs[al] != nil {
		fr.vals[in] = varargsPrefix + fmt.Sprint(len(fr.varargs)) // read by appendSlice from fr.varargs
		fr.varargOf[in] = al
		return
	}
	var h []string
	var b *backing
	if a, ok := slicedArray(in); ok { // the array's node is a backing array: its whole length
		n := fmt.Sprint(a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array).Len())
		h = []string{fr.value(a, pos), "0", n, n}
	} else if pt, ok := in.X.Type().Underlying().(*types.Pointer); ok { // an array field or a package array
		at := pt.Elem().Underlying().(*types.Array)
		a := fr.addrOf(in.X, pos)
		if a.held != "" || a.base != "" && a.node == nil {
			g.refuse(pos, "slicing an array at an address merged from branches", "not translated yet: slice an array field, a package array or an array the code allocates")
			return
		}
		b = &backing{node: a.node}
		n := fmt.Sprint(at.Len())
		off := "0"
		if a.dyn == nil {
			for i := range at.Len() {
				b.names = append(b.names, join(a.name, fmt.Sprint(i)))
			}
		} else { // a row chosen by a variable index (x.rows[i][:]): the rows' elements one after the other, from the row's
			for _, name := range a.dyn.names {
				for i := range at.Len() {
					b.names = append(b.names, join(name, fmt.Sprint(i)))
				}
			}
			g.line(pos, "assert %s >= 0 && %s < %d", a.dyn.index, a.dyn.index, len(a.dyn.names)) // index out of range: a panic
			off = g.local("t", "int")
			g.line(pos, "%s = %s * %s", off, a.dyn.index, n)
		}
		base := a.base
		if base == "" {
			base = "Obj" // never nil, as the slice is not
		}
		h = []string{base, off, n, n}
	} else {
		h = g.header(fr.value(in.X, pos), pos)
		b = g.backs[h[1]]
	}
	bound := func(v ssa.Value, def string) string {
		if v == nil {
			return def
		}
		return g.simpleValue(fr.value(v, pos), pos)
	}
	lo, hi, mx := bound(in.Low, "0"), bound(in.High, h[2]), bound(in.Max, h[3])
	g.line(pos, "assert 0 <= %s && %s <= %s && %s <= %s && %s <= %s", lo, lo, hi, hi, mx, mx, h[3]) // out of range: a panic
	o, l, c := g.local("t", "int"), g.local("t", "int"), g.local("t", "int")
	g.line(pos, "%s = %s + %s", o, h[1], lo)
	g.line(pos, "%s = %s - %s", l, hi, lo)
	g.line(pos, "%s = %s - %s", c, mx, lo)
	if b != nil {
		g.backs[o] = b
	}
	fr.vals[in] = structVal([]string{h[0], o, l, c})
}

// slicedArray returns the array that s slices when the code allocated it
// (var a [4]int; a[1:3], new([4]int)[:]): its node is made as one of the
// slices' backing arrays (a node of their capacity, at least the array's
// length), so that the slice and the array share it as in Go. An array
// field or a package array is not sliced (the subset check refuses it).
func slicedArray(s *ssa.Slice) (*ssa.Alloc, bool) {
	a, ok := s.X.(*ssa.Alloc)
	if !ok || isVarargs(a) {
		return nil, false
	}
	_, ok = a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
	return a, ok
}

// varargsPrefix marks the text of a variadic call's arguments.
const varargsPrefix = "varargs:"

// appendSlice writes append(s, e1, …, ek) or append(s, t...).
func (g *gen) appendSlice(fr *frame, v *ssa.Call, pos token.Pos) {
	st := v.Type().Underlying().(*types.Slice)
	args := v.Call.Args
	var elems, t []string // the elements, or the slice t appended
	if sl, ok := args[1].(*ssa.Slice); ok && fr.varargOf[sl] != nil {
		elems = fr.varargs[fr.varargOf[sl]]
	} else {
		t = g.header(fr.value(args[1], pos), pos)
	}
	h := g.header(fr.value(args[0], pos), pos)
	if g.backs[h[1]] != nil {
		g.refuse(pos, "append to a slice of an array field or a package array", "not translated yet: index the array, or append to a slice the code makes")
		return
	}
	arr := g.sliceHeap(st, pos)
	cp := g.capOf(st)
	p, o, n, c := g.local("a", "ref "+arr.name), g.local("t", "int"), g.local("t", "int"), g.local("t", "int")
	if t != nil {
		g.line(pos, "%s = %s + %s", n, h[2], t[2])
	} else {
		g.line(pos, "%s = %s + %d", n, h[2], len(elems))
	}
	g.line(pos, "if %s <= %s {", n, h[3]) // room: in place
	g.indent++
	g.line(pos, "%s = %s", p, h[0])
	g.line(pos, "%s = %s", o, h[1])
	g.line(pos, "%s = %s", c, h[3])
	g.indent--
	g.line(pos, "} else {") // a new array, twice as large, the elements copied
	g.indent++
	g.line(pos, "assert %s <= %d", n, cp) // beyond the model's array: a model error
	g.line(pos, "%s = %s", p, arr.newNode())
	g.line(pos, "%s = 0", o)
	g.line(pos, "%s = %s + %s", c, h[3], h[3])
	g.line(pos, "if %s < %s { %s = %s }", c, n, c, n)
	g.line(pos, "if %s > %d { %s = %d }", c, cp, c, cp)
	g.copyElems(h, p, st, cp, pos)
	g.indent--
	g.line(token.NoPos, "}")
	if t != nil {
		at := g.local("i", "int")
		g.line(pos, "%s = %s + %s", at, o, h[2])
		g.moveElems(g.elems(t, st), t[1], g.elems([]string{p, at}, st), at, t[2], st, pos)
	}
	for j, e := range elems {
		k := g.local("i", "int")
		g.line(pos, "%s = %s + %s + %d", k, o, h[2], j)
		d := &dynIndex{index: k}
		for e := range cp {
			d.names = append(d.names, join("v", fmt.Sprint(e)))
		}
		at := addr{base: p, typ: st.Elem(), dyn: d}
		if isScalar(st.Elem()) {
			g.access(at, pos, true, func(loc string) string { return loc + " = " + e })
		} else {
			g.storeStruct(at, e, pos)
		}
	}
	fr.vals[v] = structVal([]string{p, o, n, c})
}

// copyElems writes the copy of the elements of the slice h into the new
// array p: one step, which reads every element copied.
func (g *gen) copyElems(h []string, p string, st *types.Slice, cp int64, pos token.Pos) {
	var stmts []string
	for i := range cp {
		var b []byte
		b = fmt.Appendf(b, "if %d < %s {", i, h[2])
		for e := range cp {
			if e > 0 {
				b = fmt.Appendf(b, " else")
			}
			var moves []string
			src := g.flatten(st.Elem(), join("v", fmt.Sprint(e)), pos)
			for k, d := range g.flatten(st.Elem(), join("v", fmt.Sprint(i)), pos) {
				moves = append(moves, fmt.Sprintf("%s.%s = %s.%s", p, d.name, h[0], src[k].name))
			}
			b = fmt.Appendf(b, " if %s + %d == %d { %s }", h[1], i, e, strings.Join(moves, "; "))
		}
		stmts = append(stmts, string(b)+" }")
	}
	g.plain = true
	g.line(pos, "atomic { %s }", strings.Join(stmts, "; "))
}

// moveElems writes the move of n elements of the array src from offset
// so to the array dst from offset do (copy, append(s, t...)): one step,
// which reads them all into temporaries, then writes them, so that the
// two may overlap as memmove lets them.
func (g *gen) moveElems(src arrayRef, so string, dst arrayRef, do, n string, st *types.Slice, pos token.Pos) {
	var reads, writes []string
	for i := range min(len(src.names), len(dst.names)) {
		var rb, wb []byte
		tmps := g.moveTmp(st, i, pos)
		rb = fmt.Appendf(rb, "if %d < %s {", i, n)
		wb = fmt.Appendf(wb, "if %d < %s {", i, n)
		for e, name := range src.names {
			var rs []string
			for k, s := range g.flatten(st.Elem(), name, pos) {
				rs = append(rs, fmt.Sprintf("%s = %s", tmps[k], addr{base: src.base, name: s.name}.loc()))
			}
			if e > 0 {
				rb = fmt.Appendf(rb, " else")
			}
			rb = fmt.Appendf(rb, " if %s + %d == %d { %s }", so, i, e, strings.Join(rs, "; "))
		}
		for e, name := range dst.names {
			var ws []string
			for k, s := range g.flatten(st.Elem(), name, pos) {
				ws = append(ws, fmt.Sprintf("%s = %s", addr{base: dst.base, name: s.name}.loc(), tmps[k]))
			}
			if e > 0 {
				wb = fmt.Appendf(wb, " else")
			}
			wb = fmt.Appendf(wb, " if %s + %d == %d { %s }", do, i, e, strings.Join(ws, "; "))
		}
		reads = append(reads, string(rb)+" else { assert false } }")
		writes = append(writes, string(wb)+" else { assert false } }")
	}
	g.plain = true
	g.line(pos, "atomic { %s }", strings.Join(append(reads, writes...), "; "))
}

// copySlice writes copy(dst, src): the length copied, the smaller.
func (g *gen) copySlice(fr *frame, v *ssa.Call, pos token.Pos) {
	st := v.Call.Args[0].Type().Underlying().(*types.Slice)
	d := g.header(fr.value(v.Call.Args[0], pos), pos)
	s := g.header(fr.value(v.Call.Args[1], pos), pos)
	n := g.local("t", "int")
	g.line(pos, "%s = %s", n, d[2])
	g.line(pos, "if %s < %s { %s = %s }", s[2], n, n, s[2])
	g.moveElems(g.elems(s, st), s[1], g.elems(d, st), d[1], n, st, pos)
	fr.vals[v] = n
}

// moveTmp returns the temporaries of element i of moveElems for slices of
// type st, declared once per method: a method's locals are few.
func (g *gen) moveTmp(st *types.Slice, i int, pos token.Pos) []string {
	key := fmt.Sprintf("%s#%d", types.TypeString(st.Elem(), nil), i)
	if t, ok := g.moveTmps[key]; ok {
		return t
	}
	var tmps []string
	for _, s := range g.flatten(st.Elem(), "", pos) {
		tmps = append(tmps, g.local("m", s.typ))
	}
	if g.moveTmps == nil {
		g.moveTmps = map[string][]string{}
	}
	g.moveTmps[key] = tmps
	return tmps
}
