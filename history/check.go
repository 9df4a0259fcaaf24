package history

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/metrics"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
	"github.com/linbis/linbis/internal/parallel"
	"github.com/linbis/linbis/lts"
)

// Verdict is the answer of Check.
type Verdict int

const (
	// Linearizable: a linearization was found for every partition.
	Linearizable Verdict = iota
	// NotLinearizable: some partition has no linearization.
	NotLinearizable
	// Unknown: the time budget ran out before an answer.
	Unknown
)

// String names the verdict as the CLI prints it.
func (v Verdict) String() string {
	return [...]string{"linearizable", "not linearizable", "unknown"}[v]
}

// MarshalJSON writes the verdict as linbis writes every verdict in JSON:
// true (linearizable), false (not) or null (unknown: a limit was hit).
func (v Verdict) MarshalJSON() ([]byte, error) {
	return []byte([...]string{"true", "false", "null"}[v]), nil
}

// Limit names the budget that stopped a check.
type Limit uint8

const (
	// NoLimit: no budget ran out.
	NoLimit Limit = iota
	// TimeLimit: Options.Context's deadline passed.
	TimeLimit
	// MemoryLimit: Options.MaxMemory ran out.
	MemoryLimit
)

// String names the limit ("" for NoLimit).
func (l Limit) String() string { return [...]string{"", "time", "memory"}[l] }

// MarshalText makes a limit its name in JSON.
func (l Limit) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Algorithm selects the decision procedure.
type Algorithm int

const (
	// Auto uses the polynomial procedures where they apply (bad patterns
	// for queues with unique values and no pending operations; patterns
	// and peeling for stacks with unique values whose only pending
	// operations are pushes) and the general search elsewhere.
	Auto Algorithm = iota
	// General always uses the Wing–Gong–Lowe search.
	General
)

// Options tune Check; the zero value is sensible.
type Options struct {
	// Context, if set, stops the check when it ends (its deadline is the
	// time limit; a caller that reads the history first can start it
	// before reading, so that the limit covers reading too): the searches
	// poll it every few thousand steps (limits.Err), and Check returns
	// what it decided, Unknown if that is not the verdict, with an error
	// (see Check).
	Context context.Context
	// NoPartition checks the history as one object instead of one
	// partition per key (P-compositionality); slower, for cross-checks.
	NoPartition bool
	// Workers is how many partitions are checked at once (0: GOMAXPROCS).
	Workers int
	// Algorithm selects the decision procedure (default Auto).
	Algorithm Algorithm
	// MaxMemory bounds, in bytes, the heap of the process while the check
	// runs (0: DefaultMaxMemory): the searches running at once may hold
	// what the heap in use at the start leaves, less a margin for the
	// garbage collector. Running out gives Unknown. (The caller should
	// also tell the runtime, debug.SetMemoryLimit, so that garbage does
	// not push the heap past it.)
	MaxMemory int64
	// Progress, if set, receives ("D of T partitions decided",
	// configurations memoised so far in all partitions, "configurations")
	// after each partition is decided and every few thousand search
	// steps, from the checking goroutines.
	Progress meter.Reporter
}

// DefaultMaxMemory is the memory budget when Options.MaxMemory is 0.
const DefaultMaxMemory int64 = 2 << 30

// Failure explains a non-linearizable history. Operation numbers index
// History.Ops.
type Failure struct {
	// Key is the failing partition's key ("" when unpartitioned). It is
	// the smallest failing partition among those checked.
	Key string
	Ops []int // the partition's operations, as indices into History.Ops
	// Prefix is the longest linearizable prefix found, in linearization
	// order (indices into History.Ops).
	Prefix []int
	Stuck  int    // an operation that cannot be placed after Prefix; -1 if not known
	State  string // the spec state after Prefix, as the model prints it
	// Pattern names the bad pattern found by the polynomial check (empty
	// for the general search).
	Pattern string
	Witness []int // the bad pattern's operations (indices into History.Ops); nil without one
}

// Result is the verdict of Check with its evidence and statistics.
type Result struct {
	Verdict    Verdict // linearizable, not, or unknown (a limit stopped the check)
	Model      string  // the specification's name (model.Spec.Name)
	Ops        int     // the history's operations
	Partitions int     // the partitions checked apart: one per key, or 1 unpartitioned
	// Decided counts partitions with an answer (less than Partitions when
	// the check stopped early or ran out of time).
	Decided int
	// Algorithms lists the procedures used, in order.
	Algorithms []model.Procedure
	// Limit names the budget that stopped an Unknown check; "" otherwise.
	Limit Limit
	// Reason says, with Limit, how far the check came and which limit
	// stopped it, in a sentence; "" otherwise.
	Reason string
	// Failure is set when Verdict is NotLinearizable.
	Failure *Failure
	// Witness is set when Verdict is Linearizable and every partition was
	// decided by the search: per partition, a linearization (indices into
	// History.Ops, in order; pending operations left out did not take
	// effect).
	Witness [][]int
	// Configurations counts memoised (linearized set, state) pairs.
	Configurations int64
	Elapsed        time.Duration // the check's wall-clock time
}

// Check decides whether h is linearizable with respect to spec. An error
// with a nil Result means h does not fit spec (an unknown method, a wrong
// arity); it names the operation's file position. A limit that stops the
// check before its verdict (the memory budget, Options.Context's end)
// gives a Result, Verdict Unknown with what was decided, and an error
// whose message is Result.Reason: a *limits.LimitError (Time or Memory)
// for the budget, the context's deadline or a context the run's limits
// ended, otherwise one wrapping the context's cause.
func Check(h *record.History, spec model.Spec, opts Options) (*Result, error) {
	start := time.Now()
	for i := range h.Ops {
		if err := spec.Validate(&h.Ops[i]); err != nil {
			p := h.Ops[i].Pos
			if p.Line > 0 {
				return nil, &lts.ParseError{File: h.Name, Line: p.Line, Col: p.Col, Msg: err.Error()}
			}
			return nil, fmt.Errorf("%s: operation %d: %w", h.Name, i, err)
		}
	}
	if err := h.Validate(); err != nil {
		return nil, err
	}
	var groups [][]int
	check := spec
	if opts.NoPartition {
		groups = [][]int{seq(len(h.Ops))}
		if len(h.Keys()) > 1 {
			check = newKeyed(spec, h.Ops)
		}
	} else {
		groups = spec.Partition(h.Ops)
	}
	// Smallest first, equal sizes in order of first appearance: the failing
	// partition reported is the first failing one in this order (see
	// checkAll), the same on every run.
	sort.SliceStable(groups, func(a, b int) bool { return len(groups[a]) < len(groups[b]) })
	res := &Result{Verdict: Linearizable, Model: spec.Name(), Ops: len(h.Ops), Partitions: len(groups), Algorithms: []model.Procedure{}}
	st := stop{}
	var done atomic.Int64
	if opts.Progress != nil {
		st.configs = new(atomic.Int64)
		st.report = func() {
			opts.Progress.Report(fmt.Sprintf("%d of %d partitions decided", done.Load(), len(groups)), st.configs.Load(), "configurations")
		}
	}
	st.ctx = opts.Context
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(groups)))
	maxMemory := opts.MaxMemory
	if maxMemory <= 0 {
		maxMemory = DefaultMaxMemory
	}
	st.budget = &budget{limit: searchBudget(maxMemory)}
	if maxMemory < math.MaxInt64 {
		st.budget.live = int64(float64(limits.RuntimeShare(maxMemory)) * liveShare)
	}
	// The partition's arrays and the witness: 16 bytes an operation.
	held := &account{b: st.budget}
	held.charge(16 * int64(len(h.Ops)))
	defer held.close()
	if k, ok := check.(*keyed); ok {
		// The product's object states are held as long as the search.
		k.acct = &account{b: st.budget}
		defer k.acct.close()
		k.inner = model.ForSearch(k.inner, k.acct)
	}
	outs := checkAll(h, groups, check, opts.Algorithm, workers, st, &done)
	used := [model.StackPeel + 1]bool{}
	for _, o := range outs {
		used[o.sub.algo] = true
		res.Configurations += o.sub.res.configs
		if o.sub.res.limit > res.Limit {
			res.Limit = o.sub.res.limit
		}
		switch o.sub.res.verdict {
		case Linearizable:
			res.Decided++
			if o.sub.algo == model.Search { // the bad patterns give no order
				w := make([]int, len(o.sub.res.prefix))
				for k, i := range o.sub.res.prefix {
					w[k] = groups[o.group][i]
				}
				res.Witness = append(res.Witness, w)
			}
		case NotLinearizable:
			res.Decided++
			if res.Failure == nil { // outs are in group order: the first is the smallest
				res.Failure = o.sub.failure(h, groups[o.group])
				if opts.NoPartition {
					res.Failure.Key = "" // the whole history, all keys
				}
			}
		}
	}
	for p, ok := range used {
		if ok {
			res.Algorithms = append(res.Algorithms, model.Procedure(p))
		}
	}
	if res.Failure != nil || len(res.Witness) < len(groups) {
		res.Witness = nil // only complete witnesses
	}
	var err error
	switch {
	case res.Failure != nil:
		res.Verdict, res.Limit = NotLinearizable, NoLimit
	case res.Decided < len(groups):
		res.Verdict = Unknown
		decided := fmt.Sprintf(" with %d of %d partitions decided", res.Decided, len(groups))
		le := &limits.LimitError{Limit: limits.Memory, Value: maxMemory}
		cause := limits.Err(opts.Context)
		var ctxLimit *limits.LimitError
		switch {
		case res.Limit == MemoryLimit || cause == nil:
			res.Limit = MemoryLimit
			res.Reason = fmt.Sprintf("memory budget of %d MiB exhausted", maxMemory>>20) + decided
		case errors.As(cause, &ctxLimit):
			le.Limit, le.Value = ctxLimit.Limit, ctxLimit.Value
			res.Limit, res.Reason = TimeLimit, fmt.Sprintf("time budget of %v exhausted", time.Duration(le.Value))+decided
			if le.Limit != limits.Time {
				res.Limit, res.Reason = MemoryLimit, ctxLimit.Error()+decided
			}
		case errors.Is(cause, context.DeadlineExceeded):
			le.Limit, le.Value = limits.Time, 0
			if d, ok := opts.Context.Deadline(); ok {
				le.Value = int64(d.Sub(start))
			}
			res.Limit, res.Reason = TimeLimit, "time limit reached"+decided
		default: // cancelled: no limit, no verdict
			le = nil
			res.Limit, res.Reason = NoLimit, "the check was stopped ("+cause.Error()+")"+decided
		}
		err = &stopError{reason: res.Reason, cause: cause}
		if le != nil {
			le.Err = err
			err = le
		}
	}
	res.Elapsed = time.Since(start)
	return res, err
}

// stopError is what stopped a check before its verdict: its message is
// the Result's Reason, and it wraps the context's cause (nil: the memory
// budget).
type stopError struct {
	reason string
	cause  error
}

// Error returns the Result's Reason.
func (e *stopError) Error() string { return e.reason }

// Unwrap returns the context's cause (nil for the memory budget).
func (e *stopError) Unwrap() error { return e.cause }

// gcMargin is the share of Options.MaxMemory kept for the garbage
// collector's work and the runtime's own memory.
const gcMargin = 0.1

// liveShare bounds the live heap, as the last collection measured it, to
// this share of the runtime's part of Options.MaxMemory: the collector
// keeps the rest to work in. Nearer the limit (80 % until 2026-12-07) a
// search that fills it makes the collector run without pause against its
// soft limit, where its CPU limiter lets the heap pass the limit by an
// amount that depends on the machine's load: kv c50-ok --no-partition
// under 64 MiB peaked at 70.6–74 MB resident at load 13–18
// (TestHistoryMaxMemory allows 70.4), and at 64–66 MB with 70 %.
const liveShare = 0.7

// searchBudget is what the searches may hold under maxMemory: what the
// live heap (the history, the caller's data, as of the last collection)
// leaves, less the margin.
func searchBudget(maxMemory int64) int64 {
	if maxMemory == math.MaxInt64 {
		return 0 // no limit
	}
	maxMemory = limits.RuntimeShare(maxMemory)
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	return max(1, int64(float64(maxMemory)*(1-gcMargin))-int64(live[0].Value.Uint64()))
}

// outcome is a partition's index in groups and its result.
type outcome struct {
	group int
	sub   partOutcome
}

// checkAll checks the partitions on a pool of workers, in order, until
// all are done or one fails; the outcomes come back sorted by partition.
// A failure of partition g cancels the partitions after g but not those
// before, which may still fail: the first failing partition is then always
// among the outcomes, whatever the workers' timing.
func checkAll(h *record.History, groups [][]int, spec model.Spec, algo Algorithm, workers int, st stop, done *atomic.Int64) []outcome {
	outs := make([]outcome, 0, len(groups))
	var mu sync.Mutex
	var firstFailed atomic.Int64
	firstFailed.Store(int64(len(groups)))
	// A worker's searches share one scratch, one after the other.
	free := make(chan *scratch, workers)
	parallel.ForEach(workers, len(groups), func(g int) {
		if int64(g) > firstFailed.Load() || st.ctx != nil && st.ctx.Err() != nil {
			return // left undecided
		}
		st := st
		st.cancelled = func() bool { return int64(g) > firstFailed.Load() }
		var x *scratch
		select {
		case x = <-free:
		default:
			x = &scratch{}
		}
		o := checkPartition(h, groups[g], spec, algo, st, x)
		free <- x
		if o.res.verdict == NotLinearizable {
			for f := firstFailed.Load(); int64(g) < f && !firstFailed.CompareAndSwap(f, int64(g)); f = firstFailed.Load() {
			}
		}
		mu.Lock()
		outs = append(outs, outcome{g, o})
		mu.Unlock()
		done.Add(1)
		if st.report != nil {
			st.report()
		}
	})
	sort.Slice(outs, func(a, b int) bool { return outs[a].group < outs[b].group })
	return outs
}

// partOutcome is the result of one partition and how it was obtained.
type partOutcome struct {
	res     searchResult
	algo    model.Procedure
	pattern string
	witness []int // local indices
}

// failure maps a failing partition's local evidence to history indices.
func (o *partOutcome) failure(h *record.History, group []int) *Failure {
	f := &Failure{Key: h.Ops[group[0]].Key, Ops: group, Stuck: -1, State: o.res.state, Pattern: o.pattern}
	for _, i := range o.res.prefix {
		f.Prefix = append(f.Prefix, group[i])
	}
	if o.res.stuck >= 0 {
		f.Stuck = group[o.res.stuck]
	}
	for _, i := range o.witness {
		f.Witness = append(f.Witness, group[i])
	}
	return f
}

// fastDecide holds the polynomial procedures that the models' table
// names (Model.Fast): each returns ok false when it does not apply to
// ops, and otherwise the violation it found, nil if ops is linearizable.
var fastDecide = map[model.Procedure]func(ops []record.Op) (v *violation, ok bool){
	model.QueuePatterns: queuePatterns,
	model.StackPeel:     stackDecide,
}

// checkPartition decides one partition with the best applicable
// procedure; a search works in the memory of x.
func checkPartition(h *record.History, group []int, spec model.Spec, algo Algorithm, st stop, x *scratch) partOutcome {
	if name := model.FastProcedure(spec); algo == Auto && name != model.Search {
		decide := fastDecide[name]
		// The bad patterns read an array of the partition's operations. A
		// partition that is the whole history is not copied: the
		// operations are the largest structure of a small run. Nothing
		// below writes to them.
		ops := h.Ops
		if !isSeq(group, len(h.Ops)) {
			ops = make([]record.Op, len(group))
			for i, g := range group {
				ops[i] = h.Ops[g]
			}
		}
		// Queues: the bad patterns decide; stacks: patterns, then peeling.
		if v, ok := decide(ops); ok {
			o := partOutcome{algo: name, res: searchResult{stuck: -1}}
			if v == nil {
				o.res.verdict = Linearizable
				return o
			}
			o.res.verdict = NotLinearizable
			o.pattern, o.witness = v.pattern, v.ops
			// The search adds a prefix and a stuck operation when it can
			// find them quickly; the bad pattern is the proof either way.
			quick := st
			if d := time.Now().Add(time.Second); quick.deadline.IsZero() || d.Before(quick.deadline) {
				quick.deadline = d
			}
			quick.cancelled, quick.configs = nil, nil
			if r := search(h.Ops, group, spec, quick, x); r.verdict == NotLinearizable {
				o.res.prefix, o.res.stuck, o.res.state, o.res.configs = r.prefix, r.stuck, r.state, r.configs
			}
			return o
		}
	}
	return partOutcome{algo: model.Search, res: search(h.Ops, group, spec, st, x)}
}
