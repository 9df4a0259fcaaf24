package lasso_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/randlts"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/lasso"
	"github.com/linbis/linbis/lts"
)

// tauGraph is the graph of an LTS's τ-steps, each named by its transition.
type tauGraph struct{ l *lts.LTS }

func (g tauGraph) NumStates() int32 { return g.l.NumStates }

func (g tauGraph) Out(s int32, buf []lasso.Edge) []lasso.Edge {
	for t := g.l.Out[s]; t < g.l.Out[s+1]; t++ {
		if g.l.Label[t] == lts.Tau {
			buf = append(buf, lasso.Edge{ID: t, To: g.l.Dst[t]})
		}
	}
	return buf
}

func draw(seed uint64) *lts.LTS {
	rng := rand.New(rand.NewPCG(seed, 36))
	n := 1 + rng.IntN(12)
	b := lts.NewBuilder()
	randlts.Fill(rng, b, randlts.Config{States: n, Transitions: rng.IntN(3 * n), Labels: []string{"a"}, Tau: 0.7})
	return b.Build()
}

// reach is the naive oracle: reach[s][d] when d is reached from s by one
// τ-step or more.
func reach(l *lts.LTS) [][]bool {
	n := l.NumStates
	r := make([][]bool, n)
	for s := range n {
		r[s] = make([]bool, n)
		queue := []int32{s}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for t := l.Out[u]; t < l.Out[u+1]; t++ {
				if d := l.Dst[t]; l.Label[t] == lts.Tau && !r[s][d] {
					r[s][d] = true
					queue = append(queue, d)
				}
			}
		}
	}
	return r
}

// distance is the naive oracle for PathWithin: the fewest τ-steps from s
// to d through states of comp only (at least one if nonEmpty).
func distance(l *lts.LTS, comp []int32, s, d int32, nonEmpty bool) int {
	if s == d && !nonEmpty {
		return 0
	}
	dist := map[int32]int{}
	queue := []int32{s}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for t := l.Out[u]; t < l.Out[u+1]; t++ {
			v := l.Dst[t]
			if l.Label[t] != lts.Tau || comp[v] != comp[s] {
				continue
			}
			if v == d {
				return dist[u] + 1
			}
			if _, seen := dist[v]; !seen && v != s {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return -1
}

// colourCycle is the reference for FirstCycle: a depth-first search from
// every state in turn that stops at the first edge to a state on its
// stack (the on-the-fly route's search before it used the engine). It
// returns the cycle's states and edges.
func colourCycle(g tauGraph) (states []int32, edges []int32) {
	n := g.NumStates()
	colour := make([]uint8, n)
	type frame struct {
		state int32
		out   []lasso.Edge
		next  int
	}
	for root := range n {
		if colour[root] != 0 {
			continue
		}
		colour[root] = 1
		stack := []frame{{state: root, out: g.Out(root, nil)}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == len(top.out) {
				colour[top.state] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			e := top.out[top.next]
			top.next++
			switch colour[e.To] {
			case 0:
				colour[e.To] = 1
				stack = append(stack, frame{state: e.To, out: g.Out(e.To, nil)})
			case 1:
				i := len(stack) - 1
				for stack[i].state != e.To {
					i--
				}
				for _, fr := range stack[i:] {
					states = append(states, fr.state)
					edges = append(edges, fr.out[fr.next-1].ID)
				}
				return states, edges
			}
		}
	}
	return nil, nil
}

// TestAgainstOracles holds Decompose, PathWithin and FirstCycle to naive
// reachability, lts.SCCs's numbering and the colour search on random
// graphs.
func TestAgainstOracles(t *testing.T) {
	cycles := 0
	for seed := range uint64(testsize.Count(500, 20_000)) {
		l := draw(seed)
		g := tauGraph{l}
		r := reach(l)
		c := lasso.Decompose(g)
		want, count := lts.SCCs(l, func(t int32) bool { return l.Label[t] == lts.Tau })
		require.Equal(t, want, c.Comp, "seed %d: numbering", seed)
		require.Equal(t, count, c.Count, "seed %d", seed)
		anyCycle := false
		for s := range l.NumStates {
			for d := range l.NumStates {
				same := s == d || r[s][d] && r[d][s]
				require.Equal(t, same, c.Comp[s] == c.Comp[d], "seed %d: %d and %d", seed, s, d)
			}
			require.Equal(t, r[s][s], c.Cyclic[c.Comp[s]], "seed %d: is %d on a cycle", seed, s)
			anyCycle = anyCycle || r[s][s]
		}
		for s := range l.NumStates {
			for d := range l.NumStates {
				for _, nonEmpty := range []bool{false, true} {
					if c.Comp[s] != c.Comp[d] || nonEmpty && !r[s][s] {
						continue
					}
					path := c.PathWithin(s, d, nonEmpty)
					require.Len(t, path, distance(l, c.Comp, s, d, nonEmpty), "seed %d: %d to %d", seed, s, d)
					at := s
					for _, tr := range path {
						require.Equal(t, at, l.Src[tr])
						require.Equal(t, lts.Tau, l.Label[tr])
						at = l.Dst[tr]
					}
					require.Equal(t, d, at)
				}
			}
		}

		cycle, err := lasso.FirstCycle(nil, g)
		require.NoError(t, err)
		require.Equal(t, anyCycle, cycle != nil, "seed %d", seed)
		states, edges := colourCycle(g)
		if cycle == nil {
			continue
		}
		cycles++
		require.Equal(t, states[0], cycle.From, "seed %d", seed)
		at := cycle.From
		for i, e := range cycle.Edges {
			require.Equal(t, states[i], at)
			require.Equal(t, edges[i], e.ID)
			require.Equal(t, at, l.Src[e.ID])
			require.Equal(t, l.Dst[e.ID], e.To)
			at = e.To
		}
		require.Equal(t, cycle.From, at, "seed %d: the cycle comes back", seed)
	}
	assert.Greater(t, cycles, 10, "too few graphs with a cycle to test FirstCycle")
}

// TestFirstCycleStops checks that an ended context stops the search with
// its cause.
func TestFirstCycleStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cycle, err := lasso.FirstCycle(ctx, tauGraph{draw(1)})
	assert.Nil(t, cycle)
	assert.ErrorIs(t, err, context.Canceled)
}

// chain is the graph 0 → 1 → … → n-1, without a cycle, whose Out calls
// at when it is asked for state at's edges.
type chain struct {
	n, at int32
	hook  func()
}

func (g chain) NumStates() int32 { return g.n }

func (g chain) Out(s int32, buf []lasso.Edge) []lasso.Edge {
	if s == g.at {
		g.hook()
	}
	if s+1 < g.n {
		buf = append(buf, lasso.Edge{ID: 0, To: s + 1})
	}
	return buf
}

// TestFirstCycleStopsWithinARoot: the search from one root may visit
// every state, so it polls the context as it goes, not only between
// roots: a context ended after the first root's search has started stops
// it.
func TestFirstCycleStopsWithinARoot(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cycle, err := lasso.FirstCycle(ctx, chain{n: 1 << 17, at: 1, hook: cancel})
	assert.Nil(t, cycle)
	assert.ErrorIs(t, err, context.Canceled)
}
