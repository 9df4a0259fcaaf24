package lts

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadAutGood(t *testing.T) {
	l, err := ReadAutFile("testdata/good/counter.aut", ReadOptions{})
	require.NoError(t, err)
	require.NoError(t, l.Validate())
	assert.Equal(t, int32(5), l.NumStates)
	assert.Equal(t, 6, l.NumTransitions())
	assert.Equal(t, []string{"tau", "call(1,inc)", "ret(1,inc,0)", "call(2,inc)"}, l.Labels)
	st := ComputeStats(l)
	assert.Equal(t, 3, st.TauTransitions, "tau and i both read as τ")
	assert.Equal(t, int32(1), st.DivergentStates, "state 4 has a τ self-loop")

	l, err = ReadAutFile("testdata/good/crlf_unquoted.aut", ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, "call(1,push,2)", l.LabelName(0), "an unquoted label runs to the last comma")
	assert.Equal(t, "ret(1,push)", l.LabelName(1))
}

func TestReadAutErrors(t *testing.T) {
	cases := []struct {
		file string
		pos  string // line:col
		msg  string
	}{
		{"empty.aut", "1:1", "expected header"},
		{"bad_keyword.aut", "1:1", "expected header"},
		{"header_comma.aut", "1:11", "expected ',' after the transition count"},
		{"header_garbage.aut", "1:15", "unexpected 'x' after the header"},
		{"initial_range.aut", "1:6", "initial state 5 out of range"},
		{"too_few.aut", "3:1", "declares 2 transitions, but the file has 1"},
		{"too_many.aut", "3:1", "more transitions than the 1 declared"},
		{"target_range.aut", "2:10", "target state 7 out of range"},
		{"source_range.aut", "2:2", "source state 9 out of range"},
		{"unterminated.aut", "2:5", "unterminated quote"},
		{"trailing.aut", "2:13", "trailing garbage"},
		{"missing_comma.aut", "2:9", "expected ',' after the label"},
		{"missing_paren.aut", "2:1", "expected '(' opening a transition"},
		{"empty_label.aut", "2:6", "expected a label"},
		{"unclosed.aut", "2:11", "expected ')' closing the transition"},
		{"huge_states.aut", "1:12", "state count 99999999999999 is out of range"},
		{"no_states.aut", "1:6", "at least one state"},
		{"bad_source.aut", "2:2", "expected source state"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata/bad", c.file)
			_, err := ReadAutFile(path, ReadOptions{})
			require.Error(t, err)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, path, pe.File)
			assert.Contains(t, err.Error(), path+":"+c.pos+":")
			assert.Contains(t, pe.Msg, c.msg)
		})
	}
}

func TestAutRoundTrip(t *testing.T) {
	for _, name := range []string{"counter.aut", "crlf_unquoted.aut"} {
		t.Run(name, func(t *testing.T) {
			l, err := ReadAutFile(filepath.Join("testdata/good", name), ReadOptions{})
			require.NoError(t, err)
			var buf bytes.Buffer
			require.NoError(t, WriteAut(&buf, l))
			assert.NotContains(t, buf.String(), `"i"`, "τ is written tau")
			first := buf.String()
			l2, err := ReadAut(&buf, "roundtrip", ReadOptions{})
			require.NoError(t, err)
			assert.Equal(t, l.Initial, l2.Initial)
			assert.Equal(t, l.NumStates, l2.NumStates)
			assert.Equal(t, triples(l), triples(l2))
			var again bytes.Buffer
			require.NoError(t, WriteAut(&again, l2))
			assert.Equal(t, first, again.String(), "write is a fixpoint after one round")
		})
	}
}

// TestWriteAutWorkers checks that WriteAut's workers write the same
// bytes as one does, with batches cut anywhere (an LTS of a few chunks
// and a part, and one smaller than a chunk), and that what one writes
// reads back as the LTS.
func TestWriteAutWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 2))
	for _, m := range []int{0, 100, 3*writeChunk + 1234} {
		l := randomLTS(rng, 1+m/4, m, 5)
		var want bytes.Buffer
		require.NoError(t, writeAut(&want, l, 1))
		back, err := ReadAut(bytes.NewReader(want.Bytes()), "written", ReadOptions{})
		require.NoError(t, err)
		assert.Equal(t, triples(l), triples(back), "%d transitions", m)
		for _, workers := range []int{2, 3} {
			var got bytes.Buffer
			require.NoError(t, writeAut(&got, l, workers))
			assert.Equal(t, want.String(), got.String(), "%d transitions, %d workers", m, workers)
		}
	}
}

func TestWriteAutRejectsQuote(t *testing.T) {
	l := FromTriples(0, 2, []Triple{{0, `say "hi"`, 1}})
	err := WriteAut(&bytes.Buffer{}, l)
	assert.ErrorIs(t, err, ErrUnwritableLabel)
}

func TestDotRoundTrip(t *testing.T) {
	l, err := ReadAutFile("testdata/good/counter.aut", ReadOptions{})
	require.NoError(t, err)
	l.Initial = 3
	var buf bytes.Buffer
	require.NoError(t, WriteDot(&buf, l))
	assert.Contains(t, buf.String(), "style=dashed")
	l2, err := ReadDot(strings.NewReader(buf.String()), "x.dot", ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, l.Initial, l2.Initial)
	assert.Equal(t, triples(l), triples(l2))
}

func TestReadDotErrors(t *testing.T) {
	_, err := ReadDot(strings.NewReader("digraph { a -> "), "broken.dot", ReadOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "broken.dot")
	// A syntax error is one line at its position, as the .aut reader's.
	_, err = ReadDot(strings.NewReader("digraph {\n a -> }\n"), "bad.dot", ReadOptions{})
	var pe *ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, `bad.dot:2:7: expected one of "{", subgraph or id, found "}"`, err.Error())
	_, err = ReadDot(strings.NewReader("graph { a -- b }"), "undirected.dot", ReadOptions{})
	assert.ErrorContains(t, err, "directed")
	_, err = ReadDot(strings.NewReader("digraph { a -> b; b -> c }"), "big.dot", ReadOptions{MaxStates: 2})
	assert.ErrorContains(t, err, "big.dot: more than 2 states")
}

// TestReadDotTau: the .dot reader reads labels as the .aut reader does,
// "i" included: τ as CADP reads it, visible with VisibleI as mCRL2 does.
func TestReadDotTau(t *testing.T) {
	const src = "digraph { 0 -> 1 [label=\"a\"]; 1 -> 2 [label=\"i\"]; 2 -> 0 [label=\"tau\"]; 2 -> 1 }"
	for _, visible := range []bool{false, true} {
		d, err := ReadDot(strings.NewReader(src), "x.dot", ReadOptions{VisibleI: visible})
		require.NoError(t, err)
		a, err := ReadAut(strings.NewReader("des (0, 4, 3)\n(0, \"a\", 1)\n(1, i, 2)\n(2, tau, 0)\n(2, tau, 1)\n"), "x.aut", ReadOptions{VisibleI: visible})
		require.NoError(t, err)
		assert.Equal(t, triples(a), triples(d), "VisibleI %v", visible)
		taus := 0
		for tr := range d.Src {
			if d.IsTau(int32(tr)) {
				taus++
			}
		}
		assert.Equal(t, map[bool]int{false: 3, true: 2}[visible], taus)
	}
}

func TestReadWriteFileByExtension(t *testing.T) {
	l := FromTriples(0, 2, []Triple{{0, "a", 1}, {1, "tau", 0}})
	dir := t.TempDir()
	for _, ext := range []string{".aut", ".dot"} {
		path := filepath.Join(dir, "x"+ext)
		require.NoError(t, WriteFile(path, l))
		back, err := ReadFile(path, ReadOptions{})
		require.NoError(t, err)
		assert.Equal(t, triples(l), triples(back), ext)
	}
	assert.Error(t, WriteFile(filepath.Join(dir, "x.txt"), l))
	_, err := ReadFile(filepath.Join(dir, "x.txt"), ReadOptions{})
	assert.ErrorContains(t, err, "unknown LTS format")
}

func FuzzReadAut(f *testing.F) {
	for _, dir := range []string{"testdata/good", "testdata/bad"} {
		entries, err := os.ReadDir(dir)
		require.NoError(f, err)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			require.NoError(f, err)
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ReadAut(bytes.NewReader(data), "fuzz", ReadOptions{MaxStates: 1 << 10})
		if err != nil {
			var pe *ParseError
			if !assert.ErrorAs(t, err, &pe) {
				return
			}
			assert.Positive(t, pe.Line)
			assert.Positive(t, pe.Col)
			return
		}
		require.NoError(t, l.Validate())
		var buf bytes.Buffer
		if WriteAut(&buf, l) == nil {
			l2, err := ReadAut(&buf, "again", ReadOptions{MaxStates: 1 << 10})
			require.NoError(t, err)
			assert.Equal(t, l.NumTransitions(), l2.NumTransitions())
		}
	})
}

// triples lists the transitions of l as sorted "src label dst" strings, so
// that LTSs whose label tables differ in order can be compared.
func triples(l *LTS) []string {
	out := make([]string, len(l.Src))
	for t := range l.Src {
		out[t] = fmt.Sprintf("%d %s %d", l.Src[t], l.LabelName(int32(t)), l.Dst[t])
	}
	sort.Strings(out)
	return out
}

// TestQuickTransitionAgrees holds the reader's fast paths to the general
// one on lines near the canonical shape, mutated at random: whatever line
// quickTransition accepts, transition must accept with the same source,
// label and target, and quickTransition must accept the canonical lines
// (else the fast path would be dead code and the test vacuous);
// quickLine, which reads lines in the reader's buffer, must accept a line
// with its ending exactly when quickTransition accepts the line.
func TestQuickTransitionAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	const nstates = 1000
	pieces := []string{"(", ")", ",", "\"", " ", "\t", "tau", "i", "a", "b(1,2)", "0", "7", "99", "999", "1000", "0123", "12345678901", "\r", "x"}
	canonical := func() string {
		label := []string{"tau", "i", "a", "call(1,inc)", "b\"c"}[rng.IntN(5)]
		return fmt.Sprintf("(%d,\"%s\",%d)", rng.IntN(nstates+5), label, rng.IntN(nstates+5))
	}
	quick, general := 0, 0
	for range 20000 {
		line := canonical()
		if rng.IntN(2) == 0 {
			for range 1 + rng.IntN(3) {
				i := rng.IntN(len(line) + 1)
				switch rng.IntN(3) {
				case 0: // insert a piece
					line = line[:i] + pieces[rng.IntN(len(pieces))] + line[i:]
				case 1: // delete a byte
					if i < len(line) {
						line = line[:i] + line[i+1:]
					}
				default: // replace a byte
					if i < len(line) {
						line = line[:i] + pieces[rng.IntN(len(pieces))][:1] + line[i+1:]
					}
				}
			}
		}
		for _, visibleI := range []bool{false, true} {
			opts := ReadOptions{VisibleI: visibleI}
			qb, gb := NewBuilder(), NewBuilder()
			p := autParser{opts: opts, buf: []byte(line)}
			qs, ql, qd, ok := p.quickTransition(qb, nstates)
			p.pos = 0
			p.skipSpace()
			gs, gl, gd, err := p.transition(gb, nstates)
			if err == nil {
				general++
			}
			if !ok {
				continue
			}
			quick++
			require.NoError(t, err, "quick path accepted %q", line)
			assert.Equal(t, []any{gs, gb.labels[gl], gd}, []any{qs, qb.labels[ql], qd}, "line %q", line)
		}
		// quickLine, on the line with its ending in a buffer that holds
		// more, reads what quickTransition reads of the line as next
		// presents it (its "\n" and then a "\r" cut off), and nothing
		// without a "\n".
		for _, ending := range []string{"\n", "\r\n", "", "\r", "x\n"} {
			full := line + ending
			data := []byte(full + canonical() + "\n")
			if ending == "" {
				data = []byte(line)
			}
			nl := strings.IndexByte(full, '\n')
			wantOK := false
			var qs, qd int32
			var qTau bool
			if nl >= 0 {
				p := autParser{buf: []byte(strings.TrimSuffix(full[:nl], "\r"))}
				var ql int32
				qs, ql, qd, wantOK = p.quickTransition(NewBuilder(), nstates)
				qTau = ql == Tau
			}
			p := autParser{}
			s, l, d, _, n, ok := p.quickLine(NewBuilder(), data, nstates)
			require.Equal(t, wantOK, ok, "line %q ending %q", line, ending)
			if ok {
				assert.Equal(t, nl+1, n, "line %q ending %q", line, ending)
				assert.Equal(t, []any{qs, qd, qTau}, []any{s, d, l == Tau}, "line %q", line)
			}
		}
	}
	t.Logf("%d lines read by the quick path, %d by the general one", quick, general)
	assert.Greater(t, quick, 10000, "the quick path must read the canonical lines")
	assert.Greater(t, general, quick, "some lines must need the general path")
}
