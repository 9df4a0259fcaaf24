package bisim

import (
	"context"
	"fmt"
	"strings"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
)

// Equivalence selects the behavioural equivalence to decide.
type Equivalence int

const (
	// Strong is strong bisimilarity: τ is an ordinary action.
	Strong Equivalence = iota
	// Branching is branching bisimilarity (van Glabbeek–Weijland; Yang et
	// al. Def. 4.1). It ignores divergence.
	Branching
	// DivBranching is divergence-preserving branching bisimilarity (Yang et
	// al. Def. 5.1–5.2): a state that can do infinitely many inert τ steps
	// is never equivalent to one that cannot.
	DivBranching
)

var equivalenceNames = [...]string{Strong: "strong", Branching: "branching", DivBranching: "divbranching"}

// String returns the equivalence's name, which package relation parses
// (with mCRL2's names for it).
func (e Equivalence) String() string { return nameOf(equivalenceNames[:], e, "Equivalence") }

// parseName returns the index of s in names, as a T.
func parseName[T ~int](names []string, s, what string) (T, error) {
	for i, name := range names {
		if s == name {
			return T(i), nil
		}
	}
	expected := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return 0, fmt.Errorf("unknown %s %q: expected %s", what, s, expected)
}

// nameOf returns names[v], or type(v) for a value out of range.
func nameOf[T ~int](names []string, v T, typ string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, int(v))
}

// Algorithm selects the partition-refinement algorithm (and, with Fast,
// the one-pass classification of an LTS whose only cycles are τ-cycles).
type Algorithm int

const (
	// Fast is the default: an LTS whose only cycles are τ-cycles (any
	// cycle, under Strong) is classified in one pass (acyclic.go), any
	// other by the worklist refinement of fast.go.
	Fast Algorithm = iota
	// GV is the Groote–Vaandrager reference algorithm of gv.go, O(m·n).
	GV
	// GJ is the constellation refinement of gj.go (after Groote, Jansen,
	// Keiren and Wijs 2017): splitters are the smaller halves of
	// constellations, with counters for the co-splitter.
	GJ
)

var algorithmNames = [...]string{Fast: "fast", GV: "gv", GJ: "gj"}

// ParseAlgorithm parses "fast", "gv" or "gj".
func ParseAlgorithm(s string) (Algorithm, error) {
	return parseName[Algorithm](algorithmNames[:], s, "algorithm")
}

// String returns the name accepted by ParseAlgorithm.
func (a Algorithm) String() string { return nameOf(algorithmNames[:], a, "Algorithm") }

// Options tune Partition, Minimize and Compare.
type Options struct {
	// Algorithm chooses the refinement algorithm; the zero value is Fast,
	// which first tries the one-pass classification.
	Algorithm Algorithm
	// Progress, if not nil, receives a stage name, a count and its unit
	// now and then (stageUnits).
	Progress meter.Reporter
	// Context, if set, stops the computation when it ends: the refinement
	// and the one-pass classification poll it where they report progress,
	// and Partition, Minimize, Quotient, MinimizeReachable and Compare
	// return an error wrapping its cause (limits.Err).
	Context context.Context
	// MaxPairs bounds the pairs of state sets Compare's search for a
	// distinguishing trace explores (distinguishingTrace); 0 means
	// DefaultMaxPairs. Past it, the formula is built without that search.
	MaxPairs int
	// NameA and NameB name the two LTSs of Compare in the counterexample's
	// Title and Final, e.g. "the implementation" and "the specification";
	// empty means "A" and "B".
	NameA, NameB string
	// Workers is the number of goroutines of Fast's signature rounds
	// (sigref.go), which run on kernels of at least 512 k transitions that the
	// one-pass classification declines; 0 means one per core. The
	// partition is the same for any number.
	Workers int
	// CollectInput, in a consuming call (Consumed), runs a collection
	// (runtime.GC) as soon as the input is released, before the
	// refinement allocates, so
	// that the refiner's arrays take the input's pages instead of fresh
	// ones, which lowers reduce's peak memory. verify leaves it off: its
	// bisimulation stage took longer with it (benchmarks/RESULTS.md).
	// After the one-pass classification there is no refinement to make
	// room for, and no collection.
	CollectInput bool
	// release lets the refinement clear the input's transitions: set by
	// the consuming calls (Consumed) alone.
	release bool
	// alwaysRefine makes Fast refine even an LTS whose only cycles are
	// τ-cycles, which it otherwise classifies in one pass (acyclic.go):
	// tests use it to hold the two to each other.
	alwaysRefine bool
	// signatureWorkers, when positive, makes Fast run its signature rounds
	// (sigref.go) on that many goroutines whatever the size of the input:
	// tests hold them to the oracle and to each other on small LTSs;
	// negative, it turns them off whatever the size.
	signatureWorkers int
	// stats, if set, receives a count of the refinement's work (tests and
	// benchmarks only).
	stats *refineStats
	// history, if set, receives the splits of Fast under Strong, from
	// which Compare reads distinguishing formulas (formula_history.go).
	history *splitHistory
}

// refineStats is a machine-independent measure of a refinement: work
// counts its elementary steps — states and transitions read, moved,
// marked or swapped, sort comparisons — so that its growth with the input
// can be told apart from the memory hierarchy's. States and Transitions
// are the kernel's (after τ-SCC contraction), the n and m of O(m log n).
type refineStats struct {
	work                int64
	states, transitions int64
}

// recordWork stores the work of a refinement of k, if stats are wanted.
func (o *Options) recordWork(k *kernel, work int64) {
	if o.stats != nil {
		*o.stats = refineStats{work: work, states: int64(k.n), transitions: int64(len(k.dst))} // dst: a Fast branching kernel has no src
	}
}

// DefaultMaxPairs is the default bound on the pairs of state sets of the
// quotient explored by the search for a distinguishing trace.
const DefaultMaxPairs = 100_000

func (o *Options) progress(stage string, done int64) {
	if o.Progress != nil {
		o.Progress.Report(stage, done, stageUnits[stage])
	}
}

// stageUnits are the units of the stages' counts that Options.Progress
// receives.
var stageUnits = map[string]string{"kernel states": "states", "classify": "components",
	"refine": "classes", "refine (gv)": "classes", "quotient states": "states"}

// stopped is the panic of a computation stopped by Options.Context: the
// refinements poll it deep inside loops that return no error, and the
// exported functions recover it (recoverStopped).
type stopped struct{ cause error }

// poll panics with stopped once o.Context has ended. Only the goroutine
// of the exported call polls, so that its recover sees the panic.
func (o *Options) poll() {
	if err := limits.Err(o.Context); err != nil {
		panic(stopped{err})
	}
}

// recoverStopped turns the panic of poll into *err; other panics go on.
func recoverStopped(err *error) {
	if r := recover(); r != nil {
		s, ok := r.(stopped)
		if !ok {
			panic(r)
		}
		*err = fmt.Errorf("bisimulation stopped: %w", s.cause)
	}
}
