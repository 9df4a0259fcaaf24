package verify

import (
	"errors"
	"fmt"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/onthefly"
)

// The bounds ladder of the on-the-fly method. A breadth-first search must
// exhaust every level above a violation's depth, and under large bounds
// those levels are large: treiber-free's ABA bug at 3 threads × 3
// operations lies 26 steps deep, below 2.4 M stored states, although the
// same 26 steps are a run of 3 threads × 2 operations, found among 0.24 M.
// So the on-the-fly method climbs a ladder of smaller clients first —
// fewer threads, fewer operations each, the same values — up to the
// requested bounds, each rung a complete breadth-first search. A refinement
// violation found on a lower rung is replayed on the unreduced semantics of the
// requested bounds (onthefly.ReplayOnBounds) and reported only if it
// replays there; then it is a shortest counterexample of the rung's client,
// and a shorter one may exist under the requested bounds (Options.Shortest
// searches those alone). A lower rung's lasso does not end the climb: it
// would leave linearizability under the requested bounds undecided, which
// only their own search settles (finding a lasso of its own). A rung that
// holds proves nothing about the next,
// so a correct model pays for every rung: since each rung is several
// times smaller than the next, that is a small fraction of the last.

// LadderStage is one rung of the ladder: its client and what its search
// found.
type LadderStage struct {
	Threads int   `json:"threads"`
	Ops     int   `json:"ops"` // -1 means forever
	Pairs   int64 `json:"pairs"`
	States  int64 `json:"states"`
	// Result is "holds", "not linearizable", "not lock-free", or why the
	// ladder went on to the requested bounds ("does not replay", "model
	// error", "limit").
	Result string `json:"result"`
}

// ladder returns the clients the on-the-fly method searches in turn, the
// requested bounds last: from 2 threads × 1 operation (fewer if b has
// fewer), one more operation, then one more thread, alternately, until b.
// With ops forever only the threads grow.
func ladder(b frontend.Bounds) []frontend.Bounds {
	t, ops := min(2, b.Threads), 1
	if b.Ops < 0 {
		ops = -1
	}
	var rungs []frontend.Bounds
	for {
		r := b
		r.Threads, r.Ops = t, ops
		if b.Only != nil {
			r.Only = map[int][]string{}
			for th, ms := range b.Only {
				if th <= t {
					r.Only[th] = ms
				}
			}
		}
		rungs = append(rungs, r)
		if t == b.Threads && ops == b.Ops {
			return rungs
		}
		if ops >= 0 && ops < b.Ops && (ops < t || t == b.Threads) {
			ops++
		} else {
			t++
		}
	}
}

// checkByLadder runs the on-the-fly check rung by rung (see above) and
// returns the result that decides, with the rung it was found on.
func checkByLadder(m *frontend.Model, b frontend.Bounds, copts frontend.Options, opts Options) (*onthefly.Result, []LadderStage, error) {
	rungs := ladder(b)
	if opts.Shortest {
		rungs = rungs[len(rungs)-1:]
	}
	var stages []LadderStage
	for i := 0; i < len(rungs); i++ {
		rb, last := rungs[i], i == len(rungs)-1
		// A lower rung stops at its first violation: the requested
		// bounds decide lock-freedom (lockFreeAfter).
		res, err := onthefly.Check(m.Program, rb, onthefly.Options{Options: copts, Reductions: opts.Reductions,
			FirstViolation: !last || opts.FirstViolation})
		stage := LadderStage{Threads: rb.Threads, Ops: rb.Ops}
		if res != nil {
			stage.Pairs, stage.States = res.Stats.Pairs, res.Stats.States
		}
		switch {
		case last:
			if err == nil {
				stage.Result = flyResultWord(res)
			}
			return res, append(stages, stage), err
		case err != nil && limits.Err(copts.Context) != nil:
			// The run's context ended: no rung goes on.
			return res, append(stages, stage), err
		case err != nil:
			// A model error or a limit on a lower rung: the requested
			// bounds give their own (shortest) account of it.
			stage.Result = "limit"
			var me *frontend.ModelError
			if errors.As(err, &me) {
				stage.Result = "model error"
			}
			stages = append(stages, stage)
			i = len(rungs) - 2
			continue
		}
		stage.Result = flyResultWord(res)
		if res.Refines {
			// Only a refinement violation ends the climb: a smaller
			// client's lasso would leave linearizability under the
			// requested bounds undecided, and their search finds a lasso
			// of its own.
			stages = append(stages, stage)
			continue
		}
		replayed, err := onthefly.ReplayOnBounds(m.Program, b, copts, res.Counterexample)
		if errors.Is(err, onthefly.ErrNoReplay) {
			stage.Result = "does not replay"
			stages = append(stages, stage)
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("replaying the counterexample of %s under %s: %w", rb, b, err)
		}
		res.Counterexample = replayed
		stages = append(stages, stage)
		if !opts.FirstViolation {
			stages, err = lockFreeAfter(m, b, copts, opts, res, stages)
		}
		return res, stages, err
	}
	panic("unreachable: the ladder ends with the requested bounds")
}

// flyResultWord names an on-the-fly outcome for the ladder's record.
func flyResultWord(res *onthefly.Result) string {
	switch {
	case !res.Refines:
		return "not linearizable"
	case !res.LockFree:
		return "not lock-free"
	}
	return "holds"
}

// lockFreeAfter decides lock-freedom under the requested bounds b after a
// lower rung's violation (res): a search of the implementation alone
// (onthefly.Options.LockFreeOnly), recorded as a rung of its own. A limit,
// the run's time and memory included, leaves lock-freedom undecided and
// the violation's verdict standing; only a run cancelled otherwise (a
// signal) is an error.
func lockFreeAfter(m *frontend.Model, b frontend.Bounds, copts frontend.Options, opts Options, res *onthefly.Result, stages []LadderStage) ([]LadderStage, error) {
	lf, err := onthefly.Check(m.Program, b, onthefly.Options{Options: copts, Reductions: opts.Reductions, LockFreeOnly: true})
	stage := LadderStage{Threads: b.Threads, Ops: b.Ops, Result: "limit"}
	if lf != nil {
		stage.Pairs, stage.States = lf.Stats.Pairs, lf.Stats.States
	}
	var limit *limits.LimitError
	switch {
	case err != nil && limits.Err(copts.Context) != nil && !errors.As(limits.Err(copts.Context), &limit):
		return append(stages, stage), err
	case err != nil:
		var me *frontend.ModelError
		if errors.As(err, &me) {
			stage.Result = "model error"
			res.ModelError = err
		}
		return append(stages, stage), nil
	}
	res.LockFreeChecked, res.LockFree, res.Lasso = true, lf.LockFree, lf.Lasso
	stage.Result = "lock-free"
	if !lf.LockFree {
		stage.Result = "not lock-free"
	}
	return append(stages, stage), nil
}
