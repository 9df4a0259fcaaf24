package ints

import (
	"sync/atomic"
	"unsafe"
)

type unode struct {
	val  int
	next unsafe.Pointer // *unode
}

type upair [2]int

// Boxes keeps pointers of three types in unsafe.Pointer fields: a node,
// an array and a boxed int, converted back and forth, compared with nil,
// passed to and returned by the package's functions.
type Boxes struct {
	p, arr, n unsafe.Pointer
}

func uget(p *unsafe.Pointer) unsafe.Pointer { return atomic.LoadPointer(p) }

func umk(v int, next unsafe.Pointer) unsafe.Pointer {
	return unsafe.Pointer(&unode{val: v, next: next})
}

// Push puts v on a list of nodes, its pair in arr, and counts in a box.
func (b *Boxes) Push(v int) int {
	old := uget(&b.p)
	atomic.CompareAndSwapPointer(&b.p, old, umk(v, old))
	atomic.StorePointer(&b.arr, unsafe.Pointer(&upair{v, 10 * v}))
	if b.n == nil {
		x := 0
		b.n = unsafe.Pointer(&x)
	}
	*(*int)(b.n) += v
	a := (*upair)(uget(&b.arr))
	return a[0] + a[1] + 100**(*int)(b.n)
}

// Sum adds up the list.
func (b *Boxes) Sum() int {
	s := 0
	for p := uget(&b.p); p != unsafe.Pointer(nil); p = (*unode)(p).next {
		s = 10*s + (*unode)(p).val
	}
	return s
}
