// Package subset has one type per group of constructs inside the subset
// of Go that linbis translates (frontend/GO.md); the tests load each.
package subset

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Arrays uses an array of constant length, len, cap, min and max.
type Arrays struct {
	slots [4]atomic.Int32
	plain [3]int
}

// Put stores v in slot i mod the length.
func (a *Arrays) Put(i, v int) int {
	k := min(max(i, 0), len(a.slots)-1)
	a.slots[k].Store(int32(v))
	a.plain[i%cap(a.plain)] = v
	return k
}

var hits atomic.Int64

var limit = 3

// Globals uses package variables.
type Globals struct{ n int }

// Hit counts a hit, up to limit.
func (g *Globals) Hit() bool {
	if hits.Load() >= int64(limit) {
		return false
	}
	hits.Add(1)
	return true
}

// Flow uses switch, goto, labelled loops, runtime.Gosched, a deferred call
// of the package's function, several results.
type Flow struct {
	mu sync.RWMutex
	n  uint8
}

func (f *Flow) done() { f.mu.Unlock() }

func split(v int) (int, bool) { return v / 2, v%2 == 0 }

// Step runs them.
func (f *Flow) Step(v int) (int, bool) {
	f.mu.Lock()
	defer f.done()
	switch {
	case v > 2:
		goto out
	case v == 1:
		runtime.Gosched()
	}
outer:
	for i := 0; i < 3; i++ {
		for j := range 2 {
			if i+j == v {
				break outer
			}
			if j == 0 {
				continue outer
			}
		}
	}
	f.n-- // wraps around
out:
	return split(v)
}

// Read takes the read lock.
func (f *Flow) Read() uint8 {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.n
}

// Any holds integers in an any and an atomic.Value.
type Any struct {
	v  any
	av atomic.Value
}

// Swap stores v and returns the previous value.
func (a *Any) Swap(v any) any {
	old := a.av.Swap(v)
	if old == nil {
		return nil
	}
	if n, ok := old.(int); ok {
		a.v = n + 1
	}
	return old
}

// Unsafe converts between unsafe.Pointer and pointers, with the address of
// a field passed to a function of the package.
type Unsafe struct {
	p *Unsafe
	n atomic.Uint64
}

func bump(n *atomic.Uint64) uint64 { return n.Add(^uint64(0)) }

// Dec decrements with wrap-around.
func (u *Unsafe) Dec() uint64 { return bump(&u.n) }

// Quarter stores -2^30 in an any of one integer type, which the model
// holds as nil: a model error.
type Quarter struct {
	mu  sync.Mutex
	box any
}

// Hold stores -2^30 (v = 1) or -2^29 and returns what the box held.
func (x *Quarter) Hold(v int) any {
	x.mu.Lock()
	defer x.mu.Unlock()
	old := x.box
	x.box = (v - 3) << 29
	return old
}

// Box holds an any behind a mutex: Put stores an integer, Take returns it
// and leaves nil.
type Box struct {
	mu sync.Mutex
	v  any
}

// Put stores v.
func (b *Box) Put(v int) {
	b.mu.Lock()
	b.v = v
	b.mu.Unlock()
}

// Take returns the value, nil if none, and empties the box.
func (b *Box) Take() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	v := b.v
	b.v = nil
	return v
}

// MixedValue stores integers of two types in an atomic.Value, whose Store
// panics on a value of another type than the one it holds: refused.
type MixedValue struct{ v atomic.Value }

// Put stores v as an int or a uint8.
func (m *MixedValue) Put(v int) {
	if v > 1 {
		m.v.Store(v)
		return
	}
	m.v.Store(uint8(v))
}
