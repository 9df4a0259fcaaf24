// Package ctor has the constructor forms the Go front end recognises,
// for its tests.
package ctor

import "sync/atomic"

// Ring is a bounded ring whose capacity its constructor takes.
type Ring struct {
	buf  []int
	head atomic.Int32
}

// NewRing returns a ring of n slots.
func NewRing(n int) *Ring { return &Ring{buf: make([]int, n)} }

// Put stores v in the head slot.
func (r *Ring) Put(v int) { r.buf[r.head.Load()] = v }

// Box is made by New.
type Box struct{ v atomic.Int64 }

// New returns a box holding 1.
func New() *Box {
	b := &Box{}
	b.v.Store(1)
	return b
}

// Get returns the value.
func (b *Box) Get() int64 { return b.v.Load() }

// Set stores v.
func (b *Box) Set(v int64) { b.v.Store(v) }

func (b *Box) reset() { b.v.Store(0) }

// Name takes a string: the client cannot call it.
func (b *Box) Name(s string) int { return len(s) }

// Plain has no constructor: its zero value is used.
type Plain struct{ n atomic.Uint32 }

// Inc adds one.
func (p *Plain) Inc() uint32 { return p.n.Add(1) }

// Gen is generic and so is its constructor.
type Gen[T any] struct{ v atomic.Pointer[T] }

// NewGen returns an empty Gen.
func NewGen[T any]() *Gen[T] { return &Gen[T]{} }

// Empty tells whether nothing is stored.
func (g *Gen[T]) Empty() bool { return g.v.Load() == nil }

// Pair has two type parameters.
type Pair[K comparable, V any] struct{ k atomic.Pointer[K] }

// Has reports whether a key is stored.
func (p *Pair[K, V]) Has() bool { return p.k.Load() != nil }

// NotStruct is not a struct.
type NotStruct int
