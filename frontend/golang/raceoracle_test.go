package golang

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/internal/testsize"
)

// TestRaceCommutes holds the race check's locations to an oracle that
// computes none: commutation. Two steps of different threads, both
// enabled in a state, that touch no location in common (or only read
// it) commute: taken in either order they reach the same states. So when
// they do not commute they share a location, one writing; and when one
// of them is plain (one shared access, a plain load or store) that
// location is its own: a data race. In every reachable state of the Go
// examples and of random programs printed with plain fields (all of
// them, past the races, explored here without the check stopping), each
// pair of threads whose next steps do not commute, one plain, must be
// reported by the check in that state (which computes the locations from
// the instructions' operands before they run, race.go); and when it is
// the only such pair there, the check must name its two source lines.
// Steps that race but commute (two stores of one value) are the check's
// alone; a race the check reports must at least be between the next
// steps of two of the state's threads. The states are explored with every
// access to a thread's private nodes a step of its own (FineGrained):
// folded, how far a thread's step goes depends on whether another still
// reaches the node it reads, and two steps that only read would not
// commute.
func TestRaceCommutes(t *testing.T) {
	const maxStates = 40_000
	programs, raced, named := 0, 0, 0
	for _, c := range racers(t, testsize.Count(20, 100)) {
		n, races, pairs, err := commutationOracle(c, maxStates)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if n == 0 {
			continue // a model error, or too many states
		}
		programs++
		if races > 0 {
			raced++
		}
		named += pairs
	}
	if programs < 10 || raced < 3 || named < 3 {
		t.Errorf("%d programs explored, %d with non-commuting plain steps, %d races named by the oracle: it says little", programs, raced, named)
	}
	t.Logf("%d programs explored, %d with non-commuting plain steps; %d states whose one such pair the check names", programs, raced, named)
}

// raceLines finds the two source lines a race message cites.
var raceLines = regexp.MustCompile(`\((\S+:\d+) `)

// stepSucc is a successor by one thread: its source step and its state.
type stepSucc struct {
	step  int32
	state string
}

// commutationOracle explores c's states (up to limit; n is 0 beyond, or
// on a model error) and checks the race check against commutation in
// each (TestRaceCommutes); races counts the states with a non-commuting
// pair of steps one of which is plain, named the states where that pair
// is the only one and the check names its lines.
func commutationOracle(c racer, limit int) (n, races, named int, err error) {
	x, err := semantics.NewSystem(c.m.Program, c.m.Program.Impl, c.bounds(), semantics.Options{Workers: 1, FineGrained: true})
	if err != nil {
		return 0, 0, 0, err
	}
	src, ok := x.Program.Source.(interface{ Plain(syntax.Pos) bool })
	if !ok {
		return 0, 0, 0, fmt.Errorf("the source marks no plain access")
	}
	plain := func(s int32) bool { return s >= 0 && src.Plain(x.Program.Steps[s].Pos) }
	line := func(s int32) string {
		st := x.Steps[s]
		return fmt.Sprintf("%s:%d", filepath.Base(st.File), st.Line) // as race messages cite it
	}
	type expansion struct {
		by   map[int][]stepSucc // the successors of each thread
		race *semantics.Failure // what the check reports in the state
	}
	stepper := x.NewStepper()
	seen := map[string]*expansion{}
	var buf []int32
	expand := func(key string) (*expansion, bool) {
		if e, ok := seen[key]; ok {
			return e, true
		}
		buf = semantics.Decode(buf[:0], []byte(key))
		_, f := stepper.Successors(buf)
		if f != nil && f.Race == nil {
			return nil, false // a model error
		}
		e := &expansion{by: map[int][]stepSucc{}, race: f}
		blk := &stepper.Blk
		for _, s := range blk.Succs {
			e.by[int(s.Thread)] = append(e.by[int(s.Thread)], stepSucc{s.Step, string(blk.Batch[s.Start:s.End])})
		}
		seen[key] = e
		return e, true
	}
	init, err := x.InitialState()
	if err != nil {
		return 0, 0, 0, nil
	}
	// Breadth-first over every reachable state.
	queue := []string{string(semantics.Encode(nil, init))}
	if _, ok := expand(queue[0]); !ok {
		return 0, 0, 0, nil
	}
	for i := 0; i < len(queue); i++ {
		if len(seen) > limit {
			return 0, 0, 0, nil
		}
		e := seen[queue[i]]
		for _, t := range slices.Sorted(maps.Keys(e.by)) {
			for _, s := range e.by[t] {
				if _, ok := seen[s.state]; !ok {
					if _, ok := expand(s.state); !ok {
						return 0, 0, 0, nil
					}
					queue = append(queue, s.state)
				}
			}
		}
	}
	// The oracle in every state.
	then := func(succs []stepSucc, t int) (map[string]bool, bool) {
		out := map[string]bool{}
		for _, s := range succs {
			e, ok := expand(s.state)
			if !ok {
				return nil, false
			}
			for _, s2 := range e.by[t] {
				out[s2.state] = true
			}
		}
		return out, true
	}
	for _, key := range queue {
		e := seen[key]
		var pairs [][2]string
		threads := slices.Sorted(maps.Keys(e.by))
		for i, t1 := range threads {
			for _, t2 := range threads[i+1:] {
				a, b := e.by[t1], e.by[t2]
				if !plain(a[0].step) && !plain(b[0].step) {
					continue
				}
				ab, ok1 := then(a, t2)
				ba, ok2 := then(b, t1)
				if !ok1 || !ok2 {
					return 0, 0, 0, nil // a model error after one of them
				}
				if !maps.Equal(ab, ba) {
					pairs = append(pairs, [2]string{line(a[0].step), line(b[0].step)})
				}
			}
		}
		if len(pairs) > 0 {
			races++
			if e.race == nil {
				return 0, 0, 0, fmt.Errorf("the next steps at %s do not commute, one plain, and the check finds no race in that state", pairs[0])
			}
		}
		if e.race == nil {
			continue
		}
		got := raceLines.FindAllStringSubmatch(e.race.Msg, -1)
		if len(got) != 2 {
			return 0, 0, 0, fmt.Errorf("a race message that cites %d lines: %s", len(got), e.race.Msg)
		}
		next := map[string]bool{}
		for _, t := range threads {
			next[line(e.by[t][0].step)] = true
		}
		if !next[got[0][1]] || !next[got[1][1]] {
			return 0, 0, 0, fmt.Errorf("the check reports %q, not between the next steps of the state's threads %v", e.race.Msg, slices.Sorted(maps.Keys(next)))
		}
		if len(pairs) == 1 {
			p := pairs[0]
			if !(p[0] == got[0][1] && p[1] == got[1][1] || p[0] == got[1][1] && p[1] == got[0][1]) {
				return 0, 0, 0, fmt.Errorf("the steps at %s do not commute, one plain, and nothing else races there; the check reports %q", p, e.race.Msg)
			}
			named++
		}
	}
	return len(seen), races, named, nil
}
