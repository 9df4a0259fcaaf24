// Package frontend reads models of concurrent objects written in the linbis
// modeling language and compiles them to the implementation and
// specification LTSs that the checkers compare. The language is described
// in LANGUAGE.md; the stages live in syntax (scanner, parser, AST), check
// (resolver and type checker), ir (the instructions), semantics (the
// machine) and explore (the breadth-first search that builds an LTS).
package frontend

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/explore"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/lts"
)

// Bounds are the bounds of the most-general client: Threads threads each
// performing up to Ops operations (-1: forever), each with any argument
// drawn from Values, and optionally restricted to some methods per thread.
type Bounds = ir.Bounds

// Model is a parsed and checked model.
type Model struct {
	// Name is the object's name.
	Name string
	// File is the file name the model was read from.
	File string
	// Program is the checked program (object, specification, client).
	Program *check.Program
	// SpecAuto reports whether the specification is `spec auto`.
	SpecAuto bool
}

// Parse parses and checks a model. The error, if any, is a
// syntax.ErrorList printed as "file:line:col: msg", one error per line.
func Parse(filename string, src []byte) (*Model, error) {
	ast, err := syntax.Parse(filename, src)
	if err != nil {
		return nil, err
	}
	prog, err := check.Check(ast)
	if err != nil {
		return nil, err
	}
	return &Model{Name: prog.Impl.Name, File: filename, Program: prog, SpecAuto: prog.Spec.Auto}, nil
}

// Default client bounds, used for what the client block leaves out.
const (
	DefaultThreads = ir.DefaultThreads
	DefaultOps     = ir.DefaultOps
)

// DefaultBounds returns the bounds of the model's client block, with
// 2 threads, 2 operations and values 1..2 for anything it leaves out.
func (m *Model) DefaultBounds() Bounds { return ir.ClientBounds(m.Program) }

// Options tune Compile. The zero Options are the defaults: a
// garbage-collected heap, at most DefaultMaxStates states per LTS and
// DefaultMaxNodes live nodes, one worker per core.
type Options = semantics.Options

// DefaultMaxStates is the bound on the states of one LTS when
// Options.MaxStates is 0.
const DefaultMaxStates = semantics.DefaultMaxStates

// DefaultMaxNodes is the bound on live heap nodes when Options.MaxNodes is 0.
const DefaultMaxNodes = semantics.DefaultMaxNodes

// DefaultOptions returns the zero Options, which are the defaults.
//
// Deprecated: write Options{}.
func DefaultOptions() Options { return Options{} }

// ErrStateLimit is wrapped by the error Compile returns when MaxStates is reached.
var ErrStateLimit = semantics.ErrStateLimit

// ModelError is a run-time error of the model (failed assert, null
// dereference, value out of range, heap exhausted, …) with its trace.
type ModelError = semantics.ModelError

// AssertionError is the name the API contract uses for ModelError.
type AssertionError = ModelError

// Compile explores the implementation and the specification of m under b.
// Both LTSs carry lts.Meta: the thread and source step of every transition.
func Compile(m *Model, b Bounds, opts Options) (impl, spec *lts.LTS, err error) {
	impl, err = CompileImpl(m, b, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("implementation %s: %w", m.Name, err)
	}
	spec, err = CompileSpec(m, b, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("specification of %s: %w", m.Name, err)
	}
	if err := checkSpecDivergence(spec); err != nil {
		return nil, nil, fmt.Errorf("specification of %s: %w", m.Name, err)
	}
	return impl, spec, nil
}

// CheckSpec checks a specification LTS made by CompileSpec: it must not
// have a τ-cycle (see ErrSpecDivergent). Compile checks it already.
func CheckSpec(spec *lts.LTS) error { return checkSpecDivergence(spec) }

// ErrSpecDivergent is wrapped by the error Compile returns when the
// specification has a τ-cycle: a specification must always be able to
// finish its operations (Yang et al., Lemma 5.3), so its method bodies
// belong in atomic blocks.
var ErrSpecDivergent = errors.New("the specification has a τ-cycle")

// checkSpecDivergence reports a τ-cycle of the spec with a source step on it.
func checkSpecDivergence(spec *lts.LTS) error {
	comp, count := lts.TauSCCs(spec)
	div := lts.DivergentComponents(spec, comp, count)
	for t := range spec.Src {
		if spec.Label[t] == lts.Tau && comp[spec.Src[t]] == comp[spec.Dst[t]] && div[comp[spec.Src[t]]] {
			if st, ok := spec.StepOf(int32(t)); ok {
				return fmt.Errorf("%w at %s (thread %d); write the method bodies as atomic blocks", ErrSpecDivergent, st, spec.ThreadOf(int32(t)))
			}
			return ErrSpecDivergent
		}
	}
	return nil
}

// CompileImpl explores only the implementation.
func CompileImpl(m *Model, b Bounds, opts Options) (*lts.LTS, error) {
	return explore.Explore(m.Program, m.Program.Impl, b, opts)
}

// CompileSpec explores only the specification.
func CompileSpec(m *Model, b Bounds, opts Options) (*lts.LTS, error) {
	return explore.Explore(m.Program, m.Program.Spec, b, opts)
}

// Listing writes the steps of m's implementation and specification as
// the explorer executes them under b: every method's instructions, where
// the steps end and which locals are dead (see ir.Listing).
func Listing(w io.Writer, m *Model, b Bounds, opts Options) error {
	fmt.Fprintln(w, "// ▶ a step that has touched shared state stops before this instruction (▶p: unless")
	fmt.Fprintln(w, "// the nodes it reaches are private); ↺ a back edge: the step ends after it (↻: a")
	fmt.Fprintln(w, "// loop doing local work only, folded into the step); │ inside an atomic block, which")
	fmt.Fprintln(w, "// is one step; dead: the locals cleared when a step ends there.")
	mode := ir.Mode{Explicit: opts.Explicit, FineGrained: opts.FineGrained}
	fmt.Fprintf(w, "\n// implementation %s\n", m.Program.Impl.Name)
	if err := ir.Listing(w, m.Program, m.Program.Impl, b, mode); err != nil {
		return err
	}
	if m.Program.Spec.Auto {
		fmt.Fprintf(w, "\n// specification: spec auto (each method body one atomic block)\n")
	} else {
		fmt.Fprintf(w, "\n// specification %s\n", m.Program.Spec.Name)
	}
	return ir.Listing(w, m.Program, m.Program.Spec, b, mode)
}

//go:embed examples/*.lin
var examples embed.FS

// Examples returns the names of the bundled models, e.g. "treiber".
func Examples() []string {
	entries, _ := examples.ReadDir("examples")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".lin"))
	}
	sort.Strings(names)
	return names
}

// Example returns the source of a bundled model.
func Example(name string) ([]byte, error) {
	src, err := examples.ReadFile(path.Join("examples", name+".lin"))
	if err != nil {
		return nil, fmt.Errorf("no bundled model %q (have %s)", name, strings.Join(Examples(), ", "))
	}
	return src, nil
}

// ParseExample returns the bundled model name, parsed and checked, as the
// file name.lin (Example, then Parse).
func ParseExample(name string) (*Model, error) {
	src, err := Example(name)
	if err != nil {
		return nil, err
	}
	return Parse(name+".lin", src)
}

// IsStateLimit reports whether err says that the state limit was reached.
func IsStateLimit(err error) bool { return errors.Is(err, ErrStateLimit) }
