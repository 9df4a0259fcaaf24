package history

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

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
//   - SP3: an empty pop covered by values surely in the stack: value x is
//     there strictly between the return of push(x) and the call of
//     pop(x) (forever if never popped), and these spans together cover
//     the empty pop's whole interval (as the queue's BP3);
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
	// SP3: an empty pop whose whole interval is covered by values surely
	// in the stack: x is there strictly between the return of its push
	// and the call of its pop (forever if never popped).
	type span struct {
		from, to int64
		val      val
	}
	var spans []span
	for _, x := range matched {
		if ops[x.push].Return < ops[x.pop].Call {
			spans = append(spans, span{ops[x.push].Return, ops[x.pop].Call, x})
		}
	}
	for _, u := range unmatched {
		spans = append(spans, span{ops[u.push].Return, math.MaxInt64, u})
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a].from < spans[b].from })
	for _, e := range m.empties {
		// Greedy sweep: reach is the first point not yet covered; among the
		// spans starting strictly before it, the one reaching furthest
		// extends the cover (spans are open, so it must pass reach).
		reach, hi := ops[e].Call, ops[e].Return
		bestTo, best, k := int64(math.MinInt64), -1, 0
		var chain []int
		for reach <= hi {
			for ; k < len(spans) && spans[k].from < reach; k++ {
				if spans[k].to > bestTo {
					bestTo, best = spans[k].to, k
				}
			}
			if bestTo <= reach {
				break // a gap: the empty pop can go there
			}
			reach = bestTo
			chain = append(chain, best)
		}
		covered := reach > hi
		if covered {
			w := []int{e}
			var names []string
			for _, c := range chain {
				w = append(w, spans[c].val.push)
				if spans[c].val.pop >= 0 {
					w = append(w, spans[c].val.pop)
				}
				names = append(names, show(ops[spans[c].val.push].Args[0]))
			}
			return &violation{fmt.Sprintf("SP3: %s returns empty, but throughout its interval the stack surely holds %s",
				&ops[e], strings.Join(names, ", then ")), w}, true
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
