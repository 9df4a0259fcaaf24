package progress

import (
	"errors"
	"fmt"
	"strings"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lts"
)

// Result is the verdict on one property.
type Result struct {
	// Property is the property decided.
	Property Property `json:"property"`
	// Holds reports whether l has the property.
	Holds bool `json:"holds"`
	// Lasso is the counterexample when the property fails: a shortest path
	// from the initial state to a cycle and the cycle (LoopStart marks it),
	// or, for a stuck state, a finite shortest path to it (LoopStart −1).
	Lasso *lts.Trace `json:"lasso,omitempty"`
	// Thread is the thread the counterexample is about (wait-, obstruction-
	// and starvation-freedom), 0 otherwise.
	Thread int32 `json:"thread,omitempty"`
	// Explanation says in one paragraph what holds or what goes wrong.
	Explanation string `json:"explanation"`
}

// Check decides p on l. Properties that need thread attribution return an
// error wrapping ErrNeedsThreads when l.Meta is nil (a plain .aut file) or
// a reachable internal step has no thread; an LTS whose call/ret actions
// are not well formed gives an *InputError (wrapping ErrMalformed). To
// decide several properties of one LTS, use NewChecker once.
func Check(l *lts.LTS, p Property) (*Result, error) {
	if err := checkSupported(l, p); err != nil {
		return nil, err
	}
	c, err := NewChecker(l)
	if err != nil {
		return nil, err
	}
	return c.Check(p)
}

// Checker decides progress properties of one LTS. It annotates the LTS
// with the pending operations once, so that several properties share that
// work. A Checker is not safe for concurrent use.
type Checker struct {
	m    *model
	opts Options

	attributionChecked bool
	unattributed       string
	cand               []uint64 // see candidates
}

// NewChecker annotates l for the progress checks in O(states + transitions)
// with default Options.
func NewChecker(l *lts.LTS) (*Checker, error) { return NewCheckerOptions(l, Options{}) }

// NewCheckerOptions is NewChecker with options.
func NewCheckerOptions(l *lts.LTS, opts Options) (*Checker, error) {
	m, err := annotate(l, opts)
	if err != nil {
		return nil, err
	}
	opts.report("annotate", int64(len(m.order)), "states")
	return &Checker{m: m, opts: opts}, nil
}

func checkSupported(l *lts.LTS, p Property) error {
	if l == nil {
		return errors.New("no LTS")
	}
	if p < 0 || int(p) >= len(AllProperties) {
		return fmt.Errorf("unknown progress property %d", int(p))
	}
	if p.NeedsThreads() && !hasThreads(l) {
		return fmt.Errorf("%s %w (an LTS compiled from a model; a plain .aut file has none)", p.Title(), ErrNeedsThreads)
	}
	return nil
}

// Check decides p.
func (c *Checker) Check(p Property) (*Result, error) {
	if err := checkSupported(c.m.l, p); err != nil {
		return nil, err
	}
	if p.NeedsThreads() {
		if step := c.unattributedStep(); step != "" {
			return nil, fmt.Errorf("%s %w for every step, but step %s has none", p.Title(), ErrNeedsThreads, step)
		}
	}
	var r *Result
	switch p {
	case LockFree:
		r = c.lockFree()
	case WaitFree:
		r = c.perThread(WaitFree, c.waitFreeSpec)
	case ObstructionFree:
		r = c.perThread(ObstructionFree, c.obstructionFreeSpec)
	case DeadlockFree:
		r, _ = c.deadlockFree()
	case StarvationFree:
		var stuck int32
		if r, stuck = c.deadlockFree(); r.Holds {
			r = c.perThread(StarvationFree, c.starvationFreeSpec)
		} else {
			r.Property = StarvationFree
			r.Thread = c.firstPendingThread(stuck)
			r.Explanation = fmt.Sprintf("not starvation-free: thread %d's operation never completes, because %s",
				r.Thread, strings.TrimPrefix(r.Explanation, "not deadlock-free: "))
		}
	}
	if err := c.opts.stopped(p.String(), int64(len(c.m.order))); err != nil {
		return nil, err
	}
	if r.Holds {
		r.Explanation += c.notes(p)
	}
	if c.m.origin != nil {
		r.Explanation += fmt.Sprintf("; note: the states of the input do not determine which operations are pending "+
			"(as after a reduction), so it was checked on its product with the pending sets (%d states from %d)",
			c.m.l.NumStates, c.m.input.NumStates)
	}
	return r, nil
}

// unattributedStep returns a reachable internal or plain visible step
// that no thread took, or "": the thread-specific properties would
// otherwise silently count it as nobody's.
func (c *Checker) unattributedStep() string {
	if c.attributionChecked {
		return c.unattributed
	}
	c.attributionChecked = true
	m := c.m
	for _, s := range m.order {
		for t := m.l.Out[s]; t < m.l.Out[s+1]; t++ {
			if m.threadOf(t) < 0 {
				c.unattributed = fmt.Sprintf("%d -%s-> %d", m.state(s), m.l.LabelName(t), m.state(m.l.Dst[t]))
				return c.unattributed
			}
		}
	}
	return ""
}

// lockFree: a violating cycle keeps some operation pending and has no ret.
// Every state of such a cycle has a pending operation (a call on the cycle
// would need a ret on it to come back to the same pending set).
func (c *Checker) lockFree() *Result {
	m := c.m
	path, loop := c.findLasso(cycleSpec{keep: func(t int32) bool {
		s := m.l.Src[t]
		return m.anyPending(s) && m.anyPending(m.l.Dst[t]) && !m.isReturn(t)
	}})
	r := &Result{Property: LockFree, Holds: path == nil}
	if r.Holds {
		r.Explanation = fmt.Sprintf("lock-free: no reachable cycle keeps an operation pending without a ret (%d reachable states)", len(m.order))
		return r
	}
	r.Lasso = m.trace("lock-freedom violated: the cycle repeats forever with an operation pending and no ret", path, loop)
	r.Explanation = fmt.Sprintf("not lock-free: after %s from the initial state, a cycle of %s can repeat forever "+
		"with no ret while %s pending", steps(loop), steps(len(path)-loop), c.describePending(path[:loop]))
	return r
}

// waitFreeSpec: thread th stays pending on the cycle, does not return, and
// takes at least one step of it.
func (c *Checker) waitFreeSpec(th int32) cycleSpec {
	m := c.m
	keep := c.pendingKeep(th)
	return cycleSpec{keep: keep, witnesses: func(comp []int32, count int32) func(int32) ([]waypoint, bool) {
		step := make([]int32, count) // a kept step of th inside the component, +1
		for _, s := range m.order {
			for t := m.l.Out[s]; t < m.l.Out[s+1]; t++ {
				if cs := comp[s]; step[cs] == 0 && comp[m.l.Dst[t]] == cs && m.threadOf(t) == th && keep(t) {
					step[cs] = t + 1
				}
			}
		}
		return func(cc int32) ([]waypoint, bool) {
			if step[cc] == 0 {
				return nil, false
			}
			t := step[cc] - 1
			return []waypoint{{state: m.l.Src[t], via: t}}, true
		}
	}}
}

// pendingKeep keeps the transitions between (reachable) states at which
// thread th is pending, except th's ret.
func (c *Checker) pendingKeep(th int32) func(int32) bool {
	m := c.m
	return func(t int32) bool {
		s := m.l.Src[t]
		return m.pending(s, th) && m.pending(m.l.Dst[t], th)
	}
}

// obstructionFreeSpec: from some reachable state thread th, pending, runs
// alone forever without returning.
func (c *Checker) obstructionFreeSpec(th int32) cycleSpec {
	m := c.m
	return cycleSpec{keep: func(t int32) bool {
		s := m.l.Src[t]
		return m.threadOf(t) == th && m.pending(s, th) && !m.isReturn(t)
	}}
}

// starvationFreeSpec: thread th stays pending forever on a weakly fair
// cycle: every thread takes a step on it or is disabled at one of its
// states.
func (c *Checker) starvationFreeSpec(th int32) cycleSpec {
	m := c.m
	keep := c.pendingKeep(th)
	return cycleSpec{keep: keep, witnesses: func(comp []int32, count int32) func(int32) ([]waypoint, bool) {
		w := m.words
		steps := make([]uint64, int(count)*w)    // threads with a kept step inside the component
		disabled := make([]uint64, int(count)*w) // threads disabled at some state of it
		enabled := make([]uint64, w)
		for _, s := range m.order {
			cs := int(comp[s])
			clear(enabled)
			for t := m.l.Out[s]; t < m.l.Out[s+1]; t++ {
				u := m.threadOf(t)
				if u < 0 {
					continue
				}
				enabled[u/64] |= 1 << (u % 64)
				if comp[m.l.Dst[t]] == comp[s] && keep(t) {
					steps[cs*w+int(u/64)] |= 1 << (u % 64)
				}
			}
			for i := range enabled {
				disabled[cs*w+i] |= ^enabled[i]
			}
		}
		return func(cc int32) ([]waypoint, bool) {
			for u := 0; u < m.threads; u++ {
				i, bit := int(cc)*w+u/64, uint64(1)<<(u%64)
				if (steps[i]|disabled[i])&bit == 0 {
					return nil, false
				}
			}
			return c.fairWaypoints(cc, comp, keep, th), true
		}
	}}
}

// fairWaypoints picks, for every thread, a step of it inside component cc
// or a state of cc where it is disabled. A step of the starving thread th,
// if there is one, is visited first and unconditionally: the cycle then
// shows th trying, which is usually all fairness needs.
func (c *Checker) fairWaypoints(cc int32, comp []int32, keep func(int32) bool, th int32) []waypoint {
	m := c.m
	found := make([]bool, m.threads)
	var wps []waypoint
	// A thread is covered by the cycle so far if it steps on it or is
	// disabled at one of its states.
	covered := func(cycle []int32, th int32) bool {
		for _, t := range cycle {
			if m.threadOf(t) == th || !c.enabled(m.l.Src[t], th) {
				return true
			}
		}
		return false
	}
	enabled := make([]bool, m.threads)
	for _, s := range m.order {
		if comp[s] != cc {
			continue
		}
		clear(enabled)
		for t := m.l.Out[s]; t < m.l.Out[s+1]; t++ {
			u := m.threadOf(t)
			if u < 0 {
				continue
			}
			enabled[u] = true
			if !found[u] && comp[m.l.Dst[t]] == cc && keep(t) {
				found[u] = true
				wp := waypoint{state: s, via: t, thread: u, covered: covered}
				if u == th {
					wp.covered = nil
				}
				wps = append(wps, wp)
			}
		}
		for u, e := range enabled {
			if !e && !found[u] {
				found[u] = true
				wps = append(wps, waypoint{state: s, via: -1, thread: int32(u), covered: covered})
			}
		}
	}
	return wps
}

// perThread looks for a violating cycle for each thread in turn, skipping
// the threads that cannot have one (see candidates).
func (c *Checker) perThread(p Property, spec func(th int32) cycleSpec) *Result {
	m := c.m
	cand := c.candidates()
	for th := int32(0); th < int32(m.threads); th++ {
		c.opts.report(p.String(), int64(th), "threads done")
		if limits.Err(c.opts.Context) != nil {
			return nil // Check returns the error
		}
		if cand[th/64]&(1<<(th%64)) == 0 {
			continue
		}
		path, loop := c.findLasso(spec(th))
		if path == nil {
			continue
		}
		r := &Result{Property: p, Thread: th + 1}
		op := c.pendingCall(path[:loop], th)
		switch p {
		case WaitFree:
			r.Lasso = m.trace(fmt.Sprintf("wait-freedom violated: thread %d steps forever in %s without returning", th+1, op), path, loop)
			r.Explanation = fmt.Sprintf("not wait-free: thread %d takes infinitely many steps of its pending operation %s without returning: "+
				"after %s from the initial state, a cycle of %s (%d of them by thread %d) repeats forever",
				th+1, op, steps(loop), steps(len(path)-loop), c.countSteps(path[loop:], th), th+1)
		case ObstructionFree:
			r.Lasso = m.trace(fmt.Sprintf("obstruction-freedom violated: thread %d, running alone, never completes %s", th+1, op), path, loop)
			r.Explanation = fmt.Sprintf("not obstruction-free: after %s from the initial state, thread %d running alone "+
				"repeats a cycle of %s of %s forever without returning", steps(loop), th+1, steps(len(path)-loop), op)
		case StarvationFree:
			r.Lasso = m.trace(fmt.Sprintf("starvation-freedom violated: under weak fairness thread %d never completes %s", th+1, op), path, loop)
			r.Explanation = fmt.Sprintf("not starvation-free: after %s from the initial state, a weakly fair cycle of %s "+
				"(every thread steps on it or is disabled at one of its states) repeats forever while thread %d's %s stays pending",
				steps(loop), steps(len(path)-loop), th+1, op)
		}
		return r
	}
	r := &Result{Property: p, Holds: true}
	switch p {
	case WaitFree:
		r.Explanation = "wait-free: no thread takes infinitely many steps of one pending operation"
	case ObstructionFree:
		r.Explanation = "obstruction-free: every thread that runs alone with a pending operation completes it"
	case StarvationFree:
		r.Explanation = "starvation-free: under weak fairness every pending operation completes (and no reachable state is stuck with one pending)"
	}
	r.Explanation += fmt.Sprintf(" (%d threads, %d reachable states)", m.threads, len(m.order))
	return r
}

// candidates returns the set of threads (as pending-set words) for which
// a cycle that keeps the thread pending throughout may exist; it is
// computed once. Every cycle the per-thread properties look for keeps some
// thread pending at both ends of each of its transitions, so it lies in a
// cyclic strongly connected component of the subgraph of such transitions,
// and its thread is pending at both ends of a transition inside that
// component. One Tarjan pass over that subgraph thus rules out, at once,
// every thread that is never pending across a cycle — in a lock-free
// object under a bounded client, all of them.
func (c *Checker) candidates() []uint64 {
	if c.cand != nil {
		return c.cand
	}
	m := c.m
	w := m.words
	shared := func(t int32) bool { // some thread is pending at both ends
		a, b := int(m.l.Src[t])*w, int(m.l.Dst[t])*w
		for i := range w {
			if m.pend[a+i]&m.pend[b+i]&^reachedBit != 0 {
				return true
			}
		}
		return false
	}
	comps := c.components(shared)
	comp, cyclic := comps.Comp, comps.Cyclic
	c.cand = make([]uint64, w)
	for _, s := range m.order {
		if !cyclic[comp[s]] {
			continue
		}
		for t := m.l.Out[s]; t < m.l.Out[s+1]; t++ {
			if d := m.l.Dst[t]; comp[d] == comp[s] {
				for i := range w {
					c.cand[i] |= m.pend[int(s)*w+i] & m.pend[int(d)*w+i] &^ reachedBit
				}
			}
		}
	}
	return c.cand
}

// deadlockFree: no reachable state with a pending operation lacks an
// outgoing transition. It also returns the stuck state of the
// counterexample (−1 if none).
func (c *Checker) deadlockFree() (*Result, int32) {
	m := c.m
	first, stuck := int32(-1), 0
	for _, s := range m.order {
		if m.l.Out[s] == m.l.Out[s+1] && m.anyPending(s) {
			if first < 0 {
				first = s
			}
			stuck++
		}
	}
	r := &Result{Property: DeadlockFree, Holds: first < 0}
	if r.Holds {
		r.Explanation = fmt.Sprintf("deadlock-free: every reachable state with a pending operation has an enabled step (%d reachable states)", len(m.order))
		return r, -1
	}
	path := m.pathTo(first)
	r.Lasso = m.trace(fmt.Sprintf("deadlock: state %d has pending operations and no enabled step", m.state(first)), path, -1)
	r.Lasso.Final = fmt.Sprintf("state %d: no step is enabled while %s pending", m.state(first), c.describePending(path))
	r.Explanation = fmt.Sprintf("not deadlock-free: after %s from the initial state the system reaches state %d, "+
		"where %s pending and no step is enabled (%d such reachable states)", steps(len(path)), m.state(first), c.describePending(path), stuck)
	return r, first
}

// Report is the answer of `linbis progress --json`: the properties
// checked on one LTS, each with its verdict. A run that a limit stopped
// reports what it had: the properties decided before the stop, and what
// was stored, as verify's report does.
type Report struct {
	File string `json:"file"` // the LTS's file, or the model it was compiled from
	// States is the LTS's states; when a limit stopped the model's
	// exploration before the LTS was whole, those it had stored.
	States int32 `json:"states"`
	// Transitions is the LTS's transitions, or, after such a stop, those
	// the exploration had stored.
	Transitions int `json:"transitions"`
	// Results are the properties decided: at a limit, those decided
	// before it (possibly none).
	Results []*Result `json:"results"`
	// StoppedBy names the limit that stopped the run before every
	// property was decided (a limits.Kind: "time", "memory", "states",
	// "product"); empty when none was hit.
	StoppedBy string `json:"stopped_by,omitempty"`
	// Reason is, with StoppedBy, the limit's message: the stage it
	// stopped, how far that stage came, then the limit.
	Reason string `json:"reason,omitempty"`
}
