package progress

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// A local step of one thread's program, transcribed by hand from a paper's
// code. The thread is at location from; the step is enabled if fire says
// so and moves it to location to. fire sees the shared variable g and the
// thread's local register r and returns their new values; nil means
// "always enabled, nothing changes". label is "tau" or a format with one %d
// for the thread, e.g. "call(%d,inc)".
type localStep struct {
	from, to int
	label    string
	text     string
	fire     func(g, r int) (ok bool, g2, r2 int)
}

// program is one thread's code as a control-flow automaton; location 0 is
// idle (between operations).
type program []localStep

// interleave builds the LTS of threads running programs[i] as thread i+1
// from shared value g0, with thread attribution and one source step per
// local step (line = index of the step in its program + 1). States are
// numbered in BFS order of exploration, steps of thread 1 first.
func interleave(file string, g0 int, programs ...program) *lts.LTS {
	type state struct {
		g    int
		locs [4][2]int // (location, register) per thread; at most 4 threads
	}
	b := lts.NewBuilder()
	x := newExploration[state](b)
	stepIDs := map[[2]int]int32{}
	x.id(state{g: g0})
	for i := 0; i < len(x.queue); i++ {
		s := x.queue[i]
		src := int32(i)
		for th, prog := range programs {
			for k, st := range prog {
				if s.locs[th][0] != st.from {
					continue
				}
				g2, r2 := s.g, s.locs[th][1]
				if st.fire != nil {
					var ok bool
					if ok, g2, r2 = st.fire(s.g, s.locs[th][1]); !ok {
						continue
					}
				}
				next := s
				next.g = g2
				next.locs[th] = [2]int{st.to, r2}
				key := [2]int{th, k}
				if _, ok := stepIDs[key]; !ok {
					stepIDs[key] = b.AddStep(lts.SourceStep{File: file, Line: int32(k + 1), Col: 1, Text: st.text})
				}
				label := st.label
				if label != lts.TauName {
					label = fmt.Sprintf(label, th+1)
				}
				b.AddTransitionMeta(src, b.Label(label), x.id(next), int32(th+1), stepIDs[key])
			}
		}
	}
	return b.Build()
}

// exploration numbers the states of a breadth-first exploration in the
// order they are found: state i is queue[i].
type exploration[K comparable] struct {
	b     *lts.Builder
	ids   map[K]int32
	queue []K
}

func newExploration[K comparable](b *lts.Builder) *exploration[K] {
	return &exploration[K]{b: b, ids: map[K]int32{}}
}

// id returns the state of key, adding it to the builder and the queue if new.
func (x *exploration[K]) id(key K) int32 {
	if v, ok := x.ids[key]; ok {
		return v
	}
	v := x.b.AddState()
	x.ids[key] = v
	x.queue = append(x.queue, key)
	return v
}

// requireSameLTS checks that a and b are isomorphic, matching transitions
// by (label, thread) — which is deterministic for interleavings of
// deterministic thread programs.
func requireSameLTS(t *testing.T, a, b *lts.LTS) {
	t.Helper()
	require.Equal(t, a.NumStates, b.NumStates, "states")
	require.Equal(t, a.NumTransitions(), b.NumTransitions(), "transitions")
	iso := make([]int32, a.NumStates)
	for i := range iso {
		iso[i] = -1
	}
	iso[a.Initial] = b.Initial
	queue := []int32{a.Initial}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		lo, hi := a.Outgoing(s)
		blo, bhi := b.Outgoing(iso[s])
		require.Equal(t, hi-lo, bhi-blo, "out-degree of state %d", s)
		for ta := lo; ta < hi; ta++ {
			match := int32(-1)
			for tb := blo; tb < bhi; tb++ {
				if a.LabelName(ta) == b.LabelName(tb) && a.ThreadOf(ta) == b.ThreadOf(tb) {
					match = tb
				}
			}
			require.GreaterOrEqual(t, match, int32(0), "state %d: %s by thread %d has no counterpart", s, a.LabelName(ta), a.ThreadOf(ta))
			d := a.Dst[ta]
			if iso[d] < 0 {
				iso[d] = b.Dst[match]
				queue = append(queue, d)
			}
			require.Equal(t, iso[d], b.Dst[match], "state %d: %s", s, a.LabelName(ta))
		}
	}
}

// replay is an independent reading of an LTS for checking lassos: the
// thread of every transition and the pending set along a path, recomputed
// from the labels.
type replay struct {
	l *lts.LTS
}

// thread returns the thread number of transition t (label first, then Meta).
func (r replay) thread(t int32) int32 {
	if k, th, _, _ := ParseAction(r.l.LabelName(t)); k == Call || k == Return {
		return th
	}
	return r.l.ThreadOf(t)
}

// transition finds the transition a trace step stands for.
func (r replay) transition(st lts.TraceStep) int32 {
	lo, hi := r.l.Outgoing(st.From)
	for t := lo; t < hi; t++ {
		if r.l.Dst[t] == st.To && r.l.LabelName(t) == st.Label && (st.Thread == 0 || st.Thread == r.thread(t)) {
			return t
		}
	}
	return -1
}

// enabled reports whether thread th has a transition leaving s.
func (r replay) enabled(s, th int32) bool {
	lo, hi := r.l.Outgoing(s)
	for t := lo; t < hi; t++ {
		if r.thread(t) == th {
			return true
		}
	}
	return false
}

// checkCounterexample replays res.Lasso on l and checks that it shows
// exactly what res claims: a real path from the initial state and, for
// each property, the defining condition of a violation.
func checkCounterexample(t *testing.T, l *lts.LTS, res *Result) {
	t.Helper()
	require.False(t, res.Holds)
	tr := res.Lasso
	require.NotNil(t, tr, "a violation comes with a counterexample")
	rp := replay{l}
	// pending[i] is the set of pending threads before step i (i = len: at the end).
	pending := []map[int32]bool{{}}
	ids := make([]int32, len(tr.Steps))
	cur := l.Initial
	for i, st := range tr.Steps {
		require.Equal(t, cur, st.From, "step %d starts where the previous one ended", i+1)
		ids[i] = rp.transition(st)
		require.GreaterOrEqual(t, ids[i], int32(0), "step %d (%d -%s-> %d) is a transition of the LTS", i+1, st.From, st.Label, st.To)
		next := map[int32]bool{}
		for k, v := range pending[i] {
			next[k] = v
		}
		switch k, th, _, _ := ParseAction(st.Label); k {
		case Call:
			require.False(t, next[th])
			next[th] = true
		case Return:
			require.True(t, next[th])
			delete(next, th)
		}
		pending = append(pending, next)
		cur = st.To
	}
	cycle := tr.Steps
	if res.Property == DeadlockFree || (res.Property == StarvationFree && !tr.IsLasso()) {
		require.Equal(t, -1, tr.LoopStart, "a deadlock is a finite trace")
		lo, hi := l.Outgoing(cur)
		assert.Equal(t, lo, hi, "the last state is stuck")
		assert.NotEmpty(t, pending[len(tr.Steps)], "with an operation pending")
		if res.Property == StarvationFree {
			assert.True(t, pending[len(tr.Steps)][res.Thread], "thread %d is pending at the end", res.Thread)
		}
		return
	}
	require.True(t, tr.IsLasso(), "%s needs a lasso", res.Property)
	assert.Equal(t, tr.Steps[tr.LoopStart].From, cur, "the cycle returns to its start")
	cycle = tr.Steps[tr.LoopStart:]
	threadSteps := map[int32]bool{}
	for i, st := range cycle {
		k, th, _, _ := ParseAction(st.Label)
		at := pending[tr.LoopStart+i]
		threadSteps[rp.thread(ids[tr.LoopStart+i])] = true
		switch res.Property {
		case LockFree:
			assert.NotEqual(t, Return, k, "no ret on the cycle: step %s", st.Label)
			assert.NotEmpty(t, at, "an operation is pending throughout the cycle")
		case WaitFree, StarvationFree:
			assert.False(t, k == Return && th == res.Thread, "thread %d does not return on the cycle", res.Thread)
			assert.True(t, at[res.Thread], "thread %d is pending throughout the cycle", res.Thread)
		case ObstructionFree:
			assert.Equal(t, res.Thread, rp.thread(ids[tr.LoopStart+i]), "only thread %d steps on the cycle", res.Thread)
			assert.NotEqual(t, Return, k)
			assert.True(t, at[res.Thread], "thread %d is pending throughout the cycle", res.Thread)
		}
	}
	switch res.Property {
	case WaitFree:
		assert.True(t, threadSteps[res.Thread], "thread %d takes a step on the cycle", res.Thread)
	case StarvationFree:
		for th := int32(1); th <= int32(maxThreadOf(l)); th++ {
			if threadSteps[th] {
				continue
			}
			disabled := false
			for _, st := range cycle {
				disabled = disabled || !rp.enabled(st.From, th)
			}
			assert.True(t, disabled, "weak fairness: thread %d steps on the cycle or is disabled somewhere on it", th)
		}
	}
}

// maxThreadOf returns the largest thread number in l's labels and Meta.
func maxThreadOf(l *lts.LTS) int {
	n := int32(0)
	for _, name := range l.Labels {
		_, th, _, _ := ParseAction(name)
		n = max(n, th)
	}
	if l.Meta != nil {
		for _, th := range l.Meta.Thread {
			n = max(n, int32(th))
		}
	}
	return int(n)
}
