package bisim

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Op is the operator of a Formula node.
type Op uint8

// The operators of Hennessy–Milner logic with until and divergence, the
// logic that characterises the three equivalences (see formula_build.go).
const (
	// OpTrue holds everywhere.
	OpTrue Op = iota
	// OpNot negates its one argument.
	OpNot
	// OpAnd and OpOr combine two or more arguments.
	OpAnd
	OpOr
	// OpDiamond ⟨a⟩φ: some a-step (a may be τ) leads to a state satisfying φ.
	OpDiamond
	// OpUntil φ⟨a⟩ψ: a path of zero or more τ-steps through states
	// satisfying φ ends in a state that has an a-step to a state satisfying
	// ψ; for a = τ also when that last state itself satisfies ψ.
	OpUntil
	// OpDiverge Δφ: an infinite τ-path through states satisfying φ.
	OpDiverge
)

var opNames = [...]string{OpTrue: "true", OpNot: "not", OpAnd: "and", OpOr: "or",
	OpDiamond: "diamond", OpUntil: "until", OpDiverge: "diverge"}

// String returns the operator's name in the JSON form.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Formula is a node of a distinguishing formula. Subformulas may be shared
// (the formula is a DAG in memory); Size counts it as the tree it prints as.
type Formula struct {
	// Op is the operator.
	Op Op
	// Label is the action of OpDiamond and OpUntil, by name ("tau" for τ);
	// empty for the other operators.
	Label string
	// Args are the operands: one for OpNot, OpDiamond and OpDiverge, two
	// (φ, ψ) for OpUntil, two or more for OpAnd and OpOr, none for OpTrue.
	Args []*Formula
}

// formulaTrue is the shared formula true.
var formulaTrue = &Formula{Op: OpTrue}

// True returns the formula true.
func True() *Formula { return formulaTrue }

// Not returns ¬f, removing a double negation.
func Not(f *Formula) *Formula {
	if f.Op == OpNot {
		return f.Args[0]
	}
	return &Formula{Op: OpNot, Args: []*Formula{f}}
}

// And returns the conjunction of fs: true for none, the formula itself for
// one; conjuncts true are dropped.
func And(fs ...*Formula) *Formula { return junction(OpAnd, fs) }

// Or returns the disjunction of fs, which must not be empty; a single
// disjunct is returned as it is.
func Or(fs ...*Formula) *Formula { return junction(OpOr, fs) }

func junction(op Op, fs []*Formula) *Formula {
	var args []*Formula
	for _, f := range fs {
		if op == OpAnd && f.Op == OpTrue {
			continue
		}
		if f.Op == op { // flatten
			args = append(args, f.Args...)
			continue
		}
		args = append(args, f)
	}
	switch len(args) {
	case 0:
		if op == OpOr {
			panic("bisim: empty disjunction")
		}
		return formulaTrue
	case 1:
		return args[0]
	}
	return &Formula{Op: op, Args: args}
}

// Diamond returns ⟨label⟩f.
func Diamond(label string, f *Formula) *Formula {
	return &Formula{Op: OpDiamond, Label: label, Args: []*Formula{f}}
}

// Until returns stay⟨label⟩goal.
func Until(stay *Formula, label string, goal *Formula) *Formula {
	return &Formula{Op: OpUntil, Label: label, Args: []*Formula{stay, goal}}
}

// Diverge returns Δf.
func Diverge(f *Formula) *Formula { return &Formula{Op: OpDiverge, Args: []*Formula{f}} }

// Size is the number of nodes of f written out as a tree.
func (f *Formula) Size() int {
	n := 1
	for _, g := range f.Args {
		n += g.Size()
	}
	return n
}

// Depth is the modal depth of f: the nesting of diamond, until and diverge
// (the longest chain of steps the formula looks ahead).
func (f *Formula) Depth() int {
	d := 0
	for _, g := range f.Args {
		d = max(d, g.Depth())
	}
	if f.Op >= OpDiamond {
		d++
	}
	return d
}

// formulaJSON is the JSON form of a Formula; see verify/schema.json.
type formulaJSON struct {
	Op    string     `json:"op"`              // the operator's name (Op.String)
	Label string     `json:"label,omitempty"` // a modality's label; "" for none
	Args  []*Formula `json:"args,omitempty"`  // the operands, in order
}

// MarshalJSON writes f as the tree {"op":…, "label":…, "args":[…]}.
func (f *Formula) MarshalJSON() ([]byte, error) {
	return json.Marshal(formulaJSON{Op: f.Op.String(), Label: f.Label, Args: f.Args})
}

// UnmarshalJSON reads the form MarshalJSON writes and checks its arity.
func (f *Formula) UnmarshalJSON(data []byte) error {
	var j formulaJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	op := -1
	for i, name := range opNames {
		if name == j.Op {
			op = i
		}
	}
	if op < 0 {
		return fmt.Errorf("unknown formula operator %q", j.Op)
	}
	*f = Formula{Op: Op(op), Label: j.Label, Args: j.Args}
	return f.checkArity()
}

func (f *Formula) checkArity() error {
	want, labelled := 0, false
	switch f.Op {
	case OpNot, OpDiverge:
		want = 1
	case OpDiamond:
		want, labelled = 1, true
	case OpUntil:
		want, labelled = 2, true
	case OpAnd, OpOr:
		if len(f.Args) < 1 {
			return fmt.Errorf("formula operator %s needs arguments", f.Op)
		}
		want = len(f.Args)
	}
	if len(f.Args) != want {
		return fmt.Errorf("formula operator %s takes %d arguments, not %d", f.Op, want, len(f.Args))
	}
	if labelled != (f.Label != "") {
		return fmt.Errorf("formula operator %s: label %q", f.Op, f.Label)
	}
	return nil
}

// String writes f in a compact mathematical notation that parses one
// way: ⟨a⟩φ, ((φ)⟨a⟩ψ), Δφ, ¬φ, φ ∧ ψ, φ ∨ ψ, true. The prefix operators
// ¬, ⟨a⟩ and Δ bind tighter than ∧ and ∧ than ∨, and an operand that is a
// conjunction or disjunction is parenthesised (a conjunction is never
// written inside a conjunction: And flattens them). An until is written
// in parentheses of its own, its φ in a second pair, so that ¬((φ)⟨a⟩ψ)
// cannot be read as (¬φ)⟨a⟩ψ. Until with φ = true is written ⟨a⟩ψ like a
// diamond: a comparison uses one or the other, never both (diamonds for
// strong bisimilarity, until for the branching equivalences), so the
// logic tells which it is.
func (f *Formula) String() string {
	var sb strings.Builder
	f.write(&sb, false)
	return sb.String()
}

func (f *Formula) write(sb *strings.Builder, nested bool) {
	switch f.Op {
	case OpTrue:
		sb.WriteString("true")
	case OpNot:
		sb.WriteString("¬")
		f.Args[0].write(sb, true)
	case OpAnd, OpOr:
		sep := " ∧ "
		if f.Op == OpOr {
			sep = " ∨ "
		}
		if nested {
			sb.WriteByte('(')
		}
		for i, g := range f.Args {
			if i > 0 {
				sb.WriteString(sep)
			}
			g.write(sb, true)
		}
		if nested {
			sb.WriteByte(')')
		}
	case OpDiamond:
		fmt.Fprintf(sb, "⟨%s⟩", f.Label)
		f.Args[0].write(sb, true)
	case OpUntil:
		stay := f.Args[0].Op != OpTrue
		if stay {
			sb.WriteString("((")
			f.Args[0].write(sb, false)
			sb.WriteByte(')')
		}
		fmt.Fprintf(sb, "⟨%s⟩", f.Label)
		f.Args[1].write(sb, true)
		if stay {
			sb.WriteByte(')')
		}
	case OpDiverge:
		sb.WriteString("Δ")
		f.Args[0].write(sb, true)
	}
}

// MCRL2 writes f in mCRL2's modal μ-calculus, to be checked there (for
// instance with lts2pbes on the .aut files, the actions declared): until
// and diverge become fixpoints, φ⟨a⟩ψ = μX.(φ ∧ (⟨a⟩ψ ∨ ⟨τ⟩X)) and
// Δφ = νX.(φ ∧ ⟨τ⟩X).
func (f *Formula) MCRL2() string {
	return f.MCRL2Named(func(label string) string { return label })
}

// MCRL2Named is MCRL2 with every label written as name(label): its mCRL2
// action (lts.MCRL2Actions.Name) when labels had to be renamed for mCRL2.
func (f *Formula) MCRL2Named(name func(label string) string) string {
	var sb strings.Builder
	vars := 0
	f.mcrl2(&sb, &vars, name)
	return sb.String()
}

func (f *Formula) mcrl2(sb *strings.Builder, vars *int, name func(string) string) {
	fresh := func() string { *vars++; return fmt.Sprintf("X%d", *vars) }
	switch f.Op {
	case OpTrue:
		sb.WriteString("true")
	case OpNot:
		sb.WriteString("!(")
		f.Args[0].mcrl2(sb, vars, name)
		sb.WriteString(")")
	case OpAnd, OpOr:
		sep := " && "
		if f.Op == OpOr {
			sep = " || "
		}
		sb.WriteByte('(')
		for i, g := range f.Args {
			if i > 0 {
				sb.WriteString(sep)
			}
			g.mcrl2(sb, vars, name)
		}
		sb.WriteByte(')')
	case OpDiamond:
		fmt.Fprintf(sb, "<%s>(", name(f.Label))
		f.Args[0].mcrl2(sb, vars, name)
		sb.WriteString(")")
	case OpUntil:
		x := fresh()
		fmt.Fprintf(sb, "(mu %s . (", x)
		f.Args[0].mcrl2(sb, vars, name)
		fmt.Fprintf(sb, " && (<%s>(", name(f.Label))
		f.Args[1].mcrl2(sb, vars, name)
		sb.WriteString(")")
		if f.Label == "tau" {
			sb.WriteString(" || ")
			f.Args[1].mcrl2(sb, vars, name)
		}
		fmt.Fprintf(sb, " || <tau>%s)))", x)
	case OpDiverge:
		x := fresh()
		fmt.Fprintf(sb, "(nu %s . (", x)
		f.Args[0].mcrl2(sb, vars, name)
		fmt.Fprintf(sb, " && <tau>%s))", x)
	}
}
