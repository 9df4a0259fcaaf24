package semantics

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
)

// The successor function held to a plain reference: the expander's
// successors (specialised evaluators, the steps run on one buffer, the
// shortcuts of canonicalStep, cur read in place) against successors
// computed the simplest way, each step run on a fresh copy of the state by
// a machine whose expressions all go through the general evaluator
// (evalNode), made canonical by the full canonicalisation (Canonical:
// every dead local zeroed, the heap renumbered). Same successors, in the
// same order, with the same threads, source steps, labels and failures.

// refSucc is a successor as the reference computes it.
type refSucc struct {
	enc    []byte
	thread int
	step   int32
	label  LabelKey
}

// plainEvaluators sets every evaluator of p to the general path: evalNode,
// but for the kinds it leaves to their own evaluators (locals, which eval
// reads inline, and the integer operations of Go types).
func plainEvaluators(p *ir.Program) {
	lowerWith(p, func(e *ir.Expr) evaluator {
		switch {
		case e.Kind == ir.ELocal:
			return evLocal
		case e.Kind == ir.EBinary && e.V != 0:
			return evIntOp
		default:
			return (*machine).evalNode
		}
	})
}

// reference computes the successors of the canonical state cur of x,
// whose program has plain evaluators, the simplest way: thread by thread,
// the calls of an idle thread, else every run of its step (one per
// combination of choices), each on a fresh copy of cur.
func reference(x *System, m *machine, cur []int32) ([]refSucc, int, *Failure) {
	lay := &x.Program.Layout
	var out []refSucc
	addSucc := func(t int, o outcome, st []int32) {
		canon := NewCanonicaliser(x.Program, x.Bounds.Threads)
		st = canon.Canonical(append([]int32(nil), st...), t)
		var key LabelKey
		if o.Kind != KTau {
			key = keyOf(t, o)
		}
		out = append(out, refSucc{enc: Encode(nil, st), thread: t, step: o.step, label: key})
	}
	for t := 0; t < x.Bounds.Threads; t++ {
		base := lay.ThreadBase(t)
		if cur[base+ir.TPC] == 0 {
			if x.Bounds.Ops >= 0 && int(cur[base+ir.TOps]) >= x.Bounds.Ops {
				continue
			}
			for _, meth := range x.Program.Methods {
				if !x.Allowed[t][meth.Index] {
					continue
				}
				for ai, args := range meth.ArgTuples {
					next := append([]int32(nil), cur...)
					next[base+ir.TPC] = meth.Entry
					if x.Bounds.Ops >= 0 {
						next[base+ir.TOps]++
					}
					copy(next[base+ir.TLocals:], args)
					addSucc(t, outcome{Kind: KCall, method: meth.Index, value: int32(ai), step: meth.CallStep}, next)
				}
			}
			continue
		}
		m.t, m.base = t, base
		m.choices, m.limits = m.choices[:0], m.limits[:0]
		for {
			m.mem = append([]int32(nil), cur...)
			m.ci, m.moved, m.accStep, m.err = 0, 0, -1, nil
			o := m.step()
			if f := m.err; f != nil {
				return out, t, f
			}
			if o.Kind != KBlocked {
				addSucc(t, o, m.mem)
			}
			if !m.nextChoice() {
				break
			}
		}
	}
	return out, 0, nil
}

// compareSuccessors explores x breadth-first from its initial state with
// its stepper, up to limit states, and holds each state's successors to
// the reference's on ref (the same program compiled again, with plain
// evaluators). It returns the number of states compared.
func compareSuccessors(t *testing.T, what string, x, ref *System, limit int) int {
	t.Helper()
	init, err := x.InitialState()
	if err != nil {
		return 0 // a model error in init: nothing to step
	}
	init = append([]int32(nil), init...)
	if _, err := ref.InitialState(); err != nil {
		t.Errorf("%s: the reference fails in init: %v", what, err)
		return 0
	}
	plainEvaluators(ref.Program) // after InitialState, which lowers the program again
	rm := newMachine(ref.Program, !ref.Options.Explicit, ref.Options.Lin, int32(ref.Options.MaxNodes))
	plainEvaluators(ref.Program)
	st := x.NewStepper()
	seen := map[string]bool{string(Encode(nil, init)): true}
	queue := [][]int32{init}
	for n := 0; n < len(queue) && n < limit; n++ {
		cur := queue[n]
		want, wantT, wantF := reference(ref, &rm, cur)
		gotT, gotF := st.Successors(cur)
		blk := &st.Blk
		fail := func(format string, args ...any) int {
			t.Errorf("%s: state %v: %s", what, cur, fmt.Sprintf(format, args...))
			return n
		}
		if len(blk.Succs) != len(want) {
			return fail("%d successors, the reference %d", len(blk.Succs), len(want))
		}
		if (gotF == nil) != (wantF == nil) || gotF != nil && (gotT != wantT || gotF.Msg != wantF.Msg || gotF.Step != wantF.Step) {
			return fail("failure %v (thread %d), the reference %v (thread %d)", gotF, gotT, wantF, wantT)
		}
		for i, sc := range blk.Succs {
			w := want[i]
			enc := blk.Batch[sc.Start:sc.End]
			if !bytes.Equal(enc, w.enc) || int(sc.Thread) != w.thread || sc.Step != w.step || sc.Label != w.label {
				return fail("successor %d: %v thread %d step %d label %x, the reference %v thread %d step %d label %x",
					i, Decode(nil, enc), sc.Thread, sc.Step, sc.Label, Decode(nil, w.enc), w.thread, w.step, w.label)
			}
			if sc.Hash != hashState(st.Expander.Seed, enc) {
				return fail("successor %d: hash %x, not its encoding's", i, sc.Hash)
			}
			if !seen[string(enc)] {
				seen[string(enc)] = true
				queue = append(queue, Decode(nil, enc))
			}
		}
	}
	return min(len(queue), limit)
}

// compileTwice compiles obj of prog under b twice: the system whose
// stepper is tested and the reference's.
func compileTwice(prog *check.Program, obj *check.Object, b ir.Bounds, o Options) (*System, *System, error) {
	x, err := NewSystem(prog, obj, b, o)
	if err != nil {
		return nil, nil, err
	}
	ref, err := NewSystem(prog, obj, b, o)
	return x, ref, err
}

// checkedSource parses and checks a model.
func checkedSource(name string, src []byte) (*check.Program, error) {
	ast, err := syntax.Parse(name, src)
	if err != nil {
		return nil, err
	}
	return check.Check(ast)
}

// TestSuccessorsAgreeWithReference holds the stepper to the reference on
// every bundled model (implementation and specification, both heap
// modes, lin events visible or not) and on random programs
// (internal/randmodel), up to a few thousand states each.
func TestSuccessorsAgreeWithReference(t *testing.T) {
	paths, err := filepath.Glob("../examples/*.lin")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no bundled models: %v", err)
	}
	limit := testsize.Count(300, 3000)
	total := 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := checkedSource(path, src)
		if err != nil {
			t.Fatal(err)
		}
		b := ir.ClientBounds(prog)
		b.Threads = min(b.Threads, 3)
		for _, obj := range []*check.Object{prog.Impl, prog.Spec} {
			for _, o := range []Options{{}, {Explicit: true}, {Lin: true}} {
				x, ref, err := compileTwice(prog, obj, b, o)
				if err != nil {
					continue // e.g. bounds the model refuses
				}
				total += compareSuccessors(t, fmt.Sprintf("%s %s %+v", filepath.Base(path), obj.Name, o), x, ref, limit)
			}
		}
	}
	seeds := testsize.Count(150, 1000)
	for seed := range seeds {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(uint64(seed), 0)), randmodel.Config{})
		name := fmt.Sprintf("seed%d.lin", seed)
		prog, err := checkedSource(name, []byte(p.Source))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, o := range []Options{{}, {Explicit: true}} {
			x, ref, err := compileTwice(prog, prog.Impl, ir.ClientBounds(prog), o)
			if err != nil {
				continue
			}
			total += compareSuccessors(t, fmt.Sprintf("%s %+v", name, o), x, ref, limit/3)
		}
	}
	t.Logf("%d states compared", total)
}

// BenchmarkSuccessors measures the stepper alone: the successors of the
// first 100 000 states (breadth-first, unreduced) of a bundled model's
// implementation, values 1, each state expanded once per iteration. For
// instruction counts:
//
//	go test -c -o sem.test . && GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
//	  ./sem.test -test.run '^$' -test.bench 'Successors/hp-stack-sym' -test.benchtime 1x
func BenchmarkSuccessors(b *testing.B) {
	for _, c := range []struct {
		model        string
		threads, ops int
	}{{"hp-stack-sym", 3, 2}, {"treiber", 4, 1}, {"ms-queue", 3, 1}} {
		b.Run(c.model, func(b *testing.B) {
			src, err := os.ReadFile("../examples/" + c.model + ".lin")
			if err != nil {
				b.Fatal(err)
			}
			prog, err := checkedSource(c.model, src)
			if err != nil {
				b.Fatal(err)
			}
			x, err := NewSystem(prog, prog.Impl, ir.Bounds{Threads: c.threads, Ops: c.ops, Values: []int{1}}, Options{})
			if err != nil {
				b.Fatal(err)
			}
			init, err := x.InitialState()
			if err != nil {
				b.Fatal(err)
			}
			st := x.NewStepper()
			seen := map[string]bool{string(Encode(nil, init)): true}
			states := [][]int32{append([]int32(nil), init...)}
			for n := 0; n < len(states) && len(states) < 100_000; n++ {
				st.Successors(states[n])
				for _, sc := range st.Blk.Succs {
					if enc := st.Blk.Batch[sc.Start:sc.End]; !seen[string(enc)] {
						seen[string(enc)] = true
						states = append(states, Decode(nil, enc))
					}
				}
			}
			succs := 0
			b.ResetTimer()
			for b.Loop() {
				succs = 0
				for _, s := range states {
					st.Successors(s)
					succs += len(st.Blk.Succs)
				}
			}
			b.ReportMetric(float64(succs), "succs")
			b.ReportMetric(float64(len(states)), "states")
		})
	}
}
