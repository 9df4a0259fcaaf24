package verify

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"

	"github.com/dustin/go-humanize"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
)

// Method auto chooses between the bisimulation route and the on-the-fly
// route by what it can learn cheaply from smaller clients, then follows
// the one it chose; the choice never changes a verdict, only the time
// and memory the verdicts cost (both routes decide the same properties
// of the same LTS).
//
// Measuring. The requested bounds (T threads × O operations) are reached
// by the ladder's last step, adding an operation or a thread. Method auto
// climbs the ladder below them (ladder.go), together with the clients
// the extrapolation needs: A = (T-1)×O, B = T×(O-1), C = (T-1)×(O-1),
// D = T×(O-2) after an operation step or (T-2)×O after a thread step,
// and with T ≥ 3 and O ≥ 2 E = (T-2)×O and F = (T-2)×(O-1).
// Each is a complete on-the-fly search with the route's reductions, and
// records the pairs, stored states and successors it computed, the
// implementation states they stand for (the symmetry reduction's factor)
// and the pairs that followed one thread (partial-order reduction's
// yield). Their implementation LTSs are not built: without ample sets the
// represented states are the LTS's states, and their successors (per
// expanded state) its transitions; a rung where more than a tenth of the
// pairs took ample sets, which stand for fewer states, is explored to
// count them, unless the on-the-fly route wins by autoAmpleMargin on the
// counts the searches represent (which are lower: the bisimulation
// route's true cost is higher still, as its estimate is wherever the
// reduction grows with the bounds, as it does on the bundled models).
// Whether impl and spec are bisimilar decides what the
// bisimulation route costs per transition (a bisimilar pair is
// classified in one pass; otherwise the quotients are refined and the
// refinement and progress checks follow): where the choice depends on
// it, the small rungs C and D are explored with their specification,
// minimised and compared; where it does not (the faster route is faster
// either way), they are not.
//
// Extrapolating. The parallelogram X(A)·X(B)/X(C) takes the growth per
// thread to be the same with O operations as with O-1; it is not: a
// thread added to clients of more operations multiplies the states by
// more (0.12–0.6× of the count on the bundled models, 0.16× for the MS
// queue's transitions at 3×2 with values 1..2). How much more, the
// parallelogram's own error one thread lower says, and it is nearly the
// same one thread higher:
//
//	ρ = X(T-1,O)·X(T-2,O-1) / (X(T-2,O)·X(T-1,O-1)),
//	X(T,O) ≈ X(A)·X(B)/X(C) · ρ
//
// (the third difference of log X, twice in the threads and once in the
// operations, taken as zero). Where T ≥ 3 and O ≥ 2 this corrected
// parallelogram is the estimate, from the clients E = (T-2)×O and F =
// (T-2)×(O-1) beside A, B and C, of one thread when T = 3 (they are
// cheap, and only their ratios count: the symmetry reduction's T!
// cancels in ρ as in the parallelogram). On the bundled models at 3×2,
// 3×3 and 4×2 it is 0.62–1.05× of the LTS's transitions, the search's
// successors, pairs and states (benchmarks/RESULTS.md, "The cost model's
// calibration"). Elsewhere each count is the geometric mean of two
// estimates that err on opposite sides: the parallelogram, and the last
// step's own growth repeated, X(B)²/X(T×(O-2)) or X(A)²/X((T-2)×O) (the
// growth per operation shrinks as the operations grow). With one of them
// missing (a single thread or operation), the other is the estimate;
// with neither, the bounds are too small to matter and the bisimulation
// route, which also decides bisimilarity, is taken.
//
// Choosing, in this order: a violation found on a smaller client that
// replays under the requested bounds is already the on-the-fly route's
// result (only lock-freedom is left, a search of the implementation
// alone); a model error met on a smaller client goes to the bisimulation
// route, which reports it with any violation before it; a route whose
// estimated memory exceeds the run's memory limit (or whose LTS exceeds
// --max-states) gives way to the other; otherwise the route with the
// smaller estimated time, the bisimulation route on a tie. The costs per
// unit of work are the constants below, measured on the bundled models
// (benchmarks/RESULTS.md, "`verify --method auto`").

// The cost model of method auto: seconds and bytes per unit of work.
const (
	// autoExploreSeconds is the explorer's CPU time per implementation
	// transition, spread over autoParallel cores at most.
	autoExploreSeconds = 0.30e-6
	autoParallel       = 1.7
	// autoBisimilarSeconds and autoNotBisimilarSeconds are the
	// bisimulation route's time per transition after the exploration: a
	// one-pass classification, or a refinement with a distinguishing
	// formula, the refinement and the progress checks.
	autoBisimilarSeconds    = 0.07e-6
	autoNotBisimilarSeconds = 0.85e-6
	// autoFlySeconds and autoFlySymSeconds are the on-the-fly search's
	// time per successor computed, without and with the symmetry
	// reduction (which canonicalises each successor); autoFlyPairSeconds
	// is its time per pair and per pair of the same state, which each new
	// pair is checked against (the chain of its state's pairs and the
	// antichain), so that a search of P pairs over S states spends
	// autoFlyPairSeconds·P²/S on them.
	autoFlySeconds     = 0.6e-6
	autoFlySymSeconds  = 1.1e-6
	autoFlyPairSeconds = 0.3e-6
	// autoBisimBytes is the bisimulation route's peak memory per
	// implementation transition.
	autoBisimBytes = 40
	// autoFlyPairBytes and autoFlyStateBytes are the on-the-fly search's
	// live memory per stored pair and per stored state, and
	// autoFlyCacheBytes its cache of recent successors under the symmetry
	// reduction at its largest (onthefly/flycache.go: 2^18 slots of 24
	// bytes and 64 of ring). Live memory, not the peak the collector lets
	// the heap reach: under a memory limit the collector keeps the heap
	// near the live memory. TestAutoFlyBytes holds the first two to the
	// search's live heap; as the search's storage shrinks, lower them
	// here. A state's bytes count about 7 of τ-lists (an edge in as many
	// bits as the states' count needs), which the search keeps for the
	// cycle search while the memory limit leaves room for them
	// (onthefly/taulists.go).
	autoFlyPairBytes  = 5
	autoFlyStateBytes = 28
	autoFlyCacheBytes = 22 << 20
	// autoBaseBytes is what a run holds before its search.
	autoBaseBytes = 50 << 20
	// autoAmpleShare: a rung whose share of pairs that followed one
	// thread is above it is explored to count its LTS's states and
	// transitions (below it, the states the search represents are
	// within a few percent of them on the bundled models).
	autoAmpleShare = 0.10
	// autoAmpleMargin: the rungs above autoAmpleShare are not explored
	// when the bisimulation route's time estimated on the counts the
	// searches represent is this many times the on-the-fly route's (the
	// estimates err by up to 1.7× either way on the bundled models).
	autoAmpleMargin = 2.0
	// autoBisimilarBelowMargin: where impl and spec are bisimilar on the
	// small clients, the on-the-fly route is taken if it is estimated
	// within this factor of the bisimulation route's time when bisimilar
	// and the bisimulation route would cost more times the on-the-fly
	// route's if they are not (decideBisimilarBelow); 1.3 is issue 38's
	// tolerance for the default route.
	autoBisimilarBelowMargin = 1.3
	// autoSmallStates: a --max-states of at most this many states keeps
	// the run small, and method auto takes the bisimulation route without
	// measuring.
	autoSmallStates = 1_000_000
)

// autoProbeStates: an implementation LTS of at most this many states is
// explored at once, and verified by the bisimulation route in well under
// a second; a larger one has cost at most this much before method auto
// measures. A variable so that tests can measure small models.
var autoProbeStates = 50_000

// AutoReport is method auto's choice of route and why, with what it
// measured and estimated.
type AutoReport struct {
	// Route is the route taken: "bisim" or "fly".
	Route string `json:"route"`
	// Reason says in one line why.
	Reason string `json:"reason"`
	// Rungs are the smaller clients measured, smallest first.
	Rungs []AutoRung `json:"rungs,omitempty"`
	// Estimate extrapolates the rungs to the requested bounds; nil when
	// the choice did not need it.
	Estimate *AutoEstimate `json:"estimate,omitempty"`
}

// AutoRung is what method auto measured of one smaller client.
type AutoRung struct {
	Threads int `json:"threads"` // the client's threads
	Ops     int `json:"ops"`     // -1 means forever
	// States is the implementation LTS's states: counted by exploring it
	// when Explored, otherwise those the on-the-fly search's stored
	// states stand for.
	States int64 `json:"states"`
	// Transitions is the implementation LTS's transitions: counted by
	// exploring it when Explored, otherwise the successors of the states
	// that the search's stored ones stand for.
	Transitions int64 `json:"transitions"`
	// Explored: States and Transitions were counted on the LTS built.
	Explored   bool  `json:"explored"`
	Pairs      int64 `json:"pairs"`      // the product pairs the on-the-fly search stored
	FlyStates  int64 `json:"fly_states"` // the implementation states the search stored
	Successors int64 `json:"successors"` // the implementation successors the search computed
}

// AutoEstimate is the requested bounds' sizes extrapolated from the
// rungs, and what each route would cost.
type AutoEstimate struct {
	// States is the implementation LTS's states at the requested bounds,
	// extrapolated from the rungs (or measured, for an implementation
	// small enough to explore), as are the counts after it.
	States      int64 `json:"states"`
	Transitions int64 `json:"transitions"` // the implementation LTS's transitions
	Pairs       int64 `json:"pairs"`       // the product pairs the on-the-fly search would store
	FlyStates   int64 `json:"fly_states"`  // the implementation states it would store
	Successors  int64 `json:"successors"`  // the successors it would compute
	// Symmetry is the symmetry reduction's factor (states represented per
	// state stored) on the largest rung; 1 without it.
	Symmetry float64 `json:"symmetry"`
	// Ample is the share of pairs that followed one thread (partial-order
	// reduction) on the largest rung, from 0 to 1.
	Ample float64 `json:"ample"`
	// Bisimilar says whether impl and spec were bisimilar on the small
	// rungs; Unknown when the choice did not depend on it and they were
	// not compared (the estimates are then those least favourable to the
	// route taken: not bisimilar for the bisimulation route, bisimilar
	// for the on-the-fly route).
	Bisimilar    Verdict `json:"bisimilar"`
	BisimSeconds float64 `json:"bisim_seconds"` // the bisimulation route's estimated seconds, idle machine
	FlySeconds   float64 `json:"fly_seconds"`   // the on-the-fly route's estimated seconds, idle machine
	BisimBytes   int64   `json:"bisim_bytes"`   // the bisimulation route's estimated peak memory
	FlyBytes     int64   `json:"fly_bytes"`     // the on-the-fly route's estimated peak memory
}

// autoMeasure is what method auto knows when it chooses.
type autoMeasure struct {
	b     frontend.Bounds
	rungs []AutoRung
	// small is the number of states of b's implementation LTS when it has
	// at most autoProbeStates (0: more).
	small int64
	// violation, modelError and limit name the client (a smaller one, or
	// b) whose search found a violation that replays under b, met a model
	// error, or stopped at the run's state limit ("" for none).
	violation, modelError, limit string
	// symmetry and ample are the largest rung's symmetry factor and share
	// of ample pairs; bisimilar is the small rungs' bisimilarity, neither
	// Yes nor No until they are compared.
	symmetry, ample float64
	symmetric       bool
	bisimilar       Verdict
	// unexplored are the rungs (indices into rungs, with their bounds)
	// whose counts are the states the search represents although more
	// than autoAmpleShare of their pairs took ample sets.
	unexplored       []int
	unexploredBounds []frontend.Bounds
}

// autoBudget is what the run may use: its memory limit in bytes (0:
// none), the explored LTS's state limit, and the cores.
type autoBudget struct {
	memory    int64
	maxStates int64
	cores     int
}

// decideAuto chooses the route from the measurements (see above). With
// m.bisimilar Unknown, the bisimulation route's time is estimated as for
// a pair that is not bisimilar where the route taken is that one, and as
// for a bisimilar pair where it is the on-the-fly route, so that the
// reason holds either way; bisimilarityMatters says whether the two
// differ.
func decideAuto(m autoMeasure, budget autoBudget) *AutoReport {
	switch m.bisimilar {
	case No:
		return decideRoute(m, budget, true)
	case Yes:
		return decideBisimilarBelow(m, budget, true)
	}
	m.bisimilar = Yes
	r := decideRoute(m, budget, false)
	if r.Route == string(Bisim) {
		m.bisimilar = No
		if r = decideRoute(m, budget, false); r.Route == string(Fly) {
			// Faster by bisimulation only if bisimilar: the rule of
			// bisimilar small clients.
			m.bisimilar = Yes
			r = decideBisimilarBelow(m, budget, false)
		}
	}
	if r.Estimate != nil {
		r.Estimate.Bisimilar = Unknown
	}
	return r
}

// decideBisimilarBelow is decideAuto where impl and spec are bisimilar on
// the small clients. The requested bounds may not be (the MS queue with
// values 1..2 is bisimilar at 2×2 and 3×1, not at 3×2), and then the
// bisimulation route costs several times more per transition. Where
// that would change the route, the route taken is the one whose time is
// the smaller multiple of the other's at worst — the on-the-fly route's
// time over the bisimulation route's if bisimilar, against the
// bisimulation route's if not over the on-the-fly route's — as long as
// the on-the-fly route's is within autoBisimilarBelowMargin: beyond it the
// small clients' bisimilarity is taken at its word.
func decideBisimilarBelow(m autoMeasure, budget autoBudget, compared bool) *AutoReport {
	yes := decideRoute(m, budget, compared)
	m.bisimilar = No
	no := decideRoute(m, budget, compared)
	if yes.Route == no.Route || yes.Estimate == nil || no.Estimate == nil {
		return yes
	}
	y, n := yes.Estimate, no.Estimate
	flyAtWorst, bisimAtWorst := y.FlySeconds/y.BisimSeconds, n.BisimSeconds/n.FlySeconds
	r := yes // with the estimates if bisimilar
	if flyAtWorst <= autoBisimilarBelowMargin && flyAtWorst < bisimAtWorst {
		r.Route = string(Fly)
	}
	as := "as on the small clients"
	if !compared {
		as = "(not compared)"
	}
	r.Reason = fmt.Sprintf("estimated %s by bisimulation if bisimilar %s, %s if not (%s transitions), against %s on the fly (%s successors; %s): at worst %.1f× the other route on the fly, %.1f× by bisimulation",
		seconds(y.BisimSeconds), as, seconds(n.BisimSeconds), count(y.Transitions), seconds(y.FlySeconds), count(y.Successors), factorsLine(y), flyAtWorst, bisimAtWorst)
	return r
}

// decideRoute is decideAuto with m.bisimilar Yes or No: compared on the
// small clients, or taken so (compared false).
func decideRoute(m autoMeasure, budget autoBudget, compared bool) *AutoReport {
	r := &AutoReport{Route: string(Bisim), Rungs: m.rungs}
	switch {
	case m.small > 0:
		r.Reason = fmt.Sprintf("the implementation's LTS has %s states, few enough to explore at once: the bisimulation route, which also decides bisimilarity", count(m.small))
		return r
	case m.violation != "":
		r.Route = string(Fly)
		r.Reason = fmt.Sprintf("the search of the smaller client %s found a linearizability violation that replays under the requested bounds", m.violation)
		return r
	case m.modelError != "":
		r.Reason = fmt.Sprintf("a model error is reachable (with the client %s): the bisimulation route explores the whole implementation and reports it with any violation before it", m.modelError)
		return r
	case m.limit != "":
		r.Reason = fmt.Sprintf("the search of the client %s reached the state limit", m.limit)
		return r
	}
	est, ok := extrapolate(m.b, m.rungs)
	if !ok {
		r.Reason = "the bounds are too small to measure a growth (no smaller clients of two threads or more to extrapolate from): the bisimulation route, which also decides bisimilarity"
		return r
	}
	est.Symmetry, est.Ample, est.Bisimilar = m.symmetry, m.ample, m.bisimilar
	cores := min(float64(max(budget.cores, 1)), autoParallel)
	perTransition := autoExploreSeconds / cores
	if m.bisimilar == Yes {
		perTransition += autoBisimilarSeconds
	} else {
		perTransition += autoNotBisimilarSeconds
	}
	perSuccessor := autoFlySeconds
	if m.symmetric {
		perSuccessor = autoFlySymSeconds
	}
	est.BisimSeconds = float64(est.Transitions) * perTransition
	est.FlySeconds = float64(est.Successors)*perSuccessor +
		autoFlyPairSeconds*float64(est.Pairs)*float64(est.Pairs)/float64(max(est.FlyStates, 1))
	est.BisimBytes = autoBaseBytes + est.Transitions*autoBisimBytes
	est.FlyBytes = autoBaseBytes + est.Pairs*autoFlyPairBytes + est.FlyStates*autoFlyStateBytes
	if m.symmetric {
		est.FlyBytes += autoFlyCacheBytes
	}
	r.Estimate = est

	bisimFits := budget.memory <= 0 || est.BisimBytes <= budget.memory
	flyFits := budget.memory <= 0 || est.FlyBytes <= budget.memory
	bisimStates := budget.maxStates <= 0 || est.States <= budget.maxStates
	sizes := fmt.Sprintf("%s transitions by bisimulation (%s), %s successors on the fly (%s)",
		count(est.Transitions), byteSize(est.BisimBytes), count(est.Successors), byteSize(est.FlyBytes))
	factors := factorsLine(est)
	switch {
	case !bisimStates && flyFits:
		r.Route = string(Fly)
		r.Reason = fmt.Sprintf("the implementation's LTS would have about %s states, more than the state limit %s; on the fly about %s pairs",
			count(est.States), count(budget.maxStates), count(est.Pairs))
	case !bisimFits && flyFits:
		r.Route = string(Fly)
		r.Reason = fmt.Sprintf("the bisimulation route would need about %s, more than the memory limit %s; estimated %s", byteSize(est.BisimBytes), byteSize(budget.memory), sizes)
	case bisimFits && !flyFits:
		r.Reason = fmt.Sprintf("the on-the-fly route would need about %s, more than the memory limit %s; estimated %s", byteSize(est.FlyBytes), byteSize(budget.memory), sizes)
	case !bisimFits || !bisimStates:
		// Neither fits: the one that needs less gets furthest.
		if est.FlyBytes < est.BisimBytes {
			r.Route = string(Fly)
		}
		r.Reason = fmt.Sprintf("neither route fits the limits, this one needs less; estimated %s", sizes)
	default:
		if est.FlySeconds < est.BisimSeconds {
			r.Route = string(Fly)
		}
		r.Reason = fmt.Sprintf("estimated %s by bisimulation (%s transitions%s) against %s on the fly (%s successors; %s)",
			seconds(est.BisimSeconds), count(est.Transitions), bisimilarWord(m.bisimilar, compared), seconds(est.FlySeconds), count(est.Successors), factors)
	}
	return r
}

// factorsLine names the reductions' factors for the reason line.
func factorsLine(est *AutoEstimate) string {
	return fmt.Sprintf("symmetry %.1f×, %.0f%% of pairs on one thread, %.1f pairs a state",
		est.Symmetry, 100*est.Ample, float64(est.Pairs)/float64(max(est.FlyStates, 1)))
}

// bisimilarWord says in the reason line how the small clients'
// bisimilarity was taken.
func bisimilarWord(v Verdict, compared bool) string {
	word := "bisimilar"
	if v != Yes {
		word = "not bisimilar"
	}
	if compared {
		return ", " + word + " on the small clients"
	}
	return " even if " + word + ", not compared"
}

// bisimilarityMatters reports whether the choice from m (its
// bisimilarity not yet known) depends on whether impl and spec are
// bisimilar on the small clients.
func bisimilarityMatters(m autoMeasure, budget autoBudget) bool {
	m.bisimilar = Yes
	yes := decideAuto(m, budget)
	m.bisimilar = No
	return decideAuto(m, budget).Route != yes.Route
}

// count renders a count for the reason line, rounded.
func count(n int64) string {
	if n < 10_000 {
		return fmt.Sprint(n)
	}
	return humanize.SIWithDigits(float64(n), 1, "")
}

func byteSize(n int64) string { return humanize.IBytes(uint64(max(n, 0))) }

func seconds(s float64) string {
	if s < 10 {
		return fmt.Sprintf("%.2g s", s)
	}
	return fmt.Sprintf("%.0f s", s)
}

// autoSteps returns the clients the extrapolation to b reads: A, B, C
// and D of the design comment, each ok when it is a client (at least one
// thread and one operation); opStep tells whether the ladder reaches b
// by an operation.
func autoSteps(b frontend.Bounds) (a, bb, c, d frontend.Bounds, okA, okB, okC, okD, opStep bool) {
	rungs := ladder(b)
	opStep = len(rungs) >= 2 && rungs[len(rungs)-2].Threads == b.Threads
	forever := b.Ops < 0
	// A client of one thread has no interleavings, and grows unlike the
	// others: it is used only for bounds of one thread.
	minThreads := min(2, b.Threads)
	valid := func(t, o int) bool { return t >= minThreads && (forever || o >= 1) }
	a, okA = rung(b, b.Threads-1, b.Ops), valid(b.Threads-1, b.Ops)
	bb, okB = rung(b, b.Threads, b.Ops-1), !forever && valid(b.Threads, b.Ops-1)
	c, okC = rung(b, b.Threads-1, b.Ops-1), !forever && valid(b.Threads-1, b.Ops-1)
	if opStep {
		d, okD = rung(b, b.Threads, b.Ops-2), !forever && valid(b.Threads, b.Ops-2)
	} else {
		d, okD = rung(b, b.Threads-2, b.Ops), valid(b.Threads-2, b.Ops)
	}
	return
}

// autoLower returns the clients E = (T-2)×O and F = (T-2)×(O-1) of the
// corrected parallelogram (see above), ok when b has T ≥ 3 threads and
// O ≥ 2 operations.
func autoLower(b frontend.Bounds) (e, f frontend.Bounds, ok bool) {
	if b.Threads < 3 || b.Ops < 2 {
		return e, f, false
	}
	return rung(b, b.Threads-2, b.Ops), rung(b, b.Threads-2, b.Ops-1), true
}

// extrapolable reports whether b has the smaller clients that the
// extrapolation reads.
func extrapolable(b frontend.Bounds) bool {
	_, _, _, _, okA, okB, okC, okD, opStep := autoSteps(b)
	last := okA
	if opStep {
		last = okB
	}
	return okA && okB && okC || last && okD
}

// autoRungs returns the clients method auto searches below b: the
// ladder's and those the extrapolation reads, ordered by threads, then
// operations, b last.
func autoRungs(b frontend.Bounds) []frontend.Bounds {
	rungs := ladder(b)
	rungs = rungs[:len(rungs)-1]
	a, bb, c, d, okA, okB, okC, okD, _ := autoSteps(b)
	e, f, okEF := autoLower(b)
	for i, r := range []frontend.Bounds{a, bb, c, d, e, f} {
		if ok := []bool{okA, okB, okC, okD, okEF, okEF}[i]; ok && !slices.ContainsFunc(rungs, func(x frontend.Bounds) bool {
			return x.Threads == r.Threads && x.Ops == r.Ops
		}) {
			rungs = append(rungs, r)
		}
	}
	slices.SortFunc(rungs, func(x, y frontend.Bounds) int {
		if x.Threads != y.Threads {
			return x.Threads - y.Threads
		}
		return x.Ops - y.Ops
	})
	return append(rungs, b)
}

// extrapolate estimates the counts at b from the rungs (see above).
func extrapolate(b frontend.Bounds, rungs []AutoRung) (*AutoEstimate, bool) {
	find := func(r frontend.Bounds, ok bool) *AutoRung {
		if !ok {
			return nil
		}
		for i := range rungs {
			if rungs[i].Threads == r.Threads && rungs[i].Ops == r.Ops {
				return &rungs[i]
			}
		}
		return nil
	}
	a, bb, c, d, okA, okB, okC, okD, opStep := autoSteps(b)
	ra, rb, rc, rd := find(a, okA), find(bb, okB), find(c, okC), find(d, okD)
	e, f, okEF := autoLower(b)
	re, rf := find(e, okEF), find(f, okEF)
	last := ra
	if opStep {
		last = rb
	}
	canPar := ra != nil && rb != nil && rc != nil
	canSame := last != nil && rd != nil
	canCorrect := canPar && re != nil && rf != nil
	if !canPar && !canSame {
		return nil, false
	}
	x := func(get func(*AutoRung) int64) int64 {
		if canCorrect {
			// A·B/C · ρ, ρ = A·F/(E·C).
			return int64(math.Round(math.Exp(2*ln(get(ra)) + ln(get(rb)) + ln(get(rf)) - 2*ln(get(rc)) - ln(get(re)))))
		}
		var logs []float64
		if canPar {
			logs = append(logs, ln(get(ra))+ln(get(rb))-ln(get(rc)))
		}
		if canSame {
			logs = append(logs, 2*ln(get(last))-ln(get(rd)))
		}
		sum := 0.0
		for _, l := range logs {
			sum += l
		}
		return int64(math.Round(math.Exp(sum / float64(len(logs)))))
	}
	return &AutoEstimate{
		States:      x(func(r *AutoRung) int64 { return r.States }),
		Transitions: x(func(r *AutoRung) int64 { return r.Transitions }),
		Pairs:       x(func(r *AutoRung) int64 { return r.Pairs }),
		FlyStates:   x(func(r *AutoRung) int64 { return r.FlyStates }),
		Successors:  x(func(r *AutoRung) int64 { return r.Successors }),
	}, true
}

// ln is the logarithm of a count, a count below 1 taken as 1.
func ln(n int64) float64 { return math.Log(float64(max(n, 1))) }

// auto measures the smaller clients, chooses the route (decideAuto) and
// follows it.
func (x *run) auto(p *Plan) error {
	var choice *AutoReport
	err := x.stage("auto", func() (string, error) {
		m, err := x.exploreSmall()
		if err == nil && m.small == 0 && m.modelError == "" && extrapolable(x.bounds) {
			m, err = x.measure(p)
		}
		if err == nil && exploreMatters(*m, x.budget()) {
			m, err = x.exploreRungs(m)
		}
		if err == nil && len(m.rungs) > 0 && bisimilarityMatters(*m, x.budget()) {
			m, err = x.smallBisimilar(m)
		}
		if err != nil {
			return "", err
		}
		choice = decideAuto(*m, x.budget())
		return choice.Route, nil
	})
	if err != nil {
		return err
	}
	x.r.Auto = choice
	if choice.Route == string(Fly) {
		if x.climb != nil && !p.AutoFly.Shortest {
			// The on-the-fly route goes on from the rungs searched.
			x.climb.copts, x.climb.opts.Reductions = x.flyCompileOptions(), p.AutoFly.Reductions
		} else {
			x.climb = nil
		}
		return x.follow(p.AutoFly)
	}
	x.climb = nil
	return x.follow(p.AutoBisim)
}

// exploreSmall explores the implementation under the requested bounds
// up to autoProbeStates states: when it has no more, the bisimulation
// route is taken on it (Outcome.Impl), unmeasured; when a model error
// stops the exploration, the bisimulation route reports it.
func (x *run) exploreSmall() (*autoMeasure, error) {
	m := &autoMeasure{b: x.bounds}
	copts := x.compileOptions()
	copts.MaxStates = autoProbeStates
	if user := x.opts.Compile.MaxStates; user > 0 && user < autoProbeStates {
		copts.MaxStates = user
	}
	impl, err := frontend.CompileImpl(x.model, x.bounds, copts)
	if err == nil {
		x.out.Impl, m.small = impl, int64(impl.NumStates)
		return m, nil
	}
	if frontend.IsStateLimit(err) && limits.Err(x.ctx) == nil {
		return m, nil
	}
	return x.measureFailed(m, fmt.Sprintf("%d×%s", x.bounds.Threads, opsWord(x.bounds.Ops)), err)
}

// budget returns the run's limits as method auto weighs them.
func (x *run) budget() autoBudget {
	mem := x.opts.MaxMemory
	if mem == 0 {
		if l := debug.SetMemoryLimit(-1); l < math.MaxInt64 {
			mem = l
		}
	}
	states := int64(x.opts.Compile.MaxStates)
	if states <= 0 {
		states = frontend.DefaultMaxStates
	}
	return autoBudget{memory: mem, maxStates: states, cores: runtime.GOMAXPROCS(0)}
}

// measure climbs the rungs below the requested bounds (autoRungs) on the
// fly, keeping the climb for the on-the-fly route, and counts what the
// choice needs but the small clients' bisimilarity (smallBisimilar).
func (x *run) measure(p *Plan) (*autoMeasure, error) {
	b := x.bounds
	copts := x.measureCompileOptions()
	fopts := x.opts
	fopts.Reductions, fopts.Shortest = p.AutoFly.Reductions, false
	c := newClimb(x.model, b, copts, fopts)
	c.rungs = autoRungs(b)
	x.climb = c
	err := c.climbTo(len(c.rungs) - 1)
	m := &autoMeasure{b: b, symmetry: 1}
	if err != nil {
		return nil, err
	}
	if c.done {
		// A violation found below replays under b: the climb decided.
		st := c.stages[0]
		for _, s := range c.stages {
			if s.Result == "not linearizable" {
				st = s
			}
		}
		m.violation = fmt.Sprintf("%d×%s", st.Threads, opsWord(st.Ops))
		return m, nil
	}
	for i, st := range c.stages {
		name := fmt.Sprintf("%d×%s", st.Threads, opsWord(st.Ops))
		switch {
		case st.Result == "model error":
			m.modelError = name
			return m, nil
		case st.Result == "limit":
			m.limit = name
			return m, nil
		case c.stats[i] == nil:
			continue
		}
		s := c.stats[i]
		r := AutoRung{Threads: st.Threads, Ops: st.Ops, Pairs: s.Pairs, FlyStates: s.States, Successors: s.Transitions,
			States: s.Represented, Transitions: s.Represented * s.Transitions / max(s.Expanded, 1)}
		if float64(s.Ample) > autoAmpleShare*float64(s.Ample+s.Full) || !s.RepresentedExact {
			// Ample sets stand for fewer states than the LTS has: a
			// few of them for few fewer (exploreRungs).
			m.unexplored = append(m.unexplored, len(m.rungs))
			m.unexploredBounds = append(m.unexploredBounds, c.rungs[i])
		}
		m.rungs = append(m.rungs, r)
		// The largest rung's factors.
		m.symmetry = float64(s.Represented) / float64(max(s.States, 1))
		m.ample = float64(s.Ample) / float64(max(s.Ample+s.Full, 1))
		m.symmetric = m.symmetric || s.Represented > s.States
	}
	return m, nil
}

// exploreMatters reports whether the choice from m needs the LTSs of its
// unexplored rungs: not when the on-the-fly route wins on the counts the
// searches represent, bisimilar or not, by autoAmpleMargin in time or
// because the bisimulation route does not fit the limits.
func exploreMatters(m autoMeasure, budget autoBudget) bool {
	if len(m.unexplored) == 0 {
		return false
	}
	m.bisimilar = Yes
	r := decideAuto(m, budget)
	est := r.Estimate
	if est == nil {
		return false // the choice did not read the counts
	}
	fits := (budget.memory <= 0 || est.BisimBytes <= budget.memory) && (budget.maxStates <= 0 || est.States <= budget.maxStates)
	return r.Route != string(Fly) || fits && est.BisimSeconds < autoAmpleMargin*est.FlySeconds
}

// exploreRungs explores the LTSs of m's unexplored rungs to count their
// states and transitions.
func (x *run) exploreRungs(m *autoMeasure) (*autoMeasure, error) {
	copts := x.measureCompileOptions()
	for k, i := range m.unexplored {
		b := m.unexploredBounds[k]
		impl, err := frontend.CompileImpl(x.model, b, copts)
		if err != nil {
			return x.measureFailed(m, fmt.Sprintf("%d×%s", b.Threads, opsWord(b.Ops)), err)
		}
		r := &m.rungs[i]
		r.States, r.Transitions, r.Explored = int64(impl.NumStates), int64(impl.NumTransitions()), true
	}
	m.unexplored, m.unexploredBounds = nil, nil
	return m, nil
}

// smallBisimilar explores impl and spec on the small rungs C and D of the
// extrapolation (else the smallest rung) and sets m.bisimilar to whether
// they are bisimilar on both: a pair that is bisimilar with fewer threads
// may not be with more (the MS queue at 2×2 and 3×2).
func (x *run) smallBisimilar(m *autoMeasure) (*autoMeasure, error) {
	var small []frontend.Bounds
	_, _, c, d, _, _, okC, okD, _ := autoSteps(x.bounds)
	if okC {
		small = append(small, c)
	}
	if okD {
		small = append(small, d)
	}
	if len(small) == 0 {
		small = x.climb.rungs[:1]
	}
	copts := x.measureCompileOptions()
	m.bisimilar = Yes
	for _, r := range small {
		bisimilar, err := x.bisimilarAt(r, copts)
		if err != nil {
			return x.measureFailed(m, fmt.Sprintf("%d×%s", r.Threads, opsWord(r.Ops)), err)
		}
		if !bisimilar {
			m.bisimilar = No
		}
	}
	return m, nil
}

// measureCompileOptions returns the explorer's options of the measuring:
// every search and exploration reports as the measuring.
func (x *run) measureCompileOptions() frontend.Options {
	copts := x.compileOptions()
	if progress := x.opts.Progress; progress != nil {
		copts.Progress = meter.Func(func(_ string, n int64, unit string) { progress.Report("measuring", n, unit) })
	}
	return copts
}

// measureFailed turns an error of a measuring exploration into the
// measurement it says: a model error or the state limit under the rung
// named, or the run's own end.
func (x *run) measureFailed(m *autoMeasure, name string, err error) (*autoMeasure, error) {
	var me *frontend.ModelError
	switch {
	case limits.Err(x.ctx) != nil:
		return nil, err
	case errors.As(err, &me):
		m.modelError = name
		return m, nil
	case frontend.IsStateLimit(err):
		m.limit = name
		return m, nil
	}
	return nil, err
}

// bisimilarAt explores impl and spec under the small bounds b and
// compares them.
func (x *run) bisimilarAt(b frontend.Bounds, copts frontend.Options) (bool, error) {
	impl, spec, err := frontend.Compile(x.model, b, copts)
	if err != nil {
		return false, err
	}
	bopts := x.bisimOptions()
	bopts.Progress = nil
	cmp, err := bisim.Compare(impl, spec, bisim.DivBranching, bopts)
	if err != nil {
		return false, err
	}
	return cmp.Equivalent, nil
}

// flyCompileOptions returns the explorer's options of the on-the-fly
// route.
func (x *run) flyCompileOptions() frontend.Options {
	copts := x.opts.Compile
	copts.Context = x.ctx
	if x.opts.Progress != nil {
		copts.Progress = x.opts.Progress // the search's pairs, not an exploration's states
	}
	return copts
}
