package onthefly

import (
	"errors"
	"fmt"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/lts"
)

// Carrying a counterexample to larger bounds. Under a most-general client,
// a run of a smaller client — fewer threads, or fewer operations each — is
// usually a run of a larger one too (the other threads simply never call),
// so a violation found cheaply under small bounds is evidence under the
// bounds the user asked for. "Usually": a model may read nthreads (array
// sizes, loops over the threads), and then the larger client's steps can
// differ. So the evidence is never taken on trust: ReplayOnBounds replays
// the trace step by step on the unreduced semantics of the larger bounds,
// matching each step by its thread, label and source step, and checks the
// verdict again there — the specification of the larger bounds refuses
// exactly the last action, or the lasso's loop comes back to its first
// state. A trace that does not replay is refused (ErrNoReplay), and the
// caller searches the larger bounds themselves.

// ErrNoReplay is wrapped by the error of ReplayOnBounds when the trace is
// not a violation under the larger bounds.
var ErrNoReplay = errors.New("the trace does not replay under these bounds")

// maxReboundNodes bounds the replay's search: a step may match several
// successors (a nondeterministic choice, an allocation in explicit-heap
// mode), and the replay backtracks over them.
const maxReboundNodes = 1 << 20

// ReplayOnBounds replays tr — a refinement violation (LoopStart < 0) or a
// lock-freedom lasso found by Check, with real thread ids and
// source steps — on the implementation of prog under b, and returns it as
// a trace of that implementation. For a violation, the specification
// under b must follow every visible step but the last and refuse the
// last; for a lasso, the loop must end in the state it starts from.
// Otherwise the error wraps ErrNoReplay.
func ReplayOnBounds(prog *check.Program, b ir.Bounds, o semantics.Options, tr *lts.Trace) (*lts.Trace, error) {
	o.Workers = 1
	impl, err := semantics.NewSystem(prog, prog.Impl, b, o)
	if err != nil {
		return nil, err
	}
	spec, err := semantics.NewSystem(prog, prog.Spec, b, o)
	if err != nil {
		return nil, fmt.Errorf("specification: %w", err)
	}
	fs, err := newFlySpec(spec, impl.Program)
	if err != nil {
		return nil, err
	}
	init, err := impl.InitialState()
	if err != nil {
		return nil, err
	}
	sub, err := fs.initial()
	if err != nil {
		return nil, err
	}
	r := &rebound{x: impl, st: impl.NewStepper(), spec: fs, tr: tr}
	ok, err := r.search(0, init, sub)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, fmt.Errorf("%w (%s): no run of its %d steps matches", ErrNoReplay, b, len(tr.Steps))
	}
	out := *tr
	out.Steps = r.steps
	return &out, nil
}

// rebound is one replay of a trace under other bounds: a depth-first
// search over the successors that match the trace's steps.
type rebound struct {
	x    *semantics.System
	st   *semantics.Stepper
	spec *flySpec
	tr   *lts.Trace
	// steps is the replayed trace so far; loopAt the encoded state where a
	// lasso's loop starts.
	steps  []lts.TraceStep
	loopAt string
	nodes  int
}

// match is a successor that matches a trace step.
type match struct {
	enc   []byte
	label semantics.LabelKey
	step  int32
}

// search replays tr.Steps[i:] from the concrete state cur, with the
// specification subset sub, and reports whether some matching run
// confirms the violation.
func (r *rebound) search(i int, cur []int32, sub int32) (bool, error) {
	if r.nodes++; r.nodes > maxReboundNodes {
		return false, fmt.Errorf("%w: more than %d choices to try", ErrNoReplay, maxReboundNodes)
	}
	lasso := r.tr.LoopStart >= 0
	if lasso && i == r.tr.LoopStart {
		r.loopAt = string(semantics.Encode(nil, cur))
	}
	if i == len(r.tr.Steps) {
		if lasso {
			return string(semantics.Encode(nil, cur)) == r.loopAt, nil
		}
		return sub == noSubset, nil
	}
	want := r.tr.Steps[i]
	for _, m := range r.matches(cur, want) {
		next := sub
		if !lasso && isVisible(m.label) {
			var err error
			if next, err = r.spec.afterLabel(sub, m.label); err != nil {
				return false, err
			}
			// Only the last step may be refused.
			if (next == noSubset) != (i == len(r.tr.Steps)-1) {
				continue
			}
		}
		ts := lts.TraceStep{From: -1, Label: want.Label, To: -1, Thread: want.Thread, Note: want.Note}
		if m.step >= 0 {
			src := r.x.Steps[m.step]
			ts.Source = &src
		}
		r.steps = append(r.steps, ts)
		ok, err := r.search(i+1, semantics.Decode(nil, m.enc), next)
		if ok || err != nil {
			return ok, err
		}
		r.steps = r.steps[:len(r.steps)-1]
	}
	return false, nil
}

// matches returns the successors of cur by the step's thread with its
// label and source step, copied out of the stepper's block.
func (r *rebound) matches(cur []int32, want lts.TraceStep) []match {
	thread := int(want.Thread) - 1
	if thread < 0 || thread >= r.x.Bounds.Threads {
		return nil
	}
	t, fail := r.st.Successors(cur)
	if fail != nil && t == thread {
		return nil
	}
	var out []match
	blk := &r.st.Blk
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		if int(sc.Thread) != thread || r.labelName(sc.Label) != want.Label || !sameSource(r.x, sc.Step, want.Source) {
			continue
		}
		out = append(out, match{enc: append([]byte(nil), blk.Batch[sc.Start:sc.End]...), label: sc.Label, step: sc.Step})
	}
	return out
}

func (r *rebound) labelName(k semantics.LabelKey) string {
	if k == 0 {
		return lts.TauName
	}
	return r.x.LabelNames[r.x.InternLabel(k)]
}

// sameSource reports whether the explorer's step is the source step src
// (both absent counts as the same).
func sameSource(x *semantics.System, step int32, src *lts.SourceStep) bool {
	if step < 0 || src == nil {
		return step < 0 && src == nil
	}
	s := x.Steps[step]
	return s.Line == src.Line && s.Col == src.Col && s.Procedure == src.Procedure
}
