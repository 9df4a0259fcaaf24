package refine

import (
	"fmt"

	"github.com/linbis/linbis/lts"
)

// This file builds small concurrent objects under a most-general client by
// hand (each thread performs up to ops operations, any of them, with any
// argument), so that tests have models whose verdicts are known.

// move is a transition of a hand-built model: taken by thread (from 1) at
// line of the model's source text (0 = none).
type move[S comparable] struct {
	label        string
	to           S
	thread, line int32
}

// explore builds the LTS reachable from init under step, states numbered in
// breadth-first order, with each transition's thread and source line as
// metadata; src is the model's source text, one statement per line.
func explore[S comparable](init S, src []string, step func(S) []move[S]) *lts.LTS {
	ids := map[S]int32{init: 0}
	queue := []S{init}
	b := lts.NewBuilder()
	b.AddState()
	for i, text := range src {
		b.AddStep(lts.SourceStep{File: "model", Line: int32(i + 1), Col: 1, Text: text})
	}
	for i := 0; i < len(queue); i++ {
		for _, m := range step(queue[i]) {
			id, ok := ids[m.to]
			if !ok {
				id = b.AddState()
				ids[m.to] = id
				queue = append(queue, m.to)
			}
			b.AddTransitionMeta(int32(i), b.Label(m.label), id, m.thread, m.line-1)
		}
	}
	return b.Build()
}

const maxThreads = 3

// counterKind selects a fetch-and-increment counter variant; inc returns the
// value before the increment.
type counterKind int

const (
	counterSpec     counterKind = iota // atomic: call, lin (read and increment), ret
	counterCAS                         // read x; CAS(c, x, x+1) or retry; the CAS is the lin point
	counterBuggy                       // read x; write x+1 (lost updates); the write is marked lin
	counterWrongLin                    // the CAS counter with its read marked lin instead of the CAS
)

// counterSource is the source text the counter models' steps point to.
var counterSource = []string{"inc() {", "x := c", "c = x + 1", "if !cas(c, x, x+1) { retry }", "return x"}

type counterState struct {
	c          int8
	pc, x, ops [maxThreads]int8
}

// counter returns the LTS of a counter of the given kind with threads
// threads doing ops increments each. Linearization events are labelled
// lin(T,inc,V); the others are call(T,inc), ret(T,inc,V) and τ.
func counter(kind counterKind, threads, ops int) *lts.LTS {
	return explore(counterState{}, counterSource, func(s counterState) []move[counterState] {
		var out []move[counterState]
		for t := range threads {
			call, lin := fmt.Sprintf("call(%d,inc)", t+1), fmt.Sprintf("lin(%d,inc,%d)", t+1, s.c)
			th := int32(t + 1)
			n := s
			switch pc := s.pc[t]; {
			case pc == 0 && int(s.ops[t]) < ops:
				n.pc[t] = 1
				out = append(out, move[counterState]{call, n, th, 1})
			case pc == 1 && kind == counterSpec:
				n.x[t], n.c, n.pc[t] = s.c, s.c+1, 9
				out = append(out, move[counterState]{lin, n, th, 2})
			case pc == 1: // impls: read the counter
				n.x[t], n.pc[t] = s.c, 2
				label := lts.TauName
				if kind == counterWrongLin {
					label = lin
				}
				out = append(out, move[counterState]{label, n, th, 2})
			case pc == 2 && kind == counterBuggy:
				n.c, n.pc[t] = s.x[t]+1, 9
				out = append(out, move[counterState]{fmt.Sprintf("lin(%d,inc,%d)", t+1, s.x[t]), n, th, 3})
			case pc == 2: // CAS
				label := lts.TauName
				if s.c == s.x[t] {
					n.c, n.pc[t] = s.c+1, 9
					if kind == counterCAS {
						label = fmt.Sprintf("lin(%d,inc,%d)", t+1, s.x[t])
					}
				} else {
					n.pc[t] = 1
				}
				out = append(out, move[counterState]{label, n, th, 4})
			case pc == 9:
				n.pc[t], n.x[t], n.ops[t] = 0, 0, s.ops[t]+1
				out = append(out, move[counterState]{fmt.Sprintf("ret(%d,inc,%d)", t+1, s.x[t]), n, th, 5})
			}
		}
		return out
	})
}

// registerState is a register of values 0..vals-1 (initially 0) with per
// thread: pc, the value being written or read, and operations done.
type registerState struct {
	r          int8
	pc, v, ops [maxThreads]int8
}

// register returns a read/write register under a most-general client. The
// spec does each operation in one atomic step between call and ret; the
// impl (impl = true) prepares a write in a local step, may back off in a
// τ self-loop before it stores, and reads in one load: it is linearizable,
// with τ-cycles the specification lacks.
func register(impl bool, threads, ops, vals int) *lts.LTS {
	return explore(registerState{}, nil, func(s registerState) []move[registerState] {
		var out []move[registerState]
		for t := range threads {
			n := s
			switch s.pc[t] {
			case 0:
				if int(s.ops[t]) >= ops {
					continue
				}
				for v := range vals {
					n.pc[t], n.v[t] = 1, int8(v)
					out = append(out, move[registerState]{fmt.Sprintf("call(%d,write,%d)", t+1, v), n, int32(t + 1), 0})
				}
				n.pc[t], n.v[t] = 3, 0
				out = append(out, move[registerState]{fmt.Sprintf("call(%d,read)", t+1), n, int32(t + 1), 0})
			case 1: // write pending
				if impl {
					n.pc[t] = 2
					out = append(out, move[registerState]{lts.TauName, n, int32(t + 1), 0})
					continue
				}
				n.r, n.pc[t] = s.v[t], 5
				out = append(out, move[registerState]{lts.TauName, n, int32(t + 1), 0})
			case 2: // impl: back off (a τ self-loop) or store
				out = append(out, move[registerState]{lts.TauName, s, int32(t + 1), 0})
				n.r, n.pc[t] = s.v[t], 5
				out = append(out, move[registerState]{lts.TauName, n, int32(t + 1), 0})
			case 3: // read pending
				n.v[t], n.pc[t] = s.r, 6
				out = append(out, move[registerState]{lts.TauName, n, int32(t + 1), 0})
			case 5:
				n.pc[t], n.v[t], n.ops[t] = 0, 0, s.ops[t]+1
				out = append(out, move[registerState]{fmt.Sprintf("ret(%d,write)", t+1), n, int32(t + 1), 0})
			case 6:
				n.pc[t], n.v[t], n.ops[t] = 0, 0, s.ops[t]+1
				out = append(out, move[registerState]{fmt.Sprintf("ret(%d,read,%d)", t+1, s.v[t]), n, int32(t + 1), 0})
			}
		}
		return out
	})
}
