package golang

import (
	"errors"
	"fmt"
	"testing"

	"github.com/linbis/linbis/bisim"
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

// TestRaceFilter: the race check's static filter, which computes the
// locations of only the steps that may race, loses nothing: on the Go
// examples and on random programs printed with plain fields, the filtered
// and the unfiltered checks find the same race, or none and the same LTS.
// A random program with plain fields and no race is still bisimilar to
// its model: the plain accesses are translated as the atomic ones.
func TestRaceFilter(t *testing.T) {
	type named struct {
		name string
		m    *frontend.Model
		lin  *frontend.Model // the model it was printed from, or nil
	}
	var ms []named
	for _, c := range []struct{ dir, typ string }{
		{"treiber", "Stack"}, {"msqueue", "Queue"}, {"spincounter", "Counter"}, {"mutexstack", "Stack"},
		{"racecounter", "Counter"}, {"loadstore", "Counter"}, {"lencount", "Stack"},
		{"more", "TwoLockQueue"}, {"more", "CASCounter"}, {"more", "Ring"}, {"more", "Flag"},
		{"subset", "Arrays"}, {"subset", "Flow"}, {"subset", "Globals"},
	} {
		ms = append(ms, named{name: c.dir + " " + c.typ, m: model(t, c.dir, Config{Type: c.typ})})
	}
	for _, tw := range randomTwins(t, testsize.Count(60, 200), true) {
		ms = append(ms, named{name: fmt.Sprintf("random seed %d", tw.seed), m: tw.g, lin: tw.lin})
	}
	races := 0
	for _, c := range ms {
		b := frontend.Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}
		if c.lin != nil {
			b = c.lin.DefaultBounds()
		}
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
		if cmp, err := bisim.Compare(a, g, bisim.DivBranching, bisim.Options{}); err != nil || !cmp.Equivalent {
			t.Errorf("%s: race-free with plain fields, but not bisimilar to its model (%v)", c.name, err)
		}
	}
	if races < 5 {
		t.Errorf("only %d of %d programs have a race: the oracle says little", races, len(ms))
	}
	t.Logf("%d programs, %d with a data race", len(ms), races)
}
