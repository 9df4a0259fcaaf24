package golang

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/verify"
)

// model loads testdata/dir's type typ and parses its translation.
func model(t *testing.T, dir string, cfg Config) *frontend.Model {
	t.Helper()
	tg, err := load(dir, cfg)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	name, src, err := tg.Model()
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	m, err := frontend.Parse(name, src)
	if err != nil {
		t.Fatalf("%s: the translation does not check: %v\n%s", dir, err, src)
	}
	return m
}

// verdictCase is a type of a testdata package and its verdicts at 2
// threads × 2 operations, values 1..2; race: instead, a data race.
type verdictCase struct {
	dir           string
	cfg           Config
	lin, lockFree verify.Verdict
	race          bool
}

// wantVerdicts verifies each case and holds its verdicts to the case's.
func wantVerdicts(t *testing.T, cases []verdictCase) {
	t.Helper()
	for _, c := range cases {
		m := model(t, c.dir, c.cfg)
		out, err := verify.Run(context.Background(), c.dir, m, frontend.Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}, verify.Options{})
		var me *frontend.ModelError
		switch isRace := errors.As(err, &me) && me.Race; {
		case c.race && !isRace:
			t.Errorf("%s %s: %v, want a data race", c.dir, c.cfg.Type, err)
			continue
		case c.race:
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.dir, c.cfg.Type, err)
			continue
		}
		if r := out.Report; r.Linearizable != c.lin || r.LockFree != c.lockFree {
			t.Errorf("%s %s: linearizable %v, lock-free %v; want %v, %v", c.dir, c.cfg.Type, r.Linearizable, r.LockFree, c.lin, c.lockFree)
		}
	}
}

// TestExampleVerdicts: every Go example gets the literature's verdict at
// 2 threads × 2 operations: Treiber's stack and the Michael–Scott queue
// (also written with generics and a generic constructor) linearizable
// and lock-free, a slice under a mutex (a stack, a queue) linearizable
// and not lock-free, its Len without the lock a data race, sorted lists
// walked with a pointer to a link (under a mutex; lock-free without
// removal), the lock-based counter and stack
// linearizable and not lock-free, the three bugs not linearizable (the
// plain c.n++ a data race).
func TestExampleVerdicts(t *testing.T) {
	wantVerdicts(t, []verdictCase{
		{"treiber", Config{Type: "Stack"}, verify.Yes, verify.Yes, false},
		{"msqueue", Config{Type: "Queue"}, verify.Yes, verify.Yes, false},
		{"spincounter", Config{Type: "Counter"}, verify.Yes, verify.No, false},
		{"mutexstack", Config{Type: "Stack"}, verify.Yes, verify.No, false},
		{"racecounter", Config{Type: "Counter"}, verify.Unknown, verify.Unknown, true},
		{"loadstore", Config{Type: "Counter"}, verify.No, verify.Yes, false},
		{"lencount", Config{Type: "Stack"}, verify.No, verify.Yes, false},
		{"genqueue", Config{Type: "Queue[int]"}, verify.Yes, verify.Yes, false},
		{"slicestack", Config{Type: "Stack"}, verify.Yes, verify.No, false},
		{"slicestack", Config{Type: "Queue"}, verify.Yes, verify.No, false},
		{"slicestack", Config{Type: "RacyStack"}, verify.Unknown, verify.Unknown, true},
		{"slicestack", Config{Type: "Embedded"}, verify.Yes, verify.No, false},
		{"list", Config{Type: "Set"}, verify.Yes, verify.No, false},
		{"list", Config{Type: "PushSet"}, verify.Yes, verify.Yes, false},
		{"list", Config{Type: "HarrisSet"}, verify.Yes, verify.Yes, false},
	})
}

// TestMoreVerdicts: further objects written as Go programmers write them
// (testdata/more): Michael and Scott's two-lock queue and a ring under a
// mutex (defer, switch, an index that wraps) linearizable and not
// lock-free, but the two-lock queue has a data race (Michael and Scott's
// enqueuer links the last node while a dequeuer reads the dummy's next
// field, plainly: benign in their C, a race in Go); a CAS-loop counter
// linearizable and lock-free, also against its sequential reference
// (--spec SeqCounter), and not against a wrong one (OffByOne, which counts
// from 1); a plain flag a data race; a ring under a spin lock of a named
// type over uint32 (SpinRing) linearizable and not lock-free; Vyukov's
// bounded queue (MPMC) lock-free and not linearizable, and so a counter
// striped over padded atomics and summed stripe by stripe (Striped), with
// no data race: its sum's range over the stripes reads none of them.
func TestMoreVerdicts(t *testing.T) {
	wantVerdicts(t, []verdictCase{
		{"more", Config{Type: "TwoLockQueue"}, verify.Unknown, verify.Unknown, true},
		{"more", Config{Type: "CASCounter"}, verify.Yes, verify.Yes, false},
		{"more", Config{Type: "CASCounter", Spec: "SeqCounter"}, verify.Yes, verify.Yes, false},
		{"more", Config{Type: "CASCounter", Spec: "OffByOne"}, verify.No, verify.Yes, false},
		{"more", Config{Type: "Ring"}, verify.Yes, verify.No, false},
		{"more", Config{Type: "Flag"}, verify.Unknown, verify.Unknown, true},
		{"more", Config{Type: "CastStack"}, verify.Yes, verify.Yes, false},
		{"more", Config{Type: "SpinRing"}, verify.Yes, verify.No, false},
		{"more", Config{Type: "MPMC"}, verify.No, verify.Yes, false},
		{"more", Config{Type: "Striped"}, verify.No, verify.Yes, false},
	})
}

// TestTracesCiteGo: the counterexample of the length counter cites the Go
// lines of its steps, file, line and text, and prints its uint64 result
// as Go does.
func TestTracesCiteGo(t *testing.T) {
	m := model(t, "lencount", Config{Type: "Stack"})
	out, err := verify.Run(context.Background(), "lencount", m, frontend.Bounds{Threads: 2, Ops: 2, Values: []int{1}}, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, ev := range out.Report.Evidence {
		for _, s := range ev.Trace.Steps {
			if s.Source != nil {
				if !strings.HasSuffix(s.Source.File, "testdata/lencount/lencount.go") {
					t.Errorf("step %v cites %s, want lencount.go", s, s.Source.File)
				}
				texts = append(texts, s.Source.Text)
			}
		}
	}
	if !strings.Contains(strings.Join(texts, "\n"), "s.length.Add(^uint64(0))") {
		t.Errorf("the counterexample's steps %q do not show the decrement after the CAS", texts)
	}
	// The uint64 the length wraps to is printed as Go prints it.
	found := false
	for _, ev := range out.Report.Evidence {
		for _, s := range ev.Trace.Steps {
			found = found || s.Label == "ret(2,Length,18446744073709551615)"
		}
	}
	if !found {
		t.Error("no step ret(2,Length,18446744073709551615): the uint64 result is not printed as Go's")
	}
}

// TestSubsetVerdicts: the types of testdata/subset translate, check and
// verify: Arrays (constant and variable indices, min, max, len, cap) a
// data race on its plain array; Globals (a check-then-add on a package
// variable) not linearizable; Flow (an RWMutex, defer, goto, labelled
// loops, Gosched, a uint8 that wraps) linearizable, not lock-free; Unsafe
// (the address of a field passed to a function, Add(^uint64(0)))
// linearizable and lock-free; Box (an any behind a mutex, nil and
// integers) linearizable, not lock-free; Any (an atomic.Value, a type
// assertion, a plain field written by two threads) a data race; and a
// slice made by the constructor with
// its constant argument, indexed by a variable (plain writes by two
// threads: a data race); struct copies (Pairs), field by field, plain
// writes by two threads: a data race.
func TestSubsetVerdicts(t *testing.T) {
	wantVerdicts(t, []verdictCase{
		{"subset", Config{Type: "Arrays"}, verify.Unknown, verify.Unknown, true},
		{"subset", Config{Type: "Globals"}, verify.No, verify.Yes, false},
		{"subset", Config{Type: "Flow"}, verify.Yes, verify.No, false},
		{"subset", Config{Type: "Unsafe"}, verify.Yes, verify.Yes, false},
		{"subset", Config{Type: "Box"}, verify.Yes, verify.No, false},
		{"subset", Config{Type: "Any"}, verify.Unknown, verify.Unknown, true},
		{"ctor", Config{Type: "Ring", New: "NewRing(2)"}, verify.Unknown, verify.Unknown, true},
		{"ints", Config{Type: "Pairs"}, verify.Unknown, verify.Unknown, true},
	})
}

// TestPlainMarked: the statements of plain loads and stores are marked
// plain (syntax.PlainDirective), atomic operations are not: c.n++ and
// return c.n make three plain accesses, the atomic counter none.
func TestPlainMarked(t *testing.T) {
	for _, c := range []struct {
		dir, typ string
		plain    int
	}{{"racecounter", "Counter", 3}, {"loadstore", "Counter", 0}, {"treiber", "Stack", 4}} {
		tg, err := load(c.dir, Config{Type: c.typ})
		if err != nil {
			t.Fatal(err)
		}
		_, src, err := tg.Model()
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), syntax.PlainDirective); n != c.plain {
			t.Errorf("%s: %d plain accesses, want %d\n%s", c.dir, n, c.plain, src)
		}
	}
}

// TestAnyHoldingEmpty: an any of one integer type holds the integer
// itself and nil as the model's EMPTY, -2^30; an any made of -2^30 is a
// model error at the conversion, never a value taken for nil.
func TestAnyHoldingEmpty(t *testing.T) {
	m := model(t, "subset", Config{Type: "Quarter"})
	_, err := verify.Run(context.Background(), "Quarter", m, frontend.Bounds{Threads: 1, Ops: 2, Values: []int{1, 2}}, verify.Options{})
	var me *frontend.ModelError
	if !errors.As(err, &me) || !strings.Contains(me.Error(), "assertion failed") || !strings.Contains(me.Pos.Text, "x.box = (v - 3) << 29") {
		t.Errorf("an any of -2^30: %v, want a model error at the conversion", err)
	}
}

// TestAnyLabels: an any result prints nil as Go does, and its integers.
func TestAnyLabels(t *testing.T) {
	m := model(t, "subset", Config{Type: "Box"})
	l, err := frontend.CompileImpl(m, frontend.Bounds{Threads: 1, Ops: 2, Values: []int{1}}, frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, name := range l.Labels {
		if strings.HasPrefix(name, "ret(1,Take") {
			got = append(got, name)
		}
	}
	if !slices.Equal(got, []string{"ret(1,Take,nil)", "ret(1,Take,1)"}) && !slices.Equal(got, []string{"ret(1,Take,1)", "ret(1,Take,nil)"}) {
		t.Errorf("Take's labels %q, want ret(1,Take,nil) and ret(1,Take,1)", got)
	}
}

// TestSpecSignature: a reference type whose methods' signatures differ
// from the type's is refused, at the method.
func TestSpecSignature(t *testing.T) {
	_, err := load("more", Config{Type: "CASCounter", Spec: "WrongSig"})
	if err == nil || !strings.Contains(err.Error(), "more.go:142:20: --spec WrongSig: method Inc has signature func() int64, but CASCounter's is func() int32") {
		t.Errorf("a reference with another signature: %v", err)
	}
	if _, err := load("more", Config{Type: "CASCounter", Spec: "Nope"}); err == nil || !strings.Contains(err.Error(), "has no type Nope") {
		t.Errorf("a missing reference: %v", err)
	}
}

// TestRWMutexWriterPreference: Go's RWMutex blocks new readers once a
// writer waits, so a goroutine taking the read lock twice (ReadTwice.Get)
// deadlocks when a writer (Set) comes between: a reachable state from
// which no operation ever returns, while every thread spins. A single
// read lock (Flow) never gets stuck so.
func TestRWMutexWriterPreference(t *testing.T) {
	for _, c := range []struct {
		dir, typ string
		stuck    bool
	}{{"more", "ReadTwice", true}, {"subset", "Flow", false}} {
		m := model(t, c.dir, Config{Type: c.typ})
		l, err := frontend.CompileImpl(m, frontend.Bounds{Threads: 2, Ops: 1, Values: []int{1}}, frontend.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := stuck(l); got != c.stuck {
			t.Errorf("%s: a state that never returns again: %v, want %v", c.typ, got, c.stuck)
		}
	}
}

// stuck reports whether l reaches a state that has steps but from which
// no ret step is reachable.
func stuck(l *lts.LTS) bool {
	canRet := make([]bool, l.NumStates)
	for changed := true; changed; {
		changed = false
		for i := range l.Src {
			s := l.Src[i]
			if !canRet[s] && (strings.HasPrefix(l.Labels[l.Label[i]], "ret(") || canRet[l.Dst[i]]) {
				canRet[s], changed = true, true
			}
		}
	}
	for s := range l.NumStates {
		if l.Out[s+1] > l.Out[s] && !canRet[s] {
			return true
		}
	}
	return false
}

// TestMixedAtomicValue: an atomic.Value, whose Store panics on a value of
// another type than the one it holds, may not hold integers of several
// types: refused, one line.
func TestMixedAtomicValue(t *testing.T) {
	tg, err := load("subset", Config{Type: "MixedValue"})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tg.Model()
	if err == nil || !strings.Contains(err.Error(), "atomic.Value with the any values of the code holding integers of several types (int and uint8) is not supported (an atomic.Value holds one type)") {
		t.Errorf("an atomic.Value of two types: %v", err)
	}
}
