package explore

import (
	"fmt"
	"slices"

	"github.com/linbis/linbis/frontend/check"
)

// layout fixes where everything lives in a state vector:
// [shared | thread 1 | … | thread n | node count | node 1 | node 2 | …],
// each thread being [pc, ops done, retval, locals…] and each node
// [heap type, freed, fields…] (fields padded to the widest heap type).
// A node's header holds only what can vary: the heap type only when the
// object has several heap types, the freed flag only in explicit memory
// mode (garbage-collected nodes are never freed). Shorter vectors are
// cheaper to copy, renumber, encode, hash and store.
type layout struct {
	nshared    int32
	threads    int32
	threadSize int32
	heapBase   int32 // index of the node count
	nodeSize   int32
	// typed: a node's first slot is its heap type; else every node has
	// heap type 1, the only one.
	typed bool
	// explicit: explicit memory (no garbage collection; see Options).
	explicit bool
	// freedOff: the offset in a node of its freed flag, -1 if none.
	freedOff int32
	// hdr: the offset in a node of its first field.
	hdr       int32
	refShared []int32   // shared offsets holding references
	refFields [][]int32 // per heap id: field indices holding references
	// refOffs[h]: the offsets in a node of heap type h of its reference
	// fields; uniform: the offsets shared by every heap type, or nil if
	// they differ (then refOffs by type).
	refOffs    [][]int32
	uniform    []int32
	nfields    []int32 // per heap id
	fieldTypes [][]check.Type
}

const (
	tPC     = 0
	tOps    = 1
	tRet    = 2
	tLocals = 3
)

func (l *layout) threadBase(t int) int32 { return l.nshared + int32(t)*l.threadSize }
func (l *layout) nodeAddr(id int32) int32 {
	return l.heapBase + 1 + (id-1)*l.nodeSize
}

// refOffsets fills refOffs and uniform from refFields and hdr.
func (l *layout) refOffsets() {
	for _, fs := range l.refFields {
		offs := make([]int32, len(fs))
		for i, f := range fs {
			offs[i] = l.hdr + f
		}
		l.refOffs = append(l.refOffs, offs)
	}
	if len(l.refOffs) > 1 {
		l.uniform = l.refOffs[1]
		for _, offs := range l.refOffs[2:] {
			if !slices.Equal(offs, l.uniform) {
				l.uniform = nil
				break
			}
		}
	}
}

// nodeRefOffsets returns the offsets of the reference fields of the node
// at address a of st.
func (l *layout) nodeRefOffsets(st []int32, a int32) []int32 {
	if l.uniform != nil {
		return l.uniform
	}
	return l.refOffs[st[a]]
}

// nodeType returns the heap type of the node at address a of st.
func (l *layout) nodeType(st []int32, a int32) int32 {
	if l.typed {
		return st[a]
	}
	return 1
}

// layShared places the shared variables at the start of the state vector,
// each array as its elements in row-major order (a [thread][n] array as
// its threads' rows of n elements, thread 1 first), each word as its
// fields in order.
func (c *compiler) layShared(vars []*check.Var) error {
	lay := &c.prog.lay
	c.sharedOff = make([]int32, len(vars))
	c.sharedLo = make([]int32, len(vars))
	c.sharedLen = make([]int32, len(vars))
	c.plainLen = make([]int32, len(vars))
	c.prog.sharedSlots = make([]int32, len(vars))
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
			c.sharedLen[i] *= int32(c.prog.threads)
		}
		if c.sharedLen[i] > 1024 {
			return c.errAt(v.Pos, fmt.Sprintf("array %s has %d elements; it needs between 1 and 1024", v.Name, c.sharedLen[i]))
		}
		comps := v.Type.Components()
		if v.ThreadDims > 0 {
			c.prog.threadArrays = append(c.prog.threadArrays, threadArray{off: n, rowLen: c.sharedLen[i] / int32(c.prog.threads) * int32(len(comps)), square: v.ThreadDims == 2})
		}
		for k := int32(0); k < c.sharedLen[i]; k++ {
			for j, ct := range comps {
				if ct.Kind == check.Ref {
					lay.refShared = append(lay.refShared, n+k*int32(len(comps))+int32(j))
				}
			}
		}
		c.prog.sharedSlots[i] = c.sharedLen[i] * int32(len(comps))
		n += c.prog.sharedSlots[i]
	}
	lay.nshared = n
	return nil
}

// shared returns a shared variable's offset, and the lowest index and
// length of its ordinary dimension (0 and 1 if it has none).
func (c *compiler) shared(v *check.Var) (off, lo, length int32) {
	return c.sharedOff[v.Index], c.sharedLo[v.Index], c.plainLen[v.Index]
}

// threadArray is a shared array with [thread] dimensions: threads rows of
// rowLen slots from off; square: the second dimension is a [thread] one
// too (rowLen = threads), so a permutation moves columns as well.
type threadArray struct {
	off, rowLen int32
	square      bool
}

// layHeap fixes the layout of a node: its header, then its fields, padded
// to the widest heap type.
func (l *layout) layHeap(heaps []*check.Heap, explicit bool) {
	maxFields := int32(0)
	l.refFields = make([][]int32, len(heaps)+1)
	l.nfields = make([]int32, len(heaps)+1)
	l.fieldTypes = make([][]check.Type, len(heaps)+1)
	for _, h := range heaps {
		// A word field takes one slot per field of its word.
		for _, f := range h.Fields {
			for j, ct := range f.Type.Components() {
				l.fieldTypes[h.ID] = append(l.fieldTypes[h.ID], ct)
				if ct.Kind == check.Ref {
					l.refFields[h.ID] = append(l.refFields[h.ID], int32(f.Index+j))
				}
			}
		}
		l.nfields[h.ID] = int32(len(l.fieldTypes[h.ID]))
		maxFields = max(maxFields, l.nfields[h.ID])
	}
	l.typed = len(heaps) > 1
	l.freedOff = -1
	if l.typed {
		l.hdr++
	}
	l.explicit = explicit
	if explicit {
		l.freedOff = l.hdr
		l.hdr++
	}
	l.nodeSize = l.hdr + maxFields
	l.refOffsets()
}

// layThreads places the threads after the shared variables, each with
// room for the largest method's locals, and the heap after them.
func (l *layout) layThreads(threads, maxLocals int) {
	l.threads = int32(threads)
	l.threadSize = tLocals + int32(maxLocals)
	l.heapBase = l.nshared + int32(threads)*l.threadSize
}

// initialState returns the state vector before the init block runs: the
// shared variables at their declared initial values, every thread idle,
// the heap empty.
func (c *compiler) initialState(vars []*check.Var) ([]int32, error) {
	st := make([]int32, c.prog.lay.heapBase+1)
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
