package progress

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// The objects below are transcribed by hand from the code in the papers, one
// local step per statement that touches shared state (as the modeling
// language compiles them, frontend/LANGUAGE.md), and interleaved by
// interleave. The shared variable is the counter c (for
// the lock objects: the lock bit); the register holds a local t.

func step(from, to int, label, text string, fire func(g, r int) (bool, int, int)) localStep {
	return localStep{from: from, to: to, label: label, text: text, fire: fire}
}

// Yang et al. Fig. 2: inc is the same in Δ1, Δ2, Δ3: call, one atomic
// increment, return. Location 3 is "done" (one operation per thread).
var incAtomic = program{
	step(0, 1, "call(%d,inc)", "int inc()", nil),
	step(1, 2, "tau", "atomic {c := c+1;}", func(g, r int) (bool, int, int) { return true, g + 1, r }),
	step(2, 3, "ret(%d,inc)", "return;", nil),
}

// Δ1's dec: atomic {c := c-1;} return.
var decDelta1 = program{
	step(0, 1, "call(%d,dec)", "int dec()", nil),
	step(1, 2, "tau", "atomic {c := c-1;}", func(g, r int) (bool, int, int) { return true, g - 1, r }),
	step(2, 3, "ret(%d,dec)", "return;", nil),
}

// Δ2's dec: while (1) do {skip;} — the loop is a τ self-loop (a spin that
// the explorer must keep visible as divergence); return is unreachable.
var decDelta2 = program{
	step(0, 1, "call(%d,dec)", "int dec()", nil),
	step(1, 1, "tau", "while (1) do {skip;}", nil),
}

// Δ3's dec: while (1) do { if (c>0) then c:=c-1; } — as the paper's
// Fig. 3(c) reads it, the loop exits after decrementing: the test of c is
// one step (a self-loop while c ≤ 0), the decrement another.
var decDelta3 = program{
	step(0, 1, "call(%d,dec)", "int dec()", nil),
	step(1, 1, "tau", "if (c>0)", func(g, r int) (bool, int, int) { return g <= 0, g, r }),
	step(1, 2, "tau", "if (c>0)", func(g, r int) (bool, int, int) { return g > 0, g, r }),
	step(2, 3, "tau", "c:=c-1;", func(g, r int) (bool, int, int) { return true, g - 1, r }),
	step(3, 4, "ret(%d,dec)", "return;", nil),
}

// casCounter is Yang et al. Fig. 1(ii): do t := c; while (!CAS(c,t,t+1));
// return. The counter is kept modulo 3 so that a client calling forever
// stays finite; t is reset after the CAS so that states stay canonical.
// done is where ret leads: 0 for "ops forever", 4 for one operation.
func casCounter(done int) program {
	return program{
		step(0, 1, "call(%d,inc)", "int inc()", nil),
		step(1, 2, "tau", "do t := c;", func(g, r int) (bool, int, int) { return true, g, g }),
		step(2, 3, "tau", "while (!CAS(c,t,t+1))", func(g, r int) (bool, int, int) { return g == r, (r + 1) % 3, 0 }),
		step(2, 1, "tau", "while (!CAS(c,t,t+1))", func(g, r int) (bool, int, int) { return g != r, g, 0 }),
		step(3, done, "ret(%d,inc)", "return;", nil),
	}
}

// tasLock is a counter guarded by a test-and-set spin lock (the blocking
// object of Liang et al. Fig. 2(d)): while (TAS(lock)) {}; c := c+1;
// lock := 0; return. The shared value is the lock bit; c is not tracked (it
// does not influence control flow).
func tasLock(done int) program {
	return program{
		step(0, 1, "call(%d,inc)", "int inc()", nil),
		step(1, 2, "tau", "while (TAS(lock)) {}", func(g, r int) (bool, int, int) { return g == 0, 1, r }),
		step(1, 1, "tau", "while (TAS(lock)) {}", func(g, r int) (bool, int, int) { return g == 1, g, r }),
		step(2, 3, "tau", "c := c+1;", nil),
		step(3, 4, "tau", "lock := 0;", func(g, r int) (bool, int, int) { return true, 0, r }),
		step(4, done, "ret(%d,inc)", "return;", nil),
	}
}

// forgetfulLock blocks on the lock (await: no step while it is held, so a
// waiting thread is disabled, not spinning) and never releases it.
var forgetfulLock = program{
	step(0, 1, "call(%d,inc)", "int inc()", nil),
	step(1, 2, "tau", "await lock == 0; lock := 1; c := c+1;", func(g, r int) (bool, int, int) { return g == 0, 1, r }),
	step(2, 3, "ret(%d,inc)", "return;", nil),
}

// hpPop is pop of the stack with hazard pointers, Yang et al. Fig. 7 (the
// revised version of Fu et al., revised = true) or with Michael's
// Retire_Node, which scans the hazard pointers once and never waits
// (revised = false), for thread tid of 2, on a stack holding one node A.
// With only pops the heap is fixed (A.Next = null), so the shared value
// packs Top (bit 0: 1 = A, 0 = null), HP[1] (bit 1) and HP[2] (bit 2), and
// the register packs t (bit 0) and t1 (bit 1). Local-only work (the null
// test, the comparison, i := i+1 past the thread's own index) is folded
// into the neighbouring shared step.
func hpPop(tid int, revised bool) program {
	const top = 1
	hp := func(th int) int { return 1 << th } // HP[th]'s bit in the shared value
	other := 3 - tid
	t := func(r int) int { return r & 1 }
	set := func(g, bit, v int) int { return g&^bit | v*bit }
	retire := step(7, 8, "tau", "t' := HP[i]; if (t' != t) i := i+1", func(g, r int) (bool, int, int) {
		if !revised {
			return true, g, r // Michael: a hazardous node is kept on the retired list; no waiting
		}
		return g&hp(other) == 0 || t(r) == 0, g, r
	})
	prog := program{
		step(0, 1, "call(%d,pop)", "pop()", nil),
		step(1, 3, "tau", "t:=Top; if(t==null) return EMPTY;", func(g, r int) (bool, int, int) { return g&top != 0, g, 1 }),
		step(1, 20, "tau", "t:=Top; if(t==null) return EMPTY;", func(g, r int) (bool, int, int) { return g&top == 0, g, 0 }),
		step(3, 4, "tau", "HP[tid]:=t;", func(g, r int) (bool, int, int) { return true, set(g, hp(tid), t(r)), r }),
		step(4, 5, "tau", "t1:=Top; if(t==t1) {", func(g, r int) (bool, int, int) { return g&top == t(r), g, r | (g&top)<<1 }),
		step(4, 1, "tau", "t1:=Top; if(t==t1) {", func(g, r int) (bool, int, int) { return g&top != t(r), g, 0 }),
		step(5, 6, "tau", "next:=t.Next;", nil),
		step(6, 7, "tau", "done:=cas(&Top,t,next) }", func(g, r int) (bool, int, int) { return g&top == t(r), set(g, top, 0), r &^ 2 }),
		step(6, 1, "tau", "done:=cas(&Top,t,next) }", func(g, r int) (bool, int, int) { return g&top != t(r), g, 0 }),
		retire,
		step(8, 9, "tau", "HP[tid]:=null;", func(g, r int) (bool, int, int) { return true, set(g, hp(tid), 0), r }),
		step(9, 10, "ret(%d,pop,A)", "return t;", func(g, r int) (bool, int, int) { return true, g, 0 }),
		step(20, 10, "ret(%d,pop,EMPTY)", "return EMPTY;", nil),
	}
	if revised {
		// The spin: HP[other] still holds t, so i is not incremented.
		prog = append(prog, step(7, 7, "tau", "t' := HP[i]; if (t' != t) i := i+1", func(g, r int) (bool, int, int) {
			return g&hp(other) != 0 && t(r) == 1, g, r
		}))
	}
	return prog
}

type verdicts struct{ lock, wait, obstruction, deadlock, starvation bool }

func (v verdicts) of(p Property) bool {
	return [...]bool{v.lock, v.wait, v.obstruction, v.deadlock, v.starvation}[p]
}

// knownObjects lists the hand-transcribed objects with their verdicts,
// each argued in its comment.
var knownObjects = []struct {
	name         string
	l            *lts.LTS
	states, trns int32
	want         verdicts
}{
	// Δ1, thread 1 dec and thread 2 inc once each (Yang et al. Fig. 3(a)):
	// each thread has 4 locations and c is determined by them, so 4×4 = 16
	// states and 2 threads × 3 steps × 4 locations of the other = 24
	// transitions. No cycles at all: every property holds.
	{"Delta1", interleave("fig2-delta1", 0, decDelta1, incAtomic), 16, 24,
		verdicts{true, true, true, true, true}},
	// Δ2 (Fig. 3(b)): thread 1 has locations {0,1}, thread 2 {0..3}: 8
	// states; 4 calls + 4 spins of thread 1, 3×2 steps of thread 2 = 14.
	// The spin is a cycle without ret while dec is pending: not lock-, wait-
	// or obstruction-free; it never gets stuck (deadlock-free); once thread
	// 2 is done the spin is weakly fair (thread 2 is disabled): starves.
	{"Delta2", interleave("fig2-delta2", 0, decDelta2, incAtomic), 8, 14,
		verdicts{false, false, false, true, false}},
	// Δ3 (Fig. 3(c)): thread 1 at {0,1} with any of thread 2's 4 locations,
	// or at {2,3,4} (past the test, so c was 1) with thread 2 at {2,3}: 8+6
	// = 14 states; thread 1: 4 calls, 2 spins, 2 exits, 2 decrements, 2
	// returns = 12; thread 2: 3×2 + 3×1 (only ret left) = 9; 21 in all.
	// The spin while c = 0 is a cycle without ret: not lock-free; thread 1
	// alone spins: not obstruction-free. Under weak fairness thread 2,
	// enabled at every spinning state, must run inc, after which dec
	// returns: starvation-free (the paper's "dependent" progress).
	{"Delta3", interleave("fig2-delta3", 0, decDelta3, incAtomic), 14, 21,
		verdicts{false, false, false, true, true}},
	// The CAS counter with one inc per thread: every CAS failure needs the
	// other thread's success, of which there is one: wait-free under these
	// bounds.
	{"CAS/1op", interleave("fig1-cas", 0, casCounter(4), casCounter(4)), 0, 0,
		verdicts{true, true, true, true, true}},
	// The CAS counter, threads calling forever (Yang et al. Example 1): a
	// CAS fails only because the other thread's CAS succeeded, and then
	// that thread must return before a state repeats, so every cycle
	// without ret is impossible: lock-free. But thread 2 can fail forever
	// while thread 1 completes inc after inc: not wait-free, and, since
	// both threads step on that cycle, not starvation-free either. Alone a
	// thread reads and then succeeds: obstruction-free.
	{"CAS/forever", interleave("fig1-cas", 0, casCounter(0), casCounter(0)), 0, 0,
		verdicts{true, false, true, true, false}},
	// TAS lock, one inc each: while thread 1 holds the lock thread 2 spins
	// (a cycle without ret: not lock-free, and spinning alone: not
	// obstruction-free), but the holder is always enabled, so under weak
	// fairness it releases: starvation-free; never stuck: deadlock-free.
	{"TAS/1op", interleave("tas-lock", 0, tasLock(5), tasLock(5)), 0, 0,
		verdicts{false, false, false, true, true}},
	// TAS lock, calling forever: thread 1 can take the lock again and again
	// while thread 2's spins all fall in the times it is held — weakly fair,
	// thread 2 starves — the classic "deadlock-free, not starvation-free".
	{"TAS/forever", interleave("tas-lock", 0, tasLock(0), tasLock(0)), 0, 0,
		verdicts{false, false, false, true, false}},
	// The stack with Michael's hazard pointers, 2 threads × 1 pop, one
	// node: a failed CAS or re-read of Top needs the other thread's
	// successful CAS, which happens once, so there is no cycle at all.
	{"HP stack (Michael)", interleave("hp-michael", 1, hpPop(1, false), hpPop(2, false)), 0, 0,
		verdicts{true, true, true, true, true}},
	// The revised hazard-pointer stack (Yang et al. §6.3, Fig. 7): thread 2
	// publishes HP[2] = A and pauses; thread 1 pops A and in retireNode(A)
	// reads HP[2] = A again and again — a cycle without ret: not lock-free,
	// and thread 1 alone spins: not obstruction-free. Worse, thread 2 then
	// finds Top = null and returns EMPTY without clearing HP[2], so thread
	// 1 spins even under fair scheduling: not starvation-free. It never
	// gets stuck: deadlock-free.
	{"HP stack (revised)", interleave("hp-revised", 1, hpPop(1, true), hpPop(2, true)), 0, 0,
		verdicts{false, false, false, true, false}},
	// A lock that is never released: thread 1 returns holding it, thread 2
	// blocks forever in a state with no step at all. No cycle exists, so
	// the three properties about infinite executions hold; deadlock- and
	// starvation-freedom do not.
	{"forgetful lock", interleave("forgetful", 0, forgetfulLock, forgetfulLock), 0, 0,
		verdicts{true, true, true, false, false}},
}

func TestKnownObjects(t *testing.T) {
	for _, obj := range knownObjects {
		t.Run(obj.name, func(t *testing.T) {
			require.NoError(t, obj.l.Validate())
			if obj.states > 0 {
				assert.Equal(t, obj.states, obj.l.NumStates, "states derived by hand")
				assert.Equal(t, int(obj.trns), obj.l.NumTransitions(), "transitions derived by hand")
			}
			c, err := NewChecker(obj.l)
			require.NoError(t, err)
			for _, p := range AllProperties {
				res, err := c.Check(p)
				require.NoError(t, err)
				assert.Equal(t, obj.want.of(p), res.Holds, "%s: %s", p, res.Explanation)
				if res.Holds && !obj.want.deadlock && (p == LockFree || p == WaitFree || p == ObstructionFree) {
					assert.Contains(t, res.Explanation, "see deadlockfree", "a stuck state is pointed out")
				}
				assert.Equal(t, p, res.Property)
				if !res.Holds {
					checkCounterexample(t, obj.l, res)
				}
				// The one-shot API agrees with the checker.
				again, err := Check(obj.l, p)
				require.NoError(t, err)
				assert.Equal(t, res, again)
			}
		})
	}
}

// TestDelta2ByHand writes Δ2's LTS out state by state and checks that
// interleave builds the same system, and the lasso exactly.
func TestDelta2ByHand(t *testing.T) {
	// States (thread 1's location, thread 2's location); c is 1 iff thread
	// 2 is at 2 or 3. Thread 1: 0 idle, 1 spinning. Thread 2: 0 idle, 1
	// called, 2 incremented, 3 returned.
	id := func(a, b int32) int32 { return a*4 + b }
	b := lts.NewBuilder()
	b.SetNumStates(8)
	callDec, callInc, retInc := b.Label("call(1,dec)"), b.Label("call(2,inc)"), b.Label("ret(2,inc)")
	spin := b.AddStep(lts.SourceStep{File: "fig2-delta2", Line: 2, Col: 1, Text: "while (1) do {skip;}"})
	for x := int32(0); x < 4; x++ {
		b.AddTransitionMeta(id(0, x), callDec, id(1, x), 1, -1)
		b.AddTransitionMeta(id(1, x), lts.Tau, id(1, x), 1, spin)
	}
	for a := int32(0); a < 2; a++ {
		b.AddTransitionMeta(id(a, 0), callInc, id(a, 1), 2, -1)
		b.AddTransitionMeta(id(a, 1), lts.Tau, id(a, 2), 2, -1)
		b.AddTransitionMeta(id(a, 2), retInc, id(a, 3), 2, -1)
	}
	hand := b.Build()
	requireSameLTS(t, hand, knownObjects[1].l)

	res, err := Check(hand, LockFree)
	require.NoError(t, err)
	require.False(t, res.Holds)
	checkCounterexample(t, hand, res)
	tr := res.Lasso
	require.Len(t, tr.Steps, 2, "call(1,dec), then the spin")
	assert.Equal(t, 1, tr.LoopStart)
	assert.Equal(t, "call(1,dec)", tr.Steps[0].Label)
	assert.Equal(t, lts.TraceStep{From: 4, Label: "tau", To: 4, Thread: 1,
		Source: &lts.SourceStep{File: "fig2-delta2", Line: 2, Col: 1, Text: "while (1) do {skip;}"}}, tr.Steps[1])
	assert.Contains(t, res.Explanation, "call(1,dec) of thread 1 is pending")
}

// TestRevisedHPLasso checks that the lock-freedom counterexample of the
// revised hazard-pointer stack is the spin of Yang et al. §6.3: a cycle of
// one retireNode step, reading the other thread's hazard pointer, while
// that thread has published it for the popped node.
func TestRevisedHPLasso(t *testing.T) {
	l := knownObjects[8].l
	require.Equal(t, "HP stack (revised)", knownObjects[8].name)
	res, err := Check(l, LockFree)
	require.NoError(t, err)
	require.False(t, res.Holds)
	tr := res.Lasso
	cycle := tr.Steps[tr.LoopStart:]
	require.Len(t, cycle, 1)
	assert.Equal(t, "t' := HP[i]; if (t' != t) i := i+1", cycle[0].Source.Text)
	spinner := cycle[0].Thread
	var other []string // what the other thread did in the prefix
	for _, st := range tr.Steps[:tr.LoopStart] {
		if st.Thread != spinner && st.Source != nil {
			other = append(other, st.Source.Text)
		}
	}
	assert.Contains(t, other, "HP[tid]:=t;", "the other thread published its hazard pointer")
	assert.NotContains(t, other, "HP[tid]:=null;")

	// Under weak fairness the other thread must move: it returns EMPTY
	// with its hazard pointer still set, and the spin goes on.
	res, err = Check(l, StarvationFree)
	require.NoError(t, err)
	require.False(t, res.Holds)
	checkCounterexample(t, l, res)
	tr = res.Lasso
	require.Len(t, tr.Steps[tr.LoopStart:], 1)
	assert.Equal(t, "t' := HP[i]; if (t' != t) i := i+1", tr.Steps[tr.LoopStart].Source.Text)
	assert.Regexp(t, `^ret\(\d,pop,EMPTY\)$`, tr.Steps[tr.LoopStart-1].Label)
}

// TestBundledCASCounter checks the .aut example of the CLI (the CAS counter
// of Fig. 1, 2 threads × 1 inc, written by benchmarks/mgcaut): lock-free and
// deadlock-free from labels alone; the others need thread attribution.
func TestBundledCASCounter(t *testing.T) {
	l, err := lts.ReadAutFile("../cmd/linbis/example/cas-counter-2x1.aut", lts.ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, []Property{LockFree, DeadlockFree}, Supported(l))
	for _, p := range AllProperties {
		res, err := Check(l, p)
		if p.NeedsThreads() {
			assert.ErrorIs(t, err, ErrNeedsThreads)
			continue
		}
		require.NoError(t, err)
		assert.True(t, res.Holds, res.Explanation)
	}
}

// TestGeneratedSpin uses an LTS made by mgcaut 2 2 2 1 spin
// (the CAS counter of Fig. 1, 2 threads × 1 inc, counter modulo 2, where
// thread 1 may spin forever at its first step when the counter is 1): not
// lock-free, and the lasso's cycle is that τ self-loop; deadlock-free.
func TestGeneratedSpin(t *testing.T) {
	l, err := lts.ReadAutFile("testdata/mgc-2-2-2-1-spin.aut", lts.ReadOptions{})
	require.NoError(t, err)
	res, err := Check(l, LockFree)
	require.NoError(t, err)
	require.False(t, res.Holds)
	checkCounterexample(t, l, res)
	cycle := res.Lasso.Steps[res.Lasso.LoopStart:]
	require.Len(t, cycle, 1)
	assert.Equal(t, cycle[0].From, cycle[0].To, "a self-loop")
	assert.Equal(t, "tau", cycle[0].Label)
	assert.Contains(t, res.Lasso.Visible(), "call(1,inc)")
	assert.Contains(t, res.Explanation, "call(1,inc) of thread 1")

	res, err = Check(l, DeadlockFree)
	require.NoError(t, err)
	assert.True(t, res.Holds, res.Explanation)
}
