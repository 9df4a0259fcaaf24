package golang

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Struct values. Copying a struct (`c.a = c.b`, `p := *q`) is not atomic
// in Go: each field is loaded and stored on its own. A struct value is
// held as the texts of its leaves (the fields of its flattened type,
// translate.go's flatten), one local each, joined after structPrefix by
// tupleSep; loading one loads each leaf (a plain access each), storing one
// stores each leaf, selecting a field takes its leaves.

const structPrefix = "struct:"

// structVal returns the text of a struct value whose leaves are leaves.
func structVal(leaves []string) string { return structPrefix + strings.Join(leaves, tupleSep) }

// structLeaves returns the leaves of a struct value's text.
func structLeaves(x string) ([]string, bool) {
	s, ok := strings.CutPrefix(x, structPrefix)
	if !ok {
		return nil, false
	}
	return strings.Split(s, tupleSep), true
}

// loadStruct writes the load of the struct or array at a into v: one
// plain load per leaf, into a local each.
func (g *gen) loadStruct(fr *frame, v ssa.Value, a addr, pos token.Pos) {
	leaves := g.flatten(a.typ, a.name, pos)
	locals := make([]string, len(leaves))
	for i, s := range leaves {
		locals[i] = g.local("s", s.typ)
	}
	g.eachElem(a, pos, func(at addr) {
		var stmts []string
		for i, s := range g.flatten(at.typ, at.name, pos) {
			stmts = append(stmts, fmt.Sprintf("%s = %s", locals[i], addr{base: at.base, name: s.name}.loc()))
		}
		g.leafStmts(at.typ, stmts, pos)
	})
	fr.vals[v] = structVal(locals)
}

// storeStruct writes the store of the struct value x at a: one plain
// store per leaf.
func (g *gen) storeStruct(a addr, x string, pos token.Pos) {
	leaves, ok := structLeaves(x)
	if !ok {
		g.refuse(pos, "storing a struct or an array", "not translated yet: copy one loaded from memory")
		return
	}
	for _, l := range leaves {
		if g.backs[l] != nil {
			g.refuse(pos, "storing a slice of an array field or a package array", "not translated yet: such a slice is used where it is made (indexed, sliced, ranged over, copied, passed to the package's functions)")
			return
		}
	}
	g.eachElem(a, pos, func(at addr) {
		var stmts []string
		for i, s := range g.flatten(at.typ, at.name, pos) {
			stmts = append(stmts, fmt.Sprintf("%s = %s", addr{base: at.base, name: s.name}.loc(), leaves[i]))
		}
		g.leafStmts(at.typ, stmts, pos)
	})
}

// leafStmts writes the plain accesses of a copy's leaves: one step each,
// but one step for a slice's header (slices.go).
func (g *gen) leafStmts(typ types.Type, stmts []string, pos token.Pos) {
	if _, ok := typ.Underlying().(*types.Slice); ok {
		g.plain = true
		g.line(pos, "atomic { %s }", strings.Join(stmts, "; "))
		return
	}
	for _, s := range stmts {
		g.plain = true
		g.line(pos, "%s", s)
	}
}

// eachElem writes f's statements for the location a: for an element
// chosen by a variable index, one branch per element, each with its own
// constant location (one step, whichever runs), and a panic for an index
// out of range.
func (g *gen) eachElem(a addr, pos token.Pos, f func(at addr)) {
	if a.dyn == nil {
		f(a)
		return
	}
	for i, name := range a.dyn.names {
		if i == 0 {
			g.line(pos, "if %s == 0 {", a.dyn.index)
		} else {
			g.line(pos, "} else if %s == %d {", a.dyn.index, i)
		}
		g.indent++
		f(addr{base: a.base, name: name, typ: a.typ, node: a.node})
		g.indent--
	}
	g.line(pos, "} else {")
	g.line(pos, "  assert false") // index out of range: a panic
	g.line(token.NoPos, "}")
}

// field gives in, a field of a struct value, its leaves.
func (g *gen) field(fr *frame, in *ssa.Field, pos token.Pos) {
	leaves, ok := structLeaves(fr.value(in.X, pos))
	if !ok {
		g.refuse(pos, "this struct value", "not translated yet: a struct value loaded from memory")
		return
	}
	st := in.X.Type().Underlying().(*types.Struct)
	off := 0
	for i := range in.Field {
		if st.Field(i).Name() != "_" { // padding is not held (flatten)
			off += len(g.flatten(st.Field(i).Type(), "", pos))
		}
	}
	n := len(g.flatten(st.Field(in.Field).Type(), "", pos))
	if isScalar(in.Type()) {
		fr.vals[in] = leaves[off]
		return
	}
	fr.vals[in] = structVal(leaves[off : off+n])
}
