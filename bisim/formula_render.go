package bisim

import (
	"fmt"
	"strings"

	"github.com/linbis/linbis/lts"
)

// English renders f, a property of a state, for a person: one clause per
// line, nested clauses indented, actions in words ("thread 2 calls
// pop()"). It begins with "can" or "cannot" where it can.
func (f *Formula) English() string {
	var lines []string
	describe(f, "", &lines)
	return strings.Join(lines, "\n")
}

// describe appends the lines that say f, each prefixed by indent.
func describe(f *Formula, indent string, lines *[]string) {
	add := func(s string) { *lines = append(*lines, indent+s) }
	switch f.Op {
	case OpTrue:
		add("holds (true)")
	case OpNot:
		g := f.Args[0]
		if g.Op == OpDiamond || g.Op == OpUntil || g.Op == OpDiverge {
			// The negation covers the whole chain: its later lines are
			// indented under "cannot".
			start := len(*lines)
			describe(g, indent, lines)
			(*lines)[start] = indent + "cannot" + strings.TrimPrefix((*lines)[start][len(indent):], "can")
			for i := start + 1; i < len(*lines); i++ {
				(*lines)[i] = "    " + (*lines)[i]
			}
			return
		}
		add("not this:")
		describe(g, indent+"    ", lines)
	case OpAnd, OpOr:
		if f.Op == OpAnd {
			add("all of these:")
		} else {
			add("one of these:")
		}
		for _, g := range f.Args {
			start := len(*lines)
			describe(g, indent+"  ", lines)
			(*lines)[start] = indent + "- " + strings.TrimPrefix((*lines)[start], indent+"  ")
		}
	case OpDiamond:
		add("can, in one step, " + actionPhrase(f.Label) + then(f.Args[0]))
		continued(f.Args[0], indent, lines)
	case OpUntil:
		stay, goal := f.Args[0], f.Args[1]
		if stay.Op == OpTrue {
			add("can, after τ-steps, " + actionPhrase(f.Label) + then(goal))
			continued(goal, indent, lines)
			return
		}
		add("can take τ-steps, staying in states that")
		describe(stay, indent+"    ", lines)
		add("  and then " + actionPhrase(f.Label) + then(goal))
		if goal.Op != OpTrue {
			describe(goal, indent+"  ", lines)
		}
	case OpDiverge:
		if f.Args[0].Op == OpTrue {
			add("can take τ-steps forever")
		} else {
			add("can take τ-steps forever, staying in states that")
			describe(f.Args[0], indent+"    ", lines)
		}
	}
}

// then is the end of the line of a step into a state that must satisfy
// goal: nothing for true, "reaching a state that" otherwise.
func then(goal *Formula) string {
	if goal.Op == OpTrue {
		return ""
	}
	return ", reaching a state that"
}

// continued appends the description of goal, the state a step leads to,
// at the same depth (a chain of steps reads as a list).
func continued(goal *Formula, indent string, lines *[]string) {
	if goal.Op != OpTrue {
		describe(goal, indent, lines)
	}
}

// actionPhrase says what a step does: "call push(1) in thread 1", "return
// EMPTY from pop in thread 2", "take a τ-step", or "do LABEL".
func actionPhrase(label string) string {
	if label == lts.TauName {
		return "take a τ-step"
	}
	a, ok := lts.ParseAction(label)
	switch {
	case !ok:
		return "do " + label
	case a.Call:
		return fmt.Sprintf("call %s(%s) in thread %d", a.Method, a.Value, a.Thread)
	case a.Value == "":
		return fmt.Sprintf("return from %s in thread %d", a.Method, a.Thread)
	}
	return fmt.Sprintf("return %s from %s in thread %d", a.Value, a.Method, a.Thread)
}

// witnessPath returns a path of l from its initial state (which must
// satisfy f) along which f's steps are taken: for φ⟨a⟩ψ the τ-steps
// through φ and the a-step into ψ, then on into ψ; for ⟨a⟩ψ the step; for
// Δφ the τ-steps into a cycle through φ (the path is then a lasso and
// loopStart its first step on the cycle, else -1). In a conjunction it
// follows the first conjunct that takes steps (the others are conditions
// on the states), in a disjunction the first that holds; it stops at a
// negation. marked lists the indices in path of the formula's own steps
// (the a-steps of ⟨a⟩ and φ⟨a⟩ψ).
func witnessPath(l *lts.LTS, c *localChecker, f *Formula) (path []int32, marked []int, loopStart int) {
	s := l.Initial
	for {
		switch f.Op {
		case OpAnd:
			next := f.Args[0]
			for _, g := range f.Args {
				if g.Op >= OpDiamond {
					next = g
					break
				}
			}
			f = next
			continue
		case OpOr:
			for _, g := range f.Args {
				if c.holds(g, s) {
					f = g
					break
				}
			}
			continue
		case OpDiamond:
			t := c.step(s, c.label(f.Label), f.Args[0])
			marked = append(marked, len(path))
			path = append(path, t)
			s, f = l.Dst[t], f.Args[0]
			continue
		case OpUntil:
			steps, end := c.untilSearch(f, s)
			if n := len(steps); n > 0 { // the a-step, or for a = τ the step into ψ
				marked = append(marked, len(path)+n-1)
			}
			path = append(path, steps...)
			s, f = end, f.Args[1]
			continue
		case OpDiverge:
			// Every state satisfying Δφ has a τ-step to another one: walk
			// until a state repeats.
			at := map[int32]int{s: len(path)}
			for {
				var t int32
				for t = l.Out[s]; t < l.Out[s+1]; t++ {
					if l.Label[t] == lts.Tau && c.holds(f, l.Dst[t]) {
						break
					}
				}
				path = append(path, t)
				s = l.Dst[t]
				if i, ok := at[s]; ok {
					return path, marked, i
				}
				at[s] = len(path)
			}
		}
		return path, marked, -1
	}
}
