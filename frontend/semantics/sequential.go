package semantics

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/syntax"
)

// Sequential runs the methods of an object one call at a time, on one
// thread, from state to state: the object seen as a sequential
// specification. It is what checks a recorded history against a model's
// spec (linbis history --spec): a step of the specification is one method
// call run to completion, and its states are the explorer's canonical state
// vectors (one idle thread, heap renumbered, unreachable nodes dropped)
// encoded as strings.
//
// A specification may be nondeterministic (explicit-mode allocation, or
// several atomic steps whose interleaving with nothing still branches on
// choices), so Call returns every outcome. A Sequential is not safe for
// concurrent use.
type Sequential struct {
	p       *ir.Program
	x       *Canonicaliser
	m       machine
	init    string
	maxRuns int
	byName  map[string]*ir.Method
	lens    []int32 // per shared variable: its number of slots
	cur     []int32
	next    []int32
	enc     []byte
	seen    map[string]bool
	work    []string
}

// Signature is a method of a Sequential: its name, parameter kinds and
// result kind (check.Void for none).
type Signature struct {
	Name   string       // the method's name
	Params []check.Type // its parameters' types, in order
	Result check.Kind   // its result's kind; check.Void for none
}

// Outcome is one way a call can end: the result as it prints in ret
// labels ("" for a method without a result, EMPTY, true, 3) and the state
// after the call.
type Outcome struct {
	Value string // the result as ret labels print it; "" for no result
	Next  string // the state after the call: its canonical encoding (Encode)
}

// SequentialOptions tune a Sequential.
type SequentialOptions struct {
	// Explicit turns off garbage collection (see Options.Explicit).
	Explicit bool
	// MaxNodes bounds the live heap nodes; 0 means 1<<16 (a history may
	// hold many more elements than a bounded client would).
	MaxNodes int
	// MaxSteps bounds the intermediate states of one call; 0 means 100,000.
	MaxSteps int
}

// ErrUsesThreads is returned by NewSequential for an object whose code
// reads tid or nthreads: a sequential history numbers no threads.
var ErrUsesThreads = errors.New("reads tid or nthreads")

// NewSequential compiles obj (prog.Spec, usually) for sequential calls and
// runs its init block.
func NewSequential(prog *check.Program, obj *check.Object, o SequentialOptions) (*Sequential, error) {
	if pos, ok := threadBuiltin(prog, obj); ok {
		p := prog.File.Position(pos)
		return nil, fmt.Errorf("%s: %s %w, which have no meaning for a sequential specification", p, obj.Name, ErrUsesThreads)
	}
	o.Explicit = o.Explicit || prog.Explicit
	p, err := ir.Compile(prog, obj, 1, nil, false, o.Explicit)
	if err != nil {
		return nil, err
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = 1 << 16
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = 100_000
	}
	s := &Sequential{p: p, maxRuns: o.MaxSteps, byName: map[string]*ir.Method{}, seen: map[string]bool{}}
	s.x = NewCanonicaliser(p, 1)
	// Show prints these states for people: breadth-first numbers read
	// from the roots down (Top=#1), and speed matters little here.
	s.x.Postorder = false
	s.m = newMachine(p, !o.Explicit, false, int32(o.MaxNodes))
	s.m.base = p.Layout.ThreadBase(0)
	for _, m := range p.Methods {
		if m.Callable {
			s.byName[m.Name] = m
		}
	}
	s.lens = p.SharedSlots
	s.init = string(Encode(nil, s.x.Canonical(append([]int32(nil), p.Init...), -1)))
	if im := p.InitMethod; im != nil {
		outs, err := s.run(s.init, im, nil)
		if err != nil {
			return nil, err
		}
		if len(outs) != 1 {
			return nil, fmt.Errorf("%s: the init block of %s has %d outcomes; it needs exactly one", obj.Name, obj.Name, len(outs))
		}
		s.init = outs[0].Next
	}
	return s, nil
}

// threadBuiltin finds a use of tid or nthreads inside obj's declaration:
// from its start to the start of the next top-level declaration.
func threadBuiltin(prog *check.Program, obj *check.Object) (syntax.Pos, bool) {
	start := obj.Decl.Pos
	end := syntax.Pos(len(prog.File.Src) + 1)
	for _, o := range []*check.Object{prog.Impl, prog.Spec} {
		if o != nil && o.Decl.Pos > start && o.Decl.Pos < end {
			end = o.Decl.Pos
		}
	}
	if c := prog.Client; c != nil && c.Pos > start && c.Pos < end {
		end = c.Pos
	}
	best := syntax.NoPos
	for id, v := range prog.Info.Uses {
		if v.Kind != check.BuiltinTid && v.Kind != check.BuiltinNThreads {
			continue
		}
		if id.Pos >= start && id.Pos < end && (best == syntax.NoPos || id.Pos < best) {
			best = id.Pos
		}
	}
	return best, best != syntax.NoPos
}

// Init returns the initial state (after the init block, if any).
func (s *Sequential) Init() string { return s.init }

// Methods returns the callable methods in declaration order.
func (s *Sequential) Methods() []Signature {
	var out []Signature
	for _, m := range s.p.Methods {
		if m.Callable {
			out = append(out, Signature{Name: m.Name, Params: m.Params, Result: m.Result})
		}
	}
	return out
}

// Method returns the signature of the method called name.
func (s *Sequential) Method(name string) (Signature, bool) {
	m, ok := s.byName[name]
	if !ok {
		return Signature{}, false
	}
	return Signature{Name: m.Name, Params: m.Params, Result: m.Result}, true
}

// Call runs method with args to completion on state and returns every
// outcome; none when the call cannot complete (an await that stays false,
// a loop that never returns). args are checked against the parameter
// types. A model error (failed assert, null dereference, …) is an error.
func (s *Sequential) Call(state, method string, args []int) ([]Outcome, error) {
	m, ok := s.byName[method]
	if !ok {
		return nil, fmt.Errorf("%s has no method %s", s.p.Obj.Name, method)
	}
	if len(args) != len(m.Params) {
		return nil, fmt.Errorf("%s takes %d argument(s), got %d", method, len(m.Params), len(args))
	}
	vals := make([]int32, len(args))
	for i, a := range args {
		if err := CheckValue(m.Params[i], a); err != nil {
			return nil, fmt.Errorf("argument %d of %s: %w", i+1, method, err)
		}
		vals[i] = int32(a)
	}
	return s.run(state, m, vals)
}

// run explores the single-threaded runs of m from state, depth first over
// the intermediate states (each visited once, so a loop that never
// returns ends rather than hangs).
func (s *Sequential) run(state string, m *ir.Method, args []int32) ([]Outcome, error) {
	base := s.m.base
	start := Decode(s.cur[:0], []byte(state))
	if !s.wellFormed(start) || start[base+ir.TPC] != 0 {
		return nil, fmt.Errorf("not a state of %s", s.p.Obj.Name)
	}
	start[base+ir.TPC] = m.Entry
	copy(start[base+ir.TLocals:], args)
	clear(s.seen)
	s.enc = Encode(s.enc[:0], s.x.Canonical(start, 0))
	first := string(s.enc)
	s.seen[first] = true
	s.work = append(s.work[:0], first)
	var outs []Outcome
	for len(s.work) > 0 {
		cur := s.work[len(s.work)-1]
		s.work = s.work[:len(s.work)-1]
		s.cur = Decode(s.cur[:0], []byte(cur))
		for {
			s.next = append(s.next[:0], s.cur...)
			s.m.mem, s.m.ci, s.m.err = s.next, 0, nil
			out := s.m.step()
			s.next = s.m.mem
			if f := s.m.err; f != nil {
				s.m.choices, s.m.limits = s.m.choices[:0], s.m.limits[:0]
				return nil, s.modelError(m, f)
			}
			if out.Kind != KBlocked {
				s.enc = Encode(s.enc[:0], s.x.Canonical(s.next, 0))
				enc := string(s.enc)
				switch {
				case out.Kind == KRet:
					o := Outcome{Next: enc}
					if out.hasValue {
						o.Value = m.FormatResult(out.value)
					}
					if !slices.Contains(outs, o) {
						outs = append(outs, o)
					}
				case !s.seen[enc]:
					if len(s.seen) >= s.maxRuns {
						s.m.choices, s.m.limits = s.m.choices[:0], s.m.limits[:0]
						return nil, fmt.Errorf("%s of %s: more than %d intermediate states in one call; a loop that never ends?", m.Name, s.p.Obj.Name, s.maxRuns)
					}
					s.seen[enc] = true
					s.work = append(s.work, enc)
				}
			}
			if !s.m.nextChoice() {
				break
			}
		}
	}
	return outs, nil
}

func (s *Sequential) modelError(m *ir.Method, f *Failure) error {
	where := s.p.Obj.Name
	if f.Step >= 0 {
		st := s.p.Steps[f.Step]
		where = fmt.Sprintf("%s: %s", s.p.Source.Position(st.Pos), st.Text)
	}
	return fmt.Errorf("%s: in %s of %s: %s", where, m.Name, s.p.Obj.Name, f.Msg)
}

// FormatValue renders a value of kind k as ret labels print it: EMPTY,
// true/false, or the integer.
func FormatValue(k check.Kind, v int) string { return ir.FormatValue(k, int32(v)) }

// ParseValue reads a value of type t as FormatValue prints it; EMPTY is
// an int. Ranges and magnitude are checked.
func ParseValue(t check.Type, text string) (int, error) {
	var v int
	switch {
	case t.Kind == check.Bool && text == "true":
		return 1, nil
	case t.Kind == check.Bool && text == "false":
		return 0, nil
	case t.Kind == check.Bool:
		return 0, fmt.Errorf("%q: expected true or false", text)
	case t.Kind != check.Int:
		return 0, fmt.Errorf("values of type %s cannot be written", t)
	case text == "EMPTY":
		v = int(ir.Empty)
	default:
		n, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil {
			return 0, fmt.Errorf("%q: expected an integer or EMPTY", text)
		}
		v = n
	}
	return v, CheckValue(t, v)
}

// CheckValue reports whether v fits type t (and the ±2^24 bound of ints).
func CheckValue(t check.Type, v int) error {
	if t.Kind == check.Bool && v != 0 && v != 1 {
		return fmt.Errorf("%d is not a bool", v)
	}
	if t.Kind == check.Int && v != int(ir.Empty) {
		if v > maxInt || v < -maxInt {
			return fmt.Errorf("%d exceeds ±%d", v, maxInt)
		}
		if t.HasRange && (int64(v) < t.Lo || int64(v) > t.Hi) {
			return fmt.Errorf("%d is outside the declared range %s", v, t)
		}
	}
	return nil
}

// Show renders a state for people: the shared variables by name, then the
// heap nodes as #id{field: value, …}, e.g. "Top=#1 #1{value: 2, next: null}".
func (s *Sequential) Show(state string) string {
	st := Decode(nil, []byte(state))
	lay := &s.p.Layout
	if !s.wellFormed(st) {
		return fmt.Sprintf("%q", state)
	}
	var parts []string
	off := int32(0)
	for i, v := range s.p.Obj.Shared {
		n, w := s.lens[i], int32(v.Type.Slots())
		vals := make([]string, 0, n/w)
		for k := int32(0); k+w <= n && off+k+w <= lay.Nshared; k += w {
			vals = append(vals, showTyped(v.Type, st[off+k:off+k+w]))
		}
		off += n
		if v.IsArray() {
			parts = append(parts, v.Name+"=["+strings.Join(vals, " ")+"]")
		} else if len(vals) == 1 {
			parts = append(parts, v.Name+"="+vals[0])
		}
	}
	for id := int32(1); id <= st[lay.HeapBase]; id++ {
		a := lay.NodeAddr(id)
		h := s.p.Obj.Heaps[lay.NodeType(st, a)-1]
		fs := make([]string, len(h.Fields))
		for i, f := range h.Fields {
			at := a + lay.Hdr + int32(f.Index)
			w := int32(f.Type.Slots())
			if f.Elems == 0 {
				fs[i] = f.Name + ": " + showTyped(f.Type, st[at:at+w])
				continue
			}
			elems := make([]string, f.Elems)
			for k := range elems {
				elems[k] = showTyped(f.Type, st[at+int32(k)*w:at+int32(k+1)*w])
			}
			fs[i] = f.Name + ": [" + strings.Join(elems, " ") + "]"
		}
		parts = append(parts, fmt.Sprintf("#%d%s{%s}", id, h.Name, strings.Join(fs, ", ")))
	}
	return strings.Join(parts, " ")
}

// wellFormed reports whether st has the layout of a state of the object:
// its length fits the node count, every node has a known heap type and
// every reference is null or a node.
func (s *Sequential) wellFormed(st []int32) bool {
	lay := &s.p.Layout
	if int32(len(st)) <= lay.HeapBase {
		return false
	}
	n := st[lay.HeapBase]
	if n < 0 || int64(len(st)) != int64(lay.HeapBase)+1+int64(n)*int64(lay.NodeSize) {
		return false
	}
	ref := func(v int32) bool { return v >= 0 && v <= n }
	for _, a := range lay.RefShared {
		if !ref(st[a]) {
			return false
		}
	}
	for id := int32(1); id <= n; id++ {
		a := lay.NodeAddr(id)
		h := lay.NodeType(st, a)
		if h < 1 || int(h) > len(s.p.Obj.Heaps) {
			return false
		}
		for _, f := range lay.RefFields[h] {
			if !ref(st[a+lay.Hdr+f]) {
				return false
			}
		}
	}
	return true
}

// showTyped renders the value of type t stored in the slots vals: a word
// as a construction, W(#1, false).
func showTyped(t check.Type, vals []int32) string {
	if t.Kind != check.Word {
		return showValue(t.Kind, vals[0])
	}
	if t.IsLoc() { // (node, offset): see ir's locs.go
		switch {
		case vals[0] != 0:
			return fmt.Sprintf("&#%d[field slot %d]", vals[0], vals[1])
		case vals[1] != 0:
			return fmt.Sprintf("&[shared slot %d]", vals[1]-1)
		}
		return "null loc"
	}
	var fs []string
	k := 0
	for _, f := range t.Word.Fields {
		if f.Elems == 0 {
			fs = append(fs, showValue(f.Type.Kind, vals[k]))
			k++
			continue
		}
		elems := make([]string, f.Elems) // an array field
		for e := range elems {
			elems[e] = showValue(f.Type.Kind, vals[k])
			k++
		}
		fs = append(fs, "["+strings.Join(elems, " ")+"]")
	}
	return t.Word.Name + "(" + strings.Join(fs, ", ") + ")"
}

// showValue renders a stored value of kind k; references as #id or null.
func showValue(k check.Kind, v int32) string {
	if k == check.Ref {
		if v == 0 {
			return "null"
		}
		return "#" + strconv.Itoa(int(v))
	}
	return ir.FormatValue(k, v)
}
