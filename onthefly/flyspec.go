package onthefly

import (
	"fmt"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"slices"
	"unsafe"
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
	edges [][]specEdge
	// methodOf maps an implementation method index to the specification's.
	methodOf []int32
	// subs are the interned subsets, each sorted; subIDs finds them by
	// their bytes; sigs[i] has bit k%64 for each state k of subs[i], so
	// that most non-inclusions show without a look at the states.
	subs   [][]int32
	subIDs map[string]int32
	sigs   []uint64
	// empty is the id of the empty subset (see newFlySpec).
	empty int32
	// after, permuted and included cache the subset operations by their
	// operands: after[sub] lists the labels met from sub (a few: a
	// list is quicker than a map), permuted and included are keyed by
	// the two operands packed in 64 bits.
	after    [][]afterEdge
	permuted map[uint64]int32
	included map[uint64]bool
	cur      []int32 // decoding buffer
	enc      []byte
	buf      []int32
}

// specEdge is a transition of a specification state: its label key (0 for
// τ) and target.
type specEdge struct {
	key semantics.LabelKey
	dst int32
}

// afterEdge is a cached result of afterLabel: the subset reached by a
// label key.
type afterEdge struct {
	key semantics.LabelKey
	to  int32
}

// noSubset stands for no subset: the specification cannot follow.
const noSubset = -1

func newFlySpec(x *semantics.System, impl *ir.Program) (*flySpec, error) {
	s := &flySpec{x: x, st: x.NewStepper(), set: semantics.NewStateSet(), subIDs: map[string]int32{},
		permuted: map[uint64]int32{}, included: map[uint64]bool{}}
	// The empty subset, where the implementation goes on alone past a
	// violation (Options.FirstViolation): it follows nothing, includes
	// only itself and every subset includes it.
	s.empty = int32(len(s.subs))
	s.subs, s.sigs, s.after = append(s.subs, nil), append(s.sigs, 0), append(s.after, nil)
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
	return s.closure([]int32{id})
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
func (s *flySpec) transitions(id int32) ([]specEdge, error) {
	if s.edges[id] != nil {
		return s.edges[id], nil
	}
	s.cur = semantics.Decode(s.cur[:0], s.set.Encoding(s.offs[id]))
	t, f := s.st.Successors(s.cur)
	if f != nil {
		return nil, fmt.Errorf("specification: model error of thread %d: %s", t+1, f.Msg)
	}
	blk := &s.st.Blk
	edges := make([]specEdge, 0, len(blk.Succs))
	for i := range blk.Succs {
		sc := &blk.Succs[i]
		s.cur = semantics.Decode(s.cur[:0], blk.Batch[sc.Start:sc.End])
		edges = append(edges, specEdge{key: sc.Label, dst: s.state(s.cur)})
	}
	// A state without transitions gets an empty, non-nil slice.
	s.edges[id] = slices.Clip(append(edges, specEdge{}))[:len(edges)]
	return s.edges[id], nil
}

// closure interns the τ-closure of the states ids.
func (s *flySpec) closure(ids []int32) (int32, error) {
	set := append(s.buf[:0], ids...)
	for i := 0; i < len(set); i++ {
		edges, err := s.transitions(set[i])
		if err != nil {
			return 0, err
		}
		for _, e := range edges {
			if e.key == 0 && !slices.Contains(set, e.dst) {
				set = append(set, e.dst)
			}
		}
	}
	s.buf = set
	return s.intern(set), nil
}

// intern returns the id of a set of states (sorted in place), or noSubset
// for the empty set.
func (s *flySpec) intern(set []int32) int32 {
	if len(set) == 0 {
		return noSubset
	}
	slices.Sort(set)
	set = slices.Compact(set)
	b := unsafe.Slice((*byte)(unsafe.Pointer(&set[0])), 4*len(set))
	if id, ok := s.subIDs[string(b)]; ok {
		return id
	}
	id := int32(len(s.subs))
	s.subs = append(s.subs, slices.Clone(set))
	s.subIDs[string(b)] = id
	sig := uint64(0)
	for _, st := range set {
		sig |= 1 << (st & 63)
	}
	s.sigs = append(s.sigs, sig)
	s.after = append(s.after, nil)
	return id
}

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
	for _, e := range s.after[sub] {
		if e.key == k {
			return e.to, nil
		}
	}
	sk := s.specKey(k)
	var next []int32
	for _, st := range s.subs[sub] {
		edges, err := s.transitions(st)
		if err != nil {
			return 0, err
		}
		for _, e := range edges {
			if e.key == sk {
				next = append(next, e.dst)
			}
		}
	}
	id := int32(noSubset)
	if len(next) > 0 {
		var err error
		if id, err = s.closure(next); err != nil {
			return 0, err
		}
	}
	s.after[sub] = append(s.after[sub], afterEdge{k, id})
	return id, nil
}

// permute returns subset sub with its threads renamed by perms[perm] (see
// reducer.apply).
func (s *flySpec) permute(sub int32, perm uint16, perms [][]uint8) int32 {
	if s.sym == nil || perm == 0 || sub == s.empty {
		return sub
	}
	pk := uint64(sub)<<16 | uint64(perm)
	if id, ok := s.permuted[pk]; ok {
		return id
	}
	var out []int32
	for _, st := range s.subs[sub] {
		s.cur = semantics.Decode(s.cur[:0], s.set.Encoding(s.offs[st]))
		out = append(out, s.state(s.sym.Apply(s.cur, perms[perm], s.st.Expander.Canon)))
	}
	id := s.intern(out)
	s.permuted[pk] = id
	return id
}

// isVisible reports whether a label key is a call or a return: the
// actions of the refinement. (lin events are not used on the fly.)
func isVisible(k semantics.LabelKey) bool {
	kind := k.Outcome().Kind
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
func (s *flySpec) includes(sub, of int32) bool {
	if sub == of {
		return true
	}
	if len(s.subs[of]) > len(s.subs[sub]) || s.sigs[of]&^s.sigs[sub] != 0 {
		return false
	}
	k := uint64(sub)<<32 | uint64(of)
	if in, ok := s.included[k]; ok {
		return in
	}
	big, small := s.subs[sub], s.subs[of]
	in := true
	for i := 0; in && i < len(small); i++ {
		_, in = slices.BinarySearch(big, small[i])
	}
	s.included[k] = in
	return in
}
