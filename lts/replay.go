package lts

// Replay finds a shortest path of l from its initial state whose visible
// labels are exactly visible (τ steps may be interleaved anywhere), and
// returns it as transition ids; ok is false when l has no such path.
//
// Checkers that work on a reduced LTS (a quotient, a union) use it to turn
// their counterexample back into a path of the original LTS, whose
// transitions carry threads and source steps. It is a breadth-first search
// over (state, position in visible) pairs: O((n + m) · (len(visible) + 1))
// in the worst case, but it visits only the pairs it reaches.
func Replay(l *LTS, visible []string) (path []int32, ok bool) {
	ids := make([]int32, len(visible))
	for i, name := range visible {
		if ids[i] = l.LabelID(name); ids[i] <= Tau {
			return nil, false // a label l never does (or τ, which is not visible)
		}
	}
	k := int32(len(visible)) + 1
	n := l.NumStates
	// parent[p] is the transition that first reached pair p = pos*n +
	// state, -1 for the start. A map: the search visits only the pairs
	// along the trace, a small part of a big LTS.
	parent := map[int64]int32{}
	start := l.Initial
	parent[int64(start)] = -1
	queue := []int64{int64(start)}
	goal := int64(-1)
	for len(queue) > 0 && goal < 0 {
		p := queue[0]
		queue = queue[1:]
		pos, s := int32(p/int64(n)), int32(p%int64(n))
		if pos == k-1 {
			goal = p
			break
		}
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			next := pos
			switch lab := l.Label[t]; {
			case lab == Tau:
			case lab == ids[pos]:
				next = pos + 1
			default:
				continue
			}
			q := int64(next)*int64(n) + int64(l.Dst[t])
			if _, seen := parent[q]; !seen {
				parent[q] = t
				queue = append(queue, q)
			}
		}
	}
	if goal < 0 {
		return nil, false
	}
	for p := goal; parent[p] >= 0; {
		t := parent[p]
		path = append(path, t)
		pos := int32(p / int64(n))
		if l.Label[t] != Tau {
			pos--
		}
		p = int64(pos)*int64(n) + int64(l.Src[t])
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, true
}

// TraceOf turns a path of transition ids of l into a Trace, with threads
// and source steps when l has them.
func TraceOf(l *LTS, path []int32) *Trace {
	tr := &Trace{LoopStart: -1, Steps: make([]TraceStep, len(path))}
	for i, t := range path {
		tr.Steps[i] = StepFromTransition(l, t)
	}
	return tr
}
