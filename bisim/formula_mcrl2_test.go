package bisim

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/linbis/linbis/lts"
	"github.com/stretchr/testify/require"
)

// These tests need no mCRL2 (CI has none; formula_mcrl2tool_test.go runs
// mCRL2's own tools when they are installed). They hold the exported text
// to mCRL2's modal μ-calculus as its manual defines it, independently of
// Formula: a parser
// of the fragment MCRL2 writes, with mCRL2's precedences (! and <a> bind
// tighter than &&, && tighter than ||, mu and nu extend as far right as
// possible), and an evaluator by fixpoint iteration (μ from the empty set
// up, ν from all states down). Each printed formula must mean, in every
// state, what the naive evaluator says the formula means.

// muFormula is a parsed μ-calculus formula.
type muFormula struct {
	op    string // true, false, var, not, and, or, diamond, mu, nu
	name  string // the action of diamond, the variable of var, mu and nu
	args  []*muFormula
	input string // for error messages
}

type muParser struct {
	s   string
	pos int
}

func parseMu(s string) (*muFormula, error) {
	p := &muParser{s: s}
	f, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.skip(); p.pos != len(p.s) {
		return nil, fmt.Errorf("offset %d: unexpected %q", p.pos, p.s[p.pos:])
	}
	return f, nil
}

func (p *muParser) skip() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *muParser) eat(tok string) bool {
	p.skip()
	if strings.HasPrefix(p.s[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *muParser) ident() string {
	p.skip()
	start := p.pos
	for p.pos < len(p.s) && (unicode.IsLetter(rune(p.s[p.pos])) || unicode.IsDigit(rune(p.s[p.pos])) || p.s[p.pos] == '_') {
		p.pos++
	}
	return p.s[start:p.pos]
}

func (p *muParser) binary(op, tok string, next func() (*muFormula, error)) (*muFormula, error) {
	f, err := next()
	if err != nil {
		return nil, err
	}
	args := []*muFormula{f}
	for p.eat(tok) {
		g, err := next()
		if err != nil {
			return nil, err
		}
		args = append(args, g)
	}
	if len(args) == 1 {
		return f, nil
	}
	return &muFormula{op: op, args: args}, nil
}

func (p *muParser) or() (*muFormula, error)  { return p.binary("or", "||", p.and) }
func (p *muParser) and() (*muFormula, error) { return p.binary("and", "&&", p.unary) }

func (p *muParser) unary() (*muFormula, error) {
	switch {
	case p.eat("!"):
		g, err := p.unary()
		return &muFormula{op: "not", args: []*muFormula{g}}, err
	case p.eat("<"):
		end := strings.IndexByte(p.s[p.pos:], '>')
		if end < 0 {
			return nil, fmt.Errorf("offset %d: no '>'", p.pos)
		}
		action := p.s[p.pos : p.pos+end]
		p.pos += end + 1
		g, err := p.unary()
		return &muFormula{op: "diamond", name: action, args: []*muFormula{g}}, err
	case p.eat("("):
		f, err := p.or()
		if err != nil {
			return nil, err
		}
		if !p.eat(")") {
			return nil, fmt.Errorf("offset %d: expected ')'", p.pos)
		}
		return f, nil
	}
	word := p.ident()
	switch word {
	case "true", "false":
		return &muFormula{op: word}, nil
	case "mu", "nu":
		x := p.ident()
		if x == "" || !p.eat(".") {
			return nil, fmt.Errorf("offset %d: expected a variable and '.'", p.pos)
		}
		body, err := p.or() // a fixpoint extends as far right as possible
		return &muFormula{op: word, name: x, args: []*muFormula{body}}, err
	case "":
		return nil, fmt.Errorf("offset %d: unexpected %q", p.pos, p.s[p.pos:])
	}
	return &muFormula{op: "var", name: word}, nil
}

// evalMu returns the states of l satisfying f, the variables bound in env.
func evalMu(l *lts.LTS, f *muFormula, env map[string][]bool) []bool {
	n := int(l.NumStates)
	set := make([]bool, n)
	switch f.op {
	case "true":
		for s := range set {
			set[s] = true
		}
	case "false":
	case "var":
		copy(set, env[f.name])
	case "not":
		for s, v := range evalMu(l, f.args[0], env) {
			set[s] = !v
		}
	case "and", "or":
		copy(set, evalMu(l, f.args[0], env))
		for _, g := range f.args[1:] {
			for s, v := range evalMu(l, g, env) {
				if f.op == "and" {
					set[s] = set[s] && v
				} else {
					set[s] = set[s] || v
				}
			}
		}
	case "diamond":
		target := evalMu(l, f.args[0], env)
		for t := range l.Src {
			if l.Labels[l.Label[t]] == f.name && target[l.Dst[t]] {
				set[l.Src[t]] = true
			}
		}
	case "mu", "nu":
		if f.op == "nu" {
			for s := range set {
				set[s] = true
			}
		}
		for {
			inner := map[string][]bool{}
			for k, v := range env {
				inner[k] = v
			}
			inner[f.name] = set
			next := evalMu(l, f.args[0], inner)
			same := true
			for s := range set {
				same = same && set[s] == next[s]
			}
			if same {
				break
			}
			set = next
		}
	}
	return set
}

// TestMCRL2TextMeansTheFormula parses the mCRL2 text of random formulas
// and of the distinguishing formulas of random pairs, evaluates it as
// mCRL2 would, and compares with the naive evaluator in every state.
func TestMCRL2TextMeansTheFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 23))
	check := func(l *lts.LTS, f *Formula, what string) {
		text := f.MCRL2()
		m, err := parseMu(text)
		require.NoError(t, err, "%s: %s", what, text)
		sat := evalMu(l, m, map[string][]bool{})
		for s := range l.NumStates {
			if sat[s] != naiveHolds(l, f, s) {
				t.Fatalf("%s, state %d: mCRL2's reading of %s is %v, the formula's meaning %v (%v)", what, s, text, sat[s], !sat[s], f)
			}
		}
	}
	for seed := range 2000 {
		check(randomLTS(uint64(seed), 8), randomFormula(rng, 4), fmt.Sprintf("random formula %d", seed))
	}
	for _, eq := range allEquivalences {
		for seed := uint64(0); seed < 300; seed++ {
			a := randomLTS(2*seed, 8)
			b := mutate(a, rng)
			c, err := Compare(a, b, eq, Options{})
			require.NoError(t, err)
			if !c.Equivalent {
				check(a, c.Evidence.Formula, fmt.Sprintf("%v pair %d, side A", eq, seed))
				check(b, c.Evidence.Formula, fmt.Sprintf("%v pair %d, side B", eq, seed))
			}
		}
	}
}

// TestMCRL2TextWithDataLabels: with labels carrying data, some of which
// mCRL2 cannot read as they are (the keyword sum), the exported text
// (MCRL2Named, the names of lts.MCRL2Actions) means on the renamed LTSs —
// the copies mCRL2 is given — what the formula means on the LTSs compared,
// on 300 inequivalent pairs per equivalence.
func TestMCRL2TextWithDataLabels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 23))
	for _, eq := range allEquivalences {
		pairs := 0
		for seed := uint64(0); pairs < 300; seed++ {
			a := withDataLabels(randomLTS(2*seed, 8))
			b := withDataLabels(mutate(randomLTS(2*seed, 8), rng))
			c, err := Compare(a, b, eq, Options{})
			require.NoError(t, err)
			if c.Equivalent {
				continue
			}
			pairs++
			names := c.Evidence.Actions
			text := c.Evidence.Formula.MCRL2Named(names.Name)
			require.NotContains(t, text, "sum,", "the keyword sum must be renamed")
			m, err := parseMu(text)
			require.NoError(t, err, text)
			for i, l := range []*lts.LTS{a, b} {
				renamed := lts.Relabel(l, names.Name)
				sat := evalMu(renamed, m, map[string][]bool{})
				for s := range l.NumStates {
					if sat[s] != naiveHolds(l, c.Evidence.Formula, s) {
						t.Fatalf("%v pair %d side %d state %d: %s on the renamed LTS is %v, the formula %v", eq, seed, i, s, text, sat[s], !sat[s])
					}
				}
			}
		}
	}
}
