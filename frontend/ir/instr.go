package ir

import (
	"fmt"
	"unsafe"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// Opcode is an instruction's operation. Method bodies are lowered to a
// flat array of instructions; a thread's program counter indexes it
// (0 = idle).
type Opcode uint8

// The operations.
const (
	OpNop         Opcode = iota // does nothing (pc 0, idle)
	OpAssign                    // lhs = x
	OpEval                      // evaluate x for its effect (a cas statement)
	OpBranch                    // if !x goto target
	OpJump                      // goto target; back marks a loop's back edge
	OpAtomicBegin               // start of an atomic block
	OpAtomicEnd                 // end of an atomic block
	OpAssert                    // assert x
	OpFree                      // free(x)
	OpLin                       // linearization-point marker, optional value x
	OpReturn                    // return [x]
	OpFallOff                   // end of a method with a result: a model error
	OpRetPending                // the return value is in the retval slot: emit ret
	OpAwait                     // the step is enabled only if x holds
	OpAssignWord                // lhsN[i] = xN[i] for every i, all read before any is written
)

// Instr is one instruction of a method body.
type Instr struct {
	Op   Opcode // what the instruction does
	Back bool   // opJump: a loop's back edge, which ends the step
	// Fold: opJump: the back edge of a loop that does local work only,
	// which does not end the step (the machine bounds its iterations).
	Fold   bool
	Shared bool // reads or writes shared state (shared variables, heap fields, cas)
	// Boundary: shared, and not a return: a step that has touched shared
	// state already ends before it, unless the nodes of priv are private.
	Boundary bool
	Target   int32 // opBranch, opJump
	Method   int32 // the index of the method (Program.Methods) whose code holds it
	Step     int32 // index into program.steps
	// Priv is the set of local slots through which this instruction
	// reaches heap fields, when that is its only shared access: if every
	// node they hold is private to the thread, the instruction is local
	// work.
	Priv uint64
	Lhs  *Expr // OpAssign: the location written
	X    *Expr // the value: assigned, evaluated, tested, freed or returned; nil if none
	// LhsN, xN: opAssignWord's locations and values, one per slot of the
	// word (see words.go).
	LhsN, XN []*Expr
}

// Targets returns the locations that in writes.
func (in *Instr) Targets() []*Expr {
	if in.Lhs != nil {
		return []*Expr{in.Lhs}
	}
	return in.LhsN
}

// Values returns the expressions that in evaluates, other than to find
// the locations it writes.
func (in *Instr) Values() []*Expr {
	if in.X != nil {
		return []*Expr{in.X}
	}
	return in.XN
}

// ExprKind is the kind of a compiled expression.
type ExprKind uint8

// The kinds of expressions.
const (
	EConst    ExprKind = iota // the constant V
	ELocal                    // the thread's local slot V
	EShared                   // the shared slot V
	EElem                     // an element of the shared array at V (A, B: the indices)
	EField                    // field V of the node A refers to
	ETid                      // the running thread's id
	ENThreads                 // the number of threads
	EUnary                    // Op A
	EBinary                   // A Op B; if V is not 0, the Go integer operation intop.Code(V) on A (and B)
	ECas                      // cas(A, B, C): if A holds B, store C; 1 if it did
	ENew                      // a new node of heap type V, its fields from Inits
	EAny                      // lo + a nondeterministic choice in [0, n)
	// ECasWord is a cas on a word: list holds its k locations, then the k
	// expected values, then the k new ones (one per slot of the word).
	ECasWord
	// The loops over threads (forthreads.go); a is the loop's visited
	// set, a local holding a bit set of thread ids (bit t-1 for thread t),
	// and v is 1 for `others` (the running thread excluded), 0 for
	// `threads`.
	EThreadsLeft // whether a thread is left to visit
	EPickThread  // any thread id left to visit (a nondeterministic choice; lo = 1: the lowest)
	EAddThread   // the set a with the thread id b added
	// EIs tests whether the node a holds (not null) has heap type v; eAs
	// converts a to a reference of heap type v, failing if it holds a
	// node of another type. Neither is a shared access: a node's type
	// never changes while it is referenced.
	EIs // A is a node of heap type V
	EAs // A converted to heap type V
	// ELocalElem is an element of a local array: slot v + (a - lo)·stride
	// of the thread's locals, a in [lo, lo+n).
	ELocalElem
	// EPack packs the values of list, a method's tuple result, into one
	// value (the method is v; see tuples.go).
	EPack
	// The atomic read-modify-writes, one shared access each, as cas is:
	// their value is what the location A held before.
	ESwap // swap(A, B): store B into A
	EFaa  // faa(A, B): add B to the int in A
	// References to locations (locs.go). EAddr is the offset slot of the
	// loc &A: A is the location (EShared, EElem or EField), whose address
	// operands are evaluated but which is not read (N: the slots of its
	// value, 2 or more for a word). EDeref is slot V of
	// the location that a loc refers to, A and B the loc's node and
	// offset: a shared location whose address is known only at run time.
	EAddr
	EDeref
	// EFieldElem is an element of an array field of a node (fieldarrays.go):
	// slot V + (B - Lo)·Stride of the node A, B in [Lo, Lo+N).
	EFieldElem

	numExprKinds // the number of kinds; keep it last
)

// Class says what an expression kind does besides computing its value
// from its operands, for the analyses that do not evaluate expressions
// (liveness, compile's purity check, the partial-order footprints, the
// symmetry check): each reads a new kind's class from this one table and
// treats it as its class says, unless it knows the kind better. The zero
// Class is no class: the analyses refuse it or treat it as touching
// everything.
type Class uint8

// The classes of expression kinds.
const (
	// Leaf: a value without operands or accesses (a constant, tid).
	Leaf Class = iota + 1
	// Location: the expression denotes a location, local or shared, and
	// its value is what the location holds; its operands select it.
	// The analyses know each location kind by name.
	Location
	// Operator: a value computed from its operands' values alone, with
	// no access of its own; its operands are data (not thread ids,
	// unless the symmetry check knows the kind).
	Operator
	// Choice: a nondeterministic choice (any, a thread left to visit).
	Choice
	// Allocation: a new node.
	Allocation
	// ReadModifyWrite: an atomic read-modify-write of the locations
	// that Written lists; its other operands are data.
	ReadModifyWrite
)

// kinds holds every kind's name (for messages) and class;
// TestEveryKindClassified checks that none is missing.
var kinds = [numExprKinds]struct {
	name  string
	class Class
}{
	EConst: {"const", Leaf}, ETid: {"tid", Leaf}, ENThreads: {"nthreads", Leaf},
	ELocal: {"local", Location}, EShared: {"shared", Location}, EElem: {"element", Location},
	EField: {"field", Location}, ELocalElem: {"local element", Location},
	EUnary: {"unary", Operator}, EBinary: {"binary", Operator}, EIs: {"is", Operator}, EAs: {"as", Operator},
	EPack: {"pack", Operator}, EThreadsLeft: {"threads left", Operator}, EAddThread: {"add thread", Operator},
	EAny: {"any", Choice}, EPickThread: {"pick thread", Choice},
	ENew: {"new", Allocation},
	ECas: {"cas", ReadModifyWrite}, ECasWord: {"cas", ReadModifyWrite}, ESwap: {"swap", ReadModifyWrite}, EFaa: {"faa", ReadModifyWrite},
	EAddr: {"address", Operator}, EDeref: {"deref", Location}, EFieldElem: {"field element", Location},
}

// Class returns k's class (0 for a kind the table does not know).
func (k ExprKind) Class() Class {
	if int(k) < len(kinds) {
		return kinds[k].class
	}
	return 0
}

// String names k as messages do ("faa"), or gives its number.
func (k ExprKind) String() string {
	if int(k) < len(kinds) && kinds[k].name != "" {
		return kinds[k].name
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// Written calls f on each location that e, a read-modify-write, writes:
// the k locations that open a cas on a word's list, A for the others.
func Written(e *Expr, f func(loc *Expr)) {
	if e.Kind.Class() != ReadModifyWrite {
		return
	}
	if e.Kind == ECasWord {
		for _, l := range e.List[:len(e.List)/3] {
			f(l)
		}
		return
	}
	f(e.A)
}

// Expr is a compiled expression with its variables resolved to slots.
type Expr struct {
	Kind  ExprKind     // what the expression is; the other fields' meaning depends on it
	Op    syntax.Token // EUnary, EBinary: the operator
	V     int32        // constant, local slot, shared offset, field index or heap id
	Lo, N int32        // eElem: lowest index and length of the first dimension; eAny: lowest value and count
	// Lo2, n2: eElem of a two-dimensional array: the lowest index and the
	// length of its second dimension (b is the index).
	Lo2, N2 int32
	// Tdims: eElem: the array's leading [thread] dimensions (0–2).
	Tdims int8
	// Stride: eElem: the slots per element (an array of words), 0 or 1 for
	// a scalar array.
	Stride int32
	List   []*Expr     // eCasWord's operands
	A, B   *Expr       // operands; eElem: a and b are the indices; eField: a is the node
	C      *Expr       // eCas: new value (eSwap, eFaa: b is the operand)
	Inits  []FieldInit // ENew: the fields given an initial value
	Rng    *check.Type // for locations with a declared range
	Name   string      // for messages
	Pos    syntax.Pos  // where the expression starts in the source, for messages
	Shared bool        // it, or an operand, reads or writes shared state
	Ref    bool        // a location that holds a reference
	Thr    bool        // a location declared `thread` (it holds thread ids)
	// Eval is the machine's evaluator of the expression, set when
	// frontend/semantics lowers the program and never read by ir: the
	// machine's own type, held here so that evaluating an expression is
	// one load and one call (a table beside the program cost more
	// instructions in exploration).
	Eval unsafe.Pointer
}

// FieldInit is a field of a new node and the value it starts with.
type FieldInit struct {
	Field int32 // the field's first slot in the node (check.Field.Index)
	X     *Expr // its initial value
}

// Method is a compiled method.
type Method struct {
	Name       string       // the method's name, as labels print it
	Index      int32        // its index in Program.Methods
	Entry      int32        // first instruction
	RetPending int32        // the pc of its OpRetPending, where a returning thread waits to emit ret
	Params     []check.Type // its parameters' types, in order
	Result     check.Kind   // its result's kind; Void for none (Int for a tuple, packed)
	// Tuple: the types of a tuple result, whose values are packed into
	// one (result is then Int); nil otherwise.
	Tuple    []check.Type
	Nlocals  int    // the local slots a call uses, the compiler's temporaries included
	RefMask  uint64 // local slots holding references, as a bit set
	CallStep int32  // the step (Program.Steps) that a call of it is labelled with
	// ArgTuples are the argument tuples a client may call it with, one
	// value per parameter from Program.Values (0 and 1 for a bool); set
	// by frontend/semantics, nil before.
	ArgTuples [][]int32
	Callable  bool // false for the init block
	// Formats, if not nil, say how each result is printed in labels, from
	// a front end's results directive (syntax.ResultsDirective): the name
	// of a Go integer kind (package intop: "u64", "i32", …) prints the
	// integer of that kind the slot holds (the Go front end's uint64 -1 is
	// 18446744073709551615, an int32 of -2^30 is a number, not EMPTY);
	// "any" prints EMPTY as nil (the Go front end's nil interface).
	Formats []string
}

// Program is an object compiled for given bounds.
type Program struct {
	// Source resolves the positions of the program's expressions and
	// steps (a .lin file, or a Go package's files).
	Source  Source
	Client  *syntax.Client // the file's client block, nil if none (for messages)
	Obj     *check.Object  // the checked object compiled
	Code    []Instr        // every method's instructions; pc 0 is OpNop, an idle thread's
	Methods []*Method      // the methods, then the init block if any, by Method.Index
	// refMask[pc]: the reference locals of the method of pc as a bit set
	// (0 at pc 0, idle): a thread's references are found by one load and a
	// loop over the set bits. dead[pc]: the method's locals dead at pc,
	// likewise.
	RefMask, Dead []uint64
	// clean[pc]: the locals of the method of pc that are zero after any
	// step of a thread from pc in a canonical state (see cleanSets).
	Clean  []uint64
	Layout Layout // where each variable, thread slot and node field lies in a state
	// SharedSlots: per shared variable, the slots it takes (elements ×
	// slots per element).
	SharedSlots []int32
	// ThreadArrays are the shared arrays with [thread] dimensions, whose
	// rows (and columns) move when the threads are permuted.
	ThreadArrays []ThreadArray
	// ThreadSets are the visited sets of the loops over threads.
	ThreadSets []ThreadSet
	Init       []int32 // initial state, before the init block runs
	// InitMethod is the compiled init block, run atomically by thread 1
	// to build the initial state; nil if absent.
	InitMethod *Method
	Steps      []StepInfo // the steps' source texts, by Instr.Step
	// CasSteps[s], for a step s whose shared access is one cas (outside
	// an atomic block), is the first of its two variants (casoutcome.go):
	// the step as taken when the cas fails, then when it succeeds; 0
	// otherwise (shorter than Steps: absent also means 0).
	CasSteps []int32
	Threads  int     // the number of client threads
	Values   []int32 // the client's argument values, in order
}

// StepInfo is the source of a step, for counterexamples and listings.
type StepInfo struct {
	Pos       syntax.Pos // where the step's statement starts
	Text      string     // its source text, as counterexamples print it
	Procedure string     // the method or procedure whose code it is
}

// WalkExpr calls f on e and its subexpressions (Operands), e first.
func WalkExpr(e *Expr, f func(*Expr)) {
	if e == nil {
		return
	}
	f(e)
	Operands(e, func(x *Expr) { WalkExpr(x, f) })
}

// Operands calls f on each operand of e: A, B and C when set, the
// initial values of a new node's fields, the list's expressions; for &A
// (EAddr), A's address operands, A itself not being read. It is the one
// place that knows where an expression keeps its operands.
func Operands(e *Expr, f func(*Expr)) {
	a, b := e.A, e.B
	if e.Kind == EAddr {
		a, b = e.A.A, e.A.B
	}
	for _, x := range [3]*Expr{a, b, e.C} {
		if x != nil {
			f(x)
		}
	}
	for _, fi := range e.Inits {
		f(fi.X)
	}
	for _, x := range e.List {
		f(x)
	}
}

// Source resolves positions of a front end's source for messages and
// counterexamples.
type Source interface {
	Position(syntax.Pos) syntax.Position
}
