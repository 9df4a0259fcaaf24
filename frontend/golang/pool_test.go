package golang

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/verify"
)

// TestPoolGet: a pool's Get returns nothing (a pool may drop or miss any
// object), the object just put, or one put earlier and not yet taken:
// at one thread, two calls of Recycler.Cycle (values 1, 2) return 0 and
// 1, and in the second call 3 or 4 (the first call's item, left in the
// pool when its Get took nothing), and nothing else.
func TestPoolGet(t *testing.T) {
	m := model(t, "poolstack", Config{Type: "Recycler"})
	l, err := frontend.CompileImpl(m, frontend.Bounds{Threads: 1, Ops: 2, Values: []int{1, 2}}, frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, name := range l.Labels {
		if r, ok := strings.CutPrefix(name, "ret(1,Cycle,"); ok {
			got = append(got, strings.TrimSuffix(r, ")"))
		}
	}
	slices.Sort(got)
	if want := []string{"0", "1", "3", "4"}; !slices.Equal(got, want) {
		t.Errorf("Cycle returns %v, want %v", got, want)
	}
}

// TestPoolRecycling: Treiber's stack recycling its nodes through a
// sync.Pool (testdata/poolstack) has a data race at 2 threads × 2
// operations with plain fields (a pop reads the next field of a node a
// push took from the pool and writes), and with atomic fields (a package
// pool without New, or a pool field whose New the constructor sets) is
// linearizable at 2 × 2 but not at 2 × 3, where a pop's CAS meets a node
// popped, recycled and pushed again (ABA); lock-free either way. The
// generic stack whose constructor sets its pool's New and whose pops clear
// a node before they put it back (GenStack) has a data race on the cleared
// field.
func TestPoolRecycling(t *testing.T) {
	m := model(t, "poolstack", Config{Type: "Stack"})
	_, err := verify.Run(context.Background(), "poolstack", m, frontend.Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}, verify.Options{})
	var me *frontend.ModelError
	if !errors.As(err, &me) || !me.Race || !strings.Contains(me.Error(), "next := old.next") {
		t.Errorf("Stack: %v, want a data race on the recycled node's next field", err)
	}
	m = model(t, "poolstack", Config{Type: "GenStack"})
	_, err = verify.Run(context.Background(), "poolstack", m, frontend.Bounds{Threads: 2, Ops: 2, Values: []int{1, 2}}, verify.Options{})
	if !errors.As(err, &me) || !me.Race || !strings.Contains(me.Error(), "old.next, old.val = nil, zero") {
		t.Errorf("GenStack: %v, want a data race on the cleared node's next field", err)
	}
	for _, typ := range []string{"AtomicStack", "FieldStack"} {
		m = model(t, "poolstack", Config{Type: typ})
		for _, c := range []struct {
			ops int
			lin verify.Verdict
		}{{2, verify.Yes}, {3, verify.No}} {
			out, err := verify.Run(context.Background(), "poolstack", m, frontend.Bounds{Threads: 2, Ops: c.ops, Values: []int{1, 2}}, verify.Options{})
			if err != nil {
				t.Fatalf("%s at 2 × %d: %v", typ, c.ops, err)
			}
			if r := out.Report; r.Linearizable != c.lin || r.LockFree != verify.Yes {
				t.Errorf("%s at 2 × %d: linearizable %v, lock-free %v; want %v, yes", typ, c.ops, r.Linearizable, r.LockFree, c.lin)
			}
		}
	}
}
