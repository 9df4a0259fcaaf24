// Package seqlock is the Go twin of the bundled model seqlock.lin (a
// sequence lock protecting a pair of words, Boehm 2012): one writer,
// readers that retry until the sequence number is even and unchanged
// around their reads. Go's memory model makes every word an atomic (a
// reader's plain read of the data while the writer writes it is a data
// race): each of the model's shared accesses is one atomic operation, so
// the steps are the model's.
package seqlock

import "sync/atomic"

// SeqLock is a pair of values written together by one writer.
type SeqLock struct {
	seq    atomic.Int64
	d1, d2 atomic.Int32
}

func (l *SeqLock) write(v int) {
	s := l.seq.Load()
	l.seq.Store(s + 1) // odd: a write is under way
	l.d1.Store(int32(v))
	l.d2.Store(int32(v))
	l.seq.Store(s + 2)
}

func (l *SeqLock) read() (int, int) {
	for {
		s := l.seq.Load()
		if s%2 == 0 {
			a := l.d1.Load()
			b := l.d2.Load()
			if l.seq.Load() == s {
				return int(a), int(b)
			}
		}
	}
}
