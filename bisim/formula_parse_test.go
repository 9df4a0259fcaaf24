package bisim

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// formulaParser reads the notation of Formula.String back into a tree, to
// hold the printer to its claim that the text parses one way. The grammar:
//
//	or    = and {"∨" and}
//	and   = unary {"∧" unary}
//	unary = "¬" unary | "Δ" unary | "⟨" label "⟩" unary | "true"
//	      | "((" or ")⟨" label "⟩" unary ")" | "(" or ")"
//
// ⟨a⟩ψ is until with φ = true under the branching equivalences (until
// set), a diamond under strong bisimilarity.
type formulaParser struct {
	text  string
	pos   int
	until bool
}

// parseFormula parses text, all of it.
func parseFormula(text string, until bool) (*Formula, error) {
	p := &formulaParser{text: text, until: until}
	f, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.skip(); p.pos != len(p.text) {
		return nil, p.errorf("expected the end")
	}
	return f, nil
}

func (p *formulaParser) errorf(format string, args ...any) error {
	return fmt.Errorf("col %d: %s, at %q", p.pos+1, fmt.Sprintf(format, args...), p.text[p.pos:])
}

func (p *formulaParser) skip() {
	for p.pos < len(p.text) && p.text[p.pos] == ' ' {
		p.pos++
	}
}

// eat consumes tok, after spaces, if it comes next.
func (p *formulaParser) eat(tok string) bool {
	p.skip()
	if strings.HasPrefix(p.text[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *formulaParser) or() (*Formula, error)  { return p.junction(OpOr, "∨", p.and) }
func (p *formulaParser) and() (*Formula, error) { return p.junction(OpAnd, "∧", p.unary) }

// junction parses operands separated by sep into op (the operand alone
// when there is one).
func (p *formulaParser) junction(op Op, sep string, operand func() (*Formula, error)) (*Formula, error) {
	var args []*Formula
	for {
		f, err := operand()
		if err != nil {
			return nil, err
		}
		args = append(args, f)
		if !p.eat(sep) {
			break
		}
	}
	if len(args) == 1 {
		return args[0], nil
	}
	return &Formula{Op: op, Args: args}, nil
}

// label parses "⟨a⟩"'s a, the "⟨" consumed.
func (p *formulaParser) label() (string, error) {
	end := strings.Index(p.text[p.pos:], "⟩")
	if end <= 0 {
		return "", p.errorf("expected a label and ⟩")
	}
	l := p.text[p.pos : p.pos+end]
	p.pos += end + len("⟩")
	return l, nil
}

func (p *formulaParser) unary() (*Formula, error) {
	switch {
	case p.eat("¬"):
		g, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &Formula{Op: OpNot, Args: []*Formula{g}}, nil
	case p.eat("Δ"):
		g, err := p.unary()
		if err != nil {
			return nil, err
		}
		return Diverge(g), nil
	case p.eat("⟨"):
		l, err := p.label()
		if err != nil {
			return nil, err
		}
		g, err := p.unary()
		if err != nil {
			return nil, err
		}
		if p.until {
			return Until(True(), l, g), nil
		}
		return Diamond(l, g), nil
	case p.eat("true"):
		return True(), nil
	}
	start := p.pos
	if f, err := p.untilForm(); err == nil {
		return f, nil
	}
	p.pos = start
	if !p.eat("(") {
		return nil, p.errorf("expected ¬, Δ, ⟨, true or (")
	}
	f, err := p.or()
	if err != nil {
		return nil, err
	}
	if !p.eat(")") {
		return nil, p.errorf("expected )")
	}
	return f, nil
}

// untilForm parses "((φ)⟨a⟩ψ)".
func (p *formulaParser) untilForm() (*Formula, error) {
	if !p.eat("((") {
		return nil, p.errorf("expected ((")
	}
	stay, err := p.or()
	if err != nil {
		return nil, err
	}
	if !p.eat(")") || !p.eat("⟨") {
		return nil, p.errorf("expected )⟨")
	}
	l, err := p.label()
	if err != nil {
		return nil, err
	}
	goal, err := p.unary()
	if err != nil {
		return nil, err
	}
	if !p.eat(")") {
		return nil, p.errorf("expected ) closing the until")
	}
	return Until(stay, l, goal), nil
}

// requireParsesBack checks that f's text parses back into f's tree.
func requireParsesBack(t *testing.T, f *Formula, until bool, what string) {
	t.Helper()
	text := f.String()
	g, err := parseFormula(text, until)
	require.NoError(t, err, "%s: %s", what, text)
	require.Equal(t, f, g, "%s: %s parses into another tree, printed %s", what, text, g)
}

// The text of issue 37 item 9 parses one way: ⟨a⟩¬(⟨c⟩true)⟨b⟩true
// read as (¬⟨c⟩true)⟨b⟩true but meant ¬((⟨c⟩true)⟨b⟩true).
func TestFormulaTextParsesOneWay(t *testing.T) {
	f := Until(True(), "a", Not(Until(Until(True(), "c", True()), "b", True())))
	assert.Equal(t, "⟨a⟩¬((⟨c⟩true)⟨b⟩true)", f.String())
	requireParsesBack(t, f, true, "issue 37")
	other := Until(True(), "a", Until(Not(Until(True(), "c", True())), "b", True()))
	assert.Equal(t, "⟨a⟩((¬⟨c⟩true)⟨b⟩true)", other.String())
	requireParsesBack(t, other, true, "the other reading")
	for _, tc := range []struct {
		f     *Formula
		until bool
	}{
		{Or(And(Diamond("a", True()), Diamond("b", True())), Not(Or(Diamond("c", True()), Diverge(True())))), false},
		{Until(And(Until(True(), "a", True()), Not(True())), "tau", Or(True(), Diverge(Until(True(), "b", True())))), true},
		{Not(And(Until(Or(True(), Not(True())), "x", True()), Until(True(), "y", True()))), true},
		{Diamond("call(1,push,1)", Diamond("ret(1,push)", True())), false},
	} {
		requireParsesBack(t, tc.f, tc.until, tc.f.String())
	}
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestFormulaOperatorsGolden is the reader's view of each operator, as
// compare prints it: the notation, the English and the mCRL2 formula, in
// testdata/formula-operators.txt (go test -update rewrites it). It ends
// with the whole explanation of issue 37's pair C = a.(τ.b + c) and
// D = a.(b + c) under branching bisimilarity, and of a pair whose one
// difference is a divergence.
func TestFormulaOperatorsGolden(t *testing.T) {
	can := func(l string) *Formula { return Until(True(), l, True()) }
	cases := []struct {
		name string
		f    *Formula
	}{
		{"true", True()},
		{"not", Not(can("b"))},
		{"and", And(can("b"), Not(can("c")))},
		{"or", Or(can("b"), can("c"))},
		{"diamond (strong bisimilarity)", Diamond("a", Diamond("tau", Diamond("b", True())))},
		{"until, φ = true", Until(True(), "a", And(can("b"), can("c")))},
		{"until", Until(can("c"), "b", True())},
		{"until, negated", Not(Until(can("c"), "b", True()))},
		{"until under a step, negated", Until(True(), "a", Not(Until(can("c"), "b", can("d"))))},
		{"until of τ", Until(can("c"), "tau", Not(can("c")))},
		{"diverge", Diverge(True())},
		{"diverge through states", Diverge(can("b"))},
	}
	var sb strings.Builder
	for _, c := range cases {
		requireParsesBack(t, c.f, c.f.Op != OpDiamond, c.name)
		fmt.Fprintf(&sb, "== %s\n%s\nin words: %s\nmCRL2: %s\n\n", c.name, c.f, c.f.Sentences("A"), c.f.MCRL2())
	}
	read := func(text string) *lts.LTS {
		l, err := lts.ReadAut(strings.NewReader(text), "test.aut", lts.ReadOptions{})
		require.NoError(t, err)
		return l
	}
	cl := read("des (0, 4, 4)\n(0, \"a\", 1)\n(1, \"tau\", 2)\n(2, \"b\", 3)\n(1, \"c\", 3)\n")
	dl := read("des (0, 3, 3)\n(0, \"a\", 1)\n(1, \"b\", 2)\n(1, \"c\", 2)\n")
	// E spins on τ after a and b where F does not: the formula says that
	// and nothing more (issue 37 item 11).
	el := read("des (0, 5, 4)\n(0, \"a\", 1)\n(1, \"b\", 2)\n(2, \"tau\", 2)\n(2, \"c\", 3)\n(1, \"c\", 3)\n")
	fl := read("des (0, 4, 4)\n(0, \"a\", 1)\n(1, \"b\", 2)\n(2, \"c\", 3)\n(1, \"c\", 3)\n")
	for _, c := range []struct {
		a, b *lts.LTS
		eq   Equivalence
		args string
	}{
		{cl, dl, Branching, "C.aut D.aut -e branching"},
		{el, fl, DivBranching, "E.aut F.aut -e divbranching"},
	} {
		names := strings.Fields(c.args)
		cmp, err := Compare(c.a, c.b, c.eq, Options{NameA: names[0], NameB: names[1]})
		require.NoError(t, err)
		require.False(t, cmp.Equivalent)
		fmt.Fprintf(&sb, "== compare %s\n", c.args)
		require.NoError(t, cmp.Evidence.WriteText(&sb))
		sb.WriteString("\n")
	}
	golden(t, "formula-operators.txt", sb.String())
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got)
}
