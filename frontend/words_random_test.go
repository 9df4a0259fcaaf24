package frontend

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/internal/testsize"
)

// TestWordsAgreeOnRandomModels cross-checks words against their oracle,
// the atomic-pair encoding, on random models: each random object uses a
// shared word w = (r ref N, k int) read whole, written whole, cas'd,
// compared and read field by field, and is written twice, once with the
// word and once with two shared variables wr and wk whose every access of
// the pair is an atomic block. The two implementations must be
// divergence-preserving branching bisimilar (2 threads, 2 operations).
func TestWordsAgreeOnRandomModels(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	n := testsize.Count(20, 80)
	for i := range n {
		word, pair := randomWordModel(r)
		b := Bounds{Threads: 2, Ops: 2, Values: []int{1}}
		lw := implOf(t, "word.lin", []byte(word), b)
		lp := implOf(t, "pair.lin", []byte(pair), b)
		c, err := bisim.Compare(lw, lp, bisim.DivBranching, bisim.Options{})
		require.NoError(t, err)
		require.True(t, c.Equivalent, "model %d differs:\n%s\n%s", i, word, pair)
	}
}

// randomWordModel returns one random object written with a word and with
// an atomic pair.
func randomWordModel(r *rand.Rand) (word, pair string) {
	var w, p strings.Builder
	w.WriteString("object W {\n  word P { r ref N; k int }\n  heap N { v int }\n  shared w P\n  shared c int = 0\n")
	p.WriteString("object W {\n  heap N { v int }\n  shared wr ref N = null\n  shared wk int = 0\n  shared c int = 0\n")
	for m := range 2 {
		fmt.Fprintf(&w, "  method m%d() int {\n    t := w\n", m)
		fmt.Fprintf(&p, "  method m%d() int {\n    var tr ref N\n    tk := 0\n    atomic { tr = wr; tk = wk }\n", m)
		for s := range r.IntN(3) {
			// ref and int values, in both spellings
			refs := [][2]string{{"t.r", "tr"}, {"null", "null"}, {"new N{v: 1}", "new N{v: 1}"}, {"new N{v: 2}", "new N{v: 2}"}}
			ints := [][2]string{{"t.k + 1", "tk + 1"}, {"0", "0"}, {"2", "2"}, {"c", "c"}}
			rv, kv := refs[r.IntN(len(refs))], ints[r.IntN(len(ints))]
			switch r.IntN(6) {
			case 0: // cas
				fmt.Fprintf(&w, "    if cas(w, t, P(%s, %s)) { c = c + 1 }\n", rv[0], kv[0])
				fmt.Fprintf(&p, "    ok%d := false\n    atomic { if wr == tr && wk == tk { wr = %s; wk = %s; ok%d = true } }\n    if ok%d { c = c + 1 }\n", s, rv[1], kv[1], s, s)
			case 1: // whole write
				fmt.Fprintf(&w, "    w = P(%s, %s)\n", rv[0], kv[0])
				fmt.Fprintf(&p, "    atomic { wr = %s; wk = %s }\n", rv[1], kv[1])
			case 2: // whole read again
				w.WriteString("    t = w\n")
				p.WriteString("    atomic { tr = wr; tk = wk }\n")
			case 3: // a field read
				w.WriteString("    c = w.k\n")
				p.WriteString("    c = wk\n")
			case 4: // compare whole
				fmt.Fprintf(&w, "    if w == P(%s, %s) { c = 1 }\n", rv[0], kv[0])
				fmt.Fprintf(&p, "    eq%d := false\n    atomic { eq%d = wr == %s && wk == %s }\n    if eq%d { c = 1 }\n", s, s, rv[1], kv[1], s)
			case 5: // a reference field read through the word
				fmt.Fprintf(&w, "    u%d := w.r\n    if u%d != null { c = u%d.v }\n", s, s, s)
				fmt.Fprintf(&p, "    u%d := wr\n    if u%d != null { c = u%d.v }\n", s, s, s)
			}
		}
		switch r.IntN(3) {
		case 0:
			w.WriteString("    return t.k\n  }\n")
			p.WriteString("    return tk\n  }\n")
		case 1:
			w.WriteString("    if t.r != null { return t.r.v }\n    return -1\n  }\n")
			p.WriteString("    if tr != null { return tr.v }\n    return -1\n  }\n")
		default:
			w.WriteString("    return c\n  }\n")
			p.WriteString("    return c\n  }\n")
		}
	}
	w.WriteString("}\nspec auto\n")
	p.WriteString("}\nspec auto\n")
	return w.String(), p.String()
}
