package progress

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/linbis/linbis/lts"
)

// ErrMalformed is wrapped by every *InputError: the LTS's call and ret
// actions do not describe well-formed operations, so no verdict is given.
var ErrMalformed = errors.New("call/ret actions are not well formed")

// InputError reports why an LTS cannot be checked: a thread calls while its
// previous operation is pending, returns without a pending call, a state is
// reached with two different sets of pending operations, or the thread
// attribution contradicts a label. Trace leads from the initial state to
// the offending transition.
type InputError struct {
	State int32      // the state where the problem shows
	Label string     // the label of the offending transition
	Msg   string     // what is wrong, in a sentence
	Trace *lts.Trace // the path from the initial state through the offending transition

	ambiguous bool // a state reached with two pending sets: annotate recovers
}

// Error says where (state and label) and what.
func (e *InputError) Error() string {
	return fmt.Sprintf("state %d, %s: %s", e.State, e.Label, e.Msg)
}

// Unwrap makes errors.Is(err, ErrMalformed) hold.
func (e *InputError) Unwrap() error { return ErrMalformed }

// model is an LTS annotated for the progress checks: the kind and thread of
// every label, and for every reachable state the set of threads with a
// pending operation.
//
// Which operations are pending is a function of the path, not of the state
// in general. In an LTS generated from the most-general client it is a
// function of the state, because the explorer's state holds every thread's
// control location and a thread is pending exactly when that location lies
// inside a method. annotateStates relies on this and checks it: a
// breadth-first search assigns each state the pending set of the first
// path that reaches it and stops when another transition reaches it with a
// different set (as can happen on an LTS reduced modulo a behavioural
// equivalence that merged such states); annotate then works on the product
// of the LTS with the pending sets instead (product.go). So a verdict is
// never based on a wrong pending set.
type model struct {
	l       *lts.LTS
	kind    []Kind  // per label
	lthread []int32 // per label: thread index (thread number − 1) of a call/ret, −1 otherwise
	threads int     // thread slots: the largest thread number seen
	words   int     // uint64 words per pending set

	// origin maps the states of l to those of the input when l is the
	// product of the input with pending sets (see product.go); nil when l
	// is the input.
	origin []int32
	input  *lts.LTS

	order  []int32 // reachable states in breadth-first order
	parent []int32 // per reachable state: the BFS tree transition entering it, −1 at the root
	// pend holds words uint64 per state: bit i is set iff thread i+1 has a
	// pending operation, and the top bit of the last word (reachedBit) iff
	// the state is reachable. So an unreachable state is all zero, and one
	// random access per transition tells both whether its target was seen
	// and with which set.
	pend []uint64

	calls int      // number of call labels
	odd   []string // labels that look like call/ret but do not parse
}

// reachedBit marks reachable states in the last word of a pending set.
const reachedBit = uint64(1) << 63

// annotateStates builds the model of l in O(states·words + transitions),
// or fails with an ambiguous *InputError if the pending set is not a
// function of the state.
func annotateStates(l *lts.LTS, opts Options) (*model, error) {
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("invalid LTS: %w", err)
	}
	m := &model{l: l, kind: make([]Kind, len(l.Labels)), lthread: make([]int32, len(l.Labels))}
	maxThread := int32(0)
	for i, name := range l.Labels {
		k, th, _, _ := ParseAction(name)
		m.kind[i], m.lthread[i] = k, th-1
		if th > maxThread {
			maxThread = th
		}
		switch {
		case k == Call:
			m.calls++
		case k == Visible && looksLikeOperation(name):
			m.odd = append(m.odd, name)
		}
	}
	if hasThreads(l) {
		for _, th := range l.Meta.Thread { // at most lts.MaxMetaThread
			maxThread = max(maxThread, int32(th))
		}
	}
	m.threads = int(maxThread)
	m.words = (m.threads + 1 + 63) / 64 // room for reachedBit
	n := l.NumStates
	if n == 0 {
		return m, nil
	}
	m.parent = make([]int32, n)
	m.pend = make([]uint64, int(n)*m.words)
	m.order = make([]int32, 0, n)
	m.parent[l.Initial] = -1
	m.set(l.Initial)[m.words-1] = reachedBit
	m.order = append(m.order, l.Initial)
	next := make([]uint64, m.words)
	for i := 0; i < len(m.order); i++ {
		if i&(pollEvery-1) == pollEvery-1 {
			if err := opts.stopped("annotate", int64(i)); err != nil {
				return nil, err
			}
		} else if i&(1<<20-1) == 0 {
			opts.report("annotate", int64(i), "states")
		}
		s := m.order[i]
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			// The common case, a step that does not change the pending set
			// of a state with at most 64 threads, stays free of slicing.
			k := m.kind[l.Label[t]]
			if m.words == 1 && k != Call && k != Return {
				d := l.Dst[t]
				if pd := m.pend[d]; pd == 0 {
					m.parent[d] = t
					m.pend[d] = m.pend[s]
					m.order = append(m.order, d)
				} else if pd != m.pend[s] {
					next[0] = m.pend[s]
					return nil, m.conflict(t, next)
				}
				continue
			}
			copy(next, m.set(s))
			if k == Call || k == Return {
				if err := m.apply(t, next); err != nil {
					return nil, err
				}
			}
			d := l.Dst[t]
			if m.set(d)[m.words-1]&reachedBit == 0 {
				m.parent[d] = t
				copy(m.set(d), next)
				m.order = append(m.order, d)
			} else if !equalSets(m.set(d), next) {
				return nil, m.conflict(t, next)
			}
		}
	}
	return m, nil
}

// apply updates set by the call or ret transition t, checking that it is
// well formed.
func (m *model) apply(t int32, set []uint64) error {
	lab := m.l.Label[t]
	k, th := m.kind[lab], m.lthread[lab]
	if mt := m.l.ThreadOf(t); mt != 0 && mt-1 != th {
		return m.inputError(t, fmt.Sprintf("attributed to thread %d, but the label names thread %d", mt, th+1))
	}
	w, bit := th/64, uint64(1)<<(th%64)
	pending := set[w]&bit != 0
	if k == Call && pending {
		return m.inputError(t, fmt.Sprintf("thread %d calls while its previous operation is still pending", th+1))
	}
	if k == Return && !pending {
		return m.inputError(t, fmt.Sprintf("thread %d returns without a pending call", th+1))
	}
	set[w] ^= bit
	return nil
}

// conflict reports that transition t leads with pending set next to a
// state first reached with another one.
func (m *model) conflict(t int32, next []uint64) error {
	d := m.l.Dst[t]
	e := m.inputError(t, fmt.Sprintf("leads to state %d with pending threads %s, but state %d was first reached with pending threads %s",
		d, m.formatSet(next), d, m.formatSet(m.set(d))))
	e.ambiguous = true
	return e
}

// set returns the pending set of state s (a view into m.pend).
func (m *model) set(s int32) []uint64 {
	return m.pend[int(s)*m.words : int(s+1)*m.words]
}

// anyPending reports whether some operation is pending at s.
func (m *model) anyPending(s int32) bool {
	if m.words == 1 {
		return m.pend[s]&^reachedBit != 0
	}
	for _, w := range m.set(s) {
		if w&^reachedBit != 0 {
			return true
		}
	}
	return false
}

// pending reports whether thread index th has a pending operation at s.
func (m *model) pending(s int32, th int32) bool {
	return m.pend[int(s)*m.words+int(th/64)]&(1<<(th%64)) != 0
}

// threadOf returns the thread index (thread number − 1) that took
// transition t, or −1 if unknown: the label's thread for a call or ret,
// otherwise the thread attribution.
func (m *model) threadOf(t int32) int32 {
	if th := m.lthread[m.l.Label[t]]; th >= 0 {
		return th
	}
	return m.l.ThreadOf(t) - 1
}

// isReturn reports whether transition t is a ret.
func (m *model) isReturn(t int32) bool { return m.kind[m.l.Label[t]] == Return }

func equalSets(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// formatSet renders a pending set as {1,3}, by thread number.
func (m *model) formatSet(set []uint64) string {
	var sb strings.Builder
	sb.WriteByte('{')
	first := true
	for w, word := range set {
		if w == len(set)-1 {
			word &^= reachedBit
		}
		for word != 0 {
			i := bits.TrailingZeros64(word)
			word &^= 1 << i
			if !first {
				sb.WriteByte(',')
			}
			first = false
			fmt.Fprintf(&sb, "%d", w*64+i+1)
		}
	}
	sb.WriteByte('}')
	return sb.String()
}

// pathTo returns the BFS-tree path from the initial state to reachable
// state s, as transition ids: a shortest path.
func (m *model) pathTo(s int32) []int32 {
	var path []int32
	for t := m.parent[s]; t >= 0; t = m.parent[m.l.Src[t]] {
		path = append(path, t)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

func (m *model) inputError(t int32, msg string) *InputError {
	path := append(m.pathTo(m.l.Src[t]), t)
	return &InputError{State: m.state(m.l.Src[t]), Label: m.l.LabelName(t), Msg: msg,
		Trace: m.trace("path to the malformed step", path, -1)}
}

// trace turns a path of transitions into an lts.Trace in terms of the
// input's states; loopStart is the index of the first step of the cycle,
// or −1.
func (m *model) trace(title string, path []int32, loopStart int) *lts.Trace {
	tr := &lts.Trace{Title: title, LoopStart: loopStart, Steps: make([]lts.TraceStep, len(path))}
	for i, t := range path {
		st := lts.StepFromTransition(m.l, t)
		st.From, st.To = m.state(st.From), m.state(st.To)
		if st.Thread == 0 {
			st.Thread = m.threadOf(t) + 1
		}
		tr.Steps[i] = st
	}
	return tr
}

// state maps a state of m.l to the input's state.
func (m *model) state(s int32) int32 {
	if m.origin == nil {
		return s
	}
	return m.origin[s]
}
