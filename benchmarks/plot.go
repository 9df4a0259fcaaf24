package main

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// WritePlot draws time against implementation states, log–log, one series
// per method, so that the gap between bisimulation and refinement shows.
func WritePlot(path string, rows []*Row) error {
	p := plot.New()
	p.Title.Text = "linbis: verification time vs state space"
	p.X.Label.Text = "implementation states"
	p.Y.Label.Text = "seconds"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{}, plot.LogTicks{}
	series := []struct {
		name string
		get  func(*Row) float64
	}{
		{"bisimulation (Thm 5.4)", func(r *Row) float64 { return r.BisimSeconds }},
		{"refinement, antichains (Thm 3.3)", func(r *Row) float64 { return r.RefineSeconds }},
		{"refinement, no antichains", func(r *Row) float64 { return r.RefineNoACSeconds }},
	}
	var lines []any
	for _, s := range series {
		var pts plotter.XYs
		for _, r := range rows {
			// Log scales cannot show zero; a run below a millisecond is drawn at 1 ms.
			if v := s.get(r); v >= 0 && r.ImplStates > 0 {
				pts = append(pts, plotter.XY{X: float64(r.ImplStates), Y: max(v, 1e-3)})
			}
		}
		if len(pts) > 0 {
			lines = append(lines, s.name, pts)
		}
	}
	if len(lines) == 0 {
		return fmt.Errorf("no measurements to plot")
	}
	if err := plotutil.AddScatters(p, lines...); err != nil {
		return err
	}
	// A log axis needs a positive range; with one point (or equal values)
	// gonum widens it by ±1, below zero, so widen it by a factor instead.
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		if ax.Min == ax.Max {
			ax.Min, ax.Max = ax.Min/2, ax.Max*2
		}
	}
	p.Legend.Top = true
	p.Legend.Left = true
	return p.Save(18*vg.Centimeter, 12*vg.Centimeter, path)
}
