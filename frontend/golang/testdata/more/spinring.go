package more

import (
	"runtime"
	"sync/atomic"
)

// SpinLock is a test-and-set lock whose type is named over uint32, and
// whose methods convert their receiver back ((*uint32)(l)).
type SpinLock uint32

// Lock spins until it takes the lock.
func (l *SpinLock) Lock() {
	for !atomic.CompareAndSwapUint32((*uint32)(l), 0, 1) {
		runtime.Gosched()
	}
}

// Unlock releases the lock.
func (l *SpinLock) Unlock() { atomic.StoreUint32((*uint32)(l), 0) }

const spinSize = 2

// SpinRing is a bounded queue in an array under a SpinLock, its uint32
// indices counting up and taken modulo the size. Linearizable, not
// lock-free.
type SpinRing struct {
	lock       SpinLock
	buf        [spinSize]int
	head, tail uint32
}

// Put appends v; false when full.
func (r *SpinRing) Put(v int) bool {
	r.lock.Lock()
	defer r.lock.Unlock()
	if r.tail-r.head == spinSize {
		return false
	}
	r.buf[r.tail%spinSize] = v
	r.tail++
	return true
}

// Get removes the oldest value.
func (r *SpinRing) Get() (int, bool) {
	r.lock.Lock()
	defer r.lock.Unlock()
	if r.tail == r.head {
		return 0, false
	}
	v := r.buf[r.head%spinSize]
	r.head++
	return v, true
}

// Sum adds up the values held, oldest first, from a copy taken under the
// lock.
func (r *SpinRing) Sum() int {
	r.lock.Lock()
	var tmp [spinSize]int
	n := copy(tmp[:], r.buf[:])
	h, t := r.head, r.tail
	r.lock.Unlock()
	s := 0
	for i := h; i != t; i++ {
		s = 10*s + tmp[i%uint32(n)]
	}
	return s
}
