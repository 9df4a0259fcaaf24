// Package check resolves the names of a parsed model and checks its types.
// Like starlark-go's resolver it reports every error it finds in one pass,
// each at a file:line:col, with "did you mean …?" hints for misspelt names.
package check

import (
	"fmt"

	"github.com/linbis/linbis/frontend/syntax"
)

// Kind is the kind of a value's type.
type Kind int8

// The kinds. Void is the result of a method without one; Null is the type
// of the null literal, assignable to every ref.
const (
	Invalid Kind = iota
	Int
	Bool
	Ref
	Void
	Null
	Word // a multi-field atomic word (Type.Word)
	// Thread is the kind of thread ids: tid, and the values of `thread`
	// locations (1..nthreads, 0 for no thread). They may be stored,
	// compared with == and != and used as the index of a [thread]
	// dimension; no arithmetic, no order: so that permuting the threads
	// maps the program onto itself (thread symmetry).
	Thread
)

// Type is a value type: int (optionally ranged), bool, a ref to a heap
// type, or a word type.
type Type struct {
	Kind Kind  // what the value is; Invalid after an error already reported
	Node *Heap // for Ref to one heap type; nil for a union
	// Union holds the heap types of a ref to one of several (ref A | B),
	// by ID; nil otherwise.
	Union    []*Heap
	Word     *WordType // for Word
	HasRange bool      // an int of a declared range, Lo..Hi; false: any int
	Lo, Hi   int64     // the range's bounds, both included, when HasRange
	// Wrap: a value stored outside the range wraps around it (modulo its
	// size) instead of being a model error, e.g. a ticket or a version
	// counter under ops forever.
	Wrap bool
	// Tid marks the value of tid: an int (for arithmetic, as ever) that is
	// also a thread id (for [thread] indices and thread locations).
	Tid bool
}

// String is the type as error messages name it: as the modeling language
// writes it where it can (int(0..3) wrap, ref Node | Leaf), else in words
// (no value).
func (t Type) String() string {
	switch t.Kind {
	case Int:
		if t.HasRange && t.Wrap {
			return fmt.Sprintf("int(%d..%d) wrap", t.Lo, t.Hi)
		}
		if t.HasRange {
			return fmt.Sprintf("int(%d..%d)", t.Lo, t.Hi)
		}
		return "int"
	case Bool:
		return "bool"
	case Ref:
		s := "ref "
		for i, h := range t.Heaps() {
			if i > 0 {
				s += " | "
			}
			s += h.Name
		}
		return s
	case Void:
		return "no value"
	case Null:
		return "null"
	case Thread:
		return "thread"
	case Word:
		return t.Word.Name
	}
	return "invalid type"
}

// Heaps returns the heap types that a reference of type t may point to.
func (t Type) Heaps() []*Heap {
	if t.Union != nil {
		return t.Union
	}
	if t.Node == nil {
		return nil
	}
	return []*Heap{t.Node}
}

// Has reports whether a reference of type t may point to a node of type h.
func (t Type) Has(h *Heap) bool {
	for _, g := range t.Heaps() {
		if g == h {
			return true
		}
	}
	return false
}

// Slots is the number of scalar slots that a value of type t takes in a
// state: one per field of a word, else one.
func (t Type) Slots() int {
	if t.Kind == Word {
		n := 0
		for _, f := range t.Word.Fields {
			n += f.Slots()
		}
		return n
	}
	return 1
}

// Components returns the scalar types that a value of type t is made of,
// in slot order: the fields' of a word (an array field's once per
// element), else t itself.
func (t Type) Components() []Type {
	if t.Kind != Word {
		return []Type{t}
	}
	var out []Type
	for _, f := range t.Word.Fields {
		for range max(f.Elems, 1) {
			out = append(out, f.Type)
		}
	}
	return out
}

// assignable reports whether a value of type v can be stored where t is expected.
func assignable(t, v Type) bool {
	if t.Kind == Invalid || v.Kind == Invalid {
		return true // already reported
	}
	switch t.Kind {
	case Ref:
		if v.Kind == Null {
			return true
		}
		if v.Kind != Ref {
			return false
		}
		for _, h := range v.Heaps() {
			if !t.Has(h) {
				return false
			}
		}
		return true
	case Word:
		return v.Kind == Word && v.Word == t.Word
	case Thread:
		return v.Kind == Thread || v.Kind == Int && v.Tid
	}
	return t.Kind == v.Kind
}

// VarKind tells where a variable lives.
type VarKind int8

// The variable kinds.
const (
	SharedVar VarKind = iota
	LocalVar
	ParamVar
	BuiltinTid      // tid: the calling thread, from 1
	BuiltinNThreads // nthreads
	BuiltinEmpty    // EMPTY
)

// Var is a resolved variable.
type Var struct {
	Name string     // the name declared
	Pos  syntax.Pos // of its name where declared; NoPos for a builtin
	Kind VarKind    // where it lives
	Type Type       // its type (an array's elements' type)
	// Len is the length expression of a shared array's ordinary dimension
	// (nil for scalars and arrays of [thread] dimensions only); it may
	// mention nthreads and is evaluated once the bounds are known.
	Len syntax.Expr
	// ThreadDims is the number of leading [thread] dimensions (0–2): rows
	// indexed by thread ids.
	ThreadDims int
	// LenLo is the lowest index of a `[lo..hi]` array (then Len is hi); nil means 0.
	LenLo syntax.Expr
	Init  syntax.Expr // shared initialiser, nil for the zero value
	// Index is the variable's number: among the object's shared variables,
	// or among the method's locals (parameters first).
	Index int
	// Slot is a local's first slot among the method's: the sum of the
	// slots (Type.Slots, times Elems for an array) of the locals before it.
	Slot int
	// Elems is the number of elements of a local array (0 for a scalar):
	// its length is a literal, so that the locals' slots are known
	// before the bounds are.
	Elems int
}

// IsArray reports whether v is an array: shared, or a local declared
// with var.
func (v *Var) IsArray() bool { return v.Len != nil || v.ThreadDims > 0 }

// Dims is the number of v's dimensions (0 for a scalar).
func (v *Var) Dims() int {
	if v.Len != nil {
		return v.ThreadDims + 1
	}
	return v.ThreadDims
}

// Heap is a heap node type.
type Heap struct {
	Name   string   // the node type's name
	ID     int      // from 1 within its object
	Fields []*Field // the node's fields, in declaration order
}

// Field is a field of a heap node type or of a word type.
type Field struct {
	Name string // the field's name
	// Type is the field's type, or its elements' for an array field.
	Type Type
	// Index is the field's first slot in its node (a word field takes
	// one slot per field of its word), or its first slot in its word.
	Index int
	// Elems is the number of elements of an array field (`view [3] int`),
	// 0 for a scalar; Lo is its lowest index.
	Elems, Lo int
}

// Slots is the number of slots the field takes: its type's, times its
// elements for an array field.
func (f *Field) Slots() int { return f.Type.Slots() * max(f.Elems, 1) }

// WordType is a word type: fields stored together in one shared location,
// read, written and compared-and-swapped whole.
type WordType struct {
	Name   string     // the word type's name
	Fields []*Field   // scalar: int, bool or ref
	Pos    syntax.Pos // of its name in its declaration (NoPos for a loc's word)
	// Loc, for the word of a loc type (locs.go), is the type of the
	// location it refers to; nil for a declared word.
	Loc *Type
}

// Method is a checked method or procedure.
type Method struct {
	Name   string         // the method's name ("init" for the init block)
	Decl   *syntax.Method // its syntax
	Params []*Var         // its parameters, in order (the first of Locals)
	Result Type           // Kind Void if none or a tuple
	// Results are the result types: none, Result, or a procedure's tuple.
	Results []Type
	Locals  []*Var // every local, parameters first, by Var.Index
	// Slots is the number of slots of the locals (Var.Slot).
	Slots int
	Index int  // among the object's methods, or its procedures
	Proc  bool // a procedure, inlined where it is called
	// paramTypes are the parameters' types, known before the body is
	// checked (a procedure may be called before its declaration).
	paramTypes []Type
}

// resultString is the result types as written: T or (T, U).
func (m *Method) resultString() string {
	if len(m.Results) == 1 {
		return m.Results[0].String()
	}
	s := "("
	for i, t := range m.Results {
		if i > 0 {
			s += ", "
		}
		s += t.String()
	}
	return s + ")"
}

// Object is a checked object or hand-written specification.
type Object struct {
	Name    string         // the object's (or specification's) name
	Decl    *syntax.Object // its syntax
	Heaps   []*Heap        // its node types, by ID-1
	Words   []*WordType    // its declared word types, in source order
	Shared  []*Var         // its shared variables, by Var.Index
	Methods []*Method      // its methods, by Method.Index
	// Procs are the procedures, in declaration order.
	Procs []*Method
	// Init is the init block, checked as a method without parameters; nil if absent.
	Init *Method
	// Auto marks the specification derived from the object by making each
	// method body atomic (Yang et al. §2.3); Decl and the rest are then the object's.
	Auto bool
}

// Method returns the method called name, or nil.
func (o *Object) Method(name string) *Method {
	for _, m := range o.Methods {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Info records what the checker learnt about each identifier and expression.
type Info struct {
	Uses   map[*syntax.Ident]*Var          // the variable each name (used or defined) resolves to
	Types  map[syntax.Expr]Type            // the type of each expression checked
	Fields map[*syntax.SelectorExpr]*Field // the field each selector x.f reads
	Heaps  map[*syntax.NewExpr]*Heap       // the node type each new allocates
	Defs   map[*syntax.DefineStmt]*Var     // the (first) local each x := e declares
	Vars   map[*syntax.VarStmt]*Var        // the local each var x T declares
	// Loops is the loop that each break and continue leaves or repeats.
	Loops map[*syntax.BranchStmt]*syntax.WhileStmt
	// Breaks holds the loops that a break leaves.
	Breaks map[*syntax.WhileStmt]bool
	// Calls is the procedure that each procedure call calls.
	Calls map[*syntax.CallExpr]*Method
	// Builds is the word type that each construction W(a, b) builds.
	Builds map[*syntax.CallExpr]*WordType
	// Tests is the heap type of each type test x is T and conversion
	// x as T.
	Tests map[*syntax.TestExpr]*Heap
}

// Program is a checked model.
type Program struct {
	File   *syntax.File   // the source, for positions
	Impl   *Object        // the implementation
	Spec   *Object        // the specification: hand-written, or Auto from Impl
	Client *syntax.Client // nil if the file has none
	Info   *Info          // what the checker learnt, over both objects' syntax
	// Explicit: the object declares `heap explicit` (explicit memory).
	Explicit bool
}
