package lts

// Builder constructs an LTS incrementally. States may be added one by one
// (AddState) or all at once (SetNumStates); transitions may be added in any
// order and are sorted by source, stably, when Build is called.
type Builder struct {
	initial    int32
	numStates  int32
	labels     []string
	labelIndex map[string]int32
	src, lab   []int32
	dst        []int32
	withMeta   bool
	thread     []int32
	step       []int32
	steps      []SourceStep
}

// NewBuilder returns an empty builder whose label table holds only τ.
func NewBuilder() *Builder {
	return &Builder{
		labels:     []string{TauName},
		labelIndex: map[string]int32{TauName: Tau},
	}
}

// Grow reserves room for n more transitions.
func (b *Builder) Grow(n int) {
	if free := cap(b.src) - len(b.src); free < n {
		need := len(b.src) + n
		b.src = append(make([]int32, 0, need), b.src...)
		b.lab = append(make([]int32, 0, need), b.lab...)
		b.dst = append(make([]int32, 0, need), b.dst...)
	}
}

// Label interns name and returns its id. The name "tau" is τ.
func (b *Builder) Label(name string) int32 {
	if id, ok := b.labelIndex[name]; ok {
		return id
	}
	id := int32(len(b.labels))
	b.labels = append(b.labels, name)
	b.labelIndex[name] = id
	return id
}

// labelBytes interns name without allocating when it is already known.
func (b *Builder) labelBytes(name []byte) int32 {
	if id, ok := b.labelIndex[string(name)]; ok {
		return id
	}
	return b.Label(string(name))
}

// AddState adds a fresh state and returns its id.
func (b *Builder) AddState() int32 {
	b.numStates++
	return b.numStates - 1
}

// SetNumStates sets the number of states; states are 0..n-1.
func (b *Builder) SetNumStates(n int32) { b.numStates = n }

// NumStates returns the current number of states.
func (b *Builder) NumStates() int32 { return b.numStates }

// NumTransitions returns the number of transitions added so far.
func (b *Builder) NumTransitions() int { return len(b.src) }

// SetInitial sets the initial state.
func (b *Builder) SetInitial(s int32) { b.initial = s }

// AddTransition adds src --label--> dst.
func (b *Builder) AddTransition(src, label, dst int32) {
	b.src = append(b.src, src)
	b.lab = append(b.lab, label)
	b.dst = append(b.dst, dst)
	if b.withMeta {
		b.thread = append(b.thread, 0)
		b.step = append(b.step, -1)
	}
}

// AddStep registers a source step and returns its id for AddTransitionMeta.
func (b *Builder) AddStep(s SourceStep) int32 {
	b.enableMeta()
	b.steps = append(b.steps, s)
	return int32(len(b.steps) - 1)
}

// AddTransitionMeta adds src --label--> dst taken by thread at source step
// step (-1 for none).
func (b *Builder) AddTransitionMeta(src, label, dst, thread, step int32) {
	b.enableMeta()
	b.src = append(b.src, src)
	b.lab = append(b.lab, label)
	b.dst = append(b.dst, dst)
	b.thread = append(b.thread, thread)
	b.step = append(b.step, step)
}

func (b *Builder) enableMeta() {
	if b.withMeta {
		return
	}
	b.withMeta = true
	b.thread = make([]int32, len(b.src), cap(b.src))
	b.step = make([]int32, len(b.src), cap(b.src))
	for i := range b.step {
		b.step[i] = -1
	}
}

// Build sorts the transitions by source (stably, by counting sort) and
// returns the LTS. The builder must not be used afterwards. Build does not
// check ranges; readers check them before adding.
func (b *Builder) Build() *LTS {
	n := b.numStates
	m := len(b.src)
	out := make([]int32, n+1)
	sorted := true
	for i, s := range b.src {
		out[s+1]++
		if i > 0 && s < b.src[i-1] {
			sorted = false
		}
	}
	for s := int32(0); s < n; s++ {
		out[s+1] += out[s]
	}
	l := &LTS{Initial: b.initial, NumStates: n, Labels: b.labels, Out: out}
	if sorted {
		l.Src, l.Label, l.Dst = b.src, b.lab, b.dst
		if b.withMeta {
			l.Meta = &Meta{Thread: b.thread, Step: b.step, Steps: b.steps}
		}
		*b = Builder{}
		return l
	}
	// Permutation by counting sort; apply it slice by slice so that only one
	// extra slice is live at a time.
	perm := make([]int32, m)
	fill := make([]int32, n)
	copy(fill, out[:n])
	for i, s := range b.src {
		perm[fill[s]] = int32(i)
		fill[s]++
	}
	fill = nil
	apply := func(from []int32) []int32 {
		to := make([]int32, m)
		for j, i := range perm {
			to[j] = from[i]
		}
		return to
	}
	l.Src = apply(b.src)
	b.src = nil
	l.Label = apply(b.lab)
	b.lab = nil
	l.Dst = apply(b.dst)
	b.dst = nil
	if b.withMeta {
		l.Meta = &Meta{Thread: apply(b.thread), Step: apply(b.step), Steps: b.steps}
	}
	*b = Builder{}
	return l
}

// FromTriples builds an LTS from (src, label, dst) triples given by label
// name; it is a convenience for tests and small hand-made systems.
func FromTriples(initial, numStates int32, triples []Triple) *LTS {
	b := NewBuilder()
	b.SetNumStates(numStates)
	b.SetInitial(initial)
	for _, t := range triples {
		b.AddTransition(t.Src, b.Label(t.Label), t.Dst)
	}
	return b.Build()
}

// Triple is one transition given by label name, for FromTriples.
type Triple struct {
	Src   int32
	Label string
	Dst   int32
}
