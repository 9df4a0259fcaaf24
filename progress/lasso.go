package progress

import (
	"github.com/linbis/linbis/lasso"
	"github.com/linbis/linbis/lts"
)

// cycleSpec says which cycles violate a property: those whose transitions
// all satisfy keep and whose strongly connected component passes
// witnesses. keep may only keep transitions that leave a reachable state;
// every spec below ensures it by asking for a pending operation at the
// source, as unreachable states have an empty pending set.
type cycleSpec struct {
	keep func(t int32) bool
	// witnesses, when set, returns the waypoints a cycle through component
	// comp must visit, or ok=false if the component has no violating cycle.
	witnesses func(comp []int32, count int32) func(c int32) (wps []waypoint, ok bool)
}

// waypoint is a place a cycle must visit: state, then, if via ≥ 0, the
// transition via (which leaves state). It witnesses something about
// thread (an index), and is skipped when covered says the cycle built so
// far already does.
type waypoint struct {
	state, via int32
	thread     int32
	covered    func(cycle []int32, thread int32) bool
}

// findLasso returns a lasso (transitions, loop start) whose cycle satisfies
// spec, with a shortest prefix to a state of a violating component, or
// nil. It runs one Tarjan pass (lasso.Decompose): O(states + transitions).
func (c *Checker) findLasso(spec cycleSpec) (path []int32, loopStart int) {
	comps := c.components(spec.keep)
	comp, cyclic := comps.Comp, comps.Cyclic
	var check func(c int32) ([]waypoint, bool)
	if spec.witnesses != nil {
		check = spec.witnesses(comp, comps.Count)
	}
	for _, s := range c.m.order { // BFS order: the first hit has a shortest prefix
		cc := comp[s]
		if !cyclic[cc] {
			continue
		}
		var wps []waypoint
		if check != nil {
			var ok bool
			if wps, ok = check(cc); !ok {
				cyclic[cc] = false // do not ask again
				continue
			}
		}
		path = c.m.pathTo(s)
		loopStart = len(path)
		return append(path, c.cycleThrough(s, comps, wps)...), loopStart
	}
	return nil, -1
}

// components decomposes the graph of the transitions kept by keep into
// strongly connected components.
func (c *Checker) components(keep func(int32) bool) *lasso.Components {
	return lasso.Decompose(&keptGraph{c.m.l, keep})
}

// keptGraph is the graph of the transitions of l that keep keeps, each
// named by its transition.
type keptGraph struct {
	l    *lts.LTS
	keep func(t int32) bool
}

func (g *keptGraph) NumStates() int32 { return g.l.NumStates }

func (g *keptGraph) Out(s int32, buf []lasso.Edge) []lasso.Edge {
	for t := g.l.Out[s]; t < g.l.Out[s+1]; t++ {
		if g.keep(t) {
			buf = append(buf, lasso.Edge{ID: t, To: g.l.Dst[t]})
		}
	}
	return buf
}

// cycleThrough returns a cycle from s back to s inside s's component,
// using kept transitions only. It visits the waypoints without a covered
// test in order; then, for each waypoint whose thread the cycle does not
// cover yet, it appends a detour from s through the waypoint back to s.
func (c *Checker) cycleThrough(s int32, comps *lasso.Components, wps []waypoint) []int32 {
	var cycle []int32
	cur := s
	visit := func(wp waypoint) {
		cycle = append(cycle, comps.PathWithin(cur, wp.state, false)...)
		cur = wp.state
		if wp.via >= 0 {
			cycle = append(cycle, wp.via)
			cur = c.m.l.Dst[wp.via]
		}
	}
	for _, wp := range wps {
		if wp.covered == nil {
			visit(wp)
		}
	}
	cycle = append(cycle, comps.PathWithin(cur, s, len(cycle) == 0)...)
	cur = s
	for _, wp := range wps {
		if wp.covered != nil && !wp.covered(cycle, wp.thread) {
			visit(wp)
			cycle = append(cycle, comps.PathWithin(cur, s, false)...)
			cur = s
		}
	}
	return cycle
}
