package lts

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSwarNumber holds swarNumber to a loop over the digits, on words of
// digits cut by a byte of every kind at every position.
func TestSwarNumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 1))
	for range 200000 {
		var w [8]byte
		for i := range w {
			w[i] = '0' + byte(rng.IntN(10))
		}
		if cut := rng.IntN(9); cut < 8 {
			w[cut] = byte(rng.IntN(256))
		}
		var want uint64
		n := 0
		for n < 8 && w[n] >= '0' && w[n] <= '9' {
			want = want*10 + uint64(w[n]-'0')
			n++
		}
		v, gotN := swarNumber(binary.LittleEndian.Uint64(w[:]))
		require.Equal(t, n, gotN, "%q", w)
		if n > 0 && n < 8 {
			require.Equal(t, want, v, "%q", w)
		}
	}
}

// TestLabelSize holds labelSize to a scan for the closing quote, on
// 16-byte windows made mostly of quotes, line breaks and letters.
func TestLabelSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 2))
	alphabet := []byte{'"', '\n', 'a', 'b', 0, 0x80, 0xa2, '"' + 1, '\n' + 1}
	for range 200000 {
		var w [16]byte
		for i := range w {
			if rng.IntN(4) == 0 {
				w[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				w[i] = 'a' + byte(rng.IntN(26))
			}
		}
		want := bytes.IndexAny(w[:], "\"\n")
		if want < 1 || w[want] != '"' {
			want = 0
		}
		got := labelSize(binary.LittleEndian.Uint64(w[:8]), binary.LittleEndian.Uint64(w[8:]))
		require.Equal(t, want, got, "%q", w)
	}
}

// TestQuickLinesAgrees holds the bulk path (quickLines, bulkLines and the
// label cache) to quickLine: on buffers of canonical lines, some mutated,
// with many labels (so that the cache's entries collide), labels of 14 to
// 17 bytes, numbers of 7 to 9 digits and "\r\n" endings, quickLines must
// take exactly the lines that quickLine takes one after the other, up to
// max, with the same transitions and bytes; one parser reads all the
// buffers, as the reader's buffer is refilled, so its cache carries over.
// It also checks that bulkLines itself reads most lines, so that the test
// is not vacuous.
func TestQuickLinesAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 3))
	const nstates = 123456789
	var labels []string
	for i := range 300 {
		labels = append(labels, fmt.Sprintf("l%d", i))
	}
	labels = append(labels, "tau", "i", "tau2", "ta", "call(1,push,2)", "abcdefghijklmno", "abcdefghijklmnop",
		"abcdefghijklmnopq", "12345678", "x\x00", "x")
	line := func() string {
		num := func() int {
			switch rng.IntN(10) {
			case 0:
				return rng.IntN(nstates + 1000) // 8 or 9 digits, some out of range
			case 1:
				return rng.IntN(10)
			}
			return rng.IntN(10000000)
		}
		l := fmt.Sprintf("(%d,\"%s\",%d)", num(), labels[rng.IntN(len(labels))], num())
		if rng.IntN(50) == 0 {
			i := rng.IntN(len(l) + 1)
			l = l[:i] + []string{" ", "\"", ",", "\n", "x", "("}[rng.IntN(6)] + l[i:]
		}
		if rng.IntN(10) == 0 {
			return l + "\r\n"
		}
		return l + "\n"
	}
	lines := func(b *Builder, from int) []string {
		out := []string{}
		for i := from; i < len(b.src); i++ {
			out = append(out, fmt.Sprintf("%d %s %d", b.src[i], b.labels[b.lab[i]], b.dst[i]))
		}
		return out
	}
	bulk, total := 0, 0
	for _, visibleI := range []bool{false, true} {
		opts := ReadOptions{VisibleI: visibleI}
		p, b := autParser{opts: opts}, NewBuilder()
		for range 300 {
			var text strings.Builder
			for range 1 + rng.IntN(200) {
				text.WriteString(line())
			}
			data := []byte(text.String())
			max := int64(1 + rng.IntN(250))
			// The reference: quickLine, line after line.
			ref, rb := autParser{opts: opts}, NewBuilder()
			wantUsed := 0
			for int64(len(rb.src)) < max {
				s, l, d, _, n, ok := ref.quickLine(rb, data[wantUsed:], nstates)
				if !ok {
					break
				}
				rb.AddTransition(s, l, d)
				wantUsed += n
			}
			from := len(b.src)
			used, n := p.quickLines(b, data, nstates, max)
			require.Equal(t, lines(rb, 0), lines(b, from), "data %q", data)
			require.Equal(t, wantUsed, used, "data %q", data)
			require.Equal(t, int64(len(rb.src)), n)
		}
		// bulkLines alone, on canonical lines of labels in the cache and
		// numbers of at most seven digits: it must read all but those in
		// the last window of bytes.
		for _, name := range labels {
			p.labels.add([]byte(name), p.quickLabel(b, []byte(name)))
		}
		var cached []string
		for _, name := range labels {
			var buf [16]byte
			if len(name) <= 15 {
				copy(buf[:], name)
				w0, w1 := load64(buf[:], 0), load64(buf[:], 8)
				if e := p.labels.slot(w0, w1, len(name)); e.w0 == w0 && e.w1 == w1 && e.size == int32(len(name)) {
					cached = append(cached, name)
				}
			}
		}
		var text strings.Builder
		for range 1000 {
			fmt.Fprintf(&text, "(%d,\"%s\",%d)\n", rng.IntN(10000000), cached[rng.IntN(len(cached))], rng.IntN(10000000))
		}
		data := []byte(text.String())
		src, lab, dst := make([]int32, 1000), make([]int32, 1000), make([]int32, 1000)
		_, n := bulkLines(data, src, lab, dst, 0, nstates, &p.labels)
		bulk += n
		total += 1000
	}
	t.Logf("bulkLines read %d of %d canonical lines on their own", bulk, total)
	assert.GreaterOrEqual(t, bulk, total-2*window/minTransitionBytes, "bulkLines must read the canonical lines")
}

// TestReadAutBulkAgainstGeneral reads files of many labels (the cache's
// entries collide) through the bulk path and, written with a space after
// each comma, through the general one only: the LTSs, label tables
// included, must be equal.
func TestReadAutBulkAgainstGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 4))
	for range 20 {
		nstates := 1 + rng.IntN(5000)
		m := rng.IntN(20000)
		var canon, spaced strings.Builder
		fmt.Fprintf(&canon, "des (0, %d, %d)\n", m, nstates)
		fmt.Fprintf(&spaced, "des (0, %d, %d)\n", m, nstates)
		nlabels := 1 + rng.IntN(400)
		for range m {
			s, d := rng.IntN(nstates), rng.IntN(nstates)
			label := "tau"
			if rng.IntN(3) > 0 {
				label = fmt.Sprintf("a%d(%d)", rng.IntN(nlabels), rng.IntN(3))
			}
			fmt.Fprintf(&canon, "(%d,\"%s\",%d)\n", s, label, d)
			fmt.Fprintf(&spaced, "(%d, \"%s\", %d)\n", s, label, d)
		}
		fast, err := ReadAut(strings.NewReader(canon.String()), "canon", ReadOptions{})
		require.NoError(t, err)
		slow, err := ReadAut(strings.NewReader(spaced.String()), "spaced", ReadOptions{})
		require.NoError(t, err)
		require.Equal(t, slow.Labels, fast.Labels)
		require.Equal(t, slow.Src, fast.Src)
		require.Equal(t, slow.Label, fast.Label)
		require.Equal(t, slow.Dst, fast.Dst)
		require.Equal(t, slow.Out, fast.Out)
	}
}

// FuzzQuickLines holds quickLines to quickLine, line after line, on
// arbitrary buffers (see TestQuickLinesAgrees).
func FuzzQuickLines(f *testing.F) {
	f.Add([]byte("(0,\"tau\",1)\n(1,\"a\",2)\r\n(2,\"tau\",0)\n(1234567,\"call(1,push,2)\",7654321)\n(3,\"i\",4)\n(5,\"abcdefghijklmnop\",6)\n"), uint8(10))
	f.Add([]byte("(0,\"tau\",1)\n(12345678,\"a\",2)\n(2,\"tau\",0)\n(1,\"a\",2)\n(1,\"a\",2)\n(1,\"a\",2)\n(1,\"a\",2)\n(1,\"a\",2)\n(1,\"a\",2)\n"), uint8(200))
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		const nstates = 100000000
		ref, rb := autParser{}, NewBuilder()
		wantUsed := 0
		for len(rb.src) < int(max) {
			s, l, d, _, n, ok := ref.quickLine(rb, data[wantUsed:], nstates)
			if !ok {
				break
			}
			rb.AddTransition(s, l, d)
			wantUsed += n
		}
		// Twice into one builder, as the reader does on its refilled
		// buffer: the cache filled by the first call serves the second.
		p, b := autParser{}, NewBuilder()
		for range 2 {
			from := len(b.src)
			used, n := p.quickLines(b, data, nstates, int64(max))
			require.Equal(t, wantUsed, used)
			require.Equal(t, int64(len(rb.src)), n)
			for i := range rb.src {
				j := from + i
				require.Equal(t, []any{rb.src[i], rb.labels[rb.lab[i]], rb.dst[i]}, []any{b.src[j], b.labels[b.lab[j]], b.dst[j]})
			}
		}
	})
}
