package progress

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/lts"
)

// DefaultMaxProductStates bounds the product of an LTS with pending sets
// (see annotate) unless Options say otherwise.
const DefaultMaxProductStates = 1 << 24

// Options tune a Checker.
type Options struct {
	// MaxProductStates bounds the product built when the states of the
	// input do not determine the pending operations; 0 means
	// DefaultMaxProductStates.
	MaxProductStates int
	// Progress, if set, receives the stage, a count and its unit now and
	// then, e.g. ("annotate", 1048576, "states").
	Progress meter.Reporter
	// Context, if set, stops the annotation, the product and the
	// searches of Check when it ends: they poll it every few thousand
	// states and return an error wrapping its cause (limits.Err).
	Context context.Context
}

// stopped returns an error wrapping the cause of o.Context's end, or nil
// while it lasts; done says how far the stage came.
func (o Options) stopped(stage string, done int64) error {
	if err := limits.Err(o.Context); err != nil {
		return fmt.Errorf("progress check stopped (%s, %d states): %w", stage, done, err)
	}
	return nil
}

// report calls the progress callback, if any.
func (o Options) report(stage string, count int64, unit string) {
	if o.Progress != nil {
		o.Progress.Report(stage, count, unit)
	}
}

// pollEvery is how many states pass between two polls of
// Options.Context (a power of two).
const pollEvery = 1 << 14

// ErrLimit is wrapped by the error returned when a limit of Options is
// hit: a *limits.LimitError whose Limit is limits.Product.
var ErrLimit = errors.New("limit reached")

// annotate builds the model of l. When the pending set is not a function
// of the state — an LTS reduced modulo a behavioural equivalence may merge
// states that differ in it — it builds the product of l with the pending
// sets, whose states are the reachable pairs (state, pending set), and
// annotates that instead; counterexamples are mapped back to l's states.
// Either way every verdict rests on the true pending set of every path.
func annotate(l *lts.LTS, opts Options) (*model, error) {
	m, err := annotateStates(l, opts)
	var ie *InputError
	if !errors.As(err, &ie) || !ie.ambiguous {
		return m, err
	}
	limit := opts.MaxProductStates
	if limit <= 0 {
		limit = DefaultMaxProductStates
	}
	p, origin, err := product(l, limit, opts)
	if err != nil {
		return nil, err
	}
	opts.report("product", int64(p.NumStates), "states")
	pm, err := annotateStates(p, opts)
	if errors.As(err, &ie) {
		ie.State = origin[ie.State]
		for i := range ie.Trace.Steps {
			st := &ie.Trace.Steps[i]
			st.From, st.To = origin[st.From], origin[st.To]
		}
	}
	if err != nil {
		return nil, err
	}
	pm.origin, pm.input = origin, l
	return pm, nil
}

// product returns the reachable part of l × pending sets, with thread
// attribution and labels as in l (same label ids), and origin mapping its
// states to l's. A malformed call or ret is kept with the set it would
// give, for annotateStates to report.
func product(l *lts.LTS, limit int, opts Options) (p *lts.LTS, origin []int32, err error) {
	kind := make([]Kind, len(l.Labels))
	thread := make([]int32, len(l.Labels))
	maxThread := int32(0)
	for i, name := range l.Labels {
		var th int32
		kind[i], th, _, _ = ParseAction(name)
		thread[i] = th - 1
		maxThread = max(maxThread, th)
	}
	words := int(maxThread+63) / 64
	if words == 0 {
		words = 1
	}
	b := lts.NewBuilder()
	for _, name := range l.Labels {
		b.Label(name)
	}
	if hasThreads(l) {
		for _, st := range l.Meta.Steps {
			b.AddStep(st)
		}
	}
	// Pairs are interned by the state and the bytes of the set.
	ids := map[string]int32{}
	var sets [][]uint64 // per pair
	key := make([]byte, 4+8*words)
	intern := func(s int32, set []uint64) (int32, bool) {
		binary.LittleEndian.PutUint32(key, uint32(s))
		for i, w := range set {
			binary.LittleEndian.PutUint64(key[4+8*i:], w)
		}
		if id, ok := ids[string(key)]; ok {
			return id, false
		}
		id := b.AddState()
		ids[string(key)] = id
		origin = append(origin, s)
		sets = append(sets, append([]uint64(nil), set...))
		return id, true
	}
	if l.NumStates == 0 {
		return b.Build(), nil, nil
	}
	intern(l.Initial, make([]uint64, words))
	next := make([]uint64, words)
	for q := int32(0); int(q) < len(origin); q++ {
		if q&(pollEvery-1) == 0 {
			if err := opts.stopped("product", int64(q)); err != nil {
				return nil, nil, err
			}
		}
		s := origin[q]
		for t := l.Out[s]; t < l.Out[s+1]; t++ {
			copy(next, sets[q])
			if k := kind[l.Label[t]]; k == Call || k == Return {
				th := thread[l.Label[t]]
				next[th/64] ^= 1 << (th % 64)
			}
			d, _ := intern(l.Dst[t], next)
			if len(origin) > limit {
				return nil, nil, &limits.LimitError{Limit: limits.Product, Value: int64(limit), Err: fmt.Errorf(
					"the states do not determine which operations are pending, and their product "+
						"with the pending sets exceeds %d states (%w): check the unreduced LTS or raise the limit", limit, ErrLimit)}
			}
			step := int32(-1)
			if hasThreads(l) {
				step = int32(l.Meta.Step[t])
			}
			b.AddTransitionMeta(q, l.Label[t], d, l.ThreadOf(t), step)
		}
	}
	p = b.Build()
	if !hasThreads(l) {
		p.Meta = nil
	}
	return p, origin, nil
}
