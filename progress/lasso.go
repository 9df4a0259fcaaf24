package progress

import "github.com/linbis/linbis/lts"

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
// nil. It runs one Tarjan pass: O(states + transitions).
func (c *Checker) findLasso(spec cycleSpec) (path []int32, loopStart int) {
	comp, cyclic := c.cyclicComponents(spec.keep)
	var check func(c int32) ([]waypoint, bool)
	if spec.witnesses != nil {
		check = spec.witnesses(comp, int32(len(cyclic)))
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
		return append(path, c.cycleThrough(s, comp, spec.keep, wps)...), loopStart
	}
	return nil, -1
}

// cyclicComponents runs Tarjan's algorithm on the transitions kept by keep
// and returns the component of every state and, per component, whether it
// holds a cycle: two states or more, or a kept self-loop.
func (c *Checker) cyclicComponents(keep func(int32) bool) (comp []int32, cyclic []bool) {
	l := c.m.l
	comp, count := lts.SCCs(l, keep)
	size := make([]int32, count)
	for _, s := range c.m.order {
		size[comp[s]]++
	}
	cyclic = make([]bool, count)
	for _, s := range c.m.order {
		if size[comp[s]] > 1 {
			cyclic[comp[s]] = true
			continue
		}
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			if l.Dst[t] == s && keep(t) {
				cyclic[comp[s]] = true
			}
		}
	}
	return comp, cyclic
}

// cycleThrough returns a cycle from s back to s inside s's component,
// using kept transitions only. It visits the waypoints without a covered
// test in order; then, for each waypoint whose thread the cycle does not
// cover yet, it appends a detour from s through the waypoint back to s.
func (c *Checker) cycleThrough(s int32, comp []int32, keep func(int32) bool, wps []waypoint) []int32 {
	var cycle []int32
	cur := s
	visit := func(wp waypoint) {
		cycle = append(cycle, c.pathWithin(cur, wp.state, comp, keep, false)...)
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
	cycle = append(cycle, c.pathWithin(cur, s, comp, keep, len(cycle) == 0)...)
	cur = s
	for _, wp := range wps {
		if wp.covered != nil && !wp.covered(cycle, wp.thread) {
			visit(wp)
			cycle = append(cycle, c.pathWithin(cur, s, comp, keep, false)...)
			cur = s
		}
	}
	return cycle
}

// pathWithin returns a shortest path of kept transitions from one state to
// another inside their common component (at least one step if nonEmpty).
func (c *Checker) pathWithin(from, to int32, comp []int32, keep func(int32) bool, nonEmpty bool) []int32 {
	if from == to && !nonEmpty {
		return nil
	}
	l := c.m.l
	if c.stamp == nil {
		c.stamp = make([]int32, l.NumStates)
		c.bfsPar = make([]int32, l.NumStates)
	}
	c.epoch++
	cc := comp[from]
	c.queue = append(c.queue[:0], from)
	c.stamp[from] = c.epoch
	for i := 0; i < len(c.queue); i++ {
		s := c.queue[i]
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			d := l.Dst[t]
			if comp[d] != cc || !keep(t) {
				continue
			}
			if d == to {
				path := []int32{t}
				for u := s; u != from; u = l.Src[c.bfsPar[u]] {
					path = append(path, c.bfsPar[u])
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if c.stamp[d] != c.epoch {
				c.stamp[d] = c.epoch
				c.bfsPar[d] = t
				c.queue = append(c.queue, d)
			}
		}
	}
	panic("progress: no path inside a strongly connected component") // unreachable by construction
}
