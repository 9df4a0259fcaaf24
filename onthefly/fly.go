package onthefly

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/reduce"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lts"
)

// On-the-fly verification. Check decides trace refinement of the
// implementation by the specification — linearizability, Yang et al. Thm
// 3.3, Liu et al. Thm 1 — and lock-freedom without building either LTS.
//
// Refinement. The search runs breadth-first over the product of
// implementation states and normalised specification subsets (Liu et al.
// §3): a pair (s, X) holds an implementation state s reached by a trace w
// and the set X of specification states reachable by w, closed under τ.
// A τ-step of s keeps X; a call or ret a takes X to the τ-closure of its
// a-successors, and when that is empty the implementation has a trace the
// specification lacks: the search stops there, and since it is
// breadth-first the violating trace is a shortest one. Only the states are
// stored — the implementation's canonical vectors by their parts, each
// distinct part once (states.go), a pair as its subset's id and the next
// pair of its state, in fixed blocks (chunked.go) — and no transitions: a counterexample's path is rebuilt
// from the breadth-first levels (the engine's Rebuild; path.go). The specification is explored
// as far as the pairs need it (flySpec). The search is antichain.Search's,
// layered by steps (its runBySteps), with the hooks that search has for
// this one (semImpl: semimpl.go; engine.go runs it).
//
// Lock-freedom. Under a most-general client with bounded or unbounded
// operations, a cycle without a ret is a cycle of τ-steps (a thread that
// calls on a cycle must return on it to come back), and every state of
// such a cycle has an operation pending (only a thread inside an operation
// takes τ-steps); so lock-freedom fails iff a reachable τ-cycle exists
// (Yang et al. §5; progress.LockFree). When the refinement search has
// seen every reachable implementation state, a depth-first search over
// their τ-successors finds a τ-cycle; the lasso's stem is the product
// path to the cycle's first state. The search keeps the τ-steps it
// follows, a state id a step (taulists.go), while the memory limit leaves
// room for them; past that it gives them up, and the cycle search
// expands each state once more and finds again, from the state's vector
// and its pairs, the τ-steps they followed (flycycle.go): one more
// expansion per state, of its τ-successors alone, on every core.
//
// Symmetry. With a reducer, every state is replaced by the representative
// of its orbit under permutations of the threads, and the pair's subset is
// renamed with it under the same permutation, so that a pair of the
// reduced search stands for the pairs of its orbit. This is sound and
// complete for both checks because the successor relation, the labels
// (with their thread renamed) and the specification commute with thread
// permutations when the model is symmetric (frontend/reduce/symmetry.go decides that):
//   - a pair reached in the reduced search is a permutation of a reachable
//     pair, and a permuted pair has the empty subset iff the original has,
//     so a violation found is real; conversely the representative of every
//     reachable pair is reached, so none is missed;
//   - a τ-cycle of the reduced graph u0 → … → uk = u0 lifts to a τ-path of
//     the original from a state c to π(c), for some permutation π; applying
//     π again and again, the path continues to π²(c), …, and since the
//     group is finite, π^m = id for some m: a τ-cycle of the original.
//     Conversely a τ-cycle of the original maps to one of the reduced
//     graph.
// Partial-order reduction (frontend/reduce/por.go). A pair may follow the successors of
// one thread only — an ample set: invisible steps that are independent of
// everything the other threads may still do — when the cycle proviso
// allows it (each of those successors is a new pair or one stored after
// it); otherwise it follows all. The reduced product keeps a stuttering-
// equivalent path for every path of the full one, so the same visible
// traces and a τ-cycle iff there is one; the cycle search follows the
// edges the reduced search followed. frontend/reduce/por.go argues this and how it
// composes with symmetry. The reduced breadth-first search finds a
// shortest violation of the reduced graph, which may be longer than the
// shortest of the full one.
//
// Counterexamples are replayed on the unreduced semantics (replay.go):
// each reduced step is matched by a step of the renamed thread, and the
// replayed trace is checked against the specification again (and a lasso's
// loop to come back to its first concrete state) before it is returned; a
// counterexample that does not replay is a bug and is reported as one.

// Options configure Check.
type Options struct {
	// Options are the explorer's: heap mode, node bound, granularity.
	// MaxStates bounds the number of product pairs (0: no count, the
	// run's memory bounds them); Progress receives the pairs stored so
	// far; Workers is the number of goroutines that expand states (0:
	// GOMAXPROCS), on which the outcome does not depend (workers.go).
	semantics.Options
	// Reductions are the state-space reductions to apply.
	Reductions
	// FirstViolation stops the search at the first refinement violation,
	// leaving lock-freedom undecided (Result.LockFreeChecked false): the
	// quickest way to a counterexample. By default the search goes on past
	// a violation over the implementation alone (the pairs after it hold
	// the empty subset, which covers every other pair of its state), so
	// that lock-freedom is decided as well.
	FirstViolation bool
	// LockFreeOnly decides lock-freedom alone: the search covers the
	// implementation's states without the specification (every pair holds
	// the empty subset), and Refines and Counterexample mean nothing.
	LockFreeOnly bool
	// noDominance turns off the pruning of pairs dominated in their level
	// (SearchOptions.FollowDominated), for the tests that compare.
	noDominance bool
	// noSuccCache turns off the cache of recent successors (flycache.go),
	// for the test that holds the search to the same outcome without it.
	noSuccCache bool
	// batchStates, if positive, is the number of states expanded at once
	// (workers.go), for the tests that hold the search to the same
	// outcome with levels taken in many batches.
	batchStates int
	// checkPaths records the step that found each pair and checks the
	// parents that the engine rebuilds for paths against them
	// (antichain.Search.CheckParents), in tests.
	checkPaths bool
	// checkTau records the τ-steps that the search follows and checks
	// those that the cycle search finds again against them
	// (flycycle.go), in tests.
	checkTau bool
	// rebuildTau keeps no τ-steps, as when the memory limit leaves no
	// room for them: the cycle search finds them all again (flycycle.go),
	// for the tests that hold it to the same outcome.
	rebuildTau bool
	// tauEntries, if positive, gives the τ-lists up once they would hold
	// more entries, as the memory limit does, for the tests that hold the
	// cycle search to the same outcome when they are given up midway.
	tauEntries int
}

// Result is the outcome of Check.
type Result struct {
	// Refines reports trace refinement impl ⊑ spec; when false,
	// Counterexample is a shortest trace of the implementation (with real
	// thread ids and source steps) whose last action the specification
	// cannot do after the same history.
	Refines        bool
	Counterexample *lts.Trace // the violation when Refines is false; nil otherwise
	// LockFreeChecked is false when the search stopped at a refinement
	// violation before it had seen every implementation state
	// (Options.FirstViolation), or when the search for τ-cycles stopped at
	// a limit; then LockFree means nothing.
	LockFreeChecked bool
	LockFree        bool // no reachable τ-cycle with an operation pending (when LockFreeChecked)
	// RefinesDecided reports that the refinement search ended with its
	// verdict (Refines, and Counterexample when false): it holds even
	// when the search for τ-cycles after it stopped at a limit, which
	// Check then returns with this result.
	RefinesDecided bool
	// ModelError is a model error that the search met past the
	// violation, which ended it: lock-freedom is then not checked.
	ModelError error
	// Lasso shows a τ-cycle with an operation pending when LockFree is false.
	Lasso *lts.Trace
	// Symmetric reports that the symmetry reduction was applied; when it
	// was asked for and not applied, SymmetryNote says why.
	Symmetric    bool
	SymmetryNote string // why a symmetry reduction asked for was not applied; "" otherwise
	// PartialOrder reports that the partial-order reduction was applied
	// (Stats.Ample counts the pairs it reduced).
	PartialOrder bool
	// Stats count the work.
	Stats Stats
}

// Stats count what an on-the-fly check stored and computed.
type Stats struct {
	Pairs       int64 // product pairs stored
	States      int64 // implementation states stored (orbit representatives under symmetry)
	Expanded    int64 // implementation states expanded (a state once per level it is paired in)
	Transitions int64 // implementation successors computed
	SpecStates  int64 // specification states explored
	Subsets     int64 // distinct specification subsets
	// Represented is the number of unreduced implementation states that
	// the stored ones stand for: the sum of their orbits' sizes, n!/|stab|
	// (States itself without the symmetry reduction). It is exact when
	// RepresentedExact, and otherwise a lower bound (a stabiliser too
	// large to enumerate is bounded by the orders of its tie groups).
	Represented      int64
	RepresentedExact bool // Represented is exact; false: a lower bound
	// Ample counts the pairs that followed the successors of one thread
	// only (partial-order reduction), Full those that followed all of
	// them while the reduction was on (no thread qualified, or the cycle
	// proviso refused the ample set: ProvisoFull of them).
	Ample, Full, ProvisoFull int64
	// Recognised counts the successors found in the cache of recent
	// successors (flycache.go): not canonicalised again.
	Recognised int64
	// Dominated counts the pairs not followed because a pair of the same
	// state and level has a smaller subset (dominance.go).
	Dominated int64
}

// reducer maps states to representatives of their orbits under thread
// permutations (frontend/reduce/symmetry.go).
type reducer interface {
	// Canon returns the representative of st's orbit and the permutation
	// that takes st to it (rep = Apply(st, perm)).
	Canon(st []int32, c *semantics.Canonicaliser) (rep []int32, perm []uint8)
	// Apply returns the canonical state in which thread t's role is
	// played by thread perm[t].
	Apply(st []int32, perm []uint8, c *semantics.Canonicaliser) []int32
}

// newReducer returns the symmetry reduction of a program, or nil and the
// reason it does not apply.
func newReducer(p *ir.Program, b ir.Bounds) (reducer, string) {
	s, why := reduce.NewSymmetry(p, b)
	if s == nil {
		return nil, why
	}
	return s, ""
}

// Check checks the implementation of prog against its
// specification on the fly (see the comment above). When a limit stops
// the search (an error wrapping a *limits.LimitError) it also returns a
// Result whose Stats count what was stored and computed at the stop, and
// nothing else in it holds.
func Check(prog *check.Program, b ir.Bounds, o Options) (*Result, error) {
	if o.Lin {
		return nil, errors.New("the on-the-fly check does not use lin events")
	}
	if o.MaxStates <= 0 {
		// No count: the product is bounded by the run's memory
		// (--max-memory), which a search of pairs reaches long before
		// any count that fits the machine would.
		o.MaxStates = math.MaxInt32
	}
	impl, err := semantics.NewSystem(prog, prog.Impl, b, o.Options)
	if err != nil {
		return nil, err
	}
	o.Workers = impl.Options.Workers // 0 is GOMAXPROCS, as for the explorer
	f, err := newFlySearch(prog, impl, b, o)
	if err != nil {
		return nil, err
	}
	f.startExpanders(o.Workers)
	return f.run()
}

// newFlySearch returns the search of implementation impl of prog against
// its specification under b and o, with its reductions set up and no
// expanders yet.
func newFlySearch(prog *check.Program, impl *semantics.System, b ir.Bounds, o Options) (*flySearch, error) {
	spec, err := semantics.NewSystem(prog, prog.Spec, b, o.Options)
	if err != nil {
		return nil, fmt.Errorf("specification: %w", err)
	}
	f := &flySearch{x: impl, o: o, res: &Result{}, tauKept: !o.rebuildTau}
	if f.spec, err = newFlySpec(spec, impl.Program); err != nil {
		return nil, err
	}
	if err := f.spec.checkSameSignatures(impl.Program); err != nil {
		return nil, err
	}
	f.perms.intern(identity(b.Threads))
	if o.Symmetry {
		implSym, why := reduce.NewSymmetry(impl.Program, b)
		specSym, specWhy := newReducer(spec.Program, b)
		switch {
		case implSym == nil:
			f.res.SymmetryNote = why
		case specSym == nil:
			f.res.SymmetryNote = "specification: " + specWhy
		default:
			f.sym, f.spec.sym = implSym, specSym
			f.res.Symmetric = true
			if !o.noSuccCache {
				f.cache = newSuccCaches(o.Workers)
			}
		}
	}
	if o.PartialOrder {
		f.por = reduce.NewPOR(impl.Program, b, impl.Allowed, impl.Options.Explicit)
		f.res.PartialOrder = true
	}
	return f, nil
}

func identity(n int) []uint8 {
	p := make([]uint8, n)
	for i := range p {
		p[i] = uint8(i)
	}
	return p
}

// flySearch is one on-the-fly check.
type flySearch struct {
	x *semantics.System // the implementation's program and bounds
	o Options
	// sym is the symmetry reduction, nil without; the expanders have
	// copies of their own, expanders[0] this one.
	sym *reduce.Symmetry
	// por is the partial-order reduction, nil without (the expanders'
	// copies as sym's); ample is the thread chosen for the state whose
	// pairs are followed (-1: none), and followedAll records that some
	// pair of it followed all its successors (for recordTau).
	por         *reduce.POR
	ample       int
	followedAll bool
	// expanders expand the states of a batch in parallel (workers.go),
	// into the buffers of chunks, nchunks of them, in one of two sets
	// (the batch being followed and the next); since is what the search
	// has stored since the batch being followed was resolved.
	expanders []*expander
	chunks    [2][]*expansions
	nchunks   [2]int
	since     sinceBatch
	// batchStates is the number of states expanded at once (batchStates
	// by default; less in tests, so that levels take several batches),
	// bounds where the level's batches start (cutLevel).
	batchStates int
	bounds      []int
	// scratch holds the expansion of expand, outside the batches.
	scratch expansions
	// tau holds the τ-steps that the search followed while tauKept
	// (taulists.go); tauRecorded holds them too, with Options.checkTau
	// (recordTau).
	tau         tauLists
	tauKept     bool
	tauRecorded [][]int32
	// cache remembers where recent successors went (flycache.go), with
	// the symmetry reduction; nil without.
	cache succCaches
	spec  *flySpec
	res   *Result
	// violation is the first step the specification could not follow,
	// nil while there is none: the search's first, so a shortest one.
	violation *flyStep
	// The implementation states: states gives their ids and vectors.
	states *stateStore
	// The pairs (pairRecords).
	pairRecords
	// search is the engine's search, once it has run: its levels, from
	// which paths are rebuilt (path.go), and which pairs followed the
	// ample thread's successors alone (antichain.Search.Ampled).
	search *antichain.Search
	// initPerm takes the initial state to its representative.
	initPerm permID
	// perms are the permutations met, interned by every expander (0:
	// the identity). Their ids depend on the order in which the
	// expanders met them, and nothing the search stores or reports
	// depends on the ids.
	perms permTable
	// The expansion of the state whose pairs are followed: its
	// successors, their alternative permutations (flySucc.altStart) and
	// the vectors of their representatives not stored when it was
	// expanded (flySucc.vecStart), in its chunk's buffers.
	succs   []flySucc
	alts    []uint8
	succVec []int32
}

// finish completes the check once the refinement search has ended, with
// the first violation it met (nil: none) and its error: the counts, the
// counterexample replayed, the search for τ-cycles and its lasso.
func (f *flySearch) finish(violation *flyStep, err error) (*Result, error) {
	f.maybeAccount()
	f.res.Stats.Pairs = int64(f.subset.Len())
	f.res.Stats.States = int64(f.states.len())
	if err != nil {
		var le *limits.LimitError
		if errors.As(err, &le) {
			// What was stored at the stop, for the report of how far
			// the search came.
			f.res.Stats.SpecStates = int64(f.spec.set.Len())
			f.res.Stats.Subsets = int64(f.spec.count())
			return f.res, err
		}
		return nil, err
	}
	f.res.Stats.SpecStates = int64(f.spec.set.Len())
	f.res.Stats.Subsets = int64(f.spec.count())
	if violation != nil {
		if f.res.Counterexample, err = f.replayViolation(violation); err != nil {
			return f.res, err
		}
		f.res.RefinesDecided = true
		if f.o.FirstViolation || f.res.ModelError != nil {
			return f.res, nil
		}
	}
	f.res.Refines = violation == nil && !f.o.LockFreeOnly
	f.res.RefinesDecided = !f.o.LockFreeOnly
	cycle, err := f.findTauCycle()
	if err != nil {
		if errors.As(err, new(*limits.LimitError)) {
			// The refinement verdict stands; lock-freedom is undecided.
			return f.res, err
		}
		return nil, err
	}
	f.res.LockFreeChecked = true
	f.res.LockFree = cycle == nil
	if cycle != nil {
		if f.res.Lasso, err = f.replayLasso(cycle); err != nil {
			return nil, err
		}
	}
	return f.res, nil
}

// initial stores the implementation's initial state, as its orbit's
// representative, and returns its id and the subset of its pair: the
// specification's initial subset renamed with it (the empty subset when
// the check is of lock-freedom alone). The expanders must be started:
// the first canonicalises it.
func (f *flySearch) initial() (sid, sub int32, err error) {
	f.states = newStateStore(&f.x.Program.Layout)
	init, err := f.x.InitialState()
	if err != nil {
		return -1, -1, err
	}
	e := f.expanders[0]
	var sigma []uint8
	if f.sym != nil {
		init, sigma = f.sym.Canon(init, e.st.Expander.Canon)
		f.initPerm = e.internPerm(sigma)
	}
	sub = f.spec.empty
	if !f.o.LockFreeOnly {
		if sub, err = f.spec.initial(); err != nil {
			return -1, -1, err
		}
		sub, _ = f.spec.permute(sub, f.initPerm, &f.perms, false)
	}
	f.res.Stats.RepresentedExact = true
	_, stab, exact := e.stabilizer(nil)
	sid, _ = f.insertState(init)
	f.countOrbit(stab, exact)
	return sid, sub, nil
}

// flyStep is a step of the reduced search: from pair (or state) from, by
// thread (in from's numbering), to a successor that perm takes to the
// representative to.
type flyStep struct {
	from   int32
	thread uint8
	perm   permID
	to     int32 // an implementation state id
}

// stateRuns appends to dst where the pairs of each state start in a
// level's order, and its length.
func stateRuns(dst []int32, order []uint64) []int32 {
	for i := range order {
		if i == 0 || order[i]>>32 != order[i-1]>>32 {
			dst = append(dst, int32(i))
		}
	}
	return append(dst, int32(len(order)))
}

// flySucc is a successor of the state being expanded: the id of its
// representative (-1 until it is stored: a successor that the partial-order
// reduction does not follow is not stored), the thread that took the
// step, the permutation to the representative and the label key (0 for
// τ).
type flySucc struct {
	to    int32
	perm  permID
	label semantics.LabelKey
	// succVec[vecStart:vecEnd] is the representative's vector, kept only
	// while it is not stored (to < 0), and hash its hash (stateStore).
	vecStart, vecEnd int32
	hash             uint64
	// raw[rawStart:rawEnd] of its chunk is the successor's encoding as
	// the stepper computed it, rawHash that encoding's hash: the key of
	// the cache of recent successors (flycache.go).
	rawStart, rawEnd int32
	rawHash          uint32
	// stab and exact are the representative's stabiliser order, for
	// countOrbit when the state is stored.
	stab  int64
	exact bool
	// thread took the step (here, where it packs with exact).
	thread uint8
	// alts[altStart:altEnd] are the other permutations that take the
	// successor to the same representative, in the stabiliser's parts
	// (see stabilizer); empty when there are none.
	altStart, altEnd int32
	// cached: to and perm come from the cache of recent successors
	// (flycache.go), and the rest is not computed.
	cached bool
}

// remember puts the successors of a batch followed, in chunks, now
// that their pairs have stored those they follow, into part of the cache
// of recent successors: those whose representative is stored and that
// have no alternative permutations (flycache.go). Each part is filled by
// a goroutine of its own.
func (f *flySearch) remember(part int, chunks []*expansions) {
	c := f.cache[part]
	for _, x := range chunks {
		for i := range x.succs {
			sc := &x.succs[i]
			if sc.cached || sc.to < 0 || sc.altStart != sc.altEnd || f.cache.part(sc.rawHash) != part {
				continue
			}
			c.add(x.raw[sc.rawStart:sc.rawEnd], sc.rawHash, sc.to, sc.perm)
		}
	}
}

// expand expands state s on its own, outside the batches (rebuilt paths):
// its successors and their ids (as far as they are stored) into f.succs,
// and with the partial-order reduction its ample thread into f.ample; on
// a model error it returns the failing thread and the failure.
func (f *flySearch) expand(s int32) (int, *semantics.Failure) {
	x, e := &f.scratch, f.expanders[0]
	e.start(x, 1)
	x.loaded = f.stored(x.loaded[:0], s)
	ex := e.expand(s, x.loaded, x)
	e.resolveChunk(x, nil, 0)
	f.use(x, ex)
	return ex.failThread, ex.fail
}

// use makes the expansion ex of x the one whose pairs are followed, and
// counts it.
func (f *flySearch) use(x *expansions, ex *expansion) {
	f.succs, f.alts, f.succVec = x.succs[ex.succStart:ex.succEnd], x.alts, x.vecs
	f.ample, f.followedAll = ex.ample, f.por == nil
	f.res.Stats.Expanded++
	f.res.Stats.Transitions += int64(len(f.succs))
}

// findNew looks up again the successors of the state whose pairs are
// followed that were not stored when it was expanded: the pairs followed
// since may have stored them (among the states stored since the batch's
// expansion, not in the whole store).
func (f *flySearch) findNew() {
	for i := range f.succs {
		if sc := &f.succs[i]; sc.to < 0 {
			sc.to = f.since.find(f.states, f.succVec[sc.vecStart:sc.vecEnd], sc.hash)
		}
	}
}

// maxStabilizer bounds the permutations of stabilizer (5!).
const maxStabilizer = 120

// countOrbit adds a new state's orbit, of n!/stab states, to the states
// represented.
func (f *flySearch) countOrbit(stab int64, exact bool) {
	if f.sym == nil {
		f.res.Stats.Represented++
		return
	}
	f.res.Stats.Represented += reduce.Factorial(f.x.Bounds.Threads) / stab
	f.res.Stats.RepresentedExact = f.res.Stats.RepresentedExact && exact
}

// next returns the subset of the pair that successor sc of a pair with
// subset sub leads to, renamed to sc's representative, and the
// permutation (renamed; alts holds sc's alternatives); violates when the
// specification cannot follow, and the subset is then the empty one (the
// implementation goes on alone past a violation). With peek it only reads
// what the specification has computed already, and ok is false where that
// is not enough.
func (f *flySearch) next(sub int32, sc *flySucc, alts []uint8, peek bool) (to int32, perm permID, violates, ok bool, err error) {
	to, ok, err = f.after(sub, sc, peek)
	if !ok || err != nil {
		return noSubset, 0, false, ok, err
	}
	if to == noSubset {
		to, violates = f.spec.empty, true
	}
	to, perm, ok = f.renamed(to, sc, alts, peek)
	return to, perm, violates, ok, nil
}

// after returns the subset that a pair's subset sub goes to by successor
// sc, before it is renamed (renamed): sub itself after τ, after an
// invisible label and past a violation (the empty subset), noSubset when
// the specification cannot follow. With peek, ok is false when the
// specification has not computed it yet.
func (f *flySearch) after(sub int32, sc *flySucc, peek bool) (to int32, ok bool, err error) {
	if f.keeps(sub, sc) {
		return sub, true, nil
	}
	if peek {
		to, ok = f.spec.knownAfter(sub, sc.label)
		return to, ok, nil
	}
	to, err = f.spec.afterLabel(sub, sc.label)
	return to, true, err
}

// keeps reports whether successor sc keeps a pair's subset sub (after).
func (f *flySearch) keeps(sub int32, sc *flySucc) bool {
	return sc.label == 0 || !isVisible(sc.label) || sub == f.spec.empty
}

// renamed returns the subset of successor sc of a pair, sub after sc's
// label, renamed by sc's permutation to its representative, and the
// permutation: of the alternatives that give the same representative
// (stabilizer; alts[sc.altStart:sc.altEnd]), the one that gives the least
// subset id. With peek, ok is false when the specification has not
// renamed sub by one of them yet.
func (f *flySearch) renamed(sub int32, sc *flySucc, alts []uint8, peek bool) (int32, permID, bool) {
	if sc.perm == 0 && sc.altStart == sc.altEnd || sub == f.spec.empty {
		return sub, sc.perm, true // the common case on few threads (flySpec.renamed)
	}
	return f.spec.renamed(sub, sc.perm, alts[sc.altStart:sc.altEnd], &f.perms, peek)
}

// stored appends to dst the vector of implementation state s.
func (f *flySearch) stored(dst []int32, s int32) []int32 {
	return f.states.vector(dst, s)
}

// reached says what the search has stored, for a limit's message.
func (f *flySearch) reached() string {
	return fmt.Sprintf("%d product pairs and %d implementation states", f.subset.Len(), f.states.len())
}

// insertState returns the id of an implementation state, adding it if new.
func (f *flySearch) insertState(st []int32) (int32, bool) {
	return f.insertHashed(st, f.states.hash(st))
}

// insertHashed is insertState for a state whose hash is h.
func (f *flySearch) insertHashed(st []int32, h uint64) (int32, bool) {
	id, isNew := f.states.insert(st, h)
	if isNew {
		f.since.stored(id, h)
		f.headPair.add(-1)
	}
	return id, isNew
}

// insertSucc stores the state of successor sc, counting its orbit.
func (f *flySearch) insertSucc(sc *flySucc) {
	id, isNew := f.insertHashed(f.succVec[sc.vecStart:sc.vecEnd], sc.hash)
	if isNew {
		f.countOrbit(sc.stab, sc.exact)
	}
	sc.to = id
}

// lookupPair returns the id of pair (state, subset), -1 if it is not
// stored, and whether a pair (state, X) with X ⊆ subset is stored, the
// pair itself included: then every trace that the specification cannot
// follow from subset it cannot follow from X either, so (state, subset)
// needs no search of its own (the antichain of Liu et al. §4 and of De
// Wulf et al., CAV 2006). The pair found first is at most as deep, so the
// search still finds a shortest violation.
//
// It looks only at the pairs from since on: those stored after the
// others, which are first in the state's chain.
func (f *flySearch) lookupPair(state, subset, since int32) (same int32, covered bool) {
	// The pair itself first: comparing ids is cheaper than an inclusion.
	head := f.headPair.get(int(state))
	for q := head; q >= since; q = f.nextPair.get(int(q)) {
		if f.subset.get(int(q)) == subset {
			return q, true
		}
	}
	for q := head; q >= since; q = f.nextPair.get(int(q)) {
		if f.spec.includes(subset, f.subset.get(int(q))) {
			return -1, true
		}
	}
	return -1, false
}

// pairRecords are the pairs of the search, numbered in breadth-first
// order: each keeps only its subset and the next pair of its state's
// chain (-1 at its end), headPair the last pair that holds each state
// (chainHeads, heads.go): neither its state nor how it was found, which the engine's rebuilt paths
// find again for a counterexample (path.go); the subsets in as many bits as the largest
// needs (packedInt32s), the next pairs only where a state has a pair
// before it, most having one pair (sparseInt32s). A pair is found by its
// state's chain (lookupPair): a state has a few pairs, and the chain is
// walked anyway for the antichain (covered), so a hash index of the
// pairs, some 24 bytes per pair, would buy little. They are the engine's
// store of pairs layered by steps (antichain.PairStore).
type pairRecords struct {
	headPair chainHeads
	subset   packedInt32s
	nextPair sparseInt32s
	// since, when set (the engine's route), is noted each state paired
	// (sinceBatch.paired), for the lookups of the batch being followed.
	since *sinceBatch
}

var _ antichain.PairStore = (*pairRecords)(nil)

// Len implements antichain.PairStore.
func (r *pairRecords) Len() int { return r.subset.Len() }

// SubsetOf implements antichain.PairStore.
func (r *pairRecords) SubsetOf(p int32) int32 { return r.subset.get(int(p)) }

// Last implements antichain.PairStore.
func (r *pairRecords) Last(s int32) int32 {
	if int(s) >= r.headPair.Len() {
		return -1
	}
	return r.headPair.get(int(s))
}

// Before implements antichain.PairStore.
func (r *pairRecords) Before(p int32) int32 { return r.nextPair.get(int(p)) }

// Put implements antichain.PairStore: it stores pair (s, sub), last of
// s's chain.
func (r *pairRecords) Put(s, sub int32) int32 {
	if r.since != nil {
		r.since.paired(s)
	}
	for r.headPair.Len() <= int(s) {
		r.headPair.add(-1)
	}
	id := int32(r.subset.add(sub))
	r.nextPair.add(r.headPair.get(int(s)))
	r.headPair.set(int(s), id)
	return id
}

// permID names a permutation interned in a permTable: 0 is the identity,
// the first interned. Its 32 bits number every permutation a run can
// meet, all 12! of 12 threads' and far more than memory holds of more
// threads' (each permutation interned keeps its bytes and a map entry).
type permID uint32

// permBlock is the number of permutations in a block of a permTable.
const permBlock = 1 << 8

// permTable interns permutations as permIDs for several goroutines at
// once: intern takes a lock, and the permutations are kept in fixed
// blocks, so that a goroutine that has an id (from intern, or from one
// that did before it synchronised with it) reads its permutation (get)
// without the lock while others intern more. The directory of the blocks
// is replaced by a longer copy when it is full, published atomically: a
// reader goes through whichever directory it loads, which holds the block
// of every id handed out before.
type permTable struct {
	mu  sync.Mutex
	ids map[string]permID
	dir atomic.Pointer[[]*[permBlock][]uint8]
	n   uint64
}

// intern returns the id of a permutation, interning it if new.
func (t *permTable) intern(perm []uint8) permID {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[string(perm)]; ok {
		return id
	}
	if t.n > math.MaxUint32 {
		// Unreachable before memory runs out (see permID); never a
		// wrap, which would rename subsets by another permutation.
		panic("onthefly: more than 2^32 permutations interned")
	}
	if t.ids == nil {
		t.ids = map[string]permID{}
	}
	id := permID(t.n)
	var dir []*[permBlock][]uint8
	if d := t.dir.Load(); d != nil {
		dir = *d
	}
	if b := int(id / permBlock); b == len(dir) {
		// In place while there is room: the readers of the old
		// directory never read past its length.
		grown := append(dir, new([permBlock][]uint8))
		t.dir.Store(&grown)
		dir = grown
	}
	dir[id/permBlock][id%permBlock] = append([]uint8(nil), perm...)
	t.ids[string(perm)] = id
	t.n++
	return id
}

// get returns the permutation of id.
func (t *permTable) get(id permID) []uint8 { return (*t.dir.Load())[id/permBlock][id%permBlock] }

// modelError reports a model error of thread t in the state of pair p,
// with the replayed trace that leads to it.
func (f *flySearch) modelError(p int32, t int, fail *semantics.Failure) error {
	r, err := f.newReplay()
	if err != nil {
		return err
	}
	steps, err := f.path(p)
	if err != nil {
		return err
	}
	if err := r.follow(steps); err != nil {
		return err
	}
	tr := &lts.Trace{Title: "model error: " + fail.Msg, LoopStart: -1, Steps: r.steps}
	e := &semantics.ModelError{Msg: fail.Msg, Trace: tr, Race: fail.Race != nil}
	if fail.Race != nil {
		// The threads as the replayed run numbers them.
		msg := f.x.RaceMessage(fail.Race, r.rho)
		fail = &semantics.Failure{Msg: msg, Step: fail.Step, Race: fail.Race}
		tr.Title, e.Msg = "data race: "+msg, msg
	}
	last := lts.TraceStep{From: -1, Label: lts.TauName, To: -1, Thread: int32(r.rho[t]) + 1, Note: fail.Msg}
	if fail.Step >= 0 {
		src := f.x.Steps[fail.Step]
		last.Source, e.Pos = &src, src
	}
	tr.Steps = append(tr.Steps, last)
	tr.Final = fmt.Sprintf("thread %d: %s", r.rho[t]+1, fail.Msg)
	return e
}

// Reductions select the state-space reductions of an on-the-fly check.
type Reductions struct {
	// Symmetry identifies states that differ by a permutation of the
	// threads, when the model can be shown symmetric (Result.SymmetryNote
	// says why not otherwise).
	Symmetry bool
	// PartialOrder follows, where it can, the steps of one thread only:
	// invisible steps independent of everything the other threads may
	// still do (ample sets with the cycle proviso; see frontend/reduce).
	PartialOrder bool
}

// ReductionModes are the values of --reduce, each with its reductions.
var ReductionModes = []struct {
	Name string
	Reductions
}{
	{"none", Reductions{}},
	{"symmetry", Reductions{Symmetry: true}},
	{"por", Reductions{PartialOrder: true}},
	{"all", Reductions{Symmetry: true, PartialOrder: true}},
}
