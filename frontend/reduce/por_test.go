package reduce

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// porSucc is a successor copied out of a stepper's block.
type porSucc struct {
	thread uint8
	label  semantics.LabelKey
	enc    string
}

// porSuccessors returns the successors of the canonical state cur, or
// false on a model error.
func porSuccessors(st *semantics.Stepper, cur []int32) ([]porSucc, bool) {
	if _, fail := st.Successors(cur); fail != nil {
		return nil, false
	}
	var out []porSucc
	for _, sc := range st.Blk.Succs {
		out = append(out, porSucc{sc.Thread, sc.Label, string(st.Blk.Batch[sc.Start:sc.End])})
	}
	return out, true
}

func ofThread(succs []porSucc, t int) []porSucc {
	var out []porSucc
	for _, s := range succs {
		if int(s.thread) == t {
			out = append(out, s)
		}
	}
	return out
}

// checkDiamond checks that the steps of thread t and thread u commute at
// cur: after any step of u, t has the same labels as at cur, and after
// any step of t, u has; and t-then-u reaches the same states as u-then-t.
// It reports whether it could check (no model error on the way).
func checkDiamond(t *testing.T, st *semantics.Stepper, what string, cur []int32, th, u int) bool {
	t.Helper()
	all, ok := porSuccessors(st, cur)
	if !ok {
		return false
	}
	ts, us := ofThread(all, th), ofThread(all, u)
	labels := func(ss []porSucc) []semantics.LabelKey {
		var ls []semantics.LabelKey
		for _, s := range ss {
			ls = append(ls, s.label)
		}
		slices.Sort(ls)
		return ls
	}
	tu, ut := map[string]bool{}, map[string]bool{}
	for _, a := range ts {
		next, ok := porSuccessors(st, semantics.Decode(nil, []byte(a.enc)))
		if !ok {
			return false
		}
		ua := ofThread(next, u)
		assert.Equal(t, labels(us), labels(ua), "%s: thread %d's step changes what thread %d can do", what, th+1, u+1)
		for _, d := range ua {
			tu[d.enc] = true
		}
	}
	for _, b := range us {
		next, ok := porSuccessors(st, semantics.Decode(nil, []byte(b.enc)))
		if !ok {
			return false
		}
		tb := ofThread(next, th)
		assert.Equal(t, labels(ts), labels(tb), "%s: thread %d's step changes what thread %d can do", what, u+1, th+1)
		for _, d := range tb {
			ut[d.enc] = true
		}
	}
	assert.Equal(t, tu, ut, "%s: the diamond of threads %d and %d does not close", what, th+1, u+1)
	return true
}

// porModels are the models the partial-order tests walk: every bundled
// model, perThread and porForms (the per-thread forms, words, unions,
// local arrays, tuples).
func porModels(t *testing.T) map[string]*check.Program {
	files, err := filepath.Glob("../examples/*.lin")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	progs := map[string]*check.Program{
		"per-thread": parseSource(t, "per-thread.lin", perThread),
		"por-forms":  parseSource(t, "por-forms.lin", porForms),
	}
	for _, file := range files {
		progs[filepath.Base(file)] = parseFile(t, file)
	}
	return progs
}

// walkPOR calls visit on the states of random walks through every model
// of porModels at 3/1 and 2/2, in both heap modes, with the model's
// analysis and a stepper whose successors of cur have been computed.
func walkPOR(t *testing.T, visit func(what, name string, a *POR, st *semantics.Stepper, r *rand.Rand, cur []int32)) {
	progs := porModels(t)
	walks := testsize.Count(15, 60)
	for _, name := range slices.Sorted(maps.Keys(progs)) {
		prog := progs[name]
		for _, b := range []ir.Bounds{{Threads: 3, Ops: 1, Values: []int{1, 2}}, {Threads: 2, Ops: 2, Values: []int{1, 2}}} {
			for _, explicit := range []bool{false, true} {
				what := fmt.Sprintf("%s %d/%d explicit=%v", name, b.Threads, b.Ops, explicit)
				x, err := semantics.NewSystem(prog, prog.Impl, b, semantics.Options{Explicit: explicit, Workers: 1})
				require.NoError(t, err, what)
				init, err := x.InitialState()
				if err != nil {
					continue // a model error in init
				}
				a := NewPOR(x.Program, b, x.Allowed, x.Options.Explicit)
				st := x.NewStepper()
				r := rand.New(rand.NewPCG(uint64(len(name)), uint64(b.Ops)))
				for range walks {
					cur := slices.Clone(init)
					for range 4 + r.IntN(30) {
						if _, fail := st.Successors(cur); fail != nil || len(st.Blk.Succs) == 0 {
							break
						}
						visit(what, name, a, st, r, cur)
						all, _ := porSuccessors(st, cur)
						cur = semantics.Decode(nil, []byte(all[r.IntN(len(all))].enc))
					}
				}
			}
		}
	}
}

// TestPORIndependence holds the partial-order reduction's independence to
// the semantics, on random reachable states of porModels: where choose
// takes a thread t, its successors are all τ, and t's step commutes with
// every step of every other thread, not only at the state but along
// random walks of the other threads from it (C1: nothing the others may
// do before t moves depends on t's step).
func TestPORIndependence(t *testing.T) {
	var ample, diamonds int
	perModel := map[string]int{}
	walkPOR(t, func(what, name string, a *POR, st *semantics.Stepper, r *rand.Rand, cur []int32) {
		if th := a.Choose(cur, st.Blk.Succs); th >= 0 {
			ample++
			perModel[name]++
			diamonds += checkAmple(t, r, st, what, cur, th)
		}
	})
	t.Logf("%d ample states, %d diamonds checked; ample states by model: %v", ample, diamonds, perModel)
	assert.Greater(t, ample, 100, "the reduction takes ample sets on the bundled models")
	assert.Greater(t, perModel["por-forms"], 20, "steps on a thread's own rows (tid, a local holding tid), local arrays, unions and tuples are independent")
}

// TestPORFootprintsCommute holds the footprints themselves to the
// semantics, whether or not choose would use them: at random reachable
// states of porModels, two threads inside operations whose current steps'
// footprints do not conflict must commute (the same labels either way
// round, the same states at the end). This reaches the steps that no
// ample set takes: visible ones, and pairs where both threads could move.
func TestPORFootprintsCommute(t *testing.T) {
	var diamonds int
	perModel := map[string]int{}
	walkPOR(t, func(what, name string, a *POR, st *semantics.Stepper, r *rand.Rand, cur []int32) {
		lay := &a.P.Layout
		for th := range a.B.Threads {
			for u := th + 1; u < a.B.Threads; u++ {
				pt, pu := cur[lay.ThreadBase(th)+ir.TPC], cur[lay.ThreadBase(u)+ir.TPC]
				if pt == 0 || pu == 0 || a.step[th][pt].conflicts(&a.step[u][pu]) {
					continue
				}
				if checkDiamond(t, st, what, cur, th, u) {
					diamonds++
					perModel[name]++
				}
			}
		}
	})
	t.Logf("%d diamonds of steps with disjoint footprints; by model: %v", diamonds, perModel)
	// (hp-stack-sym has none: every step of it stores a reference, tests
	// privacy or touches Top.)
	for _, name := range []string{"por-forms", "per-thread", "rdcss.lin", "shann-queue.lin"} {
		assert.Greater(t, perModel[name], 10, "%s has independent steps", name)
	}
}

// porForms has steps that touch only the running thread's own data,
// through the forms whose footprints are precise: rows of [thread],
// [thread][n] and [thread][thread] arrays indexed by tid or by a local
// that only ever holds tid (read, written, swapped, fetched-and-added), local arrays
// (and a loop over one, folded into its step), type tests and conversions of
// a union reference, a tuple result; and steps that are not independent
// (a loop over the other threads' rows, a shared counter).
const porForms = `object Rows {
  heap Val { v int }
  heap Box { n int }
  shared Slot [thread] ref Val | Box = null
  shared Log [thread][2] int
  shared Peer [thread][thread] int
  shared X int = 0
  method work(v int) (bool, int(0..3)) {
    var me thread = tid
    Log[me][0] = v
    Log[tid][1] = Log[me][0] + 1
    Peer[me][me] = 1
    Slot[me] = new Val{v: v}
    var loc [2] int
    loc[1] = Log[me][1]
    var s ref Val | Box = Slot[tid]
    ok := s is Val
    w := s as Val
    loc[0] = w.v
    k := 0
    while k < 2 { loc[k] = loc[k] + 1; k = k + 1 }
    n := faa(Log[me][1], 1)
    o := swap(Peer[tid][me], n)
    for j in others { c := Log[j][0]; Peer[me][j] = c }
    t := X
    X = t + 1
    u := faa(X, o)
    return ok, loc[1]
  }
}
spec auto
`

// checkAmple checks the ample thread th of cur: its successors are τ and
// its step commutes with the other threads' steps at cur and along a
// random walk of theirs. It returns the diamonds checked.
func checkAmple(t *testing.T, r *rand.Rand, st *semantics.Stepper, what string, cur []int32, th int) int {
	t.Helper()
	all, ok := porSuccessors(st, cur)
	if !ok {
		return 0
	}
	for _, s := range ofThread(all, th) {
		assert.Zero(t, s.label, "%s: the ample thread's steps are invisible", what)
	}
	n := 0
	w := slices.Clone(cur)
	for range 6 {
		succs, ok := porSuccessors(st, w)
		if !ok {
			return n
		}
		var others []porSucc
		for _, s := range succs {
			if int(s.thread) != th {
				others = append(others, s)
			}
		}
		if len(others) == 0 {
			return n
		}
		for u := range st.Expander.System.Bounds.Threads {
			if u != th && len(ofThread(succs, u)) > 0 && checkDiamond(t, st, what, w, th, u) {
				n++
			}
		}
		w = semantics.Decode(nil, []byte(others[r.IntN(len(others))].enc))
	}
	return n
}
