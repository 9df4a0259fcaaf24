package syntax

// A Node is any syntax tree node; Pos is where it starts.
type Node interface{ Start() Pos }

// Model is a parsed file: an object, its specification and the client.
type Model struct {
	File   *File   // the source text and its line table, for positions
	Object *Object // the implementation; nil only in a model with errors
	Spec   *Spec   // nil if absent
	Client *Client // nil if absent
}

// Object is `object Name { decls }`; a hand-written spec has the same shape.
type Object struct {
	Pos   Pos         // of the object (or spec) keyword
	Name  *Ident      // the object's name
	Heaps []*HeapDecl // the node types (`heap N { … }`), in source order
	// Words are the multi-field atomic word types (`word W { … }`).
	Words   []*WordDecl
	Shared  []*VarDecl // the shared variables (`shared x T`), in source order
	Methods []*Method  // the methods clients call, in source order
	// Procs are the procedures: helpers that methods call, inlined
	// where they are called.
	Procs []*Method
	Init  *Method // `init { ... }`: builds the initial state atomically; nil if absent
	// Explicit is the position of `heap explicit` (the model asks for
	// explicit memory: no garbage collection, freed nodes may be reused);
	// NoPos if absent.
	Explicit Pos
}

// Spec is `spec auto` or `spec Name { decls }`.
type Spec struct {
	Pos  Pos     // of the spec keyword
	Auto bool    // `spec auto`: the object's own methods, each run as one atomic step
	Body *Object // nil when Auto
}

// Client is `client { threads N; ops M|forever; values a..b | v, w }`.
type Client struct {
	Pos       Pos   // of the client keyword
	Threads   int   // the number of client threads; 0 if not given
	ThreadPos Pos   // of the threads keyword; NoPos if not given
	Ops       int   // -1 = forever; 0 if not given
	OpsPos    Pos   // of the ops keyword; NoPos if not given
	Values    []int // the argument values the clients pass, in order; nil if not given
	ValuesPos Pos   // of the values keyword; NoPos if not given
	// Only restricts threads to some methods: `only 1: write` lets thread 1
	// call only write (e.g. for single-writer objects).
	Only []*OnlyDecl
}

// OnlyDecl is `only T: m, n` in a client block.
type OnlyDecl struct {
	Pos     Pos      // of the only keyword
	Thread  int      // the thread id restricted (1-based)
	Methods []*Ident // the methods that thread may call
}

// HeapDecl is `heap Node { f T; g T }`.
type HeapDecl struct {
	Pos    Pos      // of the heap keyword
	Name   *Ident   // the node type's name
	Fields []*Field // the node's fields, in declaration order
}

// WordDecl is `word W { f T; g U }`: a value of several fields stored
// in one shared location, read, written and compared-and-swapped whole
// (a marked pointer, a pointer with a version tag).
type WordDecl struct {
	Pos    Pos      // of the word keyword
	Name   *Ident   // the word type's name
	Fields []*Field // the word's fields, in declaration order
}

// Field is a heap or word field, or a method parameter.
type Field struct {
	Name *Ident // the field's or parameter's name
	Type *Type  // its declared type
}

// VarDecl is `shared x T [= init]`.
type VarDecl struct {
	Pos  Pos    // of the shared keyword
	Name *Ident // the variable's name
	Type *Type  // its declared type
	Init Expr   // may be nil
}

// TypeKind tells the basic type.
type TypeKind int8

// The basic types.
const (
	TInvalid TypeKind = iota
	TInt
	TBool
	TRef
	TNamed // a declared word type
	// TThread is `thread`: a thread id (1..nthreads), or 0 for none.
	TThread
	// TLoc is `loc T`: a reference to a location holding a T (Elem).
	TLoc
)

// Type is `int`, `int(lo..hi)`, `bool`, `ref Node`, `thread` or a word
// type, optionally prefixed by array dimensions: up to two `[thread]`
// dimensions (indexed by thread ids) followed by at most one ordinary
// dimension `[n]` or `[lo..hi]`, two dimensions at most in all.
type Type struct {
	Pos   Pos  // of the type's first token (its first dimension's bracket, if any)
	Len   Expr // ordinary dimension's length (or upper index with LenLo), nil if none
	LenLo Expr // for `[lo..hi]` arrays: the lowest index; nil means 0
	// ThreadDims holds the positions of the leading `[thread]`
	// dimensions: per-thread rows, indexed by thread ids.
	ThreadDims []Pos
	Kind       TypeKind // the basic type of the elements (TInvalid after a syntax error)
	Lo, Hi     Expr     // int range, nil if unbounded
	// Wrap is the position of `wrap` after an int range: stores wrap
	// around the range instead of failing (NoPos if absent).
	Wrap Pos
	Ref  *Ident // node type of a ref
	// Refs are the further node types of a union, `ref A | B | C`.
	Refs []*Ident
	// Named is the name of a word type (Kind TNamed).
	Named *Ident
	// Elem is the type of the location that a `loc T` refers to (Kind TLoc).
	Elem *Type
}

// Method is `method m(p T, ...) [T] { body }`, or a procedure
// `proc p(q T, ...) [T | (T, U, …)] { body }`.
type Method struct {
	Pos    Pos      // of the method, proc or init keyword
	Proc   bool     // a procedure (proc), not a method
	Name   *Ident   // the method's name ("init" for the init block)
	Params []*Field // the parameters, in order
	Result *Type    // nil for void, and for a tuple
	// Tuple holds the result types of a procedure that returns several
	// values, `(T, U)`; nil otherwise.
	Tuple []*Type
	Body  *Block // the method's statements
	End   Pos    // position of the closing brace
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmt()
}

// Block is `{ stmts }`.
type Block struct {
	Pos   Pos    // of the opening brace
	Stmts []Stmt // the statements, in order
	End   Pos    // of the closing brace
}

// DefineStmt is `x := e`, or `x, y := p(…)` for a procedure with a
// tuple result.
type DefineStmt struct {
	Name  *Ident   // the (first) local defined
	Rest  []*Ident // the names after the first
	Value Expr     // the initial value, or the call whose results the names take
}

// AssignStmt is `lhs = e`, or `x, y = p(…)` for a procedure with a
// tuple result.
type AssignStmt struct {
	Pos   Pos    // of the statement's first token
	LHS   Expr   // the (first) location assigned: a name, field or element
	Rest  []Expr // the locations after the first
	Value Expr   // the value assigned, or the call whose results they take
}

// IfStmt is `if c { } [else { } | else if ...]`.
type IfStmt struct {
	Pos  Pos    // of the if keyword
	Cond Expr   // the condition
	Then *Block // run when Cond holds
	Else Stmt   // *Block or *IfStmt or nil
}

// WhileStmt is `[Label:] while c { }`.
type WhileStmt struct {
	Label *Ident // nil if the loop has no label
	Pos   Pos    // of the while keyword
	Cond  Expr   // the loop runs while it holds
	Body  *Block // the loop's body
}

// ForStmt is `for j in others { }` or `for j in threads { }`: the body
// runs once for each thread id j (the threads other than the caller, or
// all), in any order: each iteration takes any thread not yet visited.
type ForStmt struct {
	Pos    Pos    // of the for keyword
	Var    *Ident // the loop variable, a thread id in the body
	Others bool   // `others`, not `threads`
	SetPos Pos    // of others / threads
	Body   *Block // run once per thread id
}

// BranchStmt is `break [Label]` or `continue [Label]`.
type BranchStmt struct {
	Pos   Pos    // of the break or continue keyword
	Tok   Token  // BREAK or CONTINUE
	Label *Ident // nil: the innermost loop
}

// VarStmt is `var x T [= e]`: a local with a declared type (so that it
// may start as null), zero (0, false, null) without an initial value.
type VarStmt struct {
	Pos   Pos    // of the var keyword
	Name  *Ident // the local declared
	Type  *Type  // its declared type
	Value Expr   // nil: the zero value
}

// ChooseStmt is `choose { } or { } [or { } …]`: one of the blocks, chosen
// nondeterministically.
type ChooseStmt struct {
	Pos  Pos      // of the choose keyword
	Alts []*Block // the alternatives, two or more after a correct parse
}

// ReturnStmt is `return [e]`, or `return e, f, …` in a procedure with a
// tuple result.
type ReturnStmt struct {
	Pos   Pos    // of the return keyword
	Value Expr   // the (first) value returned; nil for a bare return
	Rest  []Expr // the values after the first
}

// AtomicStmt is `atomic { }`: its body is one step.
type AtomicStmt struct {
	Pos  Pos    // of the atomic keyword
	Body *Block // the statements run as one step
}

// AssertStmt is `assert e`.
type AssertStmt struct {
	Pos  Pos  // of the assert keyword
	Cond Expr // must hold, or the run has a model error
}

// FreeStmt is `free(e)` or `retire(e)`.
type FreeStmt struct {
	Pos    Pos  // of the free or retire keyword
	Retire bool // retire(e), not free(e)
	X      Expr // the reference to the node freed or retired
}

// AwaitStmt is `await e`: the step is enabled only when e holds (blocking).
type AwaitStmt struct {
	Pos  Pos  // of the await keyword
	Cond Expr // the step waits until it holds
}

// SkipStmt is `skip`.
type SkipStmt struct {
	Pos Pos // of the skip keyword
}

// LinStmt is `lin` or `lin(e)`: a linearization-point marker, visible as
// lin(T,M[,VAL]) only when asked for.
type LinStmt struct {
	Pos   Pos  // of the lin keyword
	Value Expr // the value in lin(e); nil for a plain lin
}

// ExprStmt is an expression evaluated for its effect (a cas).
type ExprStmt struct {
	X Expr // the expression, a call
}

func (s *Block) Start() Pos      { return s.Pos }
func (s *DefineStmt) Start() Pos { return s.Name.Pos }
func (s *AssignStmt) Start() Pos { return s.Pos }
func (s *IfStmt) Start() Pos     { return s.Pos }
func (s *WhileStmt) Start() Pos {
	if s.Label != nil {
		return s.Label.Pos
	}
	return s.Pos
}
func (s *ReturnStmt) Start() Pos { return s.Pos }
func (s *AtomicStmt) Start() Pos { return s.Pos }
func (s *AssertStmt) Start() Pos { return s.Pos }
func (s *FreeStmt) Start() Pos   { return s.Pos }
func (s *SkipStmt) Start() Pos   { return s.Pos }
func (s *AwaitStmt) Start() Pos  { return s.Pos }
func (s *LinStmt) Start() Pos    { return s.Pos }
func (s *ExprStmt) Start() Pos   { return s.X.Start() }
func (s *BranchStmt) Start() Pos { return s.Pos }
func (s *VarStmt) Start() Pos    { return s.Pos }
func (s *ChooseStmt) Start() Pos { return s.Pos }
func (s *ForStmt) Start() Pos    { return s.Pos }

func (*Block) stmt()      {}
func (*DefineStmt) stmt() {}
func (*AssignStmt) stmt() {}
func (*IfStmt) stmt()     {}
func (*WhileStmt) stmt()  {}
func (*ReturnStmt) stmt() {}
func (*AtomicStmt) stmt() {}
func (*AssertStmt) stmt() {}
func (*FreeStmt) stmt()   {}
func (*SkipStmt) stmt()   {}
func (*AwaitStmt) stmt()  {}
func (*LinStmt) stmt()    {}
func (*ExprStmt) stmt()   {}
func (*BranchStmt) stmt() {}
func (*VarStmt) stmt()    {}
func (*ChooseStmt) stmt() {}
func (*ForStmt) stmt()    {}

// Expr is an expression.
type Expr interface {
	Node
	expr()
}

// Ident is a name.
type Ident struct {
	Pos  Pos    // of the name's first byte
	Name string // the name as written
}

// IntLit is a decimal integer.
type IntLit struct {
	Pos   Pos   // of the literal's first digit
	Value int64 // the integer written
}

// BoolLit is true or false.
type BoolLit struct {
	Pos   Pos  // of the literal
	Value bool // true for `true`
}

// NullLit is null.
type NullLit struct {
	Pos Pos // of the null keyword
}

// UnaryExpr is `!x`, `-x`, `&x` (the location x as a loc value) or `*l`
// (the location that the loc l refers to).
type UnaryExpr struct {
	Pos Pos   // of the operator
	Op  Token // NOT, SUB, AMP (&x) or MUL (*l)
	X   Expr  // the operand
}

// BinaryExpr is `x op y`.
type BinaryExpr struct {
	X     Expr  // the left operand
	OpPos Pos   // of the operator
	Op    Token // the operator
	Y     Expr  // the right operand
}

// ParenExpr is `(x)`.
type ParenExpr struct {
	Pos Pos  // of the opening parenthesis
	X   Expr // the expression inside
}

// SelectorExpr is `x.f`.
type SelectorExpr struct {
	X   Expr   // the node reference or word whose field is read
	Sel *Ident // the field's name
}

// IndexExpr is `a[i]`.
type IndexExpr struct {
	X      Expr // the array
	Index  Expr // the index
	Rbrack Pos  // of the closing bracket
}

// CallExpr is `f(args)`: the builtin cas, or a procedure.
type CallExpr struct {
	Fun    *Ident // the builtin's or procedure's name
	Args   []Expr // the arguments, in order
	Rparen Pos    // of the closing parenthesis
}

// NewExpr is `new Node{f: e, ...}` or `new Node`.
type NewExpr struct {
	Pos   Pos          // of the new keyword
	Type  *Ident       // the node type allocated
	Inits []*FieldInit // the fields given; the others start at their zero value
}

// AnyExpr is `any lo..hi`: any integer of the range, chosen
// nondeterministically.
type AnyExpr struct {
	Pos    Pos  // of the any keyword
	Lo, Hi Expr // the range's bounds, both included
}

// TestExpr is a type test `x is T` or a conversion `x as T` of a
// reference to one of several node types.
type TestExpr struct {
	X     Expr   // the reference tested or converted
	OpPos Pos    // of the is or as keyword
	As    bool   // as, not is
	Type  *Ident // the node type tested for
}

// FieldInit is `f: e` in a NewExpr.
type FieldInit struct {
	Name  *Ident // the field's name
	Value Expr   // its initial value
}

func (e *Ident) Start() Pos        { return e.Pos }
func (e *IntLit) Start() Pos       { return e.Pos }
func (e *BoolLit) Start() Pos      { return e.Pos }
func (e *NullLit) Start() Pos      { return e.Pos }
func (e *UnaryExpr) Start() Pos    { return e.Pos }
func (e *BinaryExpr) Start() Pos   { return e.X.Start() }
func (e *ParenExpr) Start() Pos    { return e.Pos }
func (e *SelectorExpr) Start() Pos { return e.X.Start() }
func (e *IndexExpr) Start() Pos    { return e.X.Start() }
func (e *CallExpr) Start() Pos     { return e.Fun.Pos }
func (e *NewExpr) Start() Pos      { return e.Pos }
func (e *AnyExpr) Start() Pos      { return e.Pos }
func (e *TestExpr) Start() Pos     { return e.X.Start() }

func (*Ident) expr()        {}
func (*IntLit) expr()       {}
func (*BoolLit) expr()      {}
func (*NullLit) expr()      {}
func (*UnaryExpr) expr()    {}
func (*BinaryExpr) expr()   {}
func (*ParenExpr) expr()    {}
func (*SelectorExpr) expr() {}
func (*IndexExpr) expr()    {}
func (*CallExpr) expr()     {}
func (*NewExpr) expr()      {}
func (*AnyExpr) expr()      {}
func (*TestExpr) expr()     {}

// BadExpr stands for an expression that failed to parse.
type BadExpr struct {
	Pos Pos // where the expression was expected
}

func (e *BadExpr) Start() Pos { return e.Pos }
func (*BadExpr) expr()        {}

// Start returns the position of the method keyword.
func (m *Method) Start() Pos { return m.Pos }

// Unparen strips the parentheses around e.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}
