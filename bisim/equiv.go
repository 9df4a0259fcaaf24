package bisim

import "fmt"

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

// ParseEquivalence parses "strong", "branching" or "divbranching".
func ParseEquivalence(s string) (Equivalence, error) {
	for e, name := range equivalenceNames {
		if s == name {
			return Equivalence(e), nil
		}
	}
	return 0, fmt.Errorf("unknown equivalence %q: expected strong, branching or divbranching", s)
}

// String returns the name accepted by ParseEquivalence.
func (e Equivalence) String() string {
	if e >= 0 && int(e) < len(equivalenceNames) {
		return equivalenceNames[e]
	}
	return fmt.Sprintf("Equivalence(%d)", int(e))
}

// Algorithm selects the partition-refinement algorithm.
type Algorithm int

const (
	// Fast is the worklist refinement of fast.go, the default.
	Fast Algorithm = iota
	// GV is the Groote–Vaandrager reference algorithm of gv.go, O(m·n).
	GV
)

var algorithmNames = [...]string{Fast: "fast", GV: "gv"}

// ParseAlgorithm parses "fast" or "gv".
func ParseAlgorithm(s string) (Algorithm, error) {
	for a, name := range algorithmNames {
		if s == name {
			return Algorithm(a), nil
		}
	}
	return 0, fmt.Errorf("unknown algorithm %q: expected fast or gv", s)
}

// String returns the name accepted by ParseAlgorithm.
func (a Algorithm) String() string {
	if a >= 0 && int(a) < len(algorithmNames) {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// Options tune Partition, Minimize and Compare.
type Options struct {
	// Algorithm chooses the refinement algorithm; the zero value is Fast.
	Algorithm Algorithm
	// Progress, if not nil, is called now and then with a stage name and a
	// count (blocks found, pairs explored).
	Progress func(stage string, done int64)
	// MaxPairs bounds the state pairs Compare explores when it searches for
	// a distinguishing trace; 0 means DefaultMaxPairs.
	MaxPairs int
}

// DefaultMaxPairs is the default bound on the pairs explored by the search
// for a distinguishing trace.
const DefaultMaxPairs = 20_000_000

func (o *Options) progress(stage string, done int64) {
	if o.Progress != nil {
		o.Progress(stage, done)
	}
}
