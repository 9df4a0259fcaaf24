package onthefly

import (
	"errors"
	"fmt"
	"slices"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/lts"
)

// flySpec is the specification side of the on-the-fly refinement check:
// its states are explored only as the implementation's traces reach them,
// and sets of them — the specification states that the visible trace so
// far can lead to, closed under τ (the normalised specification of trace
// refinement) — are interned as subset ids, so that a product pair is two
// int32s.
//
// Specification states are stored canonical for the heap but in any
// thread order: a subset belongs to the thread numbering of the
// implementation state it is paired with, and permute renames it with
// that state when the symmetry reduction moves it to its representative.
type flySpec struct {
	x  *semantics.System // the specification's compiled program and bounds
	st *semantics.Stepper
	// sym renames the specification's threads (nil without the symmetry
	// reduction).
	sym reducer
	// The specification states found so far: set gives their ids, offs
	// their records, edges their transitions once computed (nil before).
	set   *semantics.StateSet
	offs  []uint64
	edges [][]antichain.Edge
	// methodOf maps an implementation method index to the specification's.
	methodOf []int32
	// subsets are the normalised specification's subsets (antichain.Subsets,
	// each label's successor computed when first asked for).
	subsets *antichain.Subsets
	// empty is the id of the empty subset (see newFlySpec).
	empty int32
	// permuted caches permute by its operands, packed in 64 bits.
	permuted map[uint64]int32
	cur      []int32 // decoding buffer
	enc      []byte
	// tau and visible are what Tau and Visible return.
	tau     []int32
	visible []antichain.Edge
}

// noSubset stands for no subset: the specification cannot follow.
const noSubset = antichain.NoSubset

func newFlySpec(x *semantics.System, impl *ir.Program) (*flySpec, error) {
	s := &flySpec{x: x, st: x.NewStepper(), set: semantics.NewStateSet(), permuted: map[uint64]int32{}}
	s.subsets = antichain.NewSubsets(s, false)
	// The empty subset, where the implementation goes on alone past a
	// violation (Options.FirstViolation): it follows nothing, includes
	// only itself and every subset includes it.
	s.empty = s.subsets.Intern(nil)
	for _, m := range impl.Methods {
		idx := int32(-1)
		for _, sm := range x.Program.Methods {
			if sm.Name == m.Name {
				idx = sm.Index
			}
		}
		s.methodOf = append(s.methodOf, idx)
	}
	return s, nil
}

// initial returns the subset of the specification's initial state.
func (s *flySpec) initial() (int32, error) {
	init, err := s.x.InitialState()
	if err != nil {
		return 0, fmt.Errorf("specification: %w", err)
	}
	id := s.state(init)
	return s.subsets.Closure([]int32{id})
}

// state returns the id of a canonical specification state, adding it if new.
func (s *flySpec) state(st []int32) int32 {
	s.enc = semantics.Encode(s.enc[:0], st)
	id, isNew := s.set.Insert(s.enc, s.set.Hash(s.enc))
	if isNew {
		s.offs = append(s.offs, s.set.LastOffset())
		s.edges = append(s.edges, nil)
	}
	return id
}

// transitions returns the transitions of state id, computing them the
// first time.
func (s *flySpec) transitions(id int32) ([]antichain.Edge, error) {
	if s.edges[id] != nil {
		return s.edges[id], nil
	}
	s.cur = semantics.Decode(s.cur[:0], s.set.Encoding(s.offs[id]))
	if _, f := s.st.Successors(s.cur); f != nil {
		return nil, fmt.Errorf("specification: %w", s.modelError())
	}
	blk := &s.st.Blk
	edges := make([]antichain.Edge, 0, len(blk.Succs))
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		s.cur = semantics.Decode(s.cur[:0], blk.Batch[sc.Start:sc.End])
		edges = append(edges, antichain.Edge{Label: uint64(sc.Label), To: s.state(s.cur)})
	}
	// A state without transitions gets an empty, non-nil slice.
	s.edges[id] = slices.Clip(append(edges, antichain.Edge{}))[:len(edges)]
	return s.edges[id], nil
}

// Tau gives the specification's τ-transitions to the normalisation
// (antichain.Spec); a model error of the specification is returned.
func (s *flySpec) Tau(id int32) ([]int32, error) {
	edges, err := s.transitions(id)
	s.tau = s.tau[:0]
	for _, e := range edges {
		if e.Label == 0 {
			s.tau = append(s.tau, e.To)
		}
	}
	return s.tau, err
}

// Visible gives the specification's visible transitions to the
// normalisation (antichain.Spec).
func (s *flySpec) Visible(id int32) ([]antichain.Edge, error) {
	edges, err := s.transitions(id)
	s.visible = s.visible[:0]
	for _, e := range edges {
		if e.Label != 0 {
			s.visible = append(s.visible, e)
		}
	}
	return s.visible, err
}

// count returns the number of subsets interned.
func (s *flySpec) count() int { return s.subsets.Count() }

// specKey translates the label key of an implementation step into the
// specification's numbering of methods.
func (s *flySpec) specKey(k semantics.LabelKey) semantics.LabelKey {
	m := s.methodOf[k>>32&0xffff]
	return k&^(0xffff<<32) | semantics.LabelKey(uint16(m))<<32
}

// afterLabel returns the subset reached from subset sub by the visible
// implementation label key k, closed under τ; noSubset if the
// specification cannot do k there.
func (s *flySpec) afterLabel(sub int32, k semantics.LabelKey) (int32, error) {
	return s.subsets.After(sub, uint64(s.specKey(k)))
}

// knownAfter is afterLabel when the subsets have computed it already
// (ok), for the expanders: it only reads.
func (s *flySpec) knownAfter(sub int32, k semantics.LabelKey) (int32, bool) {
	return s.subsets.Known(sub, uint64(s.specKey(k)))
}

// permute returns subset sub with its threads renamed by permutation perm (see
// reducer.apply). With peek it only reads, for the expanders: ok is false
// when the renaming has not been computed yet.
func (s *flySpec) permute(sub int32, perm uint16, perms *permTable, peek bool) (id int32, ok bool) {
	if s.sym == nil || perm == 0 || sub == s.empty {
		return sub, true
	}
	pk := uint64(sub)<<16 | uint64(perm)
	if id, ok := s.permuted[pk]; ok || peek {
		return id, ok
	}
	var out []int32
	for _, st := range s.subsets.Members(sub) {
		s.cur = semantics.Decode(s.cur[:0], s.set.Encoding(s.offs[st]))
		out = append(out, s.state(s.sym.Apply(s.cur, perms.get(perm), s.st.Expander.Canon)))
	}
	slices.Sort(out)
	id = s.subsets.Intern(slices.Compact(out))
	s.permuted[pk] = id
	return id, true
}

// isVisible reports whether a label key is a call or a return: the
// actions of the refinement. (lin events are not used on the fly.)
func isVisible(k semantics.LabelKey) bool {
	kind := k.Kind()
	return kind == semantics.KCall || kind == semantics.KRet
}

// checkSameSignatures reports an error when the specification lacks a
// method of the implementation; check.Check has compared the signatures.
func (s *flySpec) checkSameSignatures(impl *ir.Program) error {
	for i, m := range impl.Methods {
		if s.methodOf[i] < 0 && m.Callable {
			return fmt.Errorf("the specification has no method %s", m.Name)
		}
		if s.methodOf[i] >= 0 && len(s.x.Program.Methods[s.methodOf[i]].Params) != len(m.Params) {
			return fmt.Errorf("the specification's method %s has other parameters", m.Name)
		}
	}
	return nil
}

// includes reports whether subset sub includes subset of.
func (s *flySpec) includes(sub, of int32) bool { return s.subsets.Includes(sub, of) }

// modelError reports a model error of the specification, which the search
// met in one of its states, as the bisimulation route does: a finding
// about the model (*semantics.ModelError) with a run of the specification
// alone that leads to one. The specification's states are searched breadth
// first from the initial one, as the explorer does, so the run is a
// shortest one to a model error (maybe another than the one met, not
// later); the search ends since the states are finite and each is visited
// once, and the failing state is among them.
func (s *flySpec) modelError() error {
	init, err := s.x.InitialState()
	if err != nil {
		return err
	}
	// A visited state: its record, the state it was reached from and
	// the step that reached it.
	type visit struct {
		off    uint64
		parent int32
		step   lts.TraceStep
	}
	set, st := semantics.NewStateSet(), s.x.NewStepper()
	var seen []visit
	add := func(enc []byte, parent int32, step lts.TraceStep) {
		if _, isNew := set.Insert(enc, set.Hash(enc)); isNew {
			seen = append(seen, visit{set.LastOffset(), parent, step})
		}
	}
	add(semantics.Encode(nil, init), -1, lts.TraceStep{})
	var cur []int32
	for u := 0; u < len(seen); u++ {
		cur = semantics.Decode(cur[:0], set.Encoding(seen[u].off))
		t, fail := st.Successors(cur)
		if fail == nil {
			blk := &st.Blk
			for i := range blk.Succs {
				sc := &blk.Succs[i]
				step := lts.TraceStep{From: -1, Label: lts.TauName, To: -1, Thread: int32(sc.Thread) + 1}
				if sc.Label != 0 {
					step.Label = s.x.LabelNames[s.x.InternLabel(sc.Label)]
				}
				if sc.Step >= 0 {
					src := s.x.Steps[sc.Step]
					step.Source = &src
				}
				add(blk.Batch[sc.Start:sc.End], int32(u), step)
			}
			continue
		}
		tr := &lts.Trace{Title: "model error: " + fail.Msg, LoopStart: -1}
		for v := int32(u); seen[v].parent >= 0; v = seen[v].parent {
			tr.Steps = append(tr.Steps, seen[v].step)
		}
		slices.Reverse(tr.Steps)
		e := &semantics.ModelError{Msg: fail.Msg, Trace: tr, Race: fail.Race != nil}
		if fail.Race != nil {
			tr.Title = "data race: " + fail.Msg
		}
		last := lts.TraceStep{From: -1, Label: lts.TauName, To: -1, Thread: int32(t) + 1, Note: fail.Msg}
		if fail.Step >= 0 {
			src := s.x.Steps[fail.Step]
			last.Source, e.Pos = &src, src
		}
		tr.Steps = append(tr.Steps, last)
		tr.Final = fmt.Sprintf("thread %d: %s", t+1, fail.Msg)
		return e
	}
	return errors.New("internal error: the specification failed in a state its breadth-first search does not reach")
}
