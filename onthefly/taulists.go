package onthefly

// tauLists are the τ-edges that the search followed, state by state, for
// the cycle search (flycycle.go). State s's list is its τ-successors' ids
// in the stepper's order (-1 for one not followed), laid out when s is
// first expanded. The search expands states for the first time in the
// order of their ids — a state is stored when a pair first reaches it,
// that pair is of the next level, and a level's states are taken by id
// (levelOrder) — so the lists are laid out one after another, and a state
// keeps only its list's length, in a byte; where the lists of each group
// of tauGroup states start is kept per group (16: a list's start is
// summed from at most 15 lengths). That is a byte and a quarter a state
// beside its edges, where a start and a length took eight.
type tauLists struct {
	tos chunked[int32]
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
	for range n {
		l.tos.add(-1)
	}
	return at
}
