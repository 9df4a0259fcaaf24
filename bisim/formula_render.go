package bisim

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/linbis/linbis/lts"
)

// English renders f, a property of a state, as an English verb phrase
// for a person to read after the name of the LTS ("the implementation can
// call read() in thread 2, then take τ-steps (without leaving the states
// that …) to reach a state that cannot … but can …"): steps in a row read
// as a chain joined by "then", what must hold on the way (the φ of φ⟨a⟩ψ,
// in the state where the τ-steps start and every state they pass) as a
// parenthesis after the step, what holds where the chain ends as "to
// reach a state that …", negated steps as "cannot", a negated until as
// "cannot, without leaving the states that φ, do a", and returns of one operation that are all
// still possible as one phrase ("can still return EMPTY as well as 1 from
// pop in thread 2"). Under the branching equivalences a step may follow
// τ-steps (the caller says so once); under strong bisimilarity every step
// is one transition. A list item that has a clause of its own is
// parenthesised unless it ends the list, so the nesting stays readable.
// Sentences makes whole sentences of it, splitting long ones.
func (f *Formula) English() string {
	return phrase(f)
}

// phrase says f as a verb phrase ("can …", "cannot …").
func phrase(f *Formula) string {
	switch f.Op {
	case OpTrue:
		return "holds (true)"
	case OpNot:
		g := f.Args[0]
		if g.Op == OpUntil && g.Args[0].Op != OpTrue {
			// Not "cannot do a (without leaving …)", which reads as
			// "cannot do a": what cannot be done is a without leaving.
			return "cannot, without leaving the states that " + phrase(g.Args[0]) + ", " + chain(Until(True(), g.Label, g.Args[1]))
		}
		if g.Op == OpDiamond || g.Op == OpUntil || g.Op == OpDiverge {
			return "cannot " + strings.TrimPrefix(phrase(g), "can ")
		}
		return "is not a state that " + phrase(g)
	case OpAnd:
		return list(mergeReturns(f.Args), "and")
	case OpOr:
		parts := make([]string, len(f.Args))
		for i, g := range f.Args {
			parts[i] = phrase(g)
		}
		return "either " + list(parts, "or")
	case OpDiamond, OpUntil:
		return "can " + chain(f)
	case OpDiverge:
		if f.Args[0].Op == OpTrue {
			return "can take τ-steps forever"
		}
		return "can take τ-steps forever through states that " + phrase(f.Args[0])
	}
	return f.String()
}

// chain says the steps that start at f (a diamond or until) and go on
// while the formula reached is again a step.
func chain(f *Formula) string {
	steps, end := chainParts(f)
	if end == nil {
		return steps
	}
	return steps + " to reach a state that " + phrase(end)
}

// chainParts says the steps of the chain that starts at f and returns the
// formula where it ends, nil for true.
func chainParts(f *Formula) (steps string, end *Formula) {
	var parts []string
	for {
		var step string
		switch {
		case f.Op == OpUntil && f.Label == lts.TauName:
			step = "take τ-steps"
		default:
			step = actionPhrase(f.Label)
		}
		if f.Op == OpUntil && f.Args[0].Op != OpTrue {
			step += " (without leaving the states that " + phrase(f.Args[0]) + ")"
		}
		parts = append(parts, step)
		next := f.Args[len(f.Args)-1]
		switch next.Op {
		case OpTrue:
			return joinSteps(parts), nil
		case OpDiamond, OpUntil:
			f = next
			continue
		}
		return joinSteps(parts), next
	}
}

// Sentences says f of subject ("the implementation") as one sentence, or,
// when that would be long and f is a chain of steps that ends in a state
// with properties of its own, as two: what subject can do, and what holds
// where it gets to. The first sentence is about the steps, which the
// witnessing path shows; the second about the choices left there.
func (f *Formula) Sentences(subject string) string {
	one := subject + " " + phrase(f) + "."
	if len(one) <= 300 || (f.Op != OpDiamond && f.Op != OpUntil) {
		return one
	}
	steps, end := chainParts(f)
	if end == nil {
		return one
	}
	return subject + " can " + steps + ". The state it reaches that way " + phrase(end) + "."
}

// joinSteps joins the steps of a chain with "then", saying a run of
// single τ-steps (strong bisimilarity) as "take n τ-steps".
func joinSteps(parts []string) string {
	const tau = "take a τ-step"
	var out []string
	for i := 0; i < len(parts); {
		j := i + 1
		for j < len(parts) && parts[i] == tau && parts[j] == tau {
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("take %d τ-steps", j-i))
		} else {
			out = append(out, parts[i])
		}
		i = j
	}
	return strings.Join(out, ", then ")
}

// returnStep is a formula that says "can return value from method in
// thread" and nothing more, as phrase items; ok is false otherwise.
func returnStep(f *Formula) (a lts.Action, ok bool) {
	if (f.Op != OpUntil || f.Args[0].Op != OpTrue) && f.Op != OpDiamond || f.Args[len(f.Args)-1].Op != OpTrue {
		return a, false
	}
	a, ok = lts.ParseAction(f.Label)
	return a, ok && !a.Call && a.Value != ""
}

// mergeReturns phrases the items of a conjunction, saying the returns of
// one operation that are all possible in one phrase, at the place of the
// first of them.
func mergeReturns(fs []*Formula) []string {
	var parts []string
	at := map[[2]string]int{} // thread and method -> index in parts
	values := map[int][]string{}
	for _, g := range fs {
		if a, ok := returnStep(g); ok {
			key := [2]string{fmt.Sprint(a.Thread), a.Method}
			if i, seen := at[key]; seen {
				values[i] = append(values[i], a.Value)
				parts[i] = fmt.Sprintf("can still return %s from %s in thread %d", strings.Join(values[i], " as well as "), a.Method, a.Thread)
				continue
			}
			at[key] = len(parts)
			values[len(parts)] = []string{a.Value}
		}
		parts = append(parts, phrase(g))
	}
	return parts
}

// list joins parts with conj ("and", "or"): "A and B", "A, B, and C"; when
// a part has commas of its own, "A, and B" and "A; B; and C"; "A but B"
// when A says what cannot be done and B what can. A part that has a
// clause of its own ("… to reach a state that …") is parenthesised unless
// it is the last, so that the reader knows where it ends.
func list(parts []string, conj string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	commas := slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(p, ",") })
	for i := range parts[:len(parts)-1] {
		if strings.Contains(parts[i], " that ") {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	if len(parts) == 2 {
		if conj == "and" && strings.HasPrefix(parts[0], "cannot ") && strings.HasPrefix(parts[1], "can ") {
			conj = "but"
		}
		if commas {
			return parts[0] + ", " + conj + " " + parts[1]
		}
		return parts[0] + " " + conj + " " + parts[1]
	}
	sep := ", "
	if commas {
		sep = "; "
	}
	return strings.Join(parts[:len(parts)-1], sep) + sep + conj + " " + parts[len(parts)-1]
}

// wrap breaks text into lines of at most width runes (a longer word stays
// whole), each prefixed by indent.
func wrap(text, indent string, width int) string {
	var sb strings.Builder
	line := 0
	for i, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
			sb.WriteString(indent)
		case line+1+n > width:
			sb.WriteString("\n" + indent)
			line = 0
		default:
			sb.WriteString(" ")
			line++
		}
		sb.WriteString(word)
		line += n
	}
	return sb.String()
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
