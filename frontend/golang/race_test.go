package golang

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/linbis/linbis/onthefly"
	"github.com/linbis/linbis/verify"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/testsize"
)

// compileRace compiles m's implementation under b, with the race check's
// static filter or without it (every: every step's locations computed).
func compileRace(m *frontend.Model, b frontend.Bounds, every bool) (states int32, race string, err error) {
	l, err := frontend.CompileImpl(m, b, frontend.Options{RaceEveryStep: every})
	var me *frontend.ModelError
	switch {
	case errors.As(err, &me) && me.Race:
		return 0, me.Msg, nil
	case err != nil:
		return 0, "", err
	}
	return l.NumStates, "", nil
}

// racer is a Go program for the race checks' tests: an example, or a
// random program printed with plain fields and the model it came from.
type racer struct {
	name string
	m    *frontend.Model
	lin  *frontend.Model // the model it was printed from, or nil
}

// bounds returns the bounds c is checked under.
func (c racer) bounds() frontend.Bounds {
	if c.lin != nil {
		return c.lin.DefaultBounds()
	}
	return frontend.Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}
}

// racers returns the Go examples and n random programs printed with
// plain fields.
func racers(t *testing.T, n int) []racer {
	var ms []racer
	for _, c := range []struct{ dir, typ string }{
		{"treiber", "Stack"}, {"msqueue", "Queue"}, {"spincounter", "Counter"}, {"mutexstack", "Stack"},
		{"racecounter", "Counter"}, {"loadstore", "Counter"}, {"lencount", "Stack"},
		{"more", "TwoLockQueue"}, {"more", "CASCounter"}, {"more", "Ring"}, {"more", "Flag"},
		{"subset", "Arrays"}, {"subset", "Flow"}, {"subset", "Globals"},
		{"poolstack", "Stack"}, {"poolstack", "AtomicStack"}, {"poolstack", "FieldStack"},
		{"slicestack", "Stack"}, {"slicestack", "RacyStack"}, {"list", "Set"}, {"list", "PushSet"},
		{"ints", "Pairs"}, {"ints", "Mixed"},
		{"poolstack", "GenStack"}, {"more", "SpinRing"}, {"ints", "Pane"}, {"more", "Striped"},
	} {
		ms = append(ms, racer{name: c.dir + " " + c.typ, m: model(t, c.dir, Config{Type: c.typ})})
	}
	for _, tw := range randomTwins(t, n, true) {
		ms = append(ms, racer{name: fmt.Sprintf("random seed %d", tw.seed), m: tw.g, lin: tw.lin})
	}
	return ms
}

// TestRaceFilter: the race check's static filter, which computes the
// locations of only the steps that may race, loses nothing: on the Go
// examples and on random programs printed with plain fields, the filtered
// and the unfiltered checks find the same race, or none and the same LTS.
// A random program with plain fields and no race is still bisimilar to
// its model: the plain accesses are translated as the atomic ones.
func TestRaceFilter(t *testing.T) {
	ms := racers(t, testsize.Count(60, 200))
	races := 0
	for _, c := range ms {
		b := c.bounds()
		n1, r1, err1 := compileRace(c.m, b, false)
		n2, r2, err2 := compileRace(c.m, b, true)
		if n1 != n2 || r1 != r2 || (err1 == nil) != (err2 == nil) {
			t.Errorf("%s: filtered: %d states, race %q, %v; unfiltered: %d states, race %q, %v", c.name, n1, r1, err1, n2, r2, err2)
			continue
		}
		if r1 != "" {
			races++
			continue
		}
		if c.lin == nil || err1 != nil {
			continue
		}
		a, errA := frontend.CompileImpl(c.lin, b, frontend.Options{})
		g, errG := frontend.CompileImpl(c.m, b, frontend.Options{})
		if errA != nil || errG != nil {
			continue // both model errors: TestRandomTwins compares those
		}
		if eq, err := twinsBisimilar(a, g); err != nil || !eq {
			t.Errorf("%s: race-free with plain fields, but not bisimilar to its model (%v)", c.name, err)
		}
	}
	if races < 5 {
		t.Errorf("only %d of %d programs have a race: the oracle says little", races, len(ms))
	}
	t.Logf("%d programs, %d with a data race", len(ms), races)
}

// TestRaceOnTheFly holds the race check of the on-the-fly search, with
// its symmetry and partial-order reductions, to the naive one: every pair
// of enabled steps in every state of the full LTS, with every step's
// locations computed (no static filter). On the Go examples and on
// random programs printed with plain fields, the two find a race on the
// same programs: a reduction that skipped the state where two racing
// steps are both enabled would miss it. A program whose search stops at a
// violation (found first, maybe at a smaller client of the ladder) is
// not compared.
func TestRaceOnTheFly(t *testing.T) {
	races, compared := 0, 0
	for _, c := range racers(t, testsize.Count(40, 200)) {
		b := c.bounds()
		_, naive, err := compileRace(c.m, b, true)
		if err != nil {
			continue // a model error first: which comes first may differ
		}
		out, err := verify.Run(context.Background(), c.name, c.m, b, verify.Options{Method: verify.Fly,
			Reductions: onthefly.Reductions{Symmetry: true, PartialOrder: true}})
		var me *frontend.ModelError
		fly := errors.As(err, &me) && me.Race
		if err != nil && !fly {
			continue
		}
		if err == nil && (out.Report.Linearizable == verify.No || out.Report.LockFree == verify.No) {
			continue // the search stopped at a violation, maybe before the race
		}
		if fly != (naive != "") {
			t.Errorf("%s: on the fly a race %v (%v), the full LTS %q", c.name, fly, err, naive)
		}
		compared++
		if fly {
			races++
		}
	}
	if races < 5 || compared-races < 5 {
		t.Errorf("%d programs compared, %d with a race: the oracle says little", compared, races)
	}
	t.Logf("%d programs compared, %d with a data race", compared, races)
}
