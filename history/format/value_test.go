package format

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tval is a value of the EDN or JSON data model, for the reference
// equality below: numbers held as numbers, not as text.
type tval struct {
	kind  ednKind
	num   *big.Rat // ednInt (an integer), ednFloat with dec (a decimal, M), JSON numbers
	f     float64  // ednFloat without dec
	dec   bool
	text  string // strings, keywords, symbols, booleans; a character as its one rune
	items []tval // vectors, lists and sets; a map's keys and values alternating
}

// refEqual is Clojure's = on EDN values (jsonNums: JSON's model, where
// every number is one kind and compares by value): written from the
// definition, without canonical texts.
func refEqual(a, b tval, jsonNums bool) bool {
	seq := func(k ednKind) bool { return k == ednVector || k == ednList }
	if seq(a.kind) && seq(b.kind) {
		if len(a.items) != len(b.items) {
			return false
		}
		for i := range a.items {
			if !refEqual(a.items[i], b.items[i], jsonNums) {
				return false
			}
		}
		return true
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case ednNil:
		return true
	case ednInt:
		return a.num.Cmp(b.num) == 0
	case ednFloat:
		if jsonNums || a.dec || b.dec {
			return a.dec == b.dec && a.num.Cmp(b.num) == 0
		}
		return a.f == b.f
	case ednSet:
		return len(a.items) == len(b.items) && subset(a.items, b.items, 1, jsonNums)
	case ednMap:
		return len(a.items) == len(b.items) && subset(a.items, b.items, 2, jsonNums)
	}
	return a.text == b.text
}

// subset reports whether every entry of a (an element, or a key and its
// value: step 2) has an equal one in b.
func subset(a, b []tval, step int, jsonNums bool) bool {
	for i := 0; i < len(a); i += step {
		found := false
		for j := 0; j < len(b) && !found; j += step {
			found = refEqual(a[i], b[j], jsonNums) && (step == 1 || refEqual(a[i+1], b[j+1], jsonNums))
		}
		if !found {
			return false
		}
	}
	return true
}

// valueGen makes random values from a small domain (so that equal values
// are frequent) and prints them in random but equivalent ways.
type valueGen struct {
	rng  *rand.Rand
	json bool
}

func (g *valueGen) scalar() tval {
	r := g.rng
	words := []string{"a", "b", "1", "true", "nil", "[1 2]", "é", "x\"y", "\n", "\U0001f600"}
	if g.json {
		switch r.IntN(5) {
		case 0:
			return tval{kind: ednNil}
		case 1:
			return tval{kind: ednBool, text: []string{"true", "false"}[r.IntN(2)]}
		case 2, 3:
			// Integers and decimals (tenths): 1, 1.0, 10 and 1e1 meet.
			return tval{kind: ednFloat, dec: true, num: big.NewRat(int64(r.IntN(21)-5), []int64{1, 10, 1}[r.IntN(3)])}
		}
		return tval{kind: ednString, text: words[r.IntN(len(words))]}
	}
	switch r.IntN(10) {
	case 0:
		return tval{kind: ednNil}
	case 1:
		return tval{kind: ednBool, text: []string{"true", "false"}[r.IntN(2)]}
	case 2:
		return tval{kind: ednInt, num: big.NewRat(int64(r.IntN(5)-2), 1)}
	case 3:
		return tval{kind: ednFloat, f: []float64{1, 1.5, 0, -2, 0.1, 1e21}[r.IntN(6)]}
	case 4:
		return tval{kind: ednFloat, dec: true, num: big.NewRat(int64(r.IntN(5)), []int64{1, 10}[r.IntN(2)])}
	case 5:
		return tval{kind: ednKeyword, text: []string{"a", "b", "x1"}[r.IntN(3)]}
	case 6:
		return tval{kind: ednSymbol, text: []string{"a", "b", "foo"}[r.IntN(3)]}
	case 7:
		return tval{kind: ednChar, text: []string{"a", "1", "\n"}[r.IntN(3)]}
	}
	return tval{kind: ednString, text: words[r.IntN(len(words))]}
}

// value makes a random value, nested at most depth deep.
func (g *valueGen) value(depth int) tval {
	r := g.rng
	if depth == 0 || r.IntN(3) == 0 {
		return g.scalar()
	}
	kinds := []ednKind{ednVector, ednList, ednMap, ednSet}
	if g.json {
		kinds = []ednKind{ednVector, ednMap}
	}
	v := tval{kind: kinds[r.IntN(len(kinds))]}
	n := r.IntN(4)
	for range n {
		switch v.kind {
		case ednMap:
			k := g.value(depth - 1)
			if g.json {
				k = tval{kind: ednString, text: []string{"a", "b", "c"}[r.IntN(3)]}
			}
			if !g.has(v.items, k, 2) {
				v.items = append(v.items, k, g.value(depth-1))
			}
		case ednSet:
			if e := g.value(depth - 1); !g.has(v.items, e, 1) {
				v.items = append(v.items, e)
			}
		default:
			v.items = append(v.items, g.value(depth-1))
		}
	}
	return v
}

// has reports whether items has an entry (step 1) or key (step 2) equal to x.
func (g *valueGen) has(items []tval, x tval, step int) bool {
	for i := 0; i < len(items); i += step {
		if refEqual(items[i], x, g.json) {
			return true
		}
	}
	return false
}

// variant returns a value near v: one leaf replaced by another of the
// same text but another kind (1 and 1.0, "1" and 1, :a and a), or by a
// fresh scalar; or v itself.
func (g *valueGen) variant(v tval) tval {
	r := g.rng
	if len(v.items) > 0 && r.IntN(4) != 0 {
		w := v
		w.items = append([]tval(nil), v.items...)
		i := r.IntN(len(w.items))
		if g.json && w.kind == ednMap && i%2 == 0 {
			i++ // a JSON key stays a string
		}
		w.items[i] = g.variant(w.items[i])
		if (w.kind == ednSet || w.kind == ednMap) && i%2 == 0 && g.hasTwice(w) {
			return v
		}
		return w
	}
	switch {
	case v.kind == ednInt && r.IntN(2) == 0:
		f, _ := v.num.Float64()
		return tval{kind: ednFloat, f: f}
	case v.kind == ednFloat && !v.dec && r.IntN(2) == 0 && v.f == math.Trunc(v.f) && math.Abs(v.f) < 1e15:
		return tval{kind: ednInt, num: new(big.Rat).SetFloat64(v.f)}
	case v.kind == ednKeyword || v.kind == ednSymbol:
		return tval{kind: []ednKind{ednKeyword, ednSymbol, ednString}[r.IntN(3)], text: v.text}
	case v.kind == ednVector && !g.json:
		return tval{kind: ednSet, items: v.items[:min(len(v.items), 1)]}
	}
	return g.scalar()
}

// hasTwice reports whether a set or map holds two equal entries or keys.
func (g *valueGen) hasTwice(v tval) bool {
	step := 1
	if v.kind == ednMap {
		step = 2
	}
	for i := 0; i < len(v.items); i += step {
		if g.has(v.items[i+step:], v.items[i], step) {
			return true
		}
	}
	return false
}

// print writes v in one of its many spellings.
func (g *valueGen) print(b *strings.Builder, v tval) {
	r := g.rng
	space := func() { b.WriteString([]string{" ", "  ", ", ", "\n", " ,"}[r.IntN(5)]) }
	switch v.kind {
	case ednNil:
		b.WriteString([]string{"nil", "null"}[b2i(g.json)])
	case ednBool, ednSymbol:
		b.WriteString(v.text)
	case ednKeyword:
		b.WriteString(":" + v.text)
	case ednChar:
		c := []rune(v.text)[0]
		switch {
		case c == '\n':
			b.WriteString([]string{`\newline`, `\u000a`, `\o12`}[r.IntN(3)])
		case r.IntN(2) == 0:
			fmt.Fprintf(b, `\u%04x`, c)
		default:
			b.WriteString(`\` + string(c))
		}
	case ednString:
		b.WriteByte('"')
		for _, c := range v.text {
			switch {
			case c == '"' || c == '\\':
				b.WriteString(`\` + string(c))
			case c == '\n':
				b.WriteString([]string{`\n`, `\u000a`}[r.IntN(2)])
			case c > 0xffff && r.IntN(2) == 0:
				hi, lo := utf16Pair(c)
				fmt.Fprintf(b, `\u%04x\u%04x`, hi, lo)
			case c > 0x7f && c <= 0xffff && r.IntN(2) == 0:
				fmt.Fprintf(b, `\u%04X`, c)
			default:
				b.WriteRune(c)
			}
		}
		b.WriteByte('"')
	case ednInt:
		s := v.num.Num().String()
		if r.IntN(3) == 0 && s[0] != '-' {
			s = "+" + s
		}
		if r.IntN(3) == 0 {
			s += "N"
		}
		b.WriteString(s)
	case ednFloat:
		if v.dec || g.json {
			b.WriteString(g.decimal(v.num))
			if !g.json {
				b.WriteString("M")
			}
			return
		}
		s := strconv.FormatFloat(v.f, []byte{'g', 'e', 'f'}[r.IntN(3)], -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		if strings.Contains(s, ".") && !strings.ContainsAny(s, "eE") {
			s += strings.Repeat("0", r.IntN(3))
		}
		b.WriteString(s)
	default:
		open, close := map[ednKind][2]string{ednVector: {"[", "]"}, ednList: {"(", ")"}, ednMap: {"{", "}"}, ednSet: {"#{", "}"}}[v.kind][0], map[ednKind]string{ednVector: "]", ednList: ")", ednMap: "}", ednSet: "}"}[v.kind]
		step := 1
		if v.kind == ednMap {
			step = 2
		}
		order := r.Perm(len(v.items) / step)
		if v.kind == ednVector || v.kind == ednList {
			slices.Sort(order) // 0, 1, …: in order
		}
		b.WriteString(open)
		for n, i := range order {
			if n > 0 {
				if g.json {
					b.WriteString([]string{",", ", ", " ,\t"}[r.IntN(3)])
				} else {
					space()
				}
			}
			g.print(b, v.items[i*step])
			if step == 2 {
				b.WriteString([]string{" ", ": "}[b2i(g.json)])
				g.print(b, v.items[i*step+1])
			}
		}
		b.WriteString(close)
	}
}

// decimal writes the rational x (a finite decimal) as 12.30, 1.23e1, 123e-1….
func (g *valueGen) decimal(x *big.Rat) string {
	s := x.FloatString(1) // the tenths the generator makes are exact
	switch g.rng.IntN(5) {
	case 0:
		if x.IsInt() {
			return x.Num().String()
		}
	case 1:
		return s + "0"
	case 2:
		return strings.Replace(s, ".", "", 1) + "e-1"
	case 3:
		return strings.Replace(s, ".", "", 1) + "E-1"
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCanonicalValuesAgainstReferenceEquality reads thousands of random
// pairs of nested values, each printed in a random spelling, and checks
// that their canonical texts are equal exactly when the reference
// equality (Clojure's = for EDN, numbers by value for JSON) says the
// values are.
func TestCanonicalValuesAgainstReferenceEquality(t *testing.T) {
	for _, isJSON := range []bool{false, true} {
		g := &valueGen{rng: rand.New(rand.NewPCG(37, uint64(b2i(isJSON)))), json: isJSON}
		equal := 0
		for i := range 6000 {
			a := g.value(3)
			var b tval
			switch i % 3 {
			case 0:
				b = a
			case 1:
				b = g.variant(a)
			default:
				b = g.value(3)
			}
			var sa, sb strings.Builder
			g.print(&sa, a)
			g.print(&sb, b)
			ca, cb := canonOf(t, sa.String(), isJSON), canonOf(t, sb.String(), isJSON)
			want := refEqual(a, b, isJSON)
			if want {
				equal++
			}
			require.Equal(t, want, ca == cb, "%s and %s (canonical %s and %s)", sa.String(), sb.String(), ca, cb)
		}
		t.Logf("json %v: %d of 6000 pairs equal", isJSON, equal)
		assert.Greater(t, equal, 2000, "the pairs exercise equality")
	}
}

// canonOf reads text as one EDN or JSON value and returns its canonical text.
func canonOf(t *testing.T, text string, isJSON bool) string {
	t.Helper()
	if isJSON {
		var lr lineReader
		v, err := lr.p.Parse(text)
		require.NoError(t, err, text)
		s, err := lr.value(v)
		require.NoError(t, err, text)
		return s
	}
	r := &ednReader{src: text, name: "v"}
	v, err := r.read(0)
	require.NoError(t, err, text)
	require.True(t, r.atEnd(), text)
	return v.canon()
}
