package more

import "sync/atomic"

const mpmcSize = 2 // a power of two

type mpmcCell struct {
	seq atomic.Uint64
	val int
}

// cacheLinePad keeps the fields around it on cache lines of their own.
type cacheLinePad [64]byte

// MPMC is Dmitry Vyukov's bounded multi-producer multi-consumer queue as
// Go code ships it: an array of cells, each with a sequence number, the
// indices and the array apart on cache lines of their own (blank padding
// fields). Lock-free, and not linearizable: an enqueue that has taken a
// later cell may return while one that took an earlier cell has not yet
// filled it, and a dequeue then finds the queue empty.
type MPMC struct {
	_   cacheLinePad
	buf [mpmcSize]mpmcCell
	_   cacheLinePad
	enq atomic.Uint64
	_   cacheLinePad
	deq atomic.Uint64
	_   cacheLinePad
}

// NewMPMC returns an empty queue.
func NewMPMC() *MPMC {
	q := &MPMC{}
	for i := range q.buf {
		q.buf[i].seq.Store(uint64(i))
	}
	return q
}

// Enqueue adds v, or reports false when the queue is full.
func (q *MPMC) Enqueue(v int) bool {
	pos := q.enq.Load()
	for {
		c := &q.buf[pos&(mpmcSize-1)]
		seq := c.seq.Load()
		dif := int64(seq) - int64(pos)
		if dif == 0 {
			if q.enq.CompareAndSwap(pos, pos+1) {
				c.val = v
				c.seq.Store(pos + 1)
				return true
			}
			pos = q.enq.Load()
		} else if dif < 0 {
			return false
		} else {
			pos = q.enq.Load()
		}
	}
}

// Dequeue removes the oldest value, or reports false when the queue is
// empty.
func (q *MPMC) Dequeue() (int, bool) {
	pos := q.deq.Load()
	for {
		c := &q.buf[pos&(mpmcSize-1)]
		seq := c.seq.Load()
		dif := int64(seq) - int64(pos+1)
		if dif == 0 {
			if q.deq.CompareAndSwap(pos, pos+1) {
				v := c.val
				c.seq.Store(pos + mpmcSize)
				return v, true
			}
			pos = q.deq.Load()
		} else if dif < 0 {
			return 0, false
		} else {
			pos = q.deq.Load()
		}
	}
}
