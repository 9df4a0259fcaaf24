package slicestack

import "sync"

// Embedded is Stack with its mutex embedded, locked through the methods
// it promotes (s.Lock()), which the client does not call.
type Embedded struct {
	sync.Mutex
	items []int
}

// Push appends v.
func (s *Embedded) Push(v int) {
	s.Lock()
	defer s.Unlock()
	s.items = append(s.items, v)
}

// Pop removes the last value.
func (s *Embedded) Pop() (int, bool) {
	s.Lock()
	defer s.Unlock()
	if len(s.items) == 0 {
		return 0, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}
