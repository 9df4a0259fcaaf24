// Package timeline draws a concurrent history as a self-contained HTML
// page: one row of operation bars per client, in the style of Porcupine's
// visualisation, with annotations explaining a verdict (a timeline without
// bars is a page of its notes and sections). The page needs no
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
	"sync"
	"unicode/utf8"
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
	Lane  int    // the index of its lane in Timeline.Lanes
	Start int64  // its call's time
	End   int64  // its return's time; Open for a pending operation
	Label string // the short text drawn in the bar
	// Detail is shown as a tool tip and in the table under the drawing.
	Detail string
	Kind   Kind // its annotation, which colours it
	// Order is the bar's 1-based position in a linearization, 0 if none.
	Order int
}

// Timeline is a history with annotations.
type Timeline struct {
	Title string // the page's title
	// Verdict is the headline; Bad colours it as a failure.
	Verdict string
	Bad     bool // the verdict is a failure (red); false: green
	// Notes are paragraphs under the headline.
	Notes []string
	// Lanes names the rows (clients, threads); Bar.Lane indexes it.
	Lanes []string
	Bars  []Bar // the operations, each drawn as a bar and listed in the table
	// Sections are preformatted blocks under the table, each with a
	// heading, e.g. a model checker's interleaving table.
	Sections []Section
}

// Section is a preformatted block of text with a heading and an
// optional introductory paragraph.
type Section struct {
	Heading string // the section's heading
	Intro   string // a paragraph before the text; "" for none
	Text    string // the preformatted block
}

// Layout constants, in pixels.
const (
	colW    = 26 // width of one distinct event time (drawing by time)
	stepW   = 32 // width of one step of the drawing by event order
	rowH    = 30 // height of one sub-row of a lane
	barH    = 22
	labelW  = 110
	padding = 10
	// compressAbove is the width of the drawing by time beyond which the
	// page opens on the drawing by event order: bars of a short history
	// are easier to read with their times spread out.
	compressAbove = 1000
	// fitWidth is the widest a drawing may grow so that its labels fit
	// (fitLabels).
	fitWidth = 3000
)

// svgBar is one bar of a drawing, placed.
type svgBar struct {
	X, Y, W int    // the box's left, top and width, in pixels
	Label   string // the text drawn in the box (Bar.Label)
	Detail  string // the tool tip (Bar.Detail)
	Class   string // the CSS class of its Kind: plain, lin, stuck or witness
	Order   int    // Bar.Order: its position in the linearization, 0 if none
	OpenEnd bool   // the bar is pending: its box is dashed and runs to the end
	// Stuck bars show their whole label beside the box (the box clips
	// it), drawn after all bars so that none hides it, and carry the id
	// the page's link to the failure points at; CalloutW is the width of
	// the label's white box, which hides what lies under it.
	Stuck    bool
	CalloutW int // see Stuck; 0 for other bars
}

// svgLane is one lane of a drawing.
type svgLane struct {
	Name string // Timeline.Lanes's name for it
	Y, H int    // its top and height, in pixels (one row per overlapping bar)
}

// drawing is the history drawn along one time axis.
type drawing struct {
	// ID is the id of the stuck bar, the target of the page's link.
	ID string
	// Width is that of the scrolling drawing, right of the lane names.
	Width int
	Bars  []svgBar // the bars, as Timeline.Bars
}

type page struct {
	*Timeline
	Height   int       // the drawings' height, in pixels
	HasStuck bool      // a bar is Stuck: the page links to it
	Lanes    []svgLane // the lanes, as Timeline.Lanes
	// ByOrder compresses time to the order of events; ByTime gives every
	// distinct time its column. The page shows one, a check box toggles;
	// Compress ticks it: by default the drawing by time is shown unless it
	// is wider than a screen.
	ByOrder, ByTime drawing
	Compress        bool  // the page opens on ByOrder: ByTime is wider than a screen
	Rows            []Bar // the table's rows: Timeline.Bars, in order
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
	// Within a lane, overlapping bars go to separate sub-rows. Both time
	// axes keep which bars overlap, so the rows serve both drawings.
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
	barY := make([]int, len(t.Bars))
	for l, name := range t.Lanes {
		h := max(1, len(subEnds[l])) * rowH
		p.Lanes = append(p.Lanes, svgLane{Name: name, Y: y, H: h})
		for i, b := range t.Bars {
			if b.Lane == l {
				barY[i] = y + sub[i]*rowH + (rowH-barH)/2
			}
		}
		y += h
	}
	p.Height = y + padding
	for _, b := range t.Bars {
		p.HasStuck = p.HasStuck || b.Kind == Stuck
	}
	step, col := fitLabels(t.Bars)
	p.ByOrder = draw(t.Bars, barY, byEventOrder(t.Bars, step), "stuck")
	p.ByTime = draw(t.Bars, barY, byTime(t.Bars, col), "stuck-by-time")
	p.Compress = p.ByTime.Width > compressAbove
	return pageTemplate().Execute(w, &p)
}

// axis gives the x of each bar's start and end, and where open bars end.
type axis struct {
	x0, x1 []int
	end    int
}

// fitLabels returns the widths of a step of the drawing by event order
// and of a column of the drawing by time: stepW and colW, widened so that
// the shortest bar holds the longest label (a bar is a nested SVG that
// clips its text) as long as each drawing stays within fitWidth; a longer
// history keeps the narrow units, its labels whole in the tool tips and
// the table.
func fitLabels(bars []Bar) (step, col int) {
	need := 0 // px of the longest label in its box: 11 px monospace, x=4
	for _, b := range bars {
		need = max(need, 7*utf8.RuneCountInString(b.Label)+8)
	}
	step, col = stepW, colW
	// The shortest closed bar is 3/4 of a step (call and return in one
	// step), or 3/2 of a column (return in the column after the call).
	if s := (4*need + 2) / 3; s > step && byEventOrder(bars, s).end <= fitWidth {
		step = s
	}
	if c := (2*need + 2) / 3; c > col && byTime(bars, c).end <= fitWidth {
		col = c
	}
	return step, col
}

// byTime gives each distinct time a column of width colW, in order: the
// gaps between times are not drawn, but every time is.
func byTime(bars []Bar, colW int) axis {
	var times []int64
	for _, b := range bars {
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
	a := axis{end: (len(rank) + 1) * colW}
	for _, b := range bars {
		a.x0 = append(a.x0, rank[b.Start]*colW)
		x1 := a.end
		if b.End != Open {
			x1 = rank[b.End]*colW + colW/2
		}
		a.x1 = append(a.x1, x1)
	}
	return a
}

// byEventOrder compresses time to what linearizability looks at: which
// operations overlap and which precede others. Scanning the events in time
// order (calls before returns at equal times, since those overlap), a new
// step starts only where a call follows a return; calls are drawn at the
// start of their step, returns near its end. So a bar ends before another
// starts exactly when its return is earlier than the other's call, and a
// run of calls or of returns takes one step however many times it spans.
// A step is stepW wide.
func byEventOrder(bars []Bar, stepW int) axis {
	type event struct {
		at   int64
		ret  bool
		bar  int
		step int
	}
	var evs []event
	for i, b := range bars {
		evs = append(evs, event{at: b.Start, bar: i})
		if b.End != Open {
			evs = append(evs, event{at: b.End, ret: true, bar: i})
		}
	}
	sort.SliceStable(evs, func(a, b int) bool {
		if evs[a].at != evs[b].at {
			return evs[a].at < evs[b].at
		}
		return !evs[a].ret && evs[b].ret
	})
	a := axis{x0: make([]int, len(bars)), x1: make([]int, len(bars))}
	step := 0
	for k, e := range evs {
		if k > 0 && !e.ret && evs[k-1].ret {
			step++
		}
		if e.ret {
			a.x1[e.bar] = step*stepW + stepW*3/4
		} else {
			a.x0[e.bar] = step * stepW
		}
	}
	a.end = (step + 1) * stepW
	for i, b := range bars {
		if b.End == Open {
			a.x1[i] = a.end
		}
	}
	return a
}

// draw lays the bars out along ax, on the rows barY.
func draw(bars []Bar, barY []int, ax axis, id string) drawing {
	d := drawing{ID: id, Width: ax.end + 2*padding}
	classes := [...]string{"plain", "lin", "stuck", "witness"}
	stuckDrawn := false
	for i, b := range bars {
		x0, x1 := ax.x0[i], ax.x1[i]
		stuck := b.Kind == Stuck && !stuckDrawn // the first one gets the id
		calloutW := 0
		if stuck {
			stuckDrawn = true
			calloutW = 7*utf8.RuneCountInString(b.Label) + 6                 // 11 px bold monospace
			d.Width = max(d.Width, padding+max(x1-x0, colW/2)+x0+calloutW+4) // room for the label beside the box
		}
		d.Bars = append(d.Bars, svgBar{
			X: padding + x0, Y: barY[i], W: max(x1-x0, colW/2),
			Label: b.Label, Detail: b.Detail, Class: classes[b.Kind], Order: b.Order, OpenEnd: b.End == Open, Stuck: stuck, CalloutW: calloutW,
		})
	}
	return d
}

// pageTemplate is parsed on first use, not at package init: every run of
// the linbis binary, whatever its verb, would otherwise parse it.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"add":    func(a, b int) int { return a + b },
		"labelW": func() int { return labelW },
		"chart":  func(p *page, d drawing, class string) chartData { return chartData{p, d, class} },
	}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em} .verdict{font-weight:bold;color:#1a7f37} .verdict.bad{color:#cf222e}
.chart{display:flex;border:1px solid #ddd;margin:1em 0} .scroll{overflow-x:auto;flex:1}
svg.lanes{flex:none;background:#fafafa;border-right:1px solid #ddd}
text.callout{font-weight:bold;fill:#cf222e} rect.callout{fill:#fff;stroke:#cf222e}
svg text{font-size:11px;font-family:ui-monospace,monospace}
rect.plain{fill:#e8e8e8;stroke:#888} rect.lin{fill:#c8ecd0;stroke:#1a7f37}
rect.stuck{fill:#ffd0d0;stroke:#cf222e;stroke-width:2} rect.witness{fill:#ffe7a8;stroke:#9a6700;stroke-width:2}
rect.open{stroke-dasharray:4 3} circle{fill:#1a7f37} circle+text{fill:#fff}
table{border-collapse:collapse;font-size:.9em} td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}
tr.stuck{background:#ffd0d0} tr.witness{background:#ffe7a8} tr.lin{background:#eef9f0}
.legend span{display:inline-block;padding:0 .6em;margin-right:.5em;border:1px solid #888}
.hint{color:#666;font-size:.9em}
#by-order:checked ~ .by-time, #by-order:not(:checked) ~ .by-order{display:none}
</style></head><body>
<h1>{{.Title}}</h1>
<p class="verdict{{if .Bad}} bad{{end}}">{{.Verdict}}</p>
{{range .Notes}}<p>{{.}}</p>
{{end}}{{if .Bars}}<p class="legend"><span style="background:#c8ecd0">linearized, in order</span><span style="background:#ffd0d0">cannot be placed</span><span style="background:#ffe7a8">in the bad pattern</span><span style="background:#e8e8e8">other</span> dashed: pending (never returned)</p>
<input type="checkbox" id="by-order"{{if .Compress}} checked{{end}}><label for="by-order"> time compressed to the order of events</label>
<span class="hint">(a new step only where an operation returns before another is called; untick to give every distinct time its own column)</span>
{{if .HasStuck}}<p class="by-order"><a href="#{{.ByOrder.ID}}">Go to the operation that cannot be placed</a> (red).</p>
<p class="by-time"><a href="#{{.ByTime.ID}}">Go to the operation that cannot be placed</a> (red).</p>
{{end}}{{template "chart" (chart . .ByOrder "by-order")}}{{template "chart" (chart . .ByTime "by-time")}}
<table><tr><th>#</th><th>lane</th><th>operation</th><th>order</th></tr>
{{range $i, $b := .Rows}}<tr class="{{if eq $b.Kind 1}}lin{{else if eq $b.Kind 2}}stuck{{else if eq $b.Kind 3}}witness{{end}}"><td>{{$i}}</td><td>{{index $.Timeline.Lanes $b.Lane}}</td><td>{{$b.Detail}}</td><td>{{if $b.Order}}{{$b.Order}}{{end}}</td></tr>
{{end}}</table>
{{end}}{{range .Timeline.Sections}}<h2>{{.Heading}}</h2>
{{if .Intro}}<p>{{.Intro}}</p>
{{end}}<pre>{{.Text}}</pre>
{{end}}</body></html>
{{define "chart"}}<div class="chart {{.Class}}"><svg class="lanes" xmlns="http://www.w3.org/2000/svg" width="{{labelW}}" height="{{.Page.Height}}">
{{range .Page.Lanes}}<line x1="0" x2="100%" y1="{{.Y}}" y2="{{.Y}}" stroke="#eee"/><text x="4" y="{{add .Y 18}}">{{.Name}}</text>
{{end}}</svg><div class="scroll"><svg xmlns="http://www.w3.org/2000/svg" width="{{.Width}}" height="{{.Page.Height}}">
{{range .Page.Lanes}}<line x1="0" x2="100%" y1="{{.Y}}" y2="{{.Y}}" stroke="#eee"/>
{{end}}{{$id := .ID}}{{range .Bars}}<g{{if .Stuck}} id="{{$id}}"{{end}}><title>{{.Detail}}</title><svg x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="22"><rect class="{{.Class}}{{if .OpenEnd}} open{{end}}" x="1" y="1" width="{{add .W -2}}" height="20" rx="3"/><text x="4" y="15">{{.Label}}</text></svg>{{if .Order}}<circle cx="{{.X}}" cy="{{.Y}}" r="8"/><text x="{{add .X -4}}" y="{{add .Y 4}}" style="font-size:9px">{{.Order}}</text>{{end}}</g>
{{end}}{{range .Bars}}{{if .Stuck}}<rect class="callout" x="{{add .X (add .W 2)}}" y="{{add .Y 2}}" width="{{.CalloutW}}" height="18" rx="3"/><text class="callout" x="{{add .X (add .W 5)}}" y="{{add .Y 15}}">{{.Label}}</text>
{{end}}{{end}}</svg></div></div>
{{end}}`))
})

// chartData is what the "chart" template draws: one drawing of a page,
// shown when the page's check box says so (Class).
type chartData struct {
	Page *page // the page the drawing belongs to
	drawing
	Class string // by-order or by-time: the check box's state that shows it
}
