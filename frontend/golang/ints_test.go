package golang

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/golang/testdata/ints"
	"github.com/linbis/linbis/frontend/golang/testdata/list"
	"github.com/linbis/linbis/frontend/golang/testdata/more"
	"github.com/linbis/linbis/frontend/golang/testdata/slicestack"
	"github.com/linbis/linbis/lts"
)

// TestIntsAreGo holds the translation of Go's integers, struct copies and slices
// to Go itself: at one thread, every run of up to three operations of
// testdata/ints' Ints and Pairs (values 1 and 2) returns, at each step,
// what the methods return when Go runs the same calls from a new object. The runs are the paths of the
// translation's LTS; they cover wrap-around at every width (Add(^uint64(0))
// below zero, an int32 past its maximum, a uint8 and an int8), the
// bitwise operators and atomic And and Or, shifts by variable counts,
// unsigned division, remainder and order, and conversions; and copies of
// struct values (Pairs: nested, in arrays, through a function); an any
// holding integers of two types (Mixed: a type switch, an assertion with
// ok, nil); 64-bit values beyond 32 bits and -2^30, which the modeling
// language prints as EMPTY (Wide); arrays of arrays, a slice of arrays
// and the arrays of an array's structs indexed by variables (Grid);
// addresses of fields compared and kept in fields (Cursor); arrays the
// code allocates, sliced (Window); arrays it does not allocate, sliced
// (Pane: an array field, a nested one, a row, a *[4]int's node, a package
// array, through functions that merge and re-slice them);
// a ring under a spin lock of a named type over uint32, its indices
// uint32 counters (testdata/more's SpinRing); Vyukov's queue, its fields
// apart on cache lines (MPMC), and struct copies with padding (Padded); a
// striped counter (Striped); unsafe.Pointer converted to pointers of
// three types (Boxes); a helper that returns the address of a struct
// element, in a generic cache (Cache); an atomic.Value holding pointers
// (COW); slices under a mutex (testdata/slicestack: append, s[:n-1], s[1:], the
// array two slices share while its capacity allows, range, copy); sorted lists walked with a pointer to a link (testdata/list).
func TestIntsAreGo(t *testing.T) {
	for _, c := range []struct {
		dir, typ string
		new      func() any
	}{
		{"ints", "Ints", func() any { return ints.NewInts() }},
		{"ints", "Pairs", func() any { return new(ints.Pairs) }},
		{"ints", "Mixed", func() any { return new(ints.Mixed) }},
		{"ints", "Wide", func() any { return new(ints.Wide) }},
		{"ints", "Grid", func() any { return new(ints.Grid) }},
		{"ints", "Cursor", func() any { return new(ints.Cursor) }},
		{"ints", "Window", func() any { return new(ints.Window) }},
		{"ints", "Pane", func() any { ints.ResetPane(); return new(ints.Pane) }},
		{"slicestack", "Stack", func() any { return new(slicestack.Stack) }},
		{"slicestack", "Queue", func() any { return new(slicestack.Queue) }},
		{"slicestack", "Slices", func() any { return new(slicestack.Slices) }},
		{"slicestack", "Log", func() any { return new(slicestack.Log) }},
		{"slicestack", "Ring", func() any { return new(slicestack.Ring) }},
		{"slicestack", "Embedded", func() any { return new(slicestack.Embedded) }},
		{"list", "Set", func() any { return new(list.Set) }},
		{"list", "PushSet", func() any { return new(list.PushSet) }},
		{"list", "HarrisSet", func() any { return list.NewHarrisSet() }},
		{"more", "SpinRing", func() any { return new(more.SpinRing) }},
		{"more", "MPMC", func() any { return more.NewMPMC() }},
		{"more", "Striped", func() any { return new(more.Striped) }},
		{"ints", "Padded", func() any { return new(ints.Padded) }},
		{"ints", "Boxes", func() any { return new(ints.Boxes) }},
		{"ints", "Cache", func() any { return new(ints.Cache[int, int]) }},
		{"ints", "COW", func() any { return ints.NewCOW() }},
	} {
		t.Run(c.typ, func(t *testing.T) { sameAsGo(t, c.dir, c.typ, c.new) })
	}
}

// sameAsGo holds every run of up to three operations of testdata/dir's
// type typ at one thread to Go's results, on the objects newObj makes.
func sameAsGo(t *testing.T, dir, typ string, newObj func() any) {
	m := model(t, dir, Config{Type: typ})
	l, err := frontend.CompileImpl(m, frontend.Bounds{Threads: 1, Ops: 3, Values: []int{1, 2}}, frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rets := 0
	var walk func(s int32, path []string)
	walk = func(s int32, path []string) {
		for i := l.Out[s]; i < l.Out[s+1]; i++ {
			next := path
			if lab := l.Labels[l.Label[i]]; lab != lts.TauName {
				next = append(slices.Clip(path), lab)
				if strings.HasPrefix(lab, "ret(") {
					if want := replay(t, newObj(), next); lab != want {
						t.Fatalf("after %v: the model returns %s, Go %s", path, lab, want)
					}
					rets++
				}
			}
			walk(l.Dst[i], next)
		}
	}
	walk(l.Initial, nil)
	t.Logf("%d returns", rets)
	if rets < 12 {
		t.Errorf("%d returns checked, want every run of 3 operations", rets)
	}
}

// replay runs the calls of path (labels call(1,M,args)) on obj and
// returns the label of the last one's return as the model prints it.
func replay(t *testing.T, obj any, path []string) string {
	t.Helper()
	x := reflect.ValueOf(obj)
	var ret string
	for _, lab := range path {
		inner, ok := strings.CutPrefix(lab, "call(1,")
		if !ok {
			continue
		}
		fields := strings.Split(strings.TrimSuffix(inner, ")"), ",")
		meth := x.MethodByName(fields[0])
		var args []reflect.Value
		for _, a := range fields[1:] {
			v, err := strconv.Atoi(a)
			if err != nil {
				t.Fatalf("%s: %v", lab, err)
			}
			args = append(args, reflect.ValueOf(v))
		}
		var res []string
		for _, r := range meth.Call(args) {
			if r.Kind() == reflect.Interface && r.IsNil() {
				res = append(res, "nil") // as labels print a nil any
				continue
			}
			res = append(res, fmt.Sprint(r.Interface()))
		}
		ret = "ret(1," + strings.Join(append([]string{fields[0]}, res...), ",") + ")"
	}
	return ret
}
