package ir

import (
	"fmt"
	"slices"

	"github.com/linbis/linbis/frontend/check"
)

// Layout fixes where everything lives in a state vector:
// [shared | thread 1 | … | thread n | node count | node 1 | node 2 | …],
// each thread being [pc, ops done, retval, locals…] and each node
// [heap type, freed, fields…] (fields padded to the widest heap type).
// A node's header holds only what can vary: the heap type only when the
// object has several heap types, the freed flag only in explicit memory
// mode (garbage-collected nodes are never freed). Shorter vectors are
// cheaper to copy, renumber, encode, hash and store.
type Layout struct {
	Nshared    int32 // the shared variables' slots, at the start of a state
	Threads    int32 // the number of threads, whose slots follow the shared ones
	ThreadSize int32 // the slots of one thread: TLocals and the most locals of a method
	HeapBase   int32 // index of the node count
	NodeSize   int32 // the slots of one node: header and the widest heap type's fields
	// Typed: a node's first slot is its heap type; else every node has
	// heap type 1, the only one.
	Typed bool
	// Explicit: explicit memory (no garbage collection; see Options).
	Explicit bool
	// FreedOff: the offset in a node of its freed flag, -1 if none.
	FreedOff int32
	// Hdr: the offset in a node of its first field.
	Hdr       int32
	RefShared []int32   // shared offsets holding references
	RefFields [][]int32 // per heap id: field indices holding references
	// RefOffs[h]: the offsets in a node of heap type h of its reference
	// fields.
	RefOffs [][]int32
	// Uniform: the offsets of the reference fields shared by every heap
	// type, or nil if they differ (then RefOffs by type).
	Uniform []int32
	Nfields []int32 // per heap id
	// FieldTypes[h]: the scalar type of each field slot of heap type h,
	// in slot order (a word field's components, an array field's
	// elements); nil at index 0.
	FieldTypes [][]check.Type
}

// The slots of a thread, from its base (Layout.ThreadBase): the program
// counter, the operations done, the return value, then the locals.
const (
	TPC     = 0
	TOps    = 1
	TRet    = 2
	TLocals = 3
)

// ThreadBase is the offset of thread t (from 0) in a state.
func (l *Layout) ThreadBase(t int) int32 { return l.Nshared + int32(t)*l.ThreadSize }

// NodeAddr is the offset of node id (from 1) in a state.
func (l *Layout) NodeAddr(id int32) int32 {
	return l.HeapBase + 1 + (id-1)*l.NodeSize
}

// refOffsets fills refOffs and uniform from refFields and hdr.
func (l *Layout) refOffsets() {
	for _, fs := range l.RefFields {
		offs := make([]int32, len(fs))
		for i, f := range fs {
			offs[i] = l.Hdr + f
		}
		l.RefOffs = append(l.RefOffs, offs)
	}
	if len(l.RefOffs) > 1 {
		l.Uniform = l.RefOffs[1]
		for _, offs := range l.RefOffs[2:] {
			if !slices.Equal(offs, l.Uniform) {
				l.Uniform = nil
				break
			}
		}
	}
}

// NodeRefOffsets returns the offsets of the reference fields of the node
// at address a of st.
func (l *Layout) NodeRefOffsets(st []int32, a int32) []int32 {
	if l.Uniform != nil {
		return l.Uniform
	}
	return l.RefOffs[st[a]]
}

// NodeType returns the heap type of the node at address a of st.
func (l *Layout) NodeType(st []int32, a int32) int32 {
	if l.Typed {
		return st[a]
	}
	return 1
}

// layShared places the shared variables at the start of the state vector,
// each array as its elements in row-major order (a [thread][n] array as
// its threads' rows of n elements, thread 1 first), each word as its
// fields in order.
func (c *compiler) layShared(vars []*check.Var) error {
	lay := &c.prog.Layout
	c.sharedOff = make([]int32, len(vars))
	c.sharedLo = make([]int32, len(vars))
	c.sharedLen = make([]int32, len(vars))
	c.plainLen = make([]int32, len(vars))
	c.prog.SharedSlots = make([]int32, len(vars))
	var n int32
	for i, v := range vars {
		c.sharedOff[i] = n
		c.plainLen[i] = 1
		if v.Len != nil {
			hi, err := c.constEval(v.Len)
			if err != nil {
				return err
			}
			lo := int32(0)
			if v.LenLo != nil {
				if lo, err = c.constEval(v.LenLo); err != nil {
					return err
				}
				hi = hi - lo + 1
			}
			if hi < 1 || hi > 1024 {
				return c.errAt(v.Len.Start(), fmt.Sprintf("array %s has %d elements; it needs between 1 and 1024", v.Name, hi))
			}
			c.sharedLo[i], c.plainLen[i] = lo, hi
		}
		c.sharedLen[i] = c.plainLen[i]
		for range v.ThreadDims {
			c.sharedLen[i] *= int32(c.prog.Threads)
		}
		if c.sharedLen[i] > 1024 {
			return c.errAt(v.Pos, fmt.Sprintf("array %s has %d elements; it needs between 1 and 1024", v.Name, c.sharedLen[i]))
		}
		comps := v.Type.Components()
		if v.ThreadDims > 0 {
			c.prog.ThreadArrays = append(c.prog.ThreadArrays, ThreadArray{Off: n, RowLen: c.sharedLen[i] / int32(c.prog.Threads) * int32(len(comps)), Square: v.ThreadDims == 2})
		}
		for k := int32(0); k < c.sharedLen[i]; k++ {
			for j, ct := range comps {
				if ct.Kind == check.Ref {
					lay.RefShared = append(lay.RefShared, n+k*int32(len(comps))+int32(j))
				}
			}
		}
		c.prog.SharedSlots[i] = c.sharedLen[i] * int32(len(comps))
		n += c.prog.SharedSlots[i]
	}
	lay.Nshared = n
	return nil
}

// shared returns a shared variable's offset, and the lowest index and
// length of its ordinary dimension (0 and 1 if it has none).
func (c *compiler) shared(v *check.Var) (off, lo, length int32) {
	return c.sharedOff[v.Index], c.sharedLo[v.Index], c.plainLen[v.Index]
}

// ThreadArray is a shared array with [thread] dimensions: threads rows of
// rowLen slots from off; square: the second dimension is a [thread] one
// too (rowLen = threads), so a permutation moves columns as well.
type ThreadArray struct {
	Off    int32 // the array's first slot in a state
	RowLen int32 // the slots of one thread's row
	Square bool  // both dimensions are [thread] ones
}

// layHeap fixes the layout of a node: its header, then its fields, padded
// to the widest heap type.
func (l *Layout) layHeap(heaps []*check.Heap, explicit bool) {
	maxFields := int32(0)
	l.RefFields = make([][]int32, len(heaps)+1)
	l.Nfields = make([]int32, len(heaps)+1)
	l.FieldTypes = make([][]check.Type, len(heaps)+1)
	for _, h := range heaps {
		// A word field takes one slot per field of its word.
		for _, f := range h.Fields {
			comps := f.Type.Components()
			for e := range max(f.Elems, 1) { // an array field: each element
				for j, ct := range comps {
					l.FieldTypes[h.ID] = append(l.FieldTypes[h.ID], ct)
					if ct.Kind == check.Ref {
						l.RefFields[h.ID] = append(l.RefFields[h.ID], int32(f.Index+e*len(comps)+j))
					}
				}
			}
		}
		l.Nfields[h.ID] = int32(len(l.FieldTypes[h.ID]))
		maxFields = max(maxFields, l.Nfields[h.ID])
	}
	l.Typed = len(heaps) > 1
	l.FreedOff = -1
	if l.Typed {
		l.Hdr++
	}
	l.Explicit = explicit
	if explicit {
		l.FreedOff = l.Hdr
		l.Hdr++
	}
	l.NodeSize = l.Hdr + maxFields
	l.refOffsets()
}

// layThreads places the threads after the shared variables, each with
// room for the largest method's locals, and the heap after them.
func (l *Layout) layThreads(threads, maxLocals int) {
	l.Threads = int32(threads)
	l.ThreadSize = TLocals + int32(maxLocals)
	l.HeapBase = l.Nshared + int32(threads)*l.ThreadSize
}

// initialState returns the state vector before the init block runs: the
// shared variables at their declared initial values, every thread idle,
// the heap empty.
func (c *compiler) initialState(vars []*check.Var) ([]int32, error) {
	st := make([]int32, c.prog.Layout.HeapBase+1)
	for i, v := range vars {
		if v.Init == nil {
			continue
		}
		if v.Type.Kind == check.Word {
			if err := c.initWord(st, v, i); err != nil {
				return nil, err
			}
			continue
		}
		val, err := c.constEval(v.Init)
		if err != nil {
			return nil, err
		}
		for k := int32(0); k < c.sharedLen[i]; k++ {
			st[c.sharedOff[i]+k] = val
		}
		if v.Type.HasRange && (int64(val) < v.Type.Lo || int64(val) > v.Type.Hi) {
			return nil, c.errAt(v.Init.Start(), fmt.Sprintf("initial value %d of %s is outside %s", val, v.Name, v.Type))
		}
	}
	return st, nil
}
