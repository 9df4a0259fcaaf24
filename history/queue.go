package history

import (
	"fmt"
	"math"
	"sort"

	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
)

// This file decides linearizability of queue histories with unique
// enqueued values in polynomial time by looking for bad patterns
// (Bouajjani, Emmi, Enea, Hamza, "On reducing linearizability to state
// reachability", ICALP 2015; Hamza, "Verifying linearizability", slides
// 2017). For a complete history (no pending operation) whose enqueues
// carry distinct values, the history is linearizable w.r.t. a FIFO queue
// iff it contains none of:
//
//   - BP1: a dequeue of a value never enqueued, or one that returns before
//     the enqueue of its value is called;
//   - BP1': two dequeues of the same value (BP1 and BP1' hold for stacks
//     too: see matchValues);
//   - BP2: enq(x) < enq(y) while deq(y) < deq(x), where a missing deq(x)
//     counts as later than everything;
//   - BP3: a dequeue returning empty that is covered: in the graph whose
//     vertices are the enqueued values and the empty dequeue e, with edges
//     v1 -> v2 iff enq(v1) < deq(v2), e -> v iff e < deq(v) and v -> e iff
//     enq(v) < e, some cycle goes through e.
//
// Here a < b is real-time precedence: a returns strictly before b is
// called. The checks cost O(n^2) for BP2 and O(n log n) per empty dequeue
// for BP3: the vertices reachable from e form a suffix of the values
// sorted by the call time of their dequeue, found by a fixpoint on a
// threshold rather than by exploring the graph.

// violation is a bad pattern with its operations (indices of ops).
type violation struct {
	pattern string
	ops     []int
}

// matching pairs each removal (dequeue, pop) with the insertion of its
// value in a complete history with unique inserted values.
type matching struct {
	ins     map[string]int // value -> index of its insertion
	rem     map[string]int // value -> index of its removal
	empties []int          // removals that returned nil (empty)
}

// matchValues builds the matching of ops, or finds the value violations
// common to queues and stacks (BP1, BP1'). ok is false when ops is not a
// complete history with unique non-nil inserted values.
func matchValues(ops []record.Op) (m *matching, v *violation, ok bool) {
	m = &matching{ins: map[string]int{}, rem: map[string]int{}}
	for i := range ops {
		op := &ops[i]
		if op.IsPending() || op.Unknown {
			return nil, nil, false
		}
		if model.IsInsert(op) {
			if _, dup := m.ins[op.Args[0]]; dup || op.Args[0] == record.Nil {
				return nil, nil, false
			}
			m.ins[op.Args[0]] = i
		}
	}
	for i := range ops {
		op := &ops[i]
		if model.IsInsert(op) {
			continue
		}
		if op.Result == record.Nil {
			m.empties = append(m.empties, i)
			continue
		}
		e, found := m.ins[op.Result]
		switch {
		case !found:
			return nil, &violation{fmt.Sprintf("BP1: %s returns a value never inserted", op), []int{i}}, true
		case ops[i].Return < ops[e].Call:
			return nil, &violation{fmt.Sprintf("BP1: %s returns before the insertion of its value is called", op), []int{i, e}}, true
		}
		if d, dup := m.rem[op.Result]; dup {
			return nil, &violation{fmt.Sprintf("BP1': %s and %s both remove %s", &ops[d], op, record.ShowValue(op.Result)), []int{d, i}}, true
		}
		m.rem[op.Result] = i
	}
	return m, nil, true
}

// queuePatterns checks ops (one queue) for bad patterns. ok is false when
// the procedure does not apply (pending operations, unknown results,
// repeated enqueued values); otherwise v is nil iff ops is linearizable.
func queuePatterns(ops []record.Op) (v *violation, ok bool) {
	m, v, ok := matchValues(ops)
	if m == nil {
		return v, ok
	}
	enq, deq, empties := m.ins, m.rem, m.empties
	before := func(a, b int) bool { return ops[a].Return < ops[b].Call }
	// Values in a fixed order, with their enqueue and dequeue (-1: none).
	type val struct {
		enq, deq        int
		enqRet, deqCall int64
	}
	vals := make([]val, 0, len(enq))
	for i := range ops {
		if model.IsInsert(&ops[i]) {
			d, found := deq[ops[i].Args[0]]
			v := val{enq: i, deq: -1, enqRet: ops[i].Return, deqCall: math.MaxInt64}
			if found {
				v.deq, v.deqCall = d, ops[d].Call
			}
			vals = append(vals, v)
		}
	}
	// BP2: enq(x) < enq(y), deq(y) exists and deq(y) < deq(x) (or no deq(x)).
	for _, x := range vals {
		for _, y := range vals {
			if y.deq >= 0 && before(x.enq, y.enq) && (x.deq < 0 || before(y.deq, x.deq)) {
				w := []int{x.enq, y.enq, y.deq}
				what := "is never dequeued"
				if x.deq >= 0 {
					w = append(w, x.deq)
					what = "is dequeued after it"
				}
				return &violation{fmt.Sprintf("BP2: %s precedes %s, which is dequeued by %s, but %s %s",
					&ops[x.enq], &ops[y.enq], &ops[y.deq], record.ShowValue(ops[x.enq].Args[0]), what), w}, true
			}
		}
	}
	// BP3: for each empty dequeue e, the values reachable from e are those
	// whose dequeue is called after a threshold T, the least of e's return
	// and the enqueue returns of reachable values; e is covered iff one
	// reachable value was enqueued before e.
	sort.Slice(vals, func(a, b int) bool { return vals[a].deqCall > vals[b].deqCall })
	for _, e := range empties {
		t := ops[e].Return
		for k := 0; k < len(vals) && vals[k].deqCall > t; k++ {
			t = min(t, vals[k].enqRet)
			if vals[k].enqRet < ops[e].Call {
				w := []int{e, vals[k].enq}
				if vals[k].deq >= 0 {
					w = append(w, vals[k].deq)
				}
				return &violation{fmt.Sprintf("BP3: %s returns empty, but %s is in the queue throughout (covered by enqueue/dequeue pairs)",
					&ops[e], record.ShowValue(ops[vals[k].enq].Args[0])), w}, true
			}
		}
	}
	return nil, true
}
