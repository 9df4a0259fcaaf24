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
	Threads int   `json:"threads"` // the client's threads
	Ops     int   `json:"ops"`     // -1 means forever
	Pairs   int64 `json:"pairs"`   // the product pairs its search stored
	States  int64 `json:"states"`  // the implementation states among them
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
		rungs = append(rungs, rung(b, t, ops))
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

// rung returns the client of t threads and ops operations each under b's
// values, its only lines those of the threads that remain.
func rung(b frontend.Bounds, t, ops int) frontend.Bounds {
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
	return r
}

// checkByLadder runs the on-the-fly check rung by rung (see above) and
// returns the result that decides, with the rung it was found on.
func checkByLadder(m *frontend.Model, b frontend.Bounds, copts frontend.Options, opts Options) (*onthefly.Result, []LadderStage, error) {
	c := newClimb(m, b, copts, opts)
	err := c.climbTo(len(c.rungs))
	return c.res, c.stages, err
}

// climb is a climb of the ladder under way: the rungs, the next one to
// search, what the searched ones found, and the result that decides once
// one does. Method auto climbs the rungs below the requested bounds to
// measure them (auto.go), and the on-the-fly route goes on from there.
type climb struct {
	m      *frontend.Model
	b      frontend.Bounds
	copts  frontend.Options
	opts   Options
	rungs  []frontend.Bounds
	next   int
	stages []LadderStage
	// stats are the work counters of each searched rung, beside stages
	// (nil where a rung's search returned no result).
	stats []*onthefly.Stats
	// res is the result that decides and done says the climb has ended
	// (res may be nil then, when the last search failed).
	res  *onthefly.Result
	done bool
}

// newClimb returns the climb to b, no rung searched yet: its rungs are the
// ladder's, or the requested bounds alone under opts.Shortest.
func newClimb(m *frontend.Model, b frontend.Bounds, copts frontend.Options, opts Options) *climb {
	rungs := ladder(b)
	if opts.Shortest {
		rungs = rungs[len(rungs)-1:]
	}
	return &climb{m: m, b: b, copts: copts, opts: opts, rungs: rungs}
}

// climbTo searches the rungs before index end, from the next one on,
// until one decides (done): a refinement violation that replays under
// the requested bounds, or the requested bounds' own search. A model
// error or a limit on a lower rung sends the climb to the requested
// bounds, which give their own (shortest) account of it.
func (c *climb) climbTo(end int) error {
	for ; !c.done && c.next < end; c.next++ {
		i := c.next
		rb, last := c.rungs[i], i == len(c.rungs)-1
		// A lower rung stops at its first violation: the requested
		// bounds decide lock-freedom (lockFreeAfter).
		res, err := onthefly.Check(c.m.Program, rb, onthefly.Options{Options: c.copts, Reductions: c.opts.Reductions,
			FirstViolation: !last || c.opts.FirstViolation})
		stage := LadderStage{Threads: rb.Threads, Ops: rb.Ops}
		var stats *onthefly.Stats
		if res != nil {
			stage.Pairs, stage.States = res.Stats.Pairs, res.Stats.States
			stats = &res.Stats
		}
		c.stats = append(c.stats, stats)
		switch {
		case last:
			if err == nil {
				stage.Result = flyResultWord(res)
			} else if errors.As(err, new(*limits.LimitError)) {
				stage.Result = "limit"
			}
			c.res, c.done, c.stages = res, true, append(c.stages, stage)
			return err
		case err != nil && limits.Err(c.copts.Context) != nil:
			// The run's context ended: no rung goes on.
			if errors.As(err, new(*limits.LimitError)) {
				stage.Result = "limit"
			}
			c.res, c.done, c.stages = res, true, append(c.stages, stage)
			return fmt.Errorf("the ladder's client %d×%s: %w", rb.Threads, opsWord(rb.Ops), err)
		case err != nil:
			stage.Result = "limit"
			var me *frontend.ModelError
			if errors.As(err, &me) {
				stage.Result = "model error"
			}
			c.stages = append(c.stages, stage)
			c.next = len(c.rungs) - 2
			continue
		}
		stage.Result = flyResultWord(res)
		if res.Refines {
			// Only a refinement violation ends the climb: a smaller
			// client's lasso would leave linearizability under the
			// requested bounds undecided, and their search finds a lasso
			// of its own.
			c.stages = append(c.stages, stage)
			continue
		}
		replayed, err := onthefly.ReplayOnBounds(c.m.Program, c.b, c.copts, res.Counterexample)
		if errors.Is(err, onthefly.ErrNoReplay) {
			stage.Result = "does not replay"
			c.stages = append(c.stages, stage)
			continue
		}
		if err != nil {
			c.done = true
			return fmt.Errorf("replaying the counterexample of %s under %s: %w", rb, c.b, err)
		}
		res.Counterexample = replayed
		c.res, c.done, c.stages = res, true, append(c.stages, stage)
		if !c.opts.FirstViolation {
			c.stages, err = lockFreeAfter(c.m, c.b, c.copts, c.opts, res, c.stages)
		}
		return err
	}
	return nil
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
