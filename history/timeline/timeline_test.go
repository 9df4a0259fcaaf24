package timeline

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteHTML(t *testing.T) {
	tl := &Timeline{
		Title: "queue <history>", Verdict: "not linearizable", Bad: true,
		Notes: []string{"deq() -> 2 cannot be placed"},
		Lanes: []string{"client 1", "client 2"},
		Bars: []Bar{
			{Lane: 0, Start: 1, End: 5, Label: "enq(1)", Detail: "enq(1) line 1", Kind: Linearized, Order: 1},
			{Lane: 0, Start: 3, End: 9, Label: "enq(2)", Detail: "overlaps on the same lane", Kind: Plain},
			{Lane: 1, Start: 6, End: 100, Label: "deq()->2", Detail: "deq -> 2", Kind: Stuck},
			{Lane: 1, Start: 120, End: Open, Label: "deq()", Detail: "pending", Kind: Witness},
		},
	}
	tl.Sections = []Section{{Heading: "interleaving", Text: "step  thread 1\n   1  call <push>(1)"}}
	var b bytes.Buffer
	require.NoError(t, WriteHTML(&b, tl))
	out := b.String()
	assert.Contains(t, out, "<h2>interleaving</h2>\n<pre>step  thread 1\n   1  call &lt;push&gt;(1)</pre>", "sections are preformatted and escaped")
	assert.True(t, strings.HasPrefix(out, "<!DOCTYPE html>"))
	assert.Contains(t, out, "queue &lt;history&gt;", "text is escaped")
	assert.Contains(t, out, `class="stuck"`)
	assert.Contains(t, out, `class="witness open"`, "pending bars are dashed")
	assert.Contains(t, out, `class="lin"`)
	// Two drawings of the four bars (by event order, by time), each with
	// the white box of the stuck label.
	assert.Equal(t, 2*(4+1), strings.Count(out, "<rect "))
	assert.Contains(t, out, `<input type="checkbox" id="by-order">`, "a short history opens drawn by time")
	assert.Contains(t, out, `<g id="stuck-by-time">`, "each drawing has its own target")
	assert.Contains(t, out, `<a href="#stuck-by-time">`)
	for _, external := range []string{"<script", "http://", "https://", "<link"} {
		if external == "http://" {
			// the SVG namespace is an identifier, not a fetch
			out = strings.ReplaceAll(out, `xmlns="http://www.w3.org/2000/svg"`, "")
		}
		assert.NotContains(t, out, external, "the page must work offline")
	}
	assert.Contains(t, out, `<a href="#stuck">`, "a link leads to the failure")
	assert.Contains(t, out, `<g id="stuck">`)
	assert.Contains(t, out, `<text class="callout" x="`, "the stuck label is also drawn unclipped")
	first, _, _ := strings.Cut(out, `class="chart by-time"`)
	assert.Less(t, strings.LastIndex(first, `<g>`), strings.Index(first, `<text class="callout"`), "after every bar, so none covers it")
	assert.Contains(t, out, `<svg class="lanes"`, "lane names stay put while the drawing scrolls")
	// Overlapping bars of one lane go to two sub-rows: lane 2 starts lower.
	assert.Contains(t, out, `y1="90"`)

	// A long one opens compressed to event order.
	long := &Timeline{Lanes: []string{"c"}}
	for i := range 60 {
		long.Bars = append(long.Bars, Bar{Start: int64(2 * i), End: int64(2*i + 1), Label: "op"})
	}
	b.Reset()
	require.NoError(t, WriteHTML(&b, long))
	assert.Contains(t, b.String(), `<input type="checkbox" id="by-order" checked>`)

	tl.Bars[0].Lane = 5
	assert.EqualError(t, WriteHTML(&b, tl), "timeline: bar 0 is on lane 5 of 2")
}

// TestByEventOrderKeepsRealTimeOrder draws random histories compressed to
// event order and checks, for every pair of bars, what a reader sees
// against the times: one bar ends left of where another starts exactly
// when it returned before the other was called; otherwise they overlap.
// It has no more steps than the history has distinct times.
func TestByEventOrderKeepsRealTimeOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 3))
	for range 500 {
		bars := make([]Bar, 1+rng.IntN(12))
		for i := range bars {
			start := int64(rng.IntN(20))
			end := start + int64(rng.IntN(6))
			if rng.IntN(8) == 0 {
				end = Open
			}
			bars[i] = Bar{Start: start, End: end}
		}
		ax := byEventOrder(bars, stepW)
		for i, a := range bars {
			require.LessOrEqual(t, ax.x0[i], ax.x1[i])
			for j, b := range bars {
				if i == j {
					continue
				}
				precedes := a.End != Open && a.End < b.Start
				require.Equal(t, precedes, ax.x1[i] < ax.x0[j], "bars %v and %v", a, b)
			}
		}
		require.LessOrEqual(t, ax.end*colW, byTime(bars, colW).end*stepW, "%v", bars)
	}
}

// A short history's bars are wide enough for their labels, in both
// drawings (issue 37 item 14: one-step bars were 24 px wide, their labels
// readable only on hover); a long one keeps the narrow units.
func TestLabelsFitTheirBars(t *testing.T) {
	bars := []Bar{
		{Lane: 0, Start: 1, End: 2, Label: "push(1)"},
		{Lane: 1, Start: 3, End: 4, Label: "pop() → EMPTY"},
		{Lane: 0, Start: 5, End: Open, Label: "push(2)"},
		{Lane: 1, Start: 5, End: 6, Label: "pop() → 2"},
	}
	barY := make([]int, len(bars))
	step, col := fitLabels(bars)
	for _, d := range []drawing{draw(bars, barY, byEventOrder(bars, step), "a"), draw(bars, barY, byTime(bars, col), "b")} {
		for _, b := range d.Bars {
			assert.GreaterOrEqual(t, b.W, 7*utf8.RuneCountInString(b.Label)+8, "%s in drawing %s", b.Label, d.ID)
		}
	}
	var long []Bar
	for i := range 500 {
		long = append(long, Bar{Start: int64(2 * i), End: int64(2*i + 1), Label: "a long label for an op"})
	}
	step, col = fitLabels(long)
	assert.Equal(t, [2]int{stepW, colW}, [2]int{step, col})
}

// A timeline without bars (a run with nothing to draw) is a page of its
// notes and sections, without an empty drawing or table.
func TestNoBarsNoDrawing(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteHTML(&b, &Timeline{Title: "t", Verdict: "holds", Lanes: []string{"thread 1"},
		Sections: []Section{{Heading: "the run", Text: "LINEARIZABLE YES"}}}))
	out := b.String()
	for _, absent := range []string{"<svg", "<table", `class="legend"`, `type="checkbox"`} {
		assert.NotContains(t, out, absent)
	}
	assert.Contains(t, out, "<h2>the run</h2>\n<pre>LINEARIZABLE YES</pre>")
}
