// Package ints uses Go's integer types at their widths: wrap-around,
// the bitwise operators and shifts, unsigned division and order,
// conversions, atomic And and Or (frontend/GO.md). TestIntsAreGo holds
// the translation's results to the methods' own, run by Go.
package ints

import (
	"math"
	"sync"
	"sync/atomic"
)

// Ints holds integers of every width near the edges of their ranges.
type Ints struct {
	u64  atomic.Uint64
	u32  atomic.Uint32
	bits atomic.Uint32
	mu   sync.Mutex
	i32  int32
	u8   uint8
	i8   int8
	n    uint
	m    uint64
}

// NewInts starts the integers near their edges.
func NewInts() *Ints {
	x := &Ints{i32: math.MaxInt32 - 1, u8: 250, i8: 126}
	x.bits.Store(0xF0F0F0F0)
	return x
}

// Dec decrements the uint64 by adding ^uint64(0): below zero it wraps to
// 2^64-1.
func (x *Ints) Dec() uint64 { return x.u64.Add(^uint64(0)) }

// Dec32 decrements the uint32 likewise.
func (x *Ints) Dec32() uint32 { return x.u32.Add(^uint32(0)) }

// Max returns the largest uint64 less v.
func (x *Ints) Max(v int) uint64 { return ^uint64(0) - uint64(v) }

// Bump adds v to the int32, which wraps past its maximum.
func (x *Ints) Bump(v int) int32 {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.i32 += int32(v)
	return x.i32
}

// Byte adds to the uint8 and the int8, which wrap.
func (x *Ints) Byte(v int) (uint8, int8) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.u8 += uint8(v) * 3
	x.i8 += int8(v)
	return x.u8, x.i8
}

// Mask sets bit v and clears bit 4 of the bits, atomically, and returns
// the old bits with their halves swapped.
func (x *Ints) Mask(v int) uint32 {
	old := x.bits.Or(1 << uint(v))
	atomic.OrUint64(&x.m, 1<<v)
	x.bits.And(^uint32(1 << 4))
	return old>>16 | old<<16&^0xFF
}

// Shift shifts signed and unsigned values right and left.
func (x *Ints) Shift(v int) int64 {
	s := int64(-1000) >> v
	u := uint16(0xFFFF) << (v * 7)
	return s*100000 + int64(u) ^ 0x5
}

// Div divides the wrapped uint32 unsigned and a negative int32 signed.
func (x *Ints) Div(v int) uint32 {
	u := x.u32.Load()
	r := int32(-7) % int32(v+1)
	return u/uint32(v+1) + uint32(r) + u%7
}

// Less compares the wrapped uint64 unsigned.
func (x *Ints) Less() bool { return x.u64.Load() < 5 && min(x.u64.Load(), 3) == 3 }

// Conv truncates and extends.
func (x *Ints) Conv(v int) int64 {
	w := int32(v)*1000000007 + x.i32
	x.n = uint(x.n<<3) + uint(v)
	return int64(int8(w)) + int64(uint16(w)) + int64(w) - int64(x.n)
}

type pair struct {
	x, y int8
	in   struct{ z uint16 }
}

// Pairs copies struct values: whole fields, array elements, values
// returned by functions, field by field as Go does.
type Pairs struct {
	a, b pair
	arr  [2]pair
}

func swapped(p pair) pair { return pair{x: p.y, y: p.x, in: p.in} }

// Set builds a pair from v and copies it around.
func (s *Pairs) Set(v int) int {
	s.b = pair{x: int8(v), y: int8(v * 50)}
	s.b.in.z = uint16(v) * 40000
	s.arr[v%2] = s.b
	s.a = swapped(s.arr[1])
	return int(s.a.x) + int(s.a.y)
}

func (s *Pairs) choose(v int) pair {
	if v > 1 {
		return s.b
	}
	return s.arr[0]
}

// Pick copies a pair chosen by a function of several blocks.
func (s *Pairs) Pick(v int) int {
	p := s.choose(v)
	return int(p.x)*10 + int(p.y) + int(p.in.z)
}

// Get reads a copy.
func (s *Pairs) Get() int {
	p := s.a
	q := s.arr[0]
	return int(p.x)*1000 + int(p.y) + int(q.in.z) + int(p.in.z)
}

// Mixed holds integers of several types in an any.
type Mixed struct {
	mu sync.Mutex
	v  any
}

// PutInt stores an int.
func (m *Mixed) PutInt(v int) {
	m.mu.Lock()
	m.v = v
	m.mu.Unlock()
}

// PutByte stores a uint8 that wraps.
func (m *Mixed) PutByte(v int) {
	m.mu.Lock()
	m.v = uint8(v + 254)
	m.mu.Unlock()
}

// Kind tells the type and the value of what is stored.
func (m *Mixed) Kind() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch x := m.v.(type) {
	case int:
		return x
	case uint8:
		return 1000 + int(x)
	case nil:
		return -1
	}
	return -2
}

// Get returns what is stored.
func (m *Mixed) Get() any {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b, ok := m.v.(uint8); ok {
		return b + 1
	}
	return m.v
}

// Wide holds 64-bit integers beyond 32 bits (held as codes, package
// intop) and returns -2^30, which the modeling language calls EMPTY.
type Wide struct {
	w   atomic.Uint64 // a version above a 32-bit index
	n   atomic.Uint32
	mu  sync.Mutex
	i64 int64
}

// Bump adds v to the index and one to the version, packed in one word as
// lock-free code packs them against ABA.
func (x *Wide) Bump(v int) uint64 {
	for {
		old := x.w.Load()
		next := (old>>32+1)<<32 | uint64(uint32(old)+uint32(v))
		if x.w.CompareAndSwap(old, next) {
			return next
		}
	}
}

// Scale multiplies the int64 by v and subtracts a third of its maximum.
func (x *Wide) Scale(v int) int64 {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.i64 = x.i64*int64(v) - math.MaxInt64/3
	return x.i64
}

// Below compares the int64 with -2^40 * v.
func (x *Wide) Below(v int) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.i64 < -1<<40*int64(v)
}

// Widen decrements the uint32 below zero and widens it to 2^32-1.
func (x *Wide) Widen() uint64 { return uint64(x.n.Add(^uint32(0))) }

// Quarter returns -2^30 (v = 1) or -2^29.
func (x *Wide) Quarter(v int) int32 { return int32(v-3) << 29 }

// Empty returns the constant -2^30.
func (x *Wide) Empty() int { return -1 << 30 }

// Grid holds arrays of arrays, a slice of arrays and an array of structs
// holding arrays, indexed by variables.
type Grid struct {
	mu   sync.Mutex
	g    [3][2]int8
	rows [][2]int
	cell [2]struct {
		a [2]uint16
		n int
	}
}

// Put adds to row v, column v-1, copies into another row and returns a
// sum of elements.
func (x *Grid) Put(v int) int8 {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.g[v][v-1] += int8(v) * 50
	x.g[v-1][1] = x.g[v][0] - 1
	return x.g[v][0] + x.g[v-1][v-1]
}

// Row appends a row to the slice, increments an element of it and reads
// two elements.
func (x *Grid) Row(v int) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.rows = append(x.rows, [2]int{v, 2 * v})
	x.rows[len(x.rows)-1][v-1]++
	n := len(x.rows)
	return x.rows[n-1][v-1]*10 + x.rows[n/2][2-v]
}

// Cell updates the arrays of the structs in an array.
func (x *Grid) Cell(v int) uint16 {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.cell[v-1].a[2-v] += uint16(v)
	x.cell[2-v].n++
	return x.cell[v-1].a[v-1]*100 + uint16(x.cell[2-v].n)
}

// Cursor points into its slots, compares the pointer with the slots'
// addresses, and keeps it in a field.
type Cursor struct {
	mu   sync.Mutex
	slot [3]int
	last *int
	prev struct{ at *int }
	cur  atomic.Pointer[int]
}

// Step adds v to slot 0 or 1, chosen by a pointer, tells by the
// pointer's address which it was, and keeps the pointer.
func (c *Cursor) Step(v int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := &c.slot[0]
	if v > 1 {
		p = &c.slot[1]
	}
	*p += v
	c.prev.at, c.last = c.last, p
	if p == &c.slot[0] {
		return *p
	}
	if p != &c.slot[2] && p != nil {
		return -*p
	}
	return 0
}

// Back adds v through the pointer kept before the last, if any, and
// returns the slot's value, or tells how the last compares.
func (c *Cursor) Back(v int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if q := c.prev.at; q != nil {
		*q += v * 10
		if q == c.last {
			return *q + 1000
		}
		return *q
	}
	if c.last == &c.slot[1] {
		return -1
	}
	if c.last == nil {
		c.prev = struct{ at *int }{}
		return -2
	}
	c.prev.at = &c.slot[2]
	return -3
}

// Window slices arrays it allocates, a local one and a new one, and
// keeps a slice of the new one.
type Window struct {
	mu  sync.Mutex
	buf []int
}

// Fill slices a local array and appends within its capacity (which
// writes into the array, as in Go), then slices a new array and keeps it.
func (w *Window) Fill(v int) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	var a [4]int
	a[0] = v
	s := a[1:2]
	s[0] = 10 * v
	s = append(s, 7)
	a[3] = len(s)
	if w.buf != nil {
		w.buf[0] += v
	}
	p := new([3]int)
	w.buf = p[v-1:]
	w.buf[len(w.buf)-1] = a[0] + a[1] + a[2] + a[3]
	return a[2]*100 + a[3] + cap(w.buf)*1000 + cap(a[:2:3])*10000
}

// Sum adds up the kept slice.
func (w *Window) Sum() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	sum := 0
	for _, x := range w.buf {
		sum += x
	}
	return sum + len(w.buf)*1000
}

// pick returns the address of slot 0 or 1.
func (c *Cursor) pick(v int) *int {
	if v > 1 {
		return &c.slot[1]
	}
	return &c.slot[0]
}

// picked is the slot Pick picked last, a package variable holding an
// address.
var picked *int

// third returns the address of slot 2 and the value of slot 1.
func third(c *Cursor) (*int, int) { return &c.slot[2], c.slot[1] }

// Pick adds v through the addresses the helpers return, keeps one, and
// compares them.
func (c *Cursor) Pick(v int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pick(v)
	q, n := third(c)
	*p += v
	*q += n
	c.last = q
	picked = p
	*picked += 1000
	if p == c.pick(1) {
		return *p + *q*100
	}
	return -*p - *q*100
}

// Swing keeps the address of slot v-1 (an element chosen by a variable
// index) in an atomic.Pointer, moves it on from slot 1 to slot 2 with a
// CompareAndSwap, and adds through the addresses it held.
func (c *Cursor) Swing(v int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.cur.Swap(&c.slot[v-1])
	n := 0
	if old != nil {
		*old += 5
		n = *old
	}
	if c.cur.CompareAndSwap(&c.slot[1], &c.slot[2]) {
		n += 100
	}
	p := c.cur.Load()
	*p += v
	return n*1000 + *p
}

// Pane slices arrays that the code does not allocate: an array field, the
// array of a nested struct, a row of an array of arrays, the node a
// *[4]int refers to and a package array; it slices the slices again,
// ranges over them, copies between them and passes them to the package's
// functions, which return them and merge them.
type Pane struct {
	mu   sync.Mutex
	buf  [4]int
	in   struct{ arr [3]int }
	grid [2][3]int
	box  *[4]int
	n    int
}

// paneLog is a package array that Pane's methods write.
var paneLog [5]int

// ResetPane zeroes paneLog (for tests that run Pane's methods on a new
// object each time).
func ResetPane() { paneLog = [5]int{} }

// window returns b[lo:], or nil when lo is past b's end: its result
// merges the two.
func window(b []int, lo int) []int {
	if lo >= len(b) {
		return nil
	}
	return b[lo:]
}

// total adds up s, which it slices as it goes.
func total(s []int) int {
	t := 0
	for len(s) > 0 {
		t += s[0]
		s = s[1:]
	}
	return t
}

// Put writes v into buf and the package array through slices of them.
func (p *Pane) Put(v int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.buf[:]
	s[p.n%4] += v
	p.n++
	w := p.buf[1:3]
	w[1] = w[0] + v
	paneLog[p.n%5] = v
	g := paneLog[1:]
	g[0] += 10 * v
	return total(window(p.buf[:], v)) + 10000*len(window(w, 5))
}

// Mix copies between slices of the arrays and writes through them.
func (p *Pane) Mix(v int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := copy(p.in.arr[:], p.buf[p.n%2:])
	row := p.grid[1][:]
	row[v] = k + v
	if p.box == nil {
		p.box = new([4]int)
	}
	bx := p.box[:2]
	bx[1] += v
	h := make([]int, 3)
	copy(h, paneLog[2:])
	copy(paneLog[3:], h[:1])
	return 100*total(p.in.arr[:]) + h[0]*1000000
}

// Sum adds up buf and the package array through slices of them.
func (p *Pane) Sum() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := total(p.buf[:]) + 7*total(paneLog[:])
	var s []int
	if t%2 == 0 {
		s = p.buf[1:]
	} else {
		s = p.buf[2:]
	}
	for i, x := range s {
		t += (i + 1) * x * 1000
	}
	return t
}

// Row writes through a slice of a row of grid chosen by v and adds it up.
func (p *Pane) Row(v int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.grid[v-1][1:]
	r[v-1] += v
	return total(r) + 100*len(r) + 1000*cap(r)
}

// Peek adds up the other arrays through slices of them.
func (p *Pane) Peek() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := 13*total(p.grid[1][1:]) + 17*total(p.in.arr[:2:3])
	if p.box != nil {
		t += 19 * total(p.box[:])
	}
	return t
}

// padded has blank padding fields, which copies skip, and a blank
// marker of a type outside the subset (_ [0]func(), which makes the
// struct not comparable).
type padded struct {
	a int
	_ [8]byte
	b int
	_ [8]byte
	_ [0]func()
}

// Padded copies structs with padding fields.
type Padded struct {
	mu   sync.Mutex
	x, y padded
}

// Set adds v to x.b, copies x to y and into a local, and returns their
// fields.
func (p *Padded) Set(v int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.x.b += v
	p.y = p.x
	c := p.y
	c.a = v
	return c.a*10 + c.b + p.y.b*100
}
