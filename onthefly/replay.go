package onthefly

import (
	"bytes"
	"fmt"

	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/lts"
)

// replay follows a path of the reduced on-the-fly search on the unreduced
// semantics: each reduced step (thread t, then the permutation σ to the
// successor's representative v) is matched by the step of thread ρ[t] from
// the concrete state c = apply(u, ρ), which must lead to apply(v, ρ∘σ⁻¹).
// The steps are taken by the unreduced explorer, so the trace they make is
// one of the implementation's, with real thread ids and source steps; the
// concrete specification subset is carried along, so the trace is checked
// against the specification again. A reduced step that has no match is a
// bug of the reduction and is reported as an internal error.
type replay struct {
	f   *flySearch
	st  *semantics.Stepper // of the implementation, unreduced
	c   []int32            // the concrete state
	rho []uint8            // reduced thread t is concrete thread rho[t]
	sub int32              // the concrete subset, noSubset once the specification cannot follow
	// diverged is the index of the first step after which the
	// specification could not follow (-1 if none).
	diverged int
	steps    []lts.TraceStep
	enc      []byte
}

func (f *flySearch) newReplay() (*replay, error) {
	init, err := f.x.InitialState()
	if err != nil {
		return nil, err
	}
	sub, err := f.spec.initial()
	if err != nil {
		return nil, err
	}
	r := &replay{f: f, st: f.x.NewStepper(), c: append([]int32(nil), init...), sub: sub, diverged: -1}
	r.rho = inverse(f.perms.get(f.initPerm))
	return r, nil
}

func inverse(p []uint8) []uint8 {
	q := make([]uint8, len(p))
	for i, v := range p {
		q[v] = uint8(i)
	}
	return q
}

// follow replays the steps in order.
func (r *replay) follow(steps []flyStep) error {
	for _, s := range steps {
		if err := r.step(s); err != nil {
			return err
		}
	}
	return nil
}

// step replays one reduced step.
func (r *replay) step(s flyStep) error {
	f := r.f
	sigma := f.perms.get(s.perm)
	next := make([]uint8, len(r.rho))
	for i, v := range sigma {
		next[v] = r.rho[i]
	}
	v := f.stored(nil, s.to)
	target := v
	if f.sym != nil {
		target = f.sym.Apply(v, next, r.st.Expander.Canon)
	}
	r.enc = semantics.Encode(r.enc[:0], target)
	thread := r.rho[s.thread]
	t, fail := r.st.Successors(r.c)
	blk := &r.st.Blk
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		if sc.Thread != thread || !bytes.Equal(blk.Batch[sc.Start:sc.End], r.enc) {
			continue
		}
		label := lts.TauName
		if sc.Label != 0 {
			label = f.x.LabelNames[f.x.InternLabel(sc.Label)]
		}
		ts := lts.TraceStep{From: -1, Label: label, To: -1, Thread: int32(thread) + 1}
		if sc.Step >= 0 {
			src := f.x.Steps[sc.Step]
			ts.Source = &src
		}
		r.steps = append(r.steps, ts)
		if sc.Label != 0 && isVisible(sc.Label) && r.sub != noSubset {
			sub, err := f.spec.afterLabel(r.sub, sc.Label)
			if err != nil {
				return err
			}
			if r.sub = sub; sub == noSubset {
				r.diverged = len(r.steps) - 1
			}
		}
		r.c = semantics.Decode(r.c[:0], blk.Batch[sc.Start:sc.End])
		r.rho = next
		return nil
	}
	if fail != nil && int(thread) == t {
		return fmt.Errorf("internal error: replaying the reduced search, thread %d fails: %s", t+1, fail.Msg)
	}
	return fmt.Errorf("internal error: a step of thread %d of the reduced search has no match in the unreduced semantics (step %d of the replay)", thread+1, len(r.steps)+1)
}

// replayViolation replays the path to a violating step and checks that
// the specification cannot follow exactly its last action.
func (f *flySearch) replayViolation(v *flyStep) (*lts.Trace, error) {
	r, err := f.newReplay()
	if err != nil {
		return nil, err
	}
	steps, err := f.path(v.from)
	if err != nil {
		return nil, err
	}
	if err := r.follow(append(steps, *v)); err != nil {
		return nil, err
	}
	if r.diverged != len(r.steps)-1 {
		return nil, fmt.Errorf("internal error: the replayed counterexample is not a violation (the specification stops following at step %d of %d)", r.diverged+1, len(r.steps))
	}
	last := r.steps[len(r.steps)-1]
	r.steps[len(r.steps)-1].Note = "the specification cannot do this"
	return &lts.Trace{Title: "trace refinement violated", Steps: r.steps, LoopStart: -1,
		Final: "the specification cannot do " + last.Label + " after this history"}, nil
}

// maxLassoRounds bounds the rounds of a reduced cycle replayed to come
// back to the same concrete state: the round's end is the start renamed
// by a permutation π, and π's order is at most 2 for 3 threads, 6 for 5,
// 30 for 10, 140 for 16, far below this.
const maxLassoRounds = 1 << 16

// replayLasso replays the stem to the cycle's first state, then the cycle
// round after round until a round ends in a concrete state where an
// earlier one started: the lasso of the unreduced semantics.
func (f *flySearch) replayLasso(cycle []flyStep) (*lts.Trace, error) {
	r, err := f.newReplay()
	if err != nil {
		return nil, err
	}
	first := int32(-1) // the first pair of the cycle's state: the end of its chain
	for q := f.headPair.get(int(cycle[0].from)); q >= 0; q = f.nextPair.get(int(q)) {
		first = q
	}
	steps, err := f.path(first)
	if err != nil {
		return nil, err
	}
	if err := r.follow(steps); err != nil {
		return nil, err
	}
	starts := map[string]int{}
	for round := 0; round < maxLassoRounds; round++ {
		r.enc = semantics.Encode(r.enc[:0], r.c)
		if at, ok := starts[string(r.enc)]; ok {
			tr := &lts.Trace{Title: "lock-freedom violated", Steps: r.steps, LoopStart: at,
				Final: "the cycle repeats forever: no operation returns"}
			return tr, nil
		}
		starts[string(r.enc)] = len(r.steps)
		if err := r.follow(cycle); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("internal error: the reduced τ-cycle does not close in the unreduced semantics after %d rounds", maxLassoRounds)
}
