package progress

import (
	"fmt"
	"math/bits"
	"strings"
)

// pendingCalls replays path from the initial state and returns, per
// thread index, the transition of its pending call at the end (−1 if none).
func (c *Checker) pendingCalls(path []int32) []int32 {
	m := c.m
	calls := make([]int32, m.threads)
	for i := range calls {
		calls[i] = -1
	}
	for _, t := range path {
		switch lab := m.l.Label[t]; m.kind[lab] {
		case Call:
			calls[m.lthread[lab]] = t
		case Return:
			calls[m.lthread[lab]] = -1
		}
	}
	return calls
}

// pendingCall names thread th's pending call at the end of path.
func (c *Checker) pendingCall(path []int32, th int32) string {
	if t := c.pendingCalls(path)[th]; t >= 0 {
		return c.m.l.LabelName(t)
	}
	return "its operation"
}

// describePending says which operations are pending at the end of path,
// e.g. "call(1,dec) of thread 1 is".
func (c *Checker) describePending(path []int32) string {
	var ops []string
	for th, t := range c.pendingCalls(path) {
		if t >= 0 {
			ops = append(ops, fmt.Sprintf("%s of thread %d", c.m.l.LabelName(t), th+1))
		}
	}
	if len(ops) == 1 {
		return ops[0] + " is"
	}
	return strings.Join(ops, ", ") + " are"
}

// firstPendingThread returns the smallest thread number with a pending
// operation at state s.
func (c *Checker) firstPendingThread(s int32) int32 {
	set := append([]uint64(nil), c.m.set(s)...)
	set[len(set)-1] &^= reachedBit
	for w, word := range set {
		if word != 0 {
			return int32(w*64+bits.TrailingZeros64(word)) + 1
		}
	}
	return 0
}

// enabled reports whether thread index th has a transition leaving s.
func (c *Checker) enabled(s, th int32) bool {
	for t := c.m.l.Out[s]; t < c.m.l.Out[s+1]; t++ {
		if c.m.threadOf(t) == th {
			return true
		}
	}
	return false
}

// steps renders a count of steps: "1 step", "3 steps".
func steps(n int) string {
	if n == 1 {
		return "1 step"
	}
	return fmt.Sprintf("%d steps", n)
}

func (c *Checker) countSteps(path []int32, th int32) int {
	n := 0
	for _, t := range path {
		if c.m.threadOf(t) == th {
			n++
		}
	}
	return n
}

// notes adds what a reader of a positive verdict should know: that the
// input has no operations, labels that were not understood, or — for the
// properties about infinite executions — stuck states they do not cover.
func (c *Checker) notes(p Property) string {
	var sb strings.Builder
	if p == LockFree || p == WaitFree || p == ObstructionFree {
		if r, _ := c.deadlockFree(); !r.Holds {
			fmt.Fprintf(&sb, "; note: some reachable state has an operation pending and no enabled step, "+
				"which %s does not cover (it is about infinite executions): see deadlockfree", p)
		}
	}
	if c.m.calls == 0 {
		sb.WriteString("; note: no label has the form call(T,M,ARGS), so no operation is ever pending")
	}
	if len(c.m.odd) > 0 {
		fmt.Fprintf(&sb, "; note: %d labels look like calls or returns but do not parse as call(T,M,ARGS)/ret(T,M,VAL) and were treated as plain visible actions, e.g. %q",
			len(c.m.odd), c.m.odd[0])
	}
	return sb.String()
}
