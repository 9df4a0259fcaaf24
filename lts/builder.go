package lts

import "fmt"

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
	thread     []uint8
	step       []int16
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
	if len(b.steps) == MaxMetaSteps {
		panic(fmt.Sprintf("lts: more than %d source steps", MaxMetaSteps))
	}
	b.enableMeta()
	b.steps = append(b.steps, s)
	return int32(len(b.steps) - 1)
}

// AddTransitionMeta adds src --label--> dst taken by thread (at most
// MaxMetaThread) at source step step (one that AddStep returned; -1 for
// none).
func (b *Builder) AddTransitionMeta(src, label, dst, thread, step int32) {
	if thread < 0 || thread > MaxMetaThread {
		panic(fmt.Sprintf("lts: thread %d out of 0..%d", thread, MaxMetaThread))
	}
	if step < -1 || step >= MaxMetaSteps {
		panic(fmt.Sprintf("lts: step %d out of -1..%d", step, MaxMetaSteps-1))
	}
	b.enableMeta()
	b.src = append(b.src, src)
	b.lab = append(b.lab, label)
	b.dst = append(b.dst, dst)
	b.thread = append(b.thread, uint8(thread))
	b.step = append(b.step, int16(step))
}

func (b *Builder) enableMeta() {
	if b.withMeta {
		return
	}
	b.withMeta = true
	b.thread = make([]uint8, len(b.src), cap(b.src))
	b.step = make([]int16, len(b.src), cap(b.src))
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
	prev := int32(0)
	for _, s := range b.src {
		out[s+1]++
		if s < prev {
			sorted = false
		}
		prev = s
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
	l.Src = permuted(b.src, perm)
	b.src = nil
	l.Label = permuted(b.lab, perm)
	b.lab = nil
	l.Dst = permuted(b.dst, perm)
	b.dst = nil
	if b.withMeta {
		l.Meta = &Meta{Thread: permuted(b.thread, perm), Step: permuted(b.step, perm), Steps: b.steps}
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
	Src   int32  // the source state
	Label string // the label's name; TauName for τ
	Dst   int32  // the target state
}

// permuted returns from[perm[0]], from[perm[1]], ….
func permuted[T any](from []T, perm []int32) []T {
	to := make([]T, len(perm))
	for j, i := range perm {
		to[j] = from[i]
	}
	return to
}

// room makes room for at least one more transition, and for up to n
// without reallocating when the slices already have it, and returns the
// number of transitions that fit in the slices' capacity (at most n), for
// a reader that writes transitions there (the .aut reader's bulk path).
// It is 0 for a builder with metadata, which such a reader would not set.
func (b *Builder) room(n int64) int {
	if b.withMeta {
		return 0
	}
	free := int64(cap(b.src) - len(b.src))
	if free == 0 && n > 0 {
		// Doubling, as append grows, so that an unsized reader (no size
		// hint) does not copy the slices once per call.
		b.Grow(int(min(n, int64(max(len(b.src), 1<<10)))))
		free = int64(cap(b.src) - len(b.src))
	}
	return int(min(free, n, int64(cap(b.lab)-len(b.lab)), int64(cap(b.dst)-len(b.dst))))
}
