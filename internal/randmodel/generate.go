// Package randmodel generates small random models in the linbis modeling
// language (frontend/LANGUAGE.md) for tests that hold one way of checking
// a model to another on many programs: reduced against unreduced
// exploration, on-the-fly against explicit verification.
//
// It lives under internal/ because it is a testing aid, not an API for
// users: the programs a seed yields may change whenever the generator
// learns a new construct, and tests anywhere in the module (frontend,
// verify, cmd) may import it.
//
// A program is an object with one to three methods built from idioms of
// concurrent objects: CAS retry loops, spin locks, spins waiting for a
// flag (τ-cycles: not lock-free), awaits, atomic blocks, racy
// read-then-write updates (often not linearizable), Treiber-style lists of
// heap nodes with optional explicit free, slots of a [1..nthreads] array
// indexed by tid, and rarely assertions. Its specification is `spec auto`
// or a hand-written one that runs each method body atomically (spins
// turned into awaits), sometimes deliberately changed in one statement so
// that the object is not linearizable. The client is small (2–3 threads,
// 1–2 operations, values 1..2), so that every program's state space stays
// within a few thousand states.
//
// Each program records the features it uses. Symmetric programs use tid
// only in ways that a permutation of the threads maps onto the same
// program; asymmetric ones use it in ways a symmetry check must refuse
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

	numFeatures = iota
)

// AsymmetricFeatures are the features that break the symmetry of threads.
const AsymmetricFeatures = TidArith | TidOrder | TidScan | Only

var featureNames = [numFeatures]string{"heap", "free", "lock", "flag-wait", "await", "assert",
	"hand-spec", "mutated-spec", "tid-index", "tid-value", "tid-count", "tid-arith", "tid-order",
	"tid-scan", "only"}

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
	g.threads, g.ops, g.maxMethods, g.maxParts = 2, 1, 3, 3
	switch r.IntN(8) {
	case 0, 1, 2:
	case 3, 4, 5:
		g.ops, g.maxMethods, g.maxParts = 2, 2, 2
	default:
		g.threads, g.maxMethods, g.maxParts = 3, 2, 1
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
	// only, if non-empty, lists the methods thread 1 is restricted to.
	only []string
	// threads and ops are the client's bounds.
	threads, ops int
	// maxMethods and maxParts bound the methods (before signalMethod)
	// and the idioms in each method.
	maxMethods, maxParts int
}

// method is a generated method.
type method struct {
	name string
	// param is set when the method takes `v int`.
	param bool
	// result is "", "int" or "bool".
	result string
	body   []stmt
	// locals counts the locals declared, for fresh names.
	locals int
	// depth is the nesting of conditional idioms being generated.
	depth int
	// pushed is set once the method allocates a node.
	pushed bool
}

// fresh returns a new local name with the given prefix.
func (m *method) fresh(prefix string) string {
	m.locals++
	return fmt.Sprintf("%s%d", prefix, m.locals)
}

// use records the use of a feature.
func (g *gen) use(f Feature) { g.features |= f }

// allowed reports whether a feature may be used in this program.
func (g *gen) allowed(f Feature) bool {
	if g.cfg.Exclude&f != 0 {
		return false
	}
	if f == FlagWait && g.cfg.Exclude&HandSpec != 0 {
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
	m := &method{name: fmt.Sprintf("m%d", i+1), param: g.chance(2), result: g.pick("", "int", "int", "bool")}
	if m.result != "" {
		m.body = append(m.body, simple("res := 0"))
	}
	parts := 1 + g.r.IntN(g.maxParts)
	terminal := g.chance(3)
	if terminal {
		parts--
	}
	for range parts {
		m.body = append(m.body, g.fragment(m)...)
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
	m := &method{name: fmt.Sprintf("m%d", i+1), param: g.chance(2)}
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
		at = 1 // after `res := 0`
	}
	var allowed []idiom
	for _, id := range asymmetricIdioms() {
		if g.allowed(id.feature) {
			allowed = append(allowed, id)
		}
	}
	id := allowed[g.r.IntN(len(allowed))]
	g.use(id.feature)
	m.body = append(m.body[:at:at], append(id.gen(g, m), m.body[at:]...)...)
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
