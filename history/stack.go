package history

import "fmt"

// This file holds necessary conditions for stack histories with unique
// pushed values. Unlike the queue's (queue.go), they are not a complete
// characterisation — the stack's bad patterns are not the mirror of the
// queue's (Hamza's slides; Bouajjani, Emmi, Enea, Hamza, ICALP 2015) and a
// complete polynomial check is not implemented —, so finding none proves
// nothing and the general search decides. Finding one is a proof: each
// pattern, forced by real-time order alone, breaks LIFO in every
// linearization. Write a < b for "a returns before b is called":
//
//   - BP1, BP1': as for queues (matchValues);
//   - SP2: push(x) < push(u) < pop(x) with u never popped: at pop(x), u
//     lies above x;
//   - SP3: push(u) < pop()=empty with u never popped;
//   - SP4: push(x) < pop()=empty < pop(x);
//   - SP5: push(x) < push(y) < pop(x) < pop(y): at pop(x), y lies above x.
//
// SP2 and SP5 compare pairs of values, so they are skipped beyond
// maxStackPairs values.

const maxStackPairs = 4000

// stackPatterns looks for a stack violation in ops. ok is false when the
// check does not apply (pending operations, unknown results, repeated
// pushed values); v is nil when no violation was found, which decides
// nothing.
func stackPatterns(ops []Op) (v *violation, ok bool) {
	m, v, ok := matchValues(ops)
	if m == nil {
		return v, ok
	}
	before := func(a, b int) bool { return ops[a].Return < ops[b].Call }
	type val struct{ push, pop int }
	var matched, unmatched []val
	for i := range ops {
		if !isInsert(&ops[i]) {
			continue
		}
		if p, found := m.rem[ops[i].Args[0]]; found {
			matched = append(matched, val{i, p})
		} else {
			unmatched = append(unmatched, val{i, -1})
		}
	}
	for _, e := range m.empties {
		for _, u := range unmatched {
			if before(u.push, e) {
				return &violation{fmt.Sprintf("SP3: %s returns empty after %s, whose value is never popped", &ops[e], &ops[u.push]), []int{u.push, e}}, true
			}
		}
		for _, x := range matched {
			if before(x.push, e) && before(e, x.pop) {
				return &violation{fmt.Sprintf("SP4: %s returns empty between %s and %s", &ops[e], &ops[x.push], &ops[x.pop]), []int{x.push, e, x.pop}}, true
			}
		}
	}
	if len(matched)+len(unmatched) > maxStackPairs {
		return nil, true
	}
	for _, x := range matched {
		for _, u := range unmatched {
			if before(x.push, u.push) && before(u.push, x.pop) {
				return &violation{fmt.Sprintf("SP2: %s precedes %s, which precedes %s, but %s is never popped",
					&ops[x.push], &ops[u.push], &ops[x.pop], show(ops[u.push].Args[0])), []int{x.push, u.push, x.pop}}, true
			}
		}
		for _, y := range matched {
			if before(x.push, y.push) && before(y.push, x.pop) && before(x.pop, y.pop) {
				return &violation{fmt.Sprintf("SP5: %s < %s < %s < %s breaks LIFO",
					&ops[x.push], &ops[y.push], &ops[x.pop], &ops[y.pop]), []int{x.push, y.push, x.pop, y.pop}}, true
			}
		}
	}
	return nil, true
}
