package onthefly

import (
	"fmt"
	"math"
	"runtime/debug"

	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/lasso"
)

// tauLists are the τ-edges that the search followed, state by state, kept
// for the cycle search (flycycle.go) where the memory limit leaves room
// for them (keepTau). State s's list is its τ-successors' ids in the
// stepper's order (-1 for one not followed), laid out when s is first
// expanded; a later expansion fills in the entries it follows (with the
// partial-order reduction, a pair that follows all successors after pairs
// that followed the ample thread's). The search expands states for the
// first time in the order of their ids — a state is stored when a pair
// first reaches it, that pair is of the next level, and a level's states
// are taken by id (antichain.Leveler) — so the lists are laid out one after
// another, and a state keeps only its list's length, in a byte; where the
// lists of each group of tauGroup states start is kept per group (16: a
// list's start is summed from at most 15 lengths). That is a byte and a
// quarter a state beside its edges, where a start and a length took
// eight. An edge takes as many bits as the largest state id it may hold
// needs, in its block of 1<<16 (packedInt32s): 25 bits at HP 3/3's 21.8 M
// states, where an int32 took 32.
type tauLists struct {
	tos packedInt32s
	// lens[s] is state s's list's length, or longList for a list of
	// longList entries or more, whose length is in long.
	lens   chunked[uint8]
	long   map[int32]int
	starts chunked[uint32] // per group of tauGroup states, where its first list starts in tos
}

const (
	tauGroupBits = 4
	tauGroup     = 1 << tauGroupBits
	longList     = 255
)

// laid returns the number of states whose lists are laid out: states
// 0 to laid()-1.
func (l *tauLists) laid() int { return l.lens.Len() }

// entries returns the number of entries of all the lists.
func (l *tauLists) entries() int { return l.tos.Len() }

// length returns the length of state s's list.
func (l *tauLists) length(s int32) int {
	if n := l.lens.get(int(s)); n < longList {
		return int(n)
	}
	return l.long[s]
}

// start returns where state s's list starts in tos.
func (l *tauLists) start(s int32) int {
	at := int(l.starts.get(int(s >> tauGroupBits)))
	for t := s &^ (tauGroup - 1); t < s; t++ {
		at += l.length(t)
	}
	return at
}

// edges appends to buf the τ-steps of state s that its list holds, each
// named by its position in the list.
func (l *tauLists) edges(s int32, buf []lasso.Edge) []lasso.Edge {
	at := l.start(s)
	for k := range l.length(s) {
		if to := l.tos.get(at + k); to >= 0 {
			buf = append(buf, lasso.Edge{ID: int32(k), To: to})
		}
	}
	return buf
}

// lay lays out the list of state laid(), n entries, all -1, and returns
// where it starts.
func (l *tauLists) lay(n int) int {
	s := int32(l.laid())
	if s&(tauGroup-1) == 0 {
		l.starts.add(uint32(l.tos.Len()))
	}
	if n < longList {
		l.lens.add(uint8(n))
	} else {
		if l.long == nil {
			l.long = map[int32]int{}
		}
		l.long[s] = n
		l.lens.add(longList)
	}
	at := l.tos.Len()
	l.tos.addNone(n)
	return at
}

// tauMemoryShare is the share of the memory limit that the process may
// hold while the τ-lists are laid out (keepTau): beyond it they are given
// up, which frees their memory for the pair search, and the cycle search
// finds every state's τ-steps again by expanding it. Once they are given
// up the search holds what a search that never kept them would, so it
// reaches as far; the quarter left is for what the process holds beside
// the live structures (the collector's garbage, a growing table's old
// copy) and what the pair search stores between two looks at the memory.
const tauMemoryShare = 0.75

// keepTau keeps the τ-steps that the pairs of state s just followed, in
// s's τ-list (and, with Options.checkTau, in the record the cycle search
// is checked against), until the memory limit calls for the lists to be
// given up (tauMemoryShare) or a state is expanded for the first time out
// of the order of the ids (an internal error under Options.checkTau; the
// cycle search does without the lists otherwise).
func (f *flySearch) keepTau(s int32) error {
	if f.o.checkTau {
		f.recordTau(s)
	}
	if !f.tauKept {
		return nil
	}
	var at int
	switch laid := f.tau.laid(); {
	case int(s) < laid:
		at = f.tau.start(s)
	case int(s) == laid:
		n := 0
		for i := range f.succs {
			if f.succs[i].label == 0 {
				n++
			}
		}
		// The lists grow by a block of tos at a time: the memory is
		// looked at when the list needs a new one, every 64 k entries.
		last := f.tau.entries() - 1
		grows := last>>chunkBits != (last+n)>>chunkBits
		if grows && !f.roomForTau(n) || f.o.tauEntries > 0 && f.tau.entries()+n > f.o.tauEntries {
			f.giveUpTau()
			return nil
		}
		at = f.tau.lay(n)
	default:
		f.giveUpTau()
		if f.o.checkTau {
			return fmt.Errorf("internal error: state %d expanded for the first time before state %d", s, laid)
		}
		return nil
	}
	for i := range f.succs {
		sc := &f.succs[i]
		if sc.label != 0 {
			continue
		}
		if f.follows(sc) {
			if sc.to < 0 {
				return fmt.Errorf("internal error: a τ-successor of state %d that the search followed is not stored", s)
			}
			f.tau.tos.set(at, sc.to)
		}
		at++
	}
	return nil
}

// roomForTau reports whether the lists may grow by n entries: their
// starts are uint32s, and the memory the process holds is below
// tauMemoryShare of the memory limit (debug.SetMemoryLimit, which the
// run's limits.Watch sets to --max-memory; none in tests).
func (f *flySearch) roomForTau(n int) bool {
	if f.tau.entries()+n > math.MaxUint32 {
		return false
	}
	limit := debug.SetMemoryLimit(-1)
	return limit == math.MaxInt64 || float64(limits.Held()) < tauMemoryShare*float64(limit)
}

// giveUpTau drops the τ-lists: the cycle search finds the τ-steps again.
func (f *flySearch) giveUpTau() {
	f.tau, f.tauKept = tauLists{}, false
}
