package semantics

import "hash/maphash"

// Stepper computes the successors of one state at a time, for the
// searches that do not go breadth-first in blocks (the on-the-fly checks
// and the replay of their counterexamples): it runs an expander on a block
// of its own and leaves the successors there, canonical for the heap and
// encoded, without looking them up.
type Stepper struct {
	Expander *Expander  // computes the successors
	Blk      Successors // the successors of the state expanded last
}

// NewStepper returns a stepper over x.
func (x *System) NewStepper() *Stepper { return &Stepper{Expander: x.NewExpander(maphash.MakeSeed())} }

// Successors fills s.blk.succs and s.blk.batch with the successors of the
// canonical state cur, in the explorer's order (thread by thread). On a
// model error it stops and returns the failing thread and the failure;
// the successors before the failing step are in the block. cur is read in
// place, not copied: the caller must not change it during the call, nor
// pass a buffer of the stepper's.
func (s *Stepper) Successors(cur []int32) (int, *Failure) {
	blk := &s.Blk
	blk.Batch, blk.Succs = blk.Batch[:0], blk.Succs[:0]
	e := s.Expander
	e.Cur = cur
	e.Canon.Current(cur)
	e.Blk = blk
	t, f := e.State()
	e.Blk = nil
	return t, f
}
