// Package lasso is the cycle search behind the progress properties: a
// depth-first search over a graph given implicitly, that either numbers
// its strongly connected components (Decompose, Tarjan's algorithm) or
// stops at the first edge that closes a cycle (FirstCycle, a search that
// keeps two bits a state). progress runs it over an explicit LTS's
// transitions that a property keeps, onthefly over the τ-steps its product
// search followed (a τ-cycle with an operation pending is a lock-freedom
// violation, Yang et al. §5).
//
// Both searches visit the same states in the same order: roots in
// increasing state order, each state's edges in the order Graph.Out gives
// them, a state visited once. So the first cycle found is the first edge,
// in that order, to a state on the search's path, and the components are
// numbered in the order Tarjan's algorithm completes them (reverse
// topological order), as lts.SCCs numbers them.
package lasso

import (
	"context"
	"fmt"

	"github.com/linbis/linbis/internal/limits"
)

// Graph is a directed graph whose states are numbered 0..NumStates()-1.
type Graph interface {
	// NumStates is the number of states.
	NumStates() int32
	// Out appends to buf the edges leaving s that the search follows, in
	// the same order at every call, and returns it.
	Out(s int32, buf []Edge) []Edge
}

// Edge is an edge leaving a state.
type Edge struct {
	// ID names the edge for the graph's owner (an LTS's transition, a
	// position in a list); the search only hands it back.
	ID int32
	// To is the state the edge enters.
	To int32
}

// Components is the decomposition of a graph into strongly connected
// components.
type Components struct {
	// Comp is the component of every state, numbered 0..Count-1 in the
	// order the search completed them.
	Comp  []int32
	Count int32 // the number of components
	// Cyclic reports, per component, whether it holds a cycle: two
	// states or more, or a self-loop.
	Cyclic []bool

	g Graph
	// Scratch of PathWithin's breadth-first searches.
	stamp, parState, parEdge, queue []int32
	epoch                           int32
	buf                             []Edge
}

// Decompose numbers the strongly connected components of g.
func Decompose(g Graph) *Components {
	c := &Components{g: g}
	s := newSearch(g)
	s.run()
	c.Comp, c.Count = s.numbers()
	c.Cyclic = s.cyclic
	return c
}

// Cycle is a cycle of a graph: from state From, the edges Edges, the last
// of which comes back to From.
type Cycle struct {
	From  int32  // the state it starts and ends at
	Edges []Edge // its edges in order, the first leaving From, the last entering it
}

// pollEvery is how many roots, and how many steps of the search from a
// root, pass between polls of the context (a power of two): one root's
// search may visit every state.
const pollEvery = 1 << 14

// FirstCycle returns the first cycle the search meets, or nil if g has
// none; it polls ctx (nil: never stopped) and returns its cause when it
// has ended.
//
// It is Tarjan's search stopped at the first edge to an active state,
// which needs no DFS numbers: until a low-link is lowered, every state
// that leaves the path completes a component of its own, so the active
// states are those on the path. A state is unvisited, on the path, or
// done: two bits a state (visited, onPath) where Tarjan's index takes 32.
func FirstCycle(ctx context.Context, g Graph) (*Cycle, error) {
	n := g.NumStates()
	words := (int(n) + 63) / 64
	visited, onPath := make([]uint64, words), make([]uint64, words)
	has := func(set []uint64, s int32) bool { return set[s>>6]&(1<<(s&63)) != 0 }
	var calls []frame // the path; num is unused
	var edges []Edge  // the edges of the states on calls, frame by frame
	visit := func(st int32) {
		visited[st>>6] |= 1 << (st & 63)
		onPath[st>>6] |= 1 << (st & 63)
		start := len(edges)
		edges = g.Out(st, edges)
		calls = append(calls, frame{state: st, start: start, next: start, end: len(edges)})
	}
	steps := 0 // of the searches from the roots
	for root := int32(0); root < n; root++ {
		if has(visited, root) {
			continue
		}
		if root&(pollEvery-1) == 0 {
			if err := limits.Err(ctx); err != nil {
				return nil, err
			}
		}
		visit(root)
		for len(calls) > 0 {
			if steps++; steps&(pollEvery-1) == 0 {
				if err := limits.Err(ctx); err != nil {
					return nil, err
				}
			}
			top := &calls[len(calls)-1]
			if top.next == top.end {
				onPath[top.state>>6] &^= 1 << (top.state & 63)
				edges = edges[:top.start]
				calls = calls[:len(calls)-1]
				continue
			}
			e := edges[top.next]
			top.next++
			switch {
			case !has(visited, e.To):
				visit(e.To)
			case has(onPath, e.To):
				i := len(calls) - 1
				for calls[i].state != e.To {
					i--
				}
				c := &Cycle{From: e.To}
				for _, fr := range calls[i:] {
					c.Edges = append(c.Edges, edges[fr.next-1])
				}
				return c, nil
			}
		}
	}
	return nil, nil
}

// search is Tarjan's algorithm without recursion. rindex[s] is 0 while s
// is unvisited. While s is active (visited, not yet in a component) it is
// s's DFS number, lowered to the smallest number reachable (the
// low-link); the active states are always numbered 1..#active in visiting
// order, because they leave in reverse visiting order, so numbers are
// reused. Once s is in a component it is last-k for the k-th component
// completed (last = n), which every active state's number is below
// (#active ≤ n-(k+1)): an edge into a completed component never lowers a
// low-link, and a target is active exactly when its rindex is below next.
type search struct {
	g      Graph
	n      int32
	rindex []int32
	calls  []frame // the depth-first search's path
	edges  []Edge  // the edges of the states on calls, frame by frame
	active []int32 // Tarjan's stack: active states not on calls
	next   int32   // the DFS number of the next state visited
	last   int32   // the rindex of the next component completed
	// cyclic records, per component completed, whether it holds a cycle.
	cyclic []bool
}

// frame is a state on the search's path: its edges are
// edges[next:end] still to take, from edges[start:end]; num is its DFS
// number, selfLoop whether it has an edge to itself.
type frame struct {
	state, num       int32
	start, next, end int
	selfLoop         bool
}

func newSearch(g Graph) *search {
	n := g.NumStates()
	return &search{g: g, n: n, rindex: make([]int32, n), next: 1, last: n}
}

func (s *search) visit(st int32) {
	s.rindex[st] = s.next
	start := len(s.edges)
	s.edges = s.g.Out(st, s.edges)
	s.calls = append(s.calls, frame{state: st, num: s.next, start: start, next: start, end: len(s.edges)})
	s.next++
}

// run searches from every unvisited root in order.
func (s *search) run() {
	for root := int32(0); root < s.n; root++ {
		if s.rindex[root] != 0 {
			continue
		}
		s.visit(root)
		for len(s.calls) > 0 {
			top := &s.calls[len(s.calls)-1]
			st := top.state
			descended := false
			for top.next < top.end {
				e := s.edges[top.next]
				top.next++
				r := s.rindex[e.To]
				if r == 0 {
					s.visit(e.To)
					descended = true
					break
				}
				if r >= s.next {
					continue // completed
				}
				// e.To is active.
				if r < s.rindex[st] {
					s.rindex[st] = r
				}
				if e.To == st {
					top.selfLoop = true
				}
			}
			if descended {
				continue
			}
			fr := *top
			s.calls = s.calls[:len(s.calls)-1]
			s.edges = s.edges[:fr.start]
			if s.rindex[st] == fr.num {
				// st is the root of a component: st and the active states
				// visited after it.
				s.next--
				size := 1
				for len(s.active) > 0 && fr.num <= s.rindex[s.active[len(s.active)-1]] {
					s.rindex[s.active[len(s.active)-1]] = s.last
					s.active = s.active[:len(s.active)-1]
					s.next--
					size++
				}
				s.rindex[st] = s.last
				s.last--
				s.cyclic = append(s.cyclic, size > 1 || fr.selfLoop)
			} else {
				s.active = append(s.active, st)
			}
			if len(s.calls) > 0 {
				if p := &s.calls[len(s.calls)-1]; s.rindex[st] < s.rindex[p.state] {
					s.rindex[p.state] = s.rindex[st]
				}
			}
		}
	}
}

// numbers turns rindex into the component numbers once the search has
// completed: the k-th component completed (from 0) has rindex n-k.
func (s *search) numbers() (comp []int32, count int32) {
	for st, r := range s.rindex {
		s.rindex[st] = s.n - r
	}
	return s.rindex, s.n - s.last
}

// PathWithin returns the IDs of the edges of a shortest path from one
// state to another inside their common component (at least one edge if
// nonEmpty), following the edges that Graph.Out gives.
func (c *Components) PathWithin(from, to int32, nonEmpty bool) []int32 {
	if from == to && !nonEmpty {
		return nil
	}
	if c.stamp == nil {
		n := len(c.Comp)
		c.stamp, c.parState, c.parEdge = make([]int32, n), make([]int32, n), make([]int32, n)
	}
	c.epoch++
	cc := c.Comp[from]
	c.queue = append(c.queue[:0], from)
	c.stamp[from] = c.epoch
	for i := 0; i < len(c.queue); i++ {
		s := c.queue[i]
		c.buf = c.g.Out(s, c.buf[:0])
		for _, e := range c.buf {
			d := e.To
			if c.Comp[d] != cc {
				continue
			}
			if d == to {
				path := []int32{e.ID}
				for u := s; u != from; u = c.parState[u] {
					path = append(path, c.parEdge[u])
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if c.stamp[d] != c.epoch {
				c.stamp[d] = c.epoch
				c.parState[d], c.parEdge[d] = s, e.ID
				c.queue = append(c.queue, d)
			}
		}
	}
	panic(fmt.Sprintf("lasso: no path from %d to %d inside their component", from, to)) // unreachable by construction
}
