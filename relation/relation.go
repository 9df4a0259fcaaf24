// Package relation is linbis's one vocabulary of behavioural relations
// between two LTSs, after mCRL2's lts_equivalence and lts_preorder: strong,
// branching and divergence-preserving branching bisimilarity, decided and
// reduced by package bisim, and trace and weak-trace equivalence, each also
// a preorder (inclusion), decided by package refine. It parses the names
// the command line accepts (mCRL2's bisim, branching-bisim and
// dpbranching-bisim among them) and dispatches Compare and Reduce, so that
// no caller switches over relations.
//
// To add an equivalence (at most four files): a bisimilarity gets its
// constant in bisim/equiv.go and its kernel in bisim/kernel.go (the
// refinement algorithms work on kernels), then its row in relation.go's
// table (name, mCRL2's name, the bisim.Equivalence); Compare and Reduce
// dispatch on the table and need no change. That holds for a
// bisimilarity that its kernel alone sets apart: bisim's one-pass
// classification (acyclic.go) and its distinguishing formulas
// (formula_build.go, formula_compare.go, formula_trace.go) read
// every equivalence but Strong and DivBranching as Branching, so one with
// steps of its own (weak bisimilarity's saturated steps) also teaches
// them its rules, beyond four files. A relation
// on traces gets its row in relation.go's table (its definition and
// preorder in words) and its treatment of τ in compare.go's
// compareTraces, decided by refine.Check. Either way relation_test.go's
// tables take it in. The command line (compare -e/-p, reduce -e, their
// help and errors) reads the names from here and needs no change.
package relation

import (
	"fmt"
	"strings"

	"github.com/linbis/linbis/bisim"
)

// Relation is a behavioural relation between LTSs.
type Relation int

// The relations, bisimilarities first.
const (
	// Strong is strong bisimilarity: τ is an action like any other.
	Strong Relation = iota
	// Branching is branching bisimilarity (van Glabbeek–Weijland), blind
	// to divergence.
	Branching
	// DivBranching is divergence-preserving branching bisimilarity (Yang
	// et al. Def. 5.1–5.2), the relation of Thm 5.4.
	DivBranching
	// Trace is trace equivalence with τ an action like any other (mCRL2's
	// trace); as a preorder, trace inclusion.
	Trace
	// WeakTrace is trace equivalence with τ internal, invisible in traces
	// (mCRL2's weak-trace); as a preorder, weak trace inclusion, which is
	// linearizability for an object and its specification (Yang et al.
	// Thm 3.3).
	WeakTrace
	numRelations
)

// info is what the package knows of a relation.
type info struct {
	name  string // the name Parse accepts and String returns
	mcrl2 string // mCRL2's other name for it, if it has one ("" otherwise)
	// bisim is the bisimilarity it is, when isBisim; such a relation has a
	// quotient (Reduce) and a distinguishing formula, no preorder.
	bisim   bisim.Equivalence
	isBisim bool
	// definition says, in words about LTSs named %[1]s and %[2]s, what the
	// equivalence means; preorder, what the preorder means ("" if none).
	definition, preorder string
}

var table = [numRelations]info{
	Strong:       {name: bisim.Strong.String(), mcrl2: "bisim", bisim: bisim.Strong, isBisim: true},
	Branching:    {name: bisim.Branching.String(), mcrl2: "branching-bisim", bisim: bisim.Branching, isBisim: true},
	DivBranching: {name: bisim.DivBranching.String(), mcrl2: "dpbranching-bisim", bisim: bisim.DivBranching, isBisim: true},
	Trace: {name: "trace",
		definition: "they have the same traces, τ counted as an action",
		preorder:   "every trace of %[1]s is one of %[2]s, τ counted as an action"},
	WeakTrace: {name: "weak-trace",
		definition: "they have the same weak traces, τ-steps left out",
		preorder:   "every weak trace of %[1]s, τ-steps left out, is one of %[2]s"},
}

// All returns every relation, in the order of the constants.
func All() []Relation {
	out := make([]Relation, numRelations)
	for r := range out {
		out[r] = Relation(r)
	}
	return out
}

// String returns the name Parse accepts.
func (r Relation) String() string {
	if r >= 0 && r < numRelations {
		return table[r].name
	}
	return fmt.Sprintf("Relation(%d)", int(r))
}

// Bisimilarity returns the bisimilarity r is, and whether it is one.
func (r Relation) Bisimilarity() (bisim.Equivalence, bool) {
	return table[r].bisim, table[r].isBisim
}

// HasPreorder reports whether r can be asked as a preorder (inclusion of
// one LTS's behaviour in the other's): the trace relations.
func (r Relation) HasPreorder() bool { return table[r].preorder != "" }

// Reducible reports whether Reduce computes a quotient modulo r: the
// bisimilarities.
func (r Relation) Reducible() bool { return table[r].isBisim }

// Parse parses a relation's name, or mCRL2's name for it.
func Parse(s string) (Relation, error) { return ParseOneOf(s, All()) }

// ParseOneOf parses the name of one of rs (or mCRL2's name for it); its
// error lists rs.
func ParseOneOf(s string, rs []Relation) (Relation, error) {
	for _, r := range rs {
		if in := table[r]; s == in.name || (in.mcrl2 != "" && s == in.mcrl2) {
			return r, nil
		}
	}
	if len(rs) < int(numRelations) {
		if r, err := Parse(s); err == nil {
			return 0, fmt.Errorf("equivalence %q (%s) is not one of %s", s, r, Names(rs))
		}
	}
	return 0, fmt.Errorf("unknown equivalence %q: expected %s", s, Names(rs))
}

// Names lists rs's names for a person, with mCRL2's names for them in
// parentheses after the last relation that has one: "strong, branching,
// divbranching (mCRL2's bisim, branching-bisim, dpbranching-bisim), trace
// or weak-trace".
func Names(rs []Relation) string {
	var mcrl2 []string
	lastWithAlias := -1
	for i, r := range rs {
		if a := table[r].mcrl2; a != "" {
			mcrl2, lastWithAlias = append(mcrl2, a), i
		}
	}
	var sb strings.Builder
	for i, r := range rs {
		switch {
		case i == 0:
		case i == len(rs)-1:
			sb.WriteString(" or ")
		default:
			sb.WriteString(", ")
		}
		sb.WriteString(r.String())
		if i == lastWithAlias {
			fmt.Fprintf(&sb, " (mCRL2's %s)", strings.Join(mcrl2, ", "))
		}
	}
	return sb.String()
}

// Preorders returns the relations that have a preorder.
func Preorders() []Relation { return filter(Relation.HasPreorder) }

// Reducibles returns the relations Reduce takes.
func Reducibles() []Relation { return filter(Relation.Reducible) }

func filter(keep func(Relation) bool) []Relation {
	var out []Relation
	for _, r := range All() {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}
