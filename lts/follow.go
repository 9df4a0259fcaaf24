package lts

// Follows reports whether the steps of tr are a path of l from its
// initial state, matching each step's label, its thread when the step has
// one and its source step when both have one; for a lasso, one whose last
// step ends where step LoopStart starts. The state numbers of the steps
// are not used, so that a trace found elsewhere (on the fly, or on another
// LTS of the same model) can be checked against l. It searches depth-first
// among the transitions that match a step: exponential only in the
// number of steps that several transitions match, which on the LTSs of
// models are the explicit heap mode's choices of a node to reuse.
func Follows(l *LTS, tr *Trace) bool {
	var walk func(i int, s, loop int32) bool
	walk = func(i int, s, loop int32) bool {
		if i == tr.LoopStart {
			loop = s
		}
		if i == len(tr.Steps) {
			return !tr.IsLasso() || s == loop
		}
		st := tr.Steps[i]
		lo, hi := l.Outgoing(s)
		for t := lo; t < hi; t++ {
			if l.LabelName(t) != st.Label || st.Thread != 0 && l.ThreadOf(t) != st.Thread {
				continue
			}
			if src, ok := l.StepOf(t); ok && st.Source != nil && src != *st.Source {
				continue
			}
			if walk(i+1, l.Dst[t], loop) {
				return true
			}
		}
		return false
	}
	return walk(0, l.Initial, -1)
}
