// Package randmodel generates small random models in the linbis modeling
// language (frontend/LANGUAGE.md) for tests that hold one way of checking
// a model to another on many programs: reduced against unreduced
// exploration, on-the-fly against explicit verification.
//
// It lives under internal/ because it is a testing aid, not an API for
// users: the programs a seed yields may change whenever the generator
// learns a new construct. It imports nothing of linbis, so that the tests
// of any package, frontend/explore's own included, may use it.
//
// A program is an object with one to three methods built from idioms of
// concurrent objects: CAS retry loops (with done flags, returns, break or
// continue), spin locks, spins waiting for a flag (τ-cycles: not
// lock-free), awaits, atomic blocks, racy read-then-write updates (often
// not linearizable), Treiber-style lists of heap nodes with optional
// hazard pointers and explicit free, a linked queue with a dummy node
// built by init (CAS on a node's next field), procedures (tuple results,
// reference parameters), nondeterministic choose and any, var locals,
// slots of a [1..nthreads] array indexed by tid, per-thread arrays
// ([thread], [thread][n], [thread][thread]) with thread-typed values and
// loops over the other threads, references to locations (&X, &c.next,
// read and written through *l), array fields of nodes, and rarely
// assertions.
// Its specification is `spec auto` or a hand-written one that runs each
// method body atomically (spins turned into awaits), sometimes
// deliberately changed in one statement so that the object is not
// linearizable. The client is small (2–3 threads, 1–2 operations, values
// 1..2), and methods are shorter where threads or operations are more,
// so that every program's state space stays small: each LTS of seeds
// 0..1999 has fewer than 20,000 states in either heap mode, most a few
// hundred (the tests check this; other seeds are alike, but the bound is
// structural, not guaranteed).
//
// Each program records the features it uses (Program.Features), so that
// a test can pick or exclude constructs (Config.Exclude). Symmetric
// programs use tid only in ways that a permutation of the threads maps
// onto the same program: as the index of the thread's own slot (A[tid],
// HP[tid], R[tid][k]) and, with the TidBeyondIndex features, as a stored
// owner compared for equality, a thread value, or in a count over all
// threads.
// Asymmetric ones use it in ways a symmetry check must refuse
// (arithmetic, comparison with a constant or by order, scans in index
// order) or restrict threads with `only`.
package randmodel

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Feature is a construct a generated program uses; features combine as a
// bit set.
type Feature uint32

// The features of generated programs.
const (
	// Heap: a list of heap nodes pushed and popped with CAS (Treiber).
	Heap Feature = 1 << iota
	// Free: popped nodes are freed; worth checking in explicit heap mode,
	// where freed nodes are reused (ABA).
	Free
	// Lock: a spin lock, `while !cas(Lock, false, true) { skip }`: a
	// τ-cycle while another thread holds it.
	Lock
	// FlagWait: a spin loop waiting for a shared variable another method
	// may set, or may never set.
	FlagWait
	// Await: an await statement in the implementation.
	Await
	// Assert: assertions, some of which may fail; a model error is then a
	// legitimate outcome of exploration.
	Assert
	// HandSpec: a hand-written specification (each method body atomic,
	// spins turned into awaits) instead of `spec auto`.
	HandSpec
	// MutatedSpec: the hand-written specification deliberately computes
	// something else in one statement (a result or an update off by one).
	MutatedSpec
	// TidIndex: tid indexes the shared array A [1..nthreads].
	TidIndex
	// TidValue: tid is stored in the shared int Owner and compared with
	// tid or 0 for equality only (a lock that knows its owner).
	TidValue
	// TidCount: an atomic loop over all thread indices that counts the
	// other threads' non-zero slots (the order of the visits cannot matter).
	TidCount
	// TidArith: arithmetic on tid (asymmetric).
	TidArith
	// TidOrder: tid compared with a constant or by order (asymmetric).
	TidOrder
	// TidScan: a loop visiting the thread indices in a fixed order, one
	// step each (asymmetric: a permutation changes the order).
	TidScan
	// Only: the client restricts thread 1 to some methods (asymmetric).
	Only
	// Hazard: a pop publishes the node it reads in HP[tid], a
	// [1..nthreads] array of references, and checks Top again (hazard
	// pointers without reclamation).
	Hazard
	// Queue: a linked queue with a dummy node built by an init block;
	// enqueue links its node with a CAS on the last node's next field.
	Queue
	// ExplicitHeap: the object declares `heap explicit`, so it is always
	// explored with explicit memory (only in programs that free nodes).
	ExplicitHeap
	// Proc: procedures called from methods: a CAS retry returning the old
	// value, a snapshot returning a tuple, a field read taking a reference.
	Proc
	// Break: a retry loop left with break, or retried with continue.
	Break
	// Choose: a nondeterministic choice between two fragments.
	Choose
	// Any: a value chosen nondeterministically by `any lo..hi`.
	Any
	// Var: locals declared with var and a type.
	Var
	// PerThread: per-thread arrays (P [thread], R [thread][2], S
	// [thread][thread]) whose row is indexed by tid or by a thread value.
	PerThread
	// ThreadValue: thread-typed values: a local `var me thread = tid`
	// indexing the thread's own row, or a shared `Last thread` set to tid
	// and compared with it.
	ThreadValue
	// ForThreads: loops over the other threads or all of them (`for j in
	// others`, `for j in threads`), in any order, reading their rows.
	ForThreads
	// RMW: the atomic read-modify-writes swap and faa, as expressions
	// and statements, on ints (and swap on the thread value Last).
	RMW
	// LocalLoop: a loop doing local work only (a sum over a counter),
	// which runs within the step that enters it.
	LocalLoop
	// Loc: references to locations: a loc to X or Y chosen at run time,
	// read and updated through (*l, cas(*l, …), faa), published in the
	// shared L; with Heap, Michael's traversal of the list at Top by a
	// pointer to a pointer (p = &c.next), inserting through it, published
	// in the shared Cur and read through by other operations.
	Loc
	// FieldArray: the nodes carry an array field (cnt [2] int), an
	// element of which, at an index known at run time, is read and
	// updated with a cas (or faa, or through a loc to it).
	FieldArray

	numFeatures = iota
)

// AsymmetricFeatures are the features that break the symmetry of threads.
const AsymmetricFeatures = TidArith | TidOrder | TidScan | Only

// PerThreadForms are the features of the per-thread forms of the
// language: per-thread arrays, thread values, loops over threads.
const PerThreadForms = PerThread | ThreadValue | ForThreads

// TidBeyondIndex are the symmetric features in which a thread id is more
// than the index of the thread's own slot: a stored and compared owner
// (TidValue, ThreadValue), or a loop over all threads (TidCount,
// ForThreads). A symmetry check that accepts tid only as the index of
// the thread's own slot refuses them, soundly; exclude them
// (Config.Exclude) for programs it must accept.
const TidBeyondIndex = TidValue | TidCount | ThreadValue | ForThreads

var featureNames = [numFeatures]string{"heap", "free", "lock", "flag-wait", "await", "assert",
	"hand-spec", "mutated-spec", "tid-index", "tid-value", "tid-count", "tid-arith", "tid-order",
	"tid-scan", "only", "hazard", "queue", "explicit-heap", "proc", "break", "choose", "any", "var",
	"per-thread", "thread-value", "for-threads", "rmw", "local-loop", "loc", "field-array"}

// String lists the features, e.g. "heap+free".
func (f Feature) String() string {
	var names []string
	for i, name := range featureNames {
		if f&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "+")
}

// Features returns every feature, each alone, in order.
func Features() []Feature {
	all := make([]Feature, numFeatures)
	for i := range all {
		all[i] = 1 << i
	}
	return all
}

// Symmetry selects the symmetry class of generated programs.
type Symmetry int8

// The symmetry classes.
const (
	// Mixed generates symmetric and asymmetric programs, about half each.
	Mixed Symmetry = iota
	// SymmetricOnly generates only programs whose threads are interchangeable.
	SymmetricOnly
	// AsymmetricOnly generates only programs with at least one of the
	// AsymmetricFeatures.
	AsymmetricOnly
)

// Config tunes the generator; the zero Config mixes everything.
type Config struct {
	// Symmetry selects the symmetry class of the programs.
	Symmetry Symmetry
	// Exclude lists features no program may use, e.g. Heap|Free to stay
	// off the heap or Assert to avoid model errors. Excluding all of the
	// AsymmetricFeatures makes every program symmetric.
	Exclude Feature
}

// Program is a generated model.
type Program struct {
	// Source is the model's text: object, specification and client block.
	Source string
	// Features are the constructs the program uses.
	Features Feature
}

// Symmetric reports whether the threads of p are interchangeable: it has
// none of the AsymmetricFeatures.
func (p Program) Symmetric() bool { return p.Features&AsymmetricFeatures == 0 }

// Generate returns the source of a random model drawn from r.
func Generate(r *rand.Rand, cfg Config) string { return GenerateProgram(r, cfg).Source }

// GenerateProgram returns a random model drawn from r with its features.
func GenerateProgram(r *rand.Rand, cfg Config) Program {
	g := &gen{r: r, cfg: cfg, shared: map[string]bool{}}
	switch cfg.Symmetry {
	case Mixed:
		g.asymmetric = r.IntN(2) == 0
	case AsymmetricOnly:
		g.asymmetric = true
	}
	g.asymmetric = g.asymmetric && cfg.Exclude&AsymmetricFeatures != AsymmetricFeatures
	// Two threads with one operation each explore a few hundred states:
	// those programs may be larger. More threads or operations multiply
	// the interleavings, so their programs are kept short.
	g.threads, g.ops, g.maxMethods, g.maxParts, g.maxAllocators = 2, 1, 3, 3, 3
	switch r.IntN(8) {
	case 0, 1, 2:
	case 3, 4, 5:
		g.ops, g.maxMethods, g.maxParts, g.maxAllocators = 2, 2, 2, 1
	default:
		g.threads, g.maxMethods, g.maxParts, g.maxAllocators = 3, 2, 1, 1
	}
	for i := range 1 + r.IntN(g.maxMethods) {
		g.methods = append(g.methods, g.method(i))
	}
	if g.features&FlagWait != 0 && g.cfg.Exclude&FlagWait == 0 && r.IntN(4) > 0 && !g.setsFlag {
		// Give the waiters someone to wait for, most of the time.
		g.methods = append(g.methods, g.signalMethod(len(g.methods)))
	}
	if g.asymmetric && g.allowed(Only) && g.chance(4) {
		g.restrictThread()
	}
	if g.asymmetric && g.features&AsymmetricFeatures == 0 {
		g.breakSymmetry()
	}
	return Program{Source: g.print(), Features: g.features}
}

// gen holds one program under construction.
type gen struct {
	r   *rand.Rand
	cfg Config
	// asymmetric is set when the program is to break thread symmetry.
	asymmetric bool
	// features collects the features used so far.
	features Feature
	// shared records the shared variables used so far, by name.
	shared map[string]bool
	// setsFlag is set once some method writes Flag.
	setsFlag bool
	methods  []*method
	// procs are the procedures the methods call.
	procs []*method
	// only, if non-empty, lists the methods thread 1 is restricted to.
	only []string
	// threads and ops are the client's bounds.
	threads, ops int
	// maxMethods and maxParts bound the methods (before signalMethod)
	// and the idioms in each method.
	maxMethods, maxParts int
	// allocators counts the methods that allocate nodes, at most
	// maxAllocators: every node multiplies the states.
	allocators, maxAllocators int
}

// method is a generated method or procedure.
type method struct {
	// keyword is "method" or "proc".
	keyword string
	name    string
	// param is set when the method takes `v int`; a procedure's
	// parameters are in params.
	param  bool
	params string
	// result is "", "int" or "bool"; a procedure's may be a tuple "(int, int)".
	result string
	body   []stmt
	// locals counts the locals declared, for fresh names.
	locals int
	// allocates is set once the method allocates a node.
	allocates bool
}

// routines returns the procedures and then the methods.
func (g *gen) routines() []*method {
	return append(g.procs[:len(g.procs):len(g.procs)], g.methods...)
}

// fresh returns a new local name with the given prefix.
func (m *method) fresh(prefix string) string {
	m.locals++
	return fmt.Sprintf("%s%d", prefix, m.locals)
}

// allocate reports whether m may allocate a node: once per method, in
// at most maxAllocators methods.
func (g *gen) allocate(m *method) bool {
	if m.allocates {
		return false
	}
	if g.allocators == g.maxAllocators {
		return false
	}
	g.allocators++
	m.allocates = true
	return true
}

// use records the use of a feature.
func (g *gen) use(f Feature) { g.features |= f }

// allowed reports whether the features f may be used in this program.
func (g *gen) allowed(f Feature) bool {
	if g.cfg.Exclude&f != 0 {
		return false
	}
	if f&FlagWait != 0 && g.cfg.Exclude&HandSpec != 0 {
		return false // spec auto would spin inside an atomic body
	}
	return f&AsymmetricFeatures == 0 || g.asymmetric
}

// chance returns true with probability 1/n.
func (g *gen) chance(n int) bool { return g.r.IntN(n) == 0 }

// pick returns one of the strings at random.
func (g *gen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

// method generates method number i.
func (g *gen) method(i int) *method {
	m := &method{keyword: "method", name: fmt.Sprintf("m%d", i+1), param: g.chance(2), result: g.pick("", "int", "int", "bool")}
	if m.param {
		m.params = "v int"
	}
	if m.result != "" {
		m.body = append(m.body, g.declare("res", "int", "0"))
	}
	parts := 1 + g.r.IntN(g.maxParts)
	terminal := g.chance(3)
	if terminal {
		parts--
	}
	for budget := parts; budget > 0; {
		id, _ := g.draw(append(fragments(), nesting()...), budget)
		budget -= id.cost
		m.body = append(m.body, g.run(m, id)...)
	}
	if terminal {
		m.body = append(m.body, g.terminal(m)...)
	} else if m.result != "" {
		m.body = append(m.body, g.finalReturn(m))
	}
	return m
}

// signalMethod generates a method that only sets Flag.
func (g *gen) signalMethod(i int) *method {
	m := &method{keyword: "method", name: fmt.Sprintf("m%d", i+1)}
	if g.chance(2) {
		m.param, m.params = true, "v int"
	}
	m.body = g.flagSet(m)
	return m
}

// breakSymmetry makes a program meant to be asymmetric so: it restricts
// thread 1's methods or adds an asymmetric idiom to some method.
func (g *gen) breakSymmetry() {
	if g.allowed(Only) && (g.chance(3) || g.cfg.Exclude&(TidArith|TidOrder|TidScan) == TidArith|TidOrder|TidScan) {
		g.restrictThread()
		return
	}
	m := g.methods[g.r.IntN(len(g.methods))]
	at := 0
	if m.result != "" {
		at = 1 // after the declaration of res
	}
	maxCost := 1 // a light idiom where methods are short
	if g.maxParts >= 3 {
		maxCost = 2
	}
	id, ok := g.draw(asymmetricIdioms(), maxCost)
	if !ok {
		id, _ = g.draw(asymmetricIdioms(), 2)
	}
	m.body = append(m.body[:at:at], append(g.run(m, id), m.body[at:]...)...)
}

// restrictThread lets thread 1 call only some of the methods.
func (g *gen) restrictThread() {
	g.use(Only)
	keep := 1
	if len(g.methods) > 1 {
		keep = 1 + g.r.IntN(len(g.methods)-1)
	}
	for _, i := range g.r.Perm(len(g.methods))[:keep] {
		g.only = append(g.only, g.methods[i].name)
	}
}
