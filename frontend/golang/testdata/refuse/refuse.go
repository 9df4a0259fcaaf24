// Package refuse has one type per construct outside the subset of Go
// that linbis translates (frontend/GO.md); each line that uses one says
// so in a `want` comment: the message's start, and the text at the
// reported column after @. The refusal tests load each type in turn.
package refuse

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

type Chan struct{ n int }

func (x *Chan) Make() {
	c := make(chan int, 1) // want "channel is not supported" @"("
	_ = c
}

type Send struct{ c *Chan }

func (x *Send) Go() {
	go x.c.Make() // want "go statement is not supported" @"go"
}

type Closure struct{ n int }

func (x *Closure) Inc() int {
	f := func() int { return x.n } // want "function literal is not supported" @"func"
	return f()
}

type Map struct{ n int }

func (x *Map) Put(k int) {
	m := make(map[int]int) // want "map is not supported" @"("
	m[k] = 1               // want "map update is not supported" @"[k]"
}

type Str struct{ n int }

func (x *Str) Len() int {
	s := fmt.Sprint(x.n) // want "call of fmt.Sprint is not supported" @"("
	return len(s)
}

type Float struct{ n int }

func (x *Float) Half() int {
	f := float64(x.n) / 2 // want "conversion from int to float64 is not supported" @"("
	return int(f)         // want "conversion from float64 to int is not supported" @"("
}

type Iface struct{ n int }

func (x *Iface) Str(s fmt.Stringer) { _ = s } // want "value of type fmt.Stringer is not supported" @"s"

func (x *Iface) Call() {
	var s fmt.Stringer
	x.Str(s)
}

type Rec struct{ n int }

func (x *Rec) Count(k int) int {
	if k <= 0 {
		return 0
	}
	return x.Count(k-1) + 1 // want "recursive call of Count is not supported" @"("
}

type DeferLoop struct{ mu sync.Mutex }

func (x *DeferLoop) Lock(k int) {
	for i := 0; i < k; i++ {
		x.mu.Lock()
		defer x.mu.Unlock() // want "defer inside a loop is not supported" @"defer"
	}
}

type Append struct{ s []int }

func (x *Append) Add(v int) {
	print(v) // want "built-in print here is not supported" @"("
}

// SliceExpr slices array fields in the ways the translation refuses (it
// slices them otherwise: TestIntsAreGo's Pane).
type SliceExpr struct {
	a    [3]int
	keep []int
}

// SliceMerge slices an array at an address merged from branches.
type SliceMerge struct{ rows [2][3]int }

func (x *SliceMerge) Row(i int) int {
	r := &x.rows[0] // want "keeping the address of a field, an element or a package variable is not supported" @"r :="
	if i > 0 {
		r = &x.rows[1]
	}
	s := r[:]
	return len(s)
}

func (x *SliceExpr) Grow(v int) int {
	s := x.a[:1]
	s = append(s, v) // want "append to a slice of an array field or a package array is not supported" @"("
	return len(s)
}

func (x *SliceExpr) Keep() {
	x.keep = x.a[1:] // want "storing a slice of an array field or a package array is not supported" @"keep"
}

func (x *SliceExpr) Merge(v int) int {
	s := x.a[:] // want "merging a slice of an array field or a package array with a slice of another array is not supported" @"["
	if v > 1 {
		s = make([]int, 2)
	}
	return s[0]
}

type AnyPtr struct{ p *int }

func (x *AnyPtr) Get() any {
	return x.p // want "conversion of *int to an interface is not supported"
}

type Assert struct{ v any }

func (x *Assert) Ptr() bool {
	_, ok := x.v.(*int) // want "type assertion to *int is not supported" @"("
	return ok
}

type IfaceEq struct{ a, b any }

func (x *IfaceEq) Same() bool {
	return x.a == x.b // want "comparison of two interface values is not supported" @"=="
}

type Addr struct {
	n int
	p *int
}

func (x *Addr) Keep() {
	x.p = &x.n
	keep = x.p
	kept.Store(x.p)
	raw = unsafe.Pointer(&x.n) // want "keeping the address of a field" @"("
}

var raw unsafe.Pointer

var keep *int

var kept atomic.Pointer[int]

type AddrCmp struct {
	n int
	p *int
}

func (x *AddrCmp) Same() bool {
	return &x.n == x.p // want "comparing the address of a field" @"=="
}

type Pool struct{ p sync.Pool }

func (x *Pool) Get() int {
	x.p.Put(1) // want "putting a value that is not a pointer into a sync.Pool is not supported" @"(1)"
	return 0
}

type Once struct{ o sync.Once } // want "field o of type sync.Once is not supported" @"o"

func (x *Once) Do() {}

type RangeMap struct{ n int }

func (x *RangeMap) Sum() int {
	t := 0
	for i := range "abc" { // want "range over a map or a string is not supported" @"for"
		t += i
	}
	return t
}

type Uintptr struct{ p *int }

func (x *Uintptr) Addr() uintptr {
	return uintptr(unsafe.Pointer(x.p)) // want "conversion from unsafe.Pointer to uintptr is not supported" @"("
}

type Select struct{ n int }

func (x *Select) Wait() {
	select {} // want "select statement is not supported" @"select"
}

// Panic's methods are inside the subset: panic with a constant message,
// a bounded defer, an any holding an integer.
type Panic struct {
	mu sync.Mutex
	v  any
}

func (x *Panic) Check(k int) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	if k > 1 {
		panic("too big")
	}
	x.v = k
	if n, ok := x.v.(int); ok {
		return n
	}
	return -1
}

// UnsafeAddr stores the address of a field as an unsafe.Pointer.
type UnsafeAddr struct {
	cur   unsafe.Pointer // *int
	slots [2]int
}

func (x *UnsafeAddr) Pick(v int) int {
	atomic.StorePointer(&x.cur, unsafe.Pointer(&x.slots[v%2])) // want "keeping the address of a field, an element or a package variable is not supported" @"("
	return *(*int)(atomic.LoadPointer(&x.cur))
}

type clashA = struct{ x int }

type clashB = struct{ x *clashA }

// UnsafeClash converts unsafe.Pointer to pointers to two types with a
// field of one name and different types.
type UnsafeClash struct{ p, q unsafe.Pointer }

func (x *UnsafeClash) Put(v int) int {
	a := &clashA{x: v}
	x.q = unsafe.Pointer(a)
	x.p = unsafe.Pointer(&clashB{x: a}) // want "unsafe.Pointer converted to pointers to types with a field x of different types" @"("
	return (*clashB)(x.p).x.x
}

type rslot = struct{ a, b int }

// AddrMulti returns the address of a struct element from a function
// with two return statements.
type AddrMulti struct{ slots [2]rslot }

func (x *AddrMulti) pick(i int) *rslot {
	if i > 1 {
		return &x.slots[1] // want "keeping the address of a field, an element or a package variable is not supported" @"return"
	}
	return &x.slots[0] // want "keeping the address of a field, an element or a package variable is not supported" @"return"
}

func (x *AddrMulti) Get(i int) int { return x.pick(i).b }

type vcfg = struct{ a int }

type vother = struct{ b, c int }

// ValuePtrs keeps pointers of two types in atomic.Values, and uses a
// loaded one otherwise than asserting its type.
type ValuePtrs struct{ v, w atomic.Value }

func (x *ValuePtrs) Put(i int) {
	x.v.Store(&vcfg{a: i})
	x.w.Store(&vother{b: i}) // want "atomic.Value holding pointers of two types" @"("
}

func (x *ValuePtrs) Get() any {
	return x.v.Load() // want "this use of an atomic.Value holding pointers is not supported" @"return"
}

type inode = struct {
	val  int
	next *int
}

// Intrusive keeps its stub node inside itself, as Vyukov's intrusive
// queue does in C.
type Intrusive struct {
	head atomic.Pointer[inode]
	stub inode
}

func (q *Intrusive) Reset() {
	q.head.Store(&q.stub) // want "keeping the address of a struct held in a field, an element or a package variable as a pointer" @"("
}
