package semantics

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"strconv"
	"strings"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
)

// System is a compiled program under a most-general client: an implicit
// LTS, with its initial state (initialState), the successors of a state
// (expander) and the names of its labels (internLabel). The searches
// (explore's breadth-first search, the on-the-fly checks) run over it.
type System struct {
	Program *ir.Program // the compiled program
	Bounds  ir.Bounds   // the client's bounds
	Options Options     // the exploration's options
	// Canon is the canonicaliser of the initial state; the expanders clone it.
	Canon *Canonicaliser
	// allowed[t][m]: may the client call method m on thread t (from 0).
	Allowed [][]bool
	// Steps are the program's source steps, as the LTS's metadata names them.
	Steps []lts.SourceStep
	// races is the data-race check, nil for a program without plain
	// accesses (race.go).
	races *races
	// Labels interns the names of visible steps by key (internLabel);
	// labelNames[id] is the name of label id (0: τ), labelIDs its inverse.
	Labels     map[LabelKey]int32
	LabelNames []string         // the name of each label id, 0 for τ
	LabelIDs   map[string]int32 // the id of each label name
	// LabelCache is a direct-mapped cache in front of labels, by key (0:
	// empty; keys are not 0): few distinct labels occur, and the map
	// lookup per transition showed in profiles.
	LabelCache [256]struct {
		Key LabelKey // the entry's key; 0: empty
		ID  int32    // the label id of Key
	}
}

// DefaultMaxStates is the bound on the states of one LTS when
// Options.MaxStates is 0.
const DefaultMaxStates = 50_000_000

// DefaultMaxNodes is the bound on live heap nodes when Options.MaxNodes
// is 0.
const DefaultMaxNodes = 64

// Options tune an exploration. The zero Options are the defaults: a
// garbage-collected heap, the limits DefaultMaxStates and
// DefaultMaxNodes, one worker per core.
type Options struct {
	// MaxStates bounds each LTS; 0 means DefaultMaxStates. Reaching it is
	// an error wrapping ErrStateLimit.
	MaxStates int
	// Explicit turns off garbage collection: nodes come back only through
	// free, and a freed node may be reallocated while still referenced
	// (ABA). A model that declares `heap explicit` is explored so anyway.
	Explicit bool
	// MaxNodes bounds the live heap nodes; 0 means DefaultMaxNodes.
	MaxNodes int
	// Lin makes `lin` statements visible as lin(T,M[,VAL]) events (Liu
	// et al.'s linearization-point mode); otherwise they are τ.
	Lin bool
	// FineGrained keeps accesses to thread-private heap nodes (reachable
	// only from the thread's own locals, e.g. a node being initialised
	// before it is published) as steps of their own; by default they are
	// folded into the neighbouring step like other local work.
	FineGrained bool
	// RaceEveryStep makes the data-race check (race.go) compute the
	// locations of every step, not only of the steps its static filter
	// keeps: for the tests that hold the filter to the unfiltered check.
	RaceEveryStep bool
	// Progress, if set, receives the states stored so far now and then:
	// ("exploring", states, "states") from the explorer, ("product
	// pairs", pairs, "state pairs") from the on-the-fly search.
	Progress meter.Reporter
	// Context, if set, stops the search when it ends: the explorer and
	// the on-the-fly search poll it where they report progress, and
	// return an error wrapping its cause (limits.Err).
	Context context.Context
	// Workers is the number of goroutines that share the search (each
	// expands states and inserts their successors in turn; see search), the
	// calling one among them, 0 meaning GOMAXPROCS; with 1 the search runs
	// on the calling goroutine alone. The LTS does not depend on it.
	Workers int
	// KeepStates, for the package's tests, is given the program and the
	// encodings of the states of a finished exploration, in id order,
	// before the state set is released.
	KeepStates func(p *ir.Program, states iter.Seq[[]byte])
}

// ErrStateLimit is wrapped by the error returned when MaxStates is
// reached: a *limits.LimitError whose Limit is limits.States.
var ErrStateLimit = errors.New("state limit reached")

// ModelError is an error of the model found during exploration (a failed
// assert, a null dereference, a value out of its declared range, …), with
// the shortest trace that leads to it.
type ModelError struct {
	Msg   string         // what went wrong, without the position
	Pos   lts.SourceStep // the failing step's source position and text
	Trace *lts.Trace     // a shortest run from the initial state to the failing step
	// Race: the finding is a data race of a program from the Go front
	// end (race.go), not an error of the model.
	Race bool
}

// Error prints the position and the message.
func (e *ModelError) Error() string {
	return fmt.Sprintf("%s: %s", e.Pos.String(), e.Msg)
}

// argTuples enumerates each method's argument tuples over the domain.
func (x *System) argTuples() {
	for _, m := range x.Program.Methods {
		tuples := [][]int32{{}}
		for _, pt := range m.Params {
			dom := x.Program.Values
			if pt.Kind == check.Bool {
				dom = []int32{0, 1}
			}
			var next [][]int32
			for _, t := range tuples {
				for _, v := range dom {
					next = append(next, append(append([]int32(nil), t...), v))
				}
			}
			tuples = next
		}
		m.ArgTuples = tuples
	}
}

// InitialState returns the canonical initial state: the declared initial
// values, after the init block if there is one. The vector is the
// canonicaliser's.
func (x *System) InitialState() ([]int32, error) {
	init := append([]int32(nil), x.Program.Init...)
	if im := x.Program.InitMethod; im != nil {
		m := newMachine(x.Program, !x.Options.Explicit, x.Options.Lin, int32(x.Options.MaxNodes))
		m.t, m.base, m.mem = 0, x.Program.Layout.ThreadBase(0), init
		init[m.base+ir.TPC] = im.Entry
		m.step()
		if f := m.err; f != nil {
			e := &ModelError{Msg: "in the init block: " + f.Msg, Trace: &lts.Trace{Title: "model error in init", LoopStart: -1}}
			if f.Step >= 0 {
				s := x.Program.Steps[f.Step]
				pos := x.Program.Source.Position(s.Pos)
				e.Pos = lts.SourceStep{File: pos.File, Line: int32(pos.Line), Col: int32(pos.Col), Text: s.Text, Procedure: "init"}
			}
			return nil, e
		}
		init = m.mem
		m.resetThread()
	}
	return x.Canon.Canonical(init, -1), nil
}

// LabelKey names the label of a visible step: its kind, whether it has a
// value, the thread, the method and the value (for a call, the index of
// the argument tuple), packed into 64 bits; never 0.
type LabelKey uint64

// keyOf returns the label key of a visible outcome of thread t.
func keyOf(t int, out outcome) LabelKey {
	k := LabelKey(out.Kind)<<60 | LabelKey(t)<<48 | LabelKey(out.method)<<32 | LabelKey(uint32(out.value))
	if out.hasValue {
		k |= 1 << 59
	}
	return k
}

// thread returns the thread of a key (from 0).
func (k LabelKey) thread() int { return int(k >> 48 & 0x7ff) }

// Kind returns the kind of the step a key labels: a call, a return or a
// lin event.
func (k LabelKey) Kind() LabelKind { return LabelKind(k >> 60) }

// outcome returns the outcome of a key, without its step.
func (k LabelKey) outcome() outcome {
	return outcome{Kind: k.Kind(), hasValue: k>>59&1 != 0, method: int32(k >> 32 & 0xffff), value: int32(uint32(k))}
}

// Slot is the key's entry in the label cache.
func (k LabelKey) Slot() uint8 { return uint8(k * 0x9e3779b97f4a7c15 >> 56) }

// InternLabel interns the label of a key and caches its id in labelCache
// (flush looks there first).
func (x *System) InternLabel(key LabelKey) int32 {
	c := &x.LabelCache[key.Slot()]
	if id, ok := x.Labels[key]; ok {
		c.Key, c.ID = key, id
		return id
	}
	t, out := key.thread(), key.outcome()
	m := x.Program.Methods[out.method]
	var sb strings.Builder
	switch out.Kind {
	case KCall:
		sb.WriteString("call(")
	case KRet:
		sb.WriteString("ret(")
	case KLin:
		sb.WriteString("lin(")
	}
	sb.WriteString(strconv.Itoa(t + 1))
	sb.WriteByte(',')
	sb.WriteString(m.Name)
	switch {
	case out.Kind == KCall:
		for i, v := range m.ArgTuples[out.value] {
			sb.WriteByte(',')
			sb.WriteString(ir.FormatValue(m.Params[i].Kind, v))
		}
	case out.hasValue:
		sb.WriteByte(',')
		if out.Kind == KLin {
			sb.WriteString(ir.FormatValue(check.Int, out.value))
		} else {
			sb.WriteString(m.FormatResult(out.value))
		}
	}
	sb.WriteByte(')')
	name := sb.String()
	id, ok := x.LabelIDs[name]
	if !ok {
		id = int32(len(x.LabelNames))
		x.LabelNames = append(x.LabelNames, name)
		x.LabelIDs[name] = id
	}
	x.Labels[key] = id
	c.Key, c.ID = key, id
	return id
}

// NewSystem checks the bounds and compiles obj (the implementation or the
// specification of prog) under them.
func NewSystem(prog *check.Program, obj *check.Object, b ir.Bounds, o Options) (*System, error) {
	if b.Threads < 1 || b.Threads > 64 {
		return nil, fmt.Errorf("need between 1 and 64 threads, got %d", b.Threads)
	}
	if b.Ops == 0 || b.Ops < -1 {
		return nil, fmt.Errorf("ops must be at least 1 or forever (-1), got %d", b.Ops)
	}
	if len(b.Values) == 0 {
		return nil, fmt.Errorf("the value domain is empty")
	}
	// A model that declares `heap explicit` is explored in explicit mode
	// whatever the options say.
	o.Explicit = o.Explicit || prog.Explicit
	p, err := ir.Compile(prog, obj, b.Threads, b.Values, o.FineGrained, o.Explicit)
	if err != nil {
		return nil, err
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxStates <= 0 {
		o.MaxStates = DefaultMaxStates
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	x := &System{Program: p, Bounds: b, Options: o, Labels: map[LabelKey]int32{},
		LabelNames: []string{lts.TauName}, LabelIDs: map[string]int32{lts.TauName: lts.Tau}}
	x.Canon = NewCanonicaliser(p, b.Threads)
	x.races = newRaces(p, o.RaceEveryStep)
	for _, s := range p.Steps {
		pos := p.Source.Position(s.Pos)
		x.Steps = append(x.Steps, lts.SourceStep{File: pos.File, Line: int32(pos.Line), Col: int32(pos.Col), Text: s.Text, Procedure: s.Procedure})
	}
	if len(p.Steps) > 1<<15-1 {
		return nil, fmt.Errorf("the model has %d source steps; at most %d are supported", len(p.Steps), 1<<15-1)
	}
	x.argTuples()
	x.Allowed = make([][]bool, b.Threads)
	for t := range x.Allowed {
		x.Allowed[t] = make([]bool, len(p.Methods))
		only, restricted := b.Only[t+1]
		for i, m := range p.Methods {
			x.Allowed[t][i] = m.Callable && !restricted
			for _, name := range only {
				x.Allowed[t][i] = x.Allowed[t][i] || m.Callable && name == m.Name
			}
		}
	}
	return x, nil
}
