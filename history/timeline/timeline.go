// Package timeline draws a concurrent history as a self-contained HTML
// page: one row of operation bars per client, in the style of Porcupine's
// visualisation, with annotations explaining a verdict. The page needs no
// network (no scripts, fonts or style sheets from elsewhere): the drawing
// is inline SVG (each bar clips its label) and tool tips are SVG titles.
//
// It knows nothing about how the history was obtained, so `linbis history`
// (recorded histories) and model checkers (counterexamples) share it.
package timeline

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
)

// Open is the End of a bar that never ends (a pending operation).
const Open int64 = math.MaxInt64

// Kind says how a bar is annotated, and so how it is coloured.
type Kind int

const (
	// Plain is an operation without annotation.
	Plain Kind = iota
	// Linearized is an operation placed by the explanation (Order > 0).
	Linearized
	// Stuck is the operation that cannot be placed.
	Stuck
	// Witness is an operation of a bad pattern or other evidence.
	Witness
)

// Bar is one operation: on lane Lane from Start to End (times in any
// unit; only their order is drawn).
type Bar struct {
	Lane       int
	Start, End int64
	Label      string
	// Detail is shown as a tool tip and in the table under the drawing.
	Detail string
	Kind   Kind
	// Order is the bar's 1-based position in a linearization, 0 if none.
	Order int
}

// Timeline is a history with annotations.
type Timeline struct {
	Title string
	// Verdict is the headline; Bad colours it as a failure.
	Verdict string
	Bad     bool
	// Notes are paragraphs under the headline.
	Notes []string
	// Lanes names the rows (clients, threads); Bar.Lane indexes it.
	Lanes []string
	Bars  []Bar
	// Sections are preformatted blocks under the table, each with a
	// heading, e.g. a model checker's interleaving table.
	Sections []Section
}

// Section is a preformatted block of text with a heading and an
// optional introductory paragraph.
type Section struct {
	Heading string
	Intro   string
	Text    string
}

// Layout constants, in pixels.
const (
	colW    = 26 // width of one distinct event time
	rowH    = 30 // height of one sub-row of a lane
	barH    = 22
	labelW  = 110
	padding = 10
)

type svgBar struct {
	X, Y, W       int
	Label, Detail string
	Class         string
	Order         int
	OpenEnd       bool
	// Stuck bars show their whole label beside the box (the box clips
	// it) and carry the id the page's link to the failure points at.
	Stuck bool
}

type svgLane struct {
	Name string
	Y, H int
}

type page struct {
	*Timeline
	// Width is that of the scrolling drawing, right of the lane names.
	Width, Height int
	HasStuck      bool
	Lanes         []svgLane
	Bars          []svgBar
	Rows          []Bar
}

// WriteHTML writes t as one self-contained HTML page.
func WriteHTML(w io.Writer, t *Timeline) error {
	for i, b := range t.Bars {
		if b.Lane < 0 || b.Lane >= len(t.Lanes) {
			return fmt.Errorf("timeline: bar %d is on lane %d of %d", i, b.Lane, len(t.Lanes))
		}
		if b.End < b.Start {
			return fmt.Errorf("timeline: bar %d ends at %d before it starts at %d", i, b.End, b.Start)
		}
	}
	// Times are drawn by rank, so that long pauses do not stretch the page.
	var times []int64
	for _, b := range t.Bars {
		times = append(times, b.Start)
		if b.End != Open {
			times = append(times, b.End)
		}
	}
	sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
	rank := map[int64]int{}
	for _, x := range times {
		if _, ok := rank[x]; !ok {
			rank[x] = len(rank)
		}
	}
	cols := len(rank) + 1
	// Within a lane, overlapping bars go to separate sub-rows.
	order := make([]int, len(t.Bars))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return t.Bars[order[a]].Start < t.Bars[order[b]].Start })
	subEnds := make([][]int64, len(t.Lanes)) // per lane, per sub-row: last end
	sub := make([]int, len(t.Bars))
	for _, i := range order {
		b := t.Bars[i]
		r := 0
		for r < len(subEnds[b.Lane]) && subEnds[b.Lane][r] >= b.Start {
			r++
		}
		if r == len(subEnds[b.Lane]) {
			subEnds[b.Lane] = append(subEnds[b.Lane], 0)
		}
		subEnds[b.Lane][r] = b.End
		sub[i] = r
	}
	p := page{Timeline: t, Rows: t.Bars}
	y := padding + 20
	laneY := make([]int, len(t.Lanes))
	for l, name := range t.Lanes {
		h := max(1, len(subEnds[l])) * rowH
		laneY[l] = y
		p.Lanes = append(p.Lanes, svgLane{Name: name, Y: y, H: h})
		y += h
	}
	p.Height = y + padding
	p.Width = cols*colW + padding
	classes := [...]string{"plain", "lin", "stuck", "witness"}
	for i, b := range t.Bars {
		x0 := rank[b.Start] * colW
		x1 := cols * colW
		if b.End != Open {
			x1 = rank[b.End]*colW + colW/2
		}
		stuck := b.Kind == Stuck && !p.HasStuck // the first one gets the id
		if stuck {
			p.HasStuck = true
			p.Width = max(p.Width, x1+8*len(b.Label)) // room for the label beside the box
		}
		p.Bars = append(p.Bars, svgBar{
			X: x0, Y: laneY[b.Lane] + sub[i]*rowH + (rowH-barH)/2, W: max(x1-x0, colW/2),
			Label: b.Label, Detail: b.Detail, Class: classes[b.Kind], Order: b.Order, OpenEnd: b.End == Open, Stuck: stuck,
		})
	}
	return pageTemplate.Execute(w, &p)
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"add":    func(a, b int) int { return a + b },
	"labelW": func() int { return labelW },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em} .verdict{font-weight:bold;color:#1a7f37} .verdict.bad{color:#cf222e}
.chart{display:flex;border:1px solid #ddd;margin:1em 0} .scroll{overflow-x:auto;flex:1}
svg.lanes{flex:none;background:#fafafa;border-right:1px solid #ddd}
text.callout{font-weight:bold;fill:#cf222e;paint-order:stroke;stroke:#fff;stroke-width:4px}
svg text{font-size:11px;font-family:ui-monospace,monospace}
rect.plain{fill:#e8e8e8;stroke:#888} rect.lin{fill:#c8ecd0;stroke:#1a7f37}
rect.stuck{fill:#ffd0d0;stroke:#cf222e;stroke-width:2} rect.witness{fill:#ffe7a8;stroke:#9a6700;stroke-width:2}
rect.open{stroke-dasharray:4 3} circle{fill:#1a7f37} circle+text{fill:#fff}
table{border-collapse:collapse;font-size:.9em} td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}
tr.stuck{background:#ffd0d0} tr.witness{background:#ffe7a8} tr.lin{background:#eef9f0}
.legend span{display:inline-block;padding:0 .6em;margin-right:.5em;border:1px solid #888}
</style></head><body>
<h1>{{.Title}}</h1>
<p class="verdict{{if .Bad}} bad{{end}}">{{.Verdict}}</p>
{{range .Notes}}<p>{{.}}</p>
{{end}}<p class="legend"><span style="background:#c8ecd0">linearized, in order</span><span style="background:#ffd0d0">cannot be placed</span><span style="background:#ffe7a8">in the bad pattern</span><span style="background:#e8e8e8">other</span> dashed: pending (never returned)</p>
{{if .HasStuck}}<p><a href="#stuck">Go to the operation that cannot be placed</a> (red).</p>
{{end}}<div class="chart"><svg class="lanes" xmlns="http://www.w3.org/2000/svg" width="{{labelW}}" height="{{.Height}}">
{{range .Lanes}}<line x1="0" x2="100%" y1="{{.Y}}" y2="{{.Y}}" stroke="#eee"/><text x="4" y="{{add .Y 18}}">{{.Name}}</text>
{{end}}</svg><div class="scroll"><svg xmlns="http://www.w3.org/2000/svg" width="{{.Width}}" height="{{.Height}}">
{{range .Lanes}}<line x1="0" x2="100%" y1="{{.Y}}" y2="{{.Y}}" stroke="#eee"/>
{{end}}{{range .Bars}}<g{{if .Stuck}} id="stuck"{{end}}><title>{{.Detail}}</title><svg x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="22"><rect class="{{.Class}}{{if .OpenEnd}} open{{end}}" x="1" y="1" width="{{add .W -2}}" height="20" rx="3"/><text x="4" y="15">{{.Label}}</text></svg>{{if .Order}}<circle cx="{{.X}}" cy="{{.Y}}" r="8"/><text x="{{add .X -4}}" y="{{add .Y 4}}" style="font-size:9px">{{.Order}}</text>{{end}}{{if .Stuck}}<text class="callout" x="{{add .X (add .W 4)}}" y="{{add .Y 15}}">{{.Label}}</text>{{end}}</g>
{{end}}</svg></div></div>
<table><tr><th>#</th><th>lane</th><th>operation</th><th>order</th></tr>
{{range $i, $b := .Rows}}<tr class="{{if eq $b.Kind 1}}lin{{else if eq $b.Kind 2}}stuck{{else if eq $b.Kind 3}}witness{{end}}"><td>{{$i}}</td><td>{{index $.Timeline.Lanes $b.Lane}}</td><td>{{$b.Detail}}</td><td>{{if $b.Order}}{{$b.Order}}{{end}}</td></tr>
{{end}}</table>
{{range .Timeline.Sections}}<h2>{{.Heading}}</h2>
{{if .Intro}}<p>{{.Intro}}</p>
{{end}}<pre>{{.Text}}</pre>
{{end}}</body></html>
`))
