package onthefly

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/reduce"
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
	// classes holds, per subset, its threads' classes (swapClasses), a
	// row of threads bytes; a row is unknown while its first byte is
	// unknownClass or it lies past the slice's end.
	classes []uint8
	threads int      // the threads that the permutations move
	swap    []uint8  // swapClasses' transposition
	alike   []uint8  // leastAlike's permutation
	inverse []uint8  // classesAcross' inverse permutation
	least   []uint8  // carryClasses' least thread of each class
	hashes  []uint32 // swapClasses' hashes of the subset's members
	cur     []int32  // decoding buffer
	enc     []byte
	// tau and visible are what Tau and Visible return.
	tau     []int32
	visible []antichain.Edge
}

// noSubset stands for no subset: the specification cannot follow.
const noSubset = antichain.NoSubset

func newFlySpec(x *semantics.System, impl *ir.Program) (*flySpec, error) {
	s := &flySpec{x: x, st: x.NewStepper(), set: semantics.NewStateSet(), permuted: map[uint64]int32{},
		threads: int(x.Program.Layout.Threads)}
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
//
// When sub's classes are known (swapClasses), renaming by perm∘h, h
// keeping each thread in its class, gives the same subset (h fixes sub):
// the renaming is found under the least such permutation too, so that
// permutations alike up to sub's classes rename sub once. It is computed
// by perm itself, member by member as always, so that the states are
// interned in the same order.
func (s *flySpec) permute(sub int32, perm permID, perms *permTable, peek bool) (id int32, ok bool) {
	if s.sym == nil || perm == 0 || sub == s.empty {
		return sub, true
	}
	pk := uint64(sub)<<32 | uint64(perm)
	if id, ok := s.permuted[pk]; ok || peek {
		return id, ok
	}
	ck := pk
	if classes, known := s.knownClasses(sub); known {
		ck = uint64(sub)<<32 | uint64(perms.intern(s.leastAlike(classes, perms.get(perm))))
		if id, ok := s.permuted[ck]; ok {
			s.permuted[pk] = id
			return id, true
		}
	}
	var out []int32
	for _, st := range s.subsets.Members(sub) {
		s.cur = semantics.Decode(s.cur[:0], s.set.Encoding(s.offs[st]))
		out = append(out, s.state(s.sym.Apply(s.cur, perms.get(perm), s.st.Expander.Canon)))
	}
	slices.Sort(out)
	id = s.subsets.Intern(slices.Compact(out))
	s.permuted[pk], s.permuted[ck] = id, id
	return id, true
}

// leastAlike returns the least permutation perm∘h for permutations h
// that keep each thread in its class of classes: within each class,
// perm's images in increasing order. The result is a buffer of s.
func (s *flySpec) leastAlike(classes, perm []uint8) []uint8 {
	a := append(s.alike[:0], perm...)
	for t, x := range a {
		// Insertion sort: x into the images of the threads of its
		// class before t, in increasing order already.
		at := t
		for u := t - 1; u >= 0; u-- {
			if classes[u] != classes[t] {
				continue
			}
			if a[u] < x {
				break
			}
			a[at], at = a[u], u
		}
		a[at] = x
	}
	s.alike = a
	return s.alike
}

// renamed returns subset sub renamed by perm and by its alternatives,
// the least of those subset ids, and the permutation that gives it: perm
// or the first alternative that does (flySearch.renamed), in the order
// of reduce.Product. The alternatives alts are g∘perm for the
// permutations g ≠ id of the stabiliser of the implementation's
// representative, given in parts (expander.stabilizer: runs of tied
// threads and marked permutations). With peek it only reads: ok is false
// when the renamings have not been computed yet.
//
// The candidates are g·Y, Y being sub renamed by perm (the renaming is an
// action: renaming by perm then by g is renaming by g∘perm). Most often
// every g fixes Y: each keeps the threads in their classes of Y
// (swapClasses), so it is a product of transpositions that fix Y. The
// parts tell it at once: when each run lies in one class and each marked
// permutation keeps the classes, so does every product. Then the answer
// is Y and perm, known without listing the alternatives; otherwise they
// are listed and sub is renamed by those that move Y's classes, as by
// every alternative before (the others give Y), so that the subsets and
// the specification's states are interned in the same order, with the
// same ids.
func (s *flySpec) renamed(sub int32, perm permID, alts []uint8, perms *permTable, peek bool) (int32, permID, bool) {
	if perm == 0 && len(alts) == 0 || sub == s.empty {
		return sub, perm, true // the common case on few threads
	}
	to, ok := s.permute(sub, perm, perms, peek)
	if !ok || len(alts) == 0 {
		return to, perm, ok
	}
	sigma := perms.get(perm)
	classes, ok := s.knownClasses(to)
	if !ok {
		if peek {
			return to, perm, false
		}
		classes = s.classesAcross(sub, to, sigma)
	}
	runs, marked := altParts(alts)
	if runsKeepClasses(classes, runs) && keepsClassesAll(classes, marked) {
		return to, perm, true
	}
	// Buffers of their own: with peek, the expanders call this at once.
	alt := make([]uint8, len(sigma))
	best, bestPerm, first := to, perm, true
	for g := range reduce.Product(runs, marked, make([]uint8, len(sigma))) {
		if first || keepsClasses(classes, g) {
			first = false
			continue // the identity, or g renames sub to to
		}
		for t, u := range sigma {
			alt[t] = g[u]
		}
		id := perms.intern(alt)
		other, known := s.permute(sub, id, perms, peek)
		if !known {
			return best, bestPerm, false
		}
		if other < best {
			best, bestPerm = other, id
		}
	}
	return best, bestPerm, true
}

// keepsClasses reports whether permutation g keeps each thread in its
// class of classes.
func keepsClasses(classes, g []uint8) bool {
	for u, v := range g {
		if classes[v] != classes[u] {
			return false
		}
	}
	return true
}

// keepsClassesAll is keepsClasses for each of the permutations perms
// (flat, as many entries each as classes).
func keepsClassesAll(classes, perms []uint8) bool {
	for k := 0; k < len(perms); k += len(classes) {
		if !keepsClasses(classes, perms[k:k+len(classes)]) {
			return false
		}
	}
	return true
}

// runsKeepClasses reports whether each run of runs (pairs: first thread,
// length) lies within one class of classes: then every permutation within
// the runs keeps the threads in their classes.
func runsKeepClasses(classes, runs []uint8) bool {
	for r := 0; r < len(runs); r += 2 {
		run := classes[runs[r] : runs[r]+runs[r+1]]
		for _, c := range run[1:] {
			if c != run[0] {
				return false
			}
		}
	}
	return true
}

// unknownClass marks a row of flySpec.classes not computed yet.
const unknownClass = 0xff

// swapClasses returns the classes of the threads of subset sub: threads
// t and u are in one class when exchanging them (renaming sub by the
// transposition of t and u) gives sub again, each class named by its
// least thread. This is an equivalence ((t v) = (t u)(u v)(t u)), and a
// permutation that keeps every thread in its class is a product of such
// transpositions, so it fixes sub. The classes are computed once per
// subset, with lookups only: a renamed member that is not a state found
// already is not in sub.
func (s *flySpec) swapClasses(sub int32) []uint8 {
	if classes, ok := s.knownClasses(sub); ok {
		return classes
	}
	s.growClasses(sub)
	members := s.subsets.Members(sub)
	s.hashes = s.hashes[:0]
	for _, st := range members {
		s.hashes = append(s.hashes, s.set.Hash(s.set.Encoding(s.offs[st])))
	}
	classes := s.classesRow(sub)
	for u := range classes {
		classes[u] = uint8(u)
		for t := range u {
			if int(classes[t]) == t && s.swapFixes(members, t, u) {
				classes[u] = uint8(t)
				break
			}
		}
	}
	return classes
}

// knownClasses returns sub's classes (swapClasses) if they are known.
func (s *flySpec) knownClasses(sub int32) (classes []uint8, ok bool) {
	if row := int(sub) * s.threads; row < len(s.classes) && s.classes[row] != unknownClass {
		return s.classesRow(sub), true
	}
	return nil, false
}

// growClasses makes room in s.classes for sub's row, unknown if new.
func (s *flySpec) growClasses(sub int32) {
	for len(s.classes) < (int(sub)+1)*s.threads {
		s.classes = append(s.classes, unknownClass)
	}
}

// classesRow returns sub's row of s.classes, which has room for it.
func (s *flySpec) classesRow(sub int32) []uint8 {
	row := int(sub) * s.threads
	return s.classes[row : row+s.threads]
}

// classesAcross returns the classes of subset to, sub renamed by perm,
// when sub's or to's may be known: the exchange of t and u fixes sub
// exactly when that of perm[t] and perm[u] fixes to, so the classes of
// one are those of the other renamed. If neither is known, to's are
// computed, and sub's read off them.
func (s *flySpec) classesAcross(sub, to int32, perm []uint8) []uint8 {
	if sub == to {
		return s.swapClasses(to)
	}
	s.growClasses(max(sub, to))
	if from, ok := s.knownClasses(sub); ok {
		return carryClasses(s.classesRow(to), from, perm, &s.least)
	}
	classes := s.swapClasses(to)
	s.inverse = slices.Grow(s.inverse[:0], len(perm))[:len(perm)]
	for t, u := range perm {
		s.inverse[u] = uint8(t)
	}
	carryClasses(s.classesRow(sub), classes, s.inverse, &s.least)
	return classes
}

// carryClasses sets dst to the classes src renamed by perm (thread t's
// class of src is perm[t]'s of dst) and returns it; least is a buffer.
func carryClasses(dst, src, perm []uint8, least *[]uint8) []uint8 {
	*least = slices.Grow((*least)[:0], len(src))[:len(src)]
	for _, c := range src {
		(*least)[c] = unknownClass
	}
	for t, c := range src {
		(*least)[c] = min((*least)[c], perm[t])
	}
	for t, c := range src {
		dst[perm[t]] = (*least)[c]
	}
	return dst
}

// swapFixes reports whether exchanging threads t and u maps each of the
// members of a subset (sorted, their hashes in s.hashes) to a member.
func (s *flySpec) swapFixes(members []int32, t, u int) bool {
	s.swap = s.swap[:0]
	for v := range s.threads {
		s.swap = append(s.swap, uint8(v))
	}
	s.swap[t], s.swap[u] = uint8(u), uint8(t)
	for _, st := range members {
		s.cur = semantics.Decode(s.cur[:0], s.set.Encoding(s.offs[st]))
		s.enc = semantics.Encode(s.enc[:0], s.sym.Apply(s.cur, s.swap, s.st.Expander.Canon))
		if !s.isMember(members, s.enc) {
			return false
		}
	}
	return true
}

// isMember reports whether the state of encoding enc is one of members
// (their hashes in s.hashes).
func (s *flySpec) isMember(members []int32, enc []byte) bool {
	h := s.set.Hash(enc)
	for i, st := range members {
		if s.hashes[i] == h && bytes.Equal(s.set.Encoding(s.offs[st]), enc) {
			return true
		}
	}
	return false
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
