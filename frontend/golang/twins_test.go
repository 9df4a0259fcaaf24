package golang

import (
	"regexp"
	"testing"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/lts"
)

// TestTwinsBisimilar: one program, two front ends. Each bundled model
// with a Go twin in testdata/twins is compiled from both, and the two
// implementation LTSs must be divergence-preserving branching bisimilar
// (the labels are the same: the twins keep the models' method names, and
// return -1<<30 where the models return EMPTY; twinsBisimilar), under two
// clients. msqueueboxed and treiberunsafe are the queue and the stack as
// Go code before atomic.Pointer writes them, unsafe.Pointer converted to
// the nodes' and the boxed values' pointer types. The sequence lock's
// twin keeps the model's one writer (only clauses) and its data in
// atomics, as Go's memory model needs.
func TestTwinsBisimilar(t *testing.T) {
	for _, c := range []struct {
		model, dir, typ string
	}{
		{"treiber", "twins/treiber", "Stack"},
		{"ms-queue", "twins/msqueue", "Queue"},
		{"spinlock-stack", "twins/spinlockstack", "Stack"},
		{"ms-queue", "twins/msqueueboxed", "Queue"},
		{"treiber", "twins/treiberunsafe", "Stack"},
		{"seqlock", "twins/seqlock", "SeqLock"},
	} {
		src, err := frontend.Example(c.model)
		if err != nil {
			t.Fatal(err)
		}
		lin, err := frontend.Parse(c.model+".lin", src)
		if err != nil {
			t.Fatal(err)
		}
		methods := []string{"push", "pop"}
		bounds := []frontend.Bounds{
			{Threads: 2, Ops: 2, Values: []int{1, 2}},
			{Threads: 3, Ops: 1, Values: []int{1}},
		}
		var only map[int][]string
		switch c.model {
		case "ms-queue":
			methods = []string{"enq", "deq"}
		case "seqlock": // one writer, as the model's client block says
			methods, only = []string{"write", "read"}, map[int][]string{1: {"write"}, 2: {"read"}}
			bounds = []frontend.Bounds{lin.DefaultBounds()}
		}
		golang := model(t, c.dir, Config{Type: c.typ, Methods: methods, Only: only})
		for _, b := range bounds {
			a, err := frontend.CompileImpl(lin, b, frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			g, err := frontend.CompileImpl(golang, b, frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			eq, err := twinsBisimilar(a, g)
			if err != nil {
				t.Fatal(err)
			}
			if !eq {
				t.Errorf("%s under %v: the .lin LTS (%d states) and the Go LTS (%d states) are not divergence-preserving branching bisimilar", c.model, b, a.NumStates, g.NumStates)
			} else {
				t.Logf("%s under %v: .lin %d states, Go %d states", c.model, b, a.NumStates, g.NumStates)
			}
		}
	}
}

// emptyNumber is how a Go integer result of -2^30 prints, which the
// modeling language prints as EMPTY.
var emptyNumber = regexp.MustCompile(`([(,])-1073741824\b`)

// twinsBisimilar reports whether a model's LTS lin and its Go twin's g
// are divergence-preserving branching bisimilar, g's results of -2^30
// read as EMPTY: the Go twins (and the random programs printed as Go)
// return -1<<30 where the model returns EMPTY, and a Go integer prints as
// a number. g's labels are renamed in place.
func twinsBisimilar(lin, g *lts.LTS) (bool, error) {
	for i, lab := range g.Labels {
		g.Labels[i] = emptyNumber.ReplaceAllString(lab, "${1}EMPTY")
	}
	cmp, err := bisim.Compare(lin, g, bisim.DivBranching, bisim.Options{})
	if err != nil {
		return false, err
	}
	return cmp.Equivalent, nil
}
