// Package historyspec checks recorded histories against linbis models:
// it adapts the atomic spec object of a model (run by the frontend's
// sequential interpreter, one method call to completion per step) to the
// sequential specification that package history checks a history
// against. `linbis history FILE --spec M.lin` uses it.
package historyspec

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
)

// Spec adapts a model's spec object to model.Spec.
//
// A spec may be nondeterministic, while model.Spec is a deterministic
// state machine; so a Spec state is the set of spec states reachable
// by the operations so far with their recorded results (the subset
// construction), encoded as its sorted elements, each preceded by its
// length as a uvarint. For a deterministic spec every set is a singleton.
//
// The checker runs partitions in parallel and the interpreter is
// single-threaded, so calls are serialised by mu; their outcomes are
// cached, as the search asks for the same (state, call) many times.
type Spec struct {
	name string
	seq  *semantics.Sequential
	mu   sync.Mutex
	memo map[string][]semantics.Outcome
	key  []byte // buffer for memo keys
	err  error  // the first model error met while stepping
}

// New adapts m's spec object. It fails when m has no spec object the
// sequential interpreter can run.
func New(m *frontend.Model) (*Spec, error) {
	seq, err := semantics.NewSequential(m.Program, m.Program.Spec, semantics.SequentialOptions{})
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s (spec %s)", strings.TrimSuffix(m.File, " (bundled)"), m.Program.Spec.Name)
	return &Spec{name: name, seq: seq, memo: map[string][]semantics.Outcome{}}, nil
}

// Name names the model file and its spec object.
func (s *Spec) Name() string { return s.name }

// Init is the singleton set of the spec's initial state.
func (s *Spec) Init() string { return joinStates([]string{s.seq.Init()}) }

// Partition checks each key as an independent instance of the object
// (P-compositionality); a history without keys is one partition.
func (s *Spec) Partition(ops []record.Op) [][]int { return model.PartitionByKey(ops) }

// Validate checks op's method, arity and values against the spec's
// signatures.
func (s *Spec) Validate(op *record.Op) error {
	sig, ok := s.seq.Method(op.Method)
	if !ok {
		var names []string
		for _, m := range s.seq.Methods() {
			names = append(names, m.Name)
		}
		return fmt.Errorf("%s: model %s has no method %q: expected one of %s", op, s.name, op.Method, strings.Join(names, ", "))
	}
	if len(op.Args) != len(sig.Params) {
		return fmt.Errorf("%s: %s of model %s takes %d argument(s), found %d", op, op.Method, s.name, len(sig.Params), len(op.Args))
	}
	for i, a := range op.Args {
		if _, err := semantics.ParseValue(sig.Params[i], format.Text(a)); err != nil {
			return fmt.Errorf("%s: argument %d: %w", op, i+1, err)
		}
	}
	if op.Unknown {
		return nil
	}
	if _, err := expected(sig, op); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// expected renders op's recorded result as the spec prints it: "" for a
// method without a result (whatever was recorded: Jepsen histories echo
// the argument of a write as its value), EMPTY for null, integers without
// a sign or leading zeros. A string value is read by its text (a JSON
// history writes EMPTY as "EMPTY").
func expected(sig semantics.Signature, op *record.Op) (string, error) {
	r := format.Text(op.Result)
	if sig.Result == check.Void {
		return "", nil
	}
	if r == record.Nil && sig.Result == check.Int {
		return "EMPTY", nil
	}
	v, err := semantics.ParseValue(check.Type{Kind: sig.Result}, r)
	if err != nil {
		return "", fmt.Errorf("output of %s: %w", op.Method, err)
	}
	return semantics.FormatValue(sig.Result, v), nil
}

// Step runs op on every state of the set and keeps the successors of the
// outcomes that match its recorded result.
func (s *Spec) Step(state string, op *record.Op) (bool, string) {
	sig, _ := s.seq.Method(op.Method)
	want, _ := expected(sig, op)
	args := make([]int, len(op.Args))
	for i, a := range op.Args {
		args[i], _ = semantics.ParseValue(sig.Params[i], format.Text(a))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var next []string
	for _, st := range splitStates(state) {
		outs, err := s.call(st, op.Method, args)
		if err != nil {
			if s.err == nil {
				s.err = fmt.Errorf("spec %s, on %s in state %s: %w", s.name, op, s.seq.Show(st), err)
			}
			return false, state
		}
		for _, o := range outs {
			if op.Unknown || o.Value == want {
				next = append(next, o.Next)
			}
		}
	}
	if len(next) == 0 {
		return false, state
	}
	return true, joinStates(next)
}

// call is Sequential.Call, memoised.
func (s *Spec) call(state, method string, args []int) ([]semantics.Outcome, error) {
	key := append(s.key[:0], method...)
	for _, a := range args {
		key = strconv.AppendInt(append(key, ','), int64(a), 10)
	}
	key = append(append(key, 0), state...)
	s.key = key
	if outs, ok := s.memo[string(key)]; ok {
		return outs, nil
	}
	outs, err := s.seq.Call(state, method, args)
	if err == nil {
		s.memo[string(key)] = outs
	}
	return outs, err
}

// Err returns the first model error met while stepping (a failed assert
// or null dereference in the spec): the verdict is then not to be trusted.
func (s *Spec) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// ShowState renders a set of spec states; a singleton as its one state.
func (s *Spec) ShowState(state string) string {
	states := splitStates(state)
	parts := make([]string, len(states))
	for i, st := range states {
		parts[i] = s.seq.Show(st)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "one of {" + strings.Join(parts, " | ") + "}"
}

// joinStates encodes a set of states (sorted, without duplicates).
func joinStates(states []string) string {
	sort.Strings(states)
	var b []byte
	for i, st := range states {
		if i > 0 && st == states[i-1] {
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(st)))
		b = append(b, st...)
	}
	return string(b)
}

// splitStates decodes a set of states.
func splitStates(set string) []string {
	var out []string
	for len(set) > 0 {
		n, k := binary.Uvarint([]byte(set[:min(len(set), binary.MaxVarintLen64)]))
		if k <= 0 || uint64(len(set)-k) < n {
			break // not an encoding of ours: no state
		}
		out = append(out, set[k:k+int(n)])
		set = set[k+int(n):]
	}
	return out
}
