package lts

// Canonical returns an LTS with the same states, labels and initial state
// as l whose transitions are sorted by (source, label, target) with
// duplicates removed. It uses three stable counting sorts, O(n + m + labels).
// Metadata, when present, is kept for the first of each set of duplicates.
func Canonical(l *LTS) *LTS {
	m := len(l.Src)
	perm := make([]int32, m)
	for i := range perm {
		perm[i] = int32(i)
	}
	// Least significant key first: target, then label, then source.
	perm = countingSort(perm, l.Dst, int(l.NumStates))
	perm = countingSort(perm, l.Label, len(l.Labels))
	perm = countingSort(perm, l.Src, int(l.NumStates))
	keep := perm[:0]
	for i, t := range perm {
		if i > 0 {
			u := keep[len(keep)-1]
			if l.Src[u] == l.Src[t] && l.Label[u] == l.Label[t] && l.Dst[u] == l.Dst[t] {
				continue
			}
		}
		keep = append(keep, t)
	}
	return permute(l, keep)
}

// countingSort stably sorts the transition ids in perm by key[t], whose
// values lie in [0, size).
func countingSort(perm, key []int32, size int) []int32 {
	start := make([]int32, size+1)
	for _, t := range perm {
		start[key[t]+1]++
	}
	for k := 0; k < size; k++ {
		start[k+1] += start[k]
	}
	out := make([]int32, len(perm))
	for _, t := range perm {
		out[start[key[t]]] = t
		start[key[t]]++
	}
	return out
}

// permute returns a copy of l holding the transitions ids (in that order,
// which must be sorted by source).
func permute(l *LTS, ids []int32) *LTS {
	c := &LTS{Initial: l.Initial, NumStates: l.NumStates, Labels: l.Labels}
	c.Src = make([]int32, len(ids))
	c.Label = make([]int32, len(ids))
	c.Dst = make([]int32, len(ids))
	for j, t := range ids {
		c.Src[j], c.Label[j], c.Dst[j] = l.Src[t], l.Label[t], l.Dst[t]
	}
	if l.Meta != nil {
		c.Meta = &Meta{Thread: make([]uint8, len(ids)), Step: make([]int16, len(ids)), Steps: l.Meta.Steps}
		for j, t := range ids {
			c.Meta.Thread[j], c.Meta.Step[j] = l.Meta.Thread[t], l.Meta.Step[t]
		}
	}
	c.Out = make([]int32, c.NumStates+1)
	for _, s := range c.Src {
		c.Out[s+1]++
	}
	for s := int32(0); s < c.NumStates; s++ {
		c.Out[s+1] += c.Out[s]
	}
	return c
}

// Reachable returns the part of l reachable from its initial state, with
// states renumbered in breadth-first order (the initial state becomes 0),
// and the map from old to new state ids (-1 for unreachable states).
func Reachable(l *LTS) (r *LTS, oldToNew []int32) {
	order, oldToNew := reachOrder(l)
	r = &LTS{Initial: 0, NumStates: int32(len(order)), Labels: l.Labels}
	r.Out = make([]int32, r.NumStates+1)
	for i, s := range order {
		r.Out[i+1] = r.Out[i] + l.Out[s+1] - l.Out[s]
	}
	m := r.Out[r.NumStates]
	r.Src, r.Label, r.Dst = make([]int32, m), make([]int32, m), make([]int32, m)
	if l.Meta != nil {
		r.Meta = &Meta{Thread: make([]uint8, m), Step: make([]int16, m), Steps: l.Meta.Steps}
	}
	// The transitions of the states in their new order, without a list of
	// their ids (4 bytes a transition, and more as it grows).
	j := int32(0)
	for _, s := range order {
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			r.Src[j], r.Label[j], r.Dst[j] = oldToNew[s], l.Label[t], oldToNew[l.Dst[t]]
			if l.Meta != nil {
				r.Meta.Thread[j], r.Meta.Step[j] = l.Meta.Thread[t], l.Meta.Step[t]
			}
			j++
		}
	}
	return r, oldToNew
}

// ReachableOrder lists the states reachable from l's initial state in
// breadth-first order, the order in which Reachable numbers them.
func ReachableOrder(l *LTS) []int32 {
	order, _ := reachOrder(l)
	return order
}

// BreadthFirstNumbered reports whether every state of l is reachable
// from its initial state and numbered in breadth-first order, that is
// whether ReachableOrder(l) is 0, 1, …, NumStates-1, as in the files that
// breadth-first explorers (mCRL2's among them) write. It reads the
// targets once in order, without ReachableOrder's random accesses and
// arrays: state s's successors not met before must be the next numbers,
// in the order of its transitions.
func BreadthFirstNumbered(l *LTS) bool {
	if l.NumStates == 0 || l.Initial != 0 {
		return false
	}
	next := int32(1) // states 0 … next-1 are met
	for s := range l.NumStates {
		if s >= next {
			return false // the search stops at s: the rest is unreachable
		}
		for _, d := range l.Dst[l.Out[s]:l.Out[s+1]] {
			if d == next {
				next++
			} else if d > next {
				return false
			}
		}
	}
	return true
}

// reachOrder lists the states reachable from the initial state in
// breadth-first order; oldToNew[s] is the index of s in order, or -1.
func reachOrder(l *LTS) (order, oldToNew []int32) {
	oldToNew = make([]int32, l.NumStates)
	for i := range oldToNew {
		oldToNew[i] = -1
	}
	order = []int32{l.Initial}
	oldToNew[l.Initial] = 0
	for i := 0; i < len(order); i++ {
		s := order[i]
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			if d := l.Dst[t]; oldToNew[d] < 0 {
				oldToNew[d] = int32(len(order))
				order = append(order, d)
			}
		}
	}
	return order, oldToNew
}

// Union returns the disjoint union of a and b: the states of a keep their
// ids, those of b are shifted by offset = a.NumStates. Labels are merged by
// name. The initial state is a's; b's is offset + b.Initial. Metadata is
// dropped.
func Union(a, b *LTS) (u *LTS, offset int32) {
	offset = a.NumStates
	bl := NewBuilder()
	for _, name := range a.Labels {
		bl.Label(name)
	}
	remap := make([]int32, len(b.Labels))
	for i, name := range b.Labels {
		remap[i] = bl.Label(name)
	}
	bl.SetNumStates(a.NumStates + b.NumStates)
	bl.SetInitial(a.Initial)
	bl.Grow(len(a.Src) + len(b.Src))
	for t := range a.Src {
		bl.AddTransition(a.Src[t], a.Label[t], a.Dst[t])
	}
	for t := range b.Src {
		bl.AddTransition(b.Src[t]+offset, remap[b.Label[t]], b.Dst[t]+offset)
	}
	return bl.Build(), offset
}

// Relabel returns l with every label renamed by rename. A label renamed to
// TauName becomes τ (hiding, as mCRL2's --tau); τ is passed to rename too,
// so that it can be made visible under another name. States, transitions
// and metadata are shared with l.
func Relabel(l *LTS, rename func(name string) string) *LTS {
	labels := []string{TauName}
	index := map[string]int32{TauName: Tau}
	newID := make([]int32, len(l.Labels))
	for i, name := range l.Labels {
		n := rename(name)
		id, ok := index[n]
		if !ok {
			id = int32(len(labels))
			labels = append(labels, n)
			index[n] = id
		}
		newID[i] = id
	}
	c := *l
	c.Labels = labels
	c.Label = make([]int32, len(l.Label))
	for t, x := range l.Label {
		c.Label[t] = newID[x]
	}
	return &c
}
