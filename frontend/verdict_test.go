package frontend

import (
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// refines is a naive trace-refinement oracle for small LTSs (tests only):
// breadth-first search over pairs (impl state, τ-closed set of spec
// states); it returns a visible trace of impl that spec cannot do, or nil.
// The bisim and refinement packages have the real algorithms; this one
// only checks that the models mean what their comments say.
func refines(impl, spec *lts.LTS) []string {
	specLabel := map[string]int32{}
	for i, n := range spec.Labels {
		specLabel[n] = int32(i)
	}
	closure := func(set []int32) []int32 {
		seen := map[int32]bool{}
		stack := append([]int32(nil), set...)
		for _, s := range set {
			seen[s] = true
		}
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			lo, hi := spec.Outgoing(s)
			for t := lo; t < hi; t++ {
				if spec.Label[t] == lts.Tau && !seen[spec.Dst[t]] {
					seen[spec.Dst[t]] = true
					stack = append(stack, spec.Dst[t])
				}
			}
		}
		out := make([]int32, 0, len(seen))
		for s := range seen {
			out = append(out, s)
		}
		sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
		return out
	}
	type node struct {
		impl   int32
		set    []int32
		parent int
		label  string
	}
	key := func(i int32, set []int32) string {
		b := make([]byte, 0, 4*len(set)+4)
		for _, v := range append([]int32{i}, set...) {
			b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
		return string(b)
	}
	nodes := []node{{impl: impl.Initial, set: closure([]int32{spec.Initial}), parent: -1}}
	seen := map[string]bool{key(nodes[0].impl, nodes[0].set): true}
	for k := 0; k < len(nodes); k++ {
		n := nodes[k]
		lo, hi := impl.Outgoing(n.impl)
		for t := lo; t < hi; t++ {
			next := n.set
			name := impl.LabelName(t)
			if impl.Label[t] != lts.Tau {
				l, ok := specLabel[name]
				var succ []int32
				for _, s := range n.set {
					slo, shi := spec.Outgoing(s)
					for u := slo; u < shi; u++ {
						if ok && spec.Label[u] == l {
							succ = append(succ, spec.Dst[u])
						}
					}
				}
				if len(succ) == 0 {
					trace := []string{name}
					for p := k; p > 0; p = nodes[p].parent {
						if nodes[p].label != "" {
							trace = append([]string{nodes[p].label}, trace...)
						}
					}
					return trace
				}
				next = closure(succ)
			} else {
				name = ""
			}
			if kk := key(impl.Dst[t], next); !seen[kk] {
				seen[kk] = true
				nodes = append(nodes, node{impl: impl.Dst[t], set: next, parent: k, label: name})
			}
		}
	}
	return nil
}

// TestVerdictsByNaiveRefinement checks the verdicts the bundled models
// claim, on small bounds, with the naive oracle above: linearizable models
// refine their specification, the Shann queue and Treiber's stack with
// explicit reclamation (ABA) do not; divergence (a τ-cycle) appears
// exactly in the models whose comments say they are not lock-free.
func TestVerdictsByNaiveRefinement(t *testing.T) {
	tests := []struct {
		name         string
		threads, ops int
		explicit     bool
		linearizable bool
		divergent    bool
	}{
		{"counter1", 2, 2, false, true, false},
		{"counter2", 2, 2, false, true, true},
		{"counter3", 2, 2, false, true, true},
		{"cas-counter", 2, 2, false, true, false},
		{"treiber", 2, 2, false, true, false},
		{"hp-stack", 2, 2, false, true, false},
		{"hp-stack", 2, 2, true, true, false},
		// The symmetric form of hp-stack: the same verdicts.
		{"hp-stack-sym", 2, 2, false, true, false},
		{"hp-stack-sym", 2, 2, true, true, false},
		{"hp-stack-sym", 2, 3, true, true, false},
		{"hp-stack-revised", 2, 2, false, true, true},
		{"ms-queue", 2, 2, false, true, false},
		{"shann-queue", 2, 2, false, false, false},
		{"hw-queue", 2, 2, false, true, true},
		{"kregister", 2, 2, false, true, false},
		{"spinlock-stack", 2, 2, false, true, true},
		{"treiber-free", 2, 2, false, true, false},
		{"treiber-free", 2, 3, true, false, false},
		// The hazard pointers prevent the ABA of treiber-free at the same bounds.
		{"hp-stack", 2, 3, true, true, false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/explicit=%v", tc.name, tc.explicit), func(t *testing.T) {
			src, err := Example(tc.name)
			require.NoError(t, err)
			m, err := Parse(tc.name+".lin", src)
			require.NoError(t, err)
			b := m.DefaultBounds()
			b.Threads, b.Ops = tc.threads, tc.ops
			if tc.ops > 2 {
				b.Values = []int{1} // keeps the naive oracle fast
			}
			opts := Options{}
			opts.Explicit = tc.explicit
			impl, spec, err := Compile(m, b, opts)
			require.NoError(t, err)
			trace := refines(impl, spec)
			if tc.linearizable {
				assert.Nil(t, trace, "unexpected non-linearizable trace")
			} else {
				assert.NotNil(t, trace, "expected a non-linearizable trace")
				t.Logf("violating trace: %v", trace)
			}
			assert.Equal(t, tc.divergent, lts.ComputeStats(impl).DivergentStates > 0)
		})
	}
}
