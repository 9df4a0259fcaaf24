package timeline

import (
	"bytes"
	"strings"
	"testing"

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
	assert.Equal(t, 4, strings.Count(out, "<rect "))
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
	assert.Contains(t, out, `<svg class="lanes"`, "lane names stay put while the drawing scrolls")
	// Overlapping bars of one lane go to two sub-rows: lane 2 starts lower.
	assert.Contains(t, out, `y1="90"`)

	tl.Bars[0].Lane = 5
	assert.EqualError(t, WriteHTML(&b, tl), "timeline: bar 0 is on lane 5 of 2")
}
