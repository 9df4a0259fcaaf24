package explore

import (
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/syntax"
)

// The instruction set. Method bodies are lowered to a flat array of
// instructions; a thread's program counter indexes it (0 = idle).
type opcode uint8

const (
	opNop         opcode = iota
	opAssign             // lhs = x
	opEval               // evaluate x for its effect (a cas statement)
	opBranch             // if !x goto target
	opJump               // goto target; back marks a loop's back edge
	opAtomicBegin        // start of an atomic block
	opAtomicEnd          // end of an atomic block
	opAssert             // assert x
	opFree               // free(x)
	opLin                // linearization-point marker, optional value x
	opReturn             // return [x]
	opFallOff            // end of a method with a result: a model error
	opRetPending         // the return value is in the retval slot: emit ret
	opAwait              // the step is enabled only if x holds
	opAssignWord         // lhsN[i] = xN[i] for every i, all read before any is written
)

type instr struct {
	op     opcode
	back   bool // opJump: a loop's back edge
	shared bool // reads or writes shared state (shared variables, heap fields, cas)
	// boundary: shared, and not a return: a step that has touched shared
	// state already ends before it, unless the nodes of priv are private.
	boundary bool
	target   int32 // opBranch, opJump
	method   int32
	step     int32 // index into program.steps
	// priv is the set of local slots through which this instruction
	// reaches heap fields, when that is its only shared access: if every
	// node they hold is private to the thread, the instruction is local
	// work.
	priv uint64
	lhs  *expr
	x    *expr
	// lhsN, xN: opAssignWord's locations and values, one per slot of the
	// word (see words.go).
	lhsN, xN []*expr
}

// targets returns the locations that in writes.
func (in *instr) targets() []*expr {
	if in.lhs != nil {
		return []*expr{in.lhs}
	}
	return in.lhsN
}

// values returns the expressions that in evaluates, other than to find
// the locations it writes.
func (in *instr) values() []*expr {
	if in.x != nil {
		return []*expr{in.x}
	}
	return in.xN
}

type ekind uint8

const (
	eConst ekind = iota
	eLocal
	eShared
	eElem
	eField
	eTid
	eNThreads
	eUnary
	eBinary
	eCas
	eNew
	eAny // lo + a nondeterministic choice in [0, n)
	// eCasWord is a cas on a word: list holds its k locations, then the k
	// expected values, then the k new ones (one per slot of the word).
	eCasWord
	// The loops over threads (forthreads.go); a is the loop's visited
	// set, a local holding a bit set of thread ids (bit t-1 for thread t),
	// and v is 1 for `others` (the running thread excluded), 0 for
	// `threads`.
	eThreadsLeft // whether a thread is left to visit
	ePickThread  // any thread id left to visit (a nondeterministic choice; lo = 1: the lowest)
	eAddThread   // the set a with the thread id b added
	// eIs tests whether the node a holds (not null) has heap type v; eAs
	// converts a to a reference of heap type v, failing if it holds a
	// node of another type. Neither is a shared access: a node's type
	// never changes while it is referenced.
	eIs
	eAs
	// eLocalElem is an element of a local array: slot v + (a - lo)·stride
	// of the thread's locals, a in [lo, lo+n).
	eLocalElem
	// ePack packs the values of list, a method's tuple result, into one
	// value (the method is v; see tuples.go).
	ePack
)

// expr is a compiled expression with its variables resolved to slots.
type expr struct {
	k     ekind
	op    syntax.Token
	v     int32 // constant, local slot, shared offset, field index or heap id
	lo, n int32 // eElem: lowest index and length of the first dimension; eAny: lowest value and count
	// lo2, n2: eElem of a two-dimensional array: the lowest index and the
	// length of its second dimension (b is the index).
	lo2, n2 int32
	// tdims: eElem: the array's leading [thread] dimensions (0–2).
	tdims int8
	// stride: eElem: the slots per element (an array of words), 0 or 1 for
	// a scalar array.
	stride int32
	list   []*expr // eCasWord's operands
	a, b   *expr   // operands; eElem: a and b are the indices; eField: a is the node
	c      *expr   // eCas: new value
	inits  []fieldInit
	rng    *check.Type // for locations with a declared range
	name   string      // for messages
	pos    syntax.Pos
	shared bool
	ref    bool // a location that holds a reference
	thr    bool // a location declared `thread` (it holds thread ids)
	// id numbers the expression within its program, from 1, so that the
	// machine can keep per-expression data (its evaluators) in a table;
	// set by numberExprs once the code is complete.
	id int32
}

type fieldInit struct {
	field int32
	x     *expr
}

// method is a compiled method.
type method struct {
	name       string
	index      int32
	entry      int32 // first instruction
	retPending int32
	params     []check.Type
	result     check.Kind
	// tuple: the types of a tuple result, whose values are packed into
	// one (result is then Int); nil otherwise.
	tuple     []check.Type
	nlocals   int
	refMask   uint64 // local slots holding references, as a bit set
	callStep  int32
	argTuples [][]int32
	callable  bool // false for the init block
}

// program is an object compiled for given bounds.
type program struct {
	file    *syntax.File
	client  *syntax.Client // the file's client block, nil if none (for messages)
	obj     *check.Object
	code    []instr
	methods []*method
	// refMask[pc]: the reference locals of the method of pc as a bit set
	// (0 at pc 0, idle): a thread's references are found by one load and a
	// loop over the set bits. dead[pc]: the method's locals dead at pc,
	// likewise.
	refMask, dead []uint64
	// clean[pc]: the locals of the method of pc that are zero after any
	// step of a thread from pc in a canonical state (see cleanSets).
	clean []uint64
	lay   layout
	// sharedSlots: per shared variable, the slots it takes (elements ×
	// slots per element).
	sharedSlots []int32
	// threadArrays are the shared arrays with [thread] dimensions, whose
	// rows (and columns) move when the threads are permuted.
	threadArrays []threadArray
	// threadSets are the visited sets of the loops over threads.
	threadSets []threadSet
	init       []int32 // initial state, before the init block runs
	// initMethod is the compiled init block, run atomically by thread 1
	// to build the initial state; nil if absent.
	initMethod *method
	steps      []stepInfo
	// nexprs is the number of expressions of code, numbered from 1.
	nexprs  int32
	threads int
	values  []int32
}

type stepInfo struct {
	pos       syntax.Pos
	text      string
	procedure string
}

// walkExpr calls f on e and its subexpressions.
func walkExpr(e *expr, f func(*expr)) {
	if e == nil {
		return
	}
	f(e)
	walkExpr(e.a, f)
	walkExpr(e.b, f)
	walkExpr(e.c, f)
	for _, fi := range e.inits {
		walkExpr(fi.x, f)
	}
	for _, x := range e.list {
		walkExpr(x, f)
	}
}

// numberExprs gives every expression of p's code an id, from 1.
func (p *program) numberExprs() {
	for i := range p.code {
		in := &p.code[i]
		number := func(e *expr) {
			if e.id == 0 {
				p.nexprs++
				e.id = p.nexprs
			}
		}
		for _, l := range in.targets() {
			walkExpr(l, number)
		}
		for _, x := range in.values() {
			walkExpr(x, number)
		}
	}
}
