package explore

import "hash/maphash"

// stepper computes the successors of one state at a time, for the
// searches that do not go breadth-first in blocks (the on-the-fly checks
// and the replay of their counterexamples): it runs an expander on a block
// of its own and leaves the successors there, canonical for the heap and
// encoded, without looking them up.
type stepper struct {
	e   *expander
	blk successors
}

// newStepper returns a stepper over x.
func (x *system) newStepper() *stepper { return &stepper{e: x.newExpander(maphash.MakeSeed())} }

// successors fills s.blk.succs and s.blk.batch with the successors of the
// canonical state cur, in the explorer's order (thread by thread). On a
// model error it stops and returns the failing thread and the failure;
// the successors before the failing step are in the block.
func (s *stepper) successors(cur []int32) (int, *failure) {
	blk := &s.blk
	blk.batch, blk.succs = blk.batch[:0], blk.succs[:0]
	e := s.e
	e.cur = append(e.cur[:0], cur...)
	e.c.current(e.cur)
	e.blk = blk
	t, f := e.state()
	e.blk = nil
	return t, f
}
