// Package golang is the Go front end of linbis. It loads a Go package
// with go/packages (the user's module, their go.mod), builds its SSA form
// with go/ssa, finds the concurrent type to verify (instantiating a
// generic one), the most-general client's methods and the constructor
// that makes the object, and checks that every function those reach is
// inside the subset of Go the front end translates (frontend/GO.md):
// each construct outside it is one error line `file:line:col: <construct>
// is not supported (…)`, never a panic or a silent mis-translation.
//
// Only what the client's methods and the constructor reach is checked:
// the rest of the package, and its tests, may use anything.
//
// Target.Model then translates the target into a model of the modeling
// language whose statements cite their Go lines (translate.go, lower.go),
// which the .lin front end compiles and every route of linbis verifies.
package golang

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/linbis/linbis/frontend/syntax"
)

// Config says how the object and its client are made from a package.
type Config struct {
	// Type names the type to verify: `Queue`, or `Stack[int]` to
	// instantiate a generic type (a generic type named without type
	// arguments gets int for each).
	Type string
	// Methods, if not nil, names the client's methods (exported or not);
	// otherwise they are the exported methods of *T whose parameters are
	// integers, bool or any.
	Methods []string
	// New, if not empty, is the constructor call, `NewRing(2)`, with
	// constant arguments; otherwise NewT() or New() returning *T is used
	// if the package has one, else the type's zero value.
	New string
	// Spec, if not empty, names a sequential reference type of the
	// package with the client's methods (same names and signatures),
	// whose methods, each run as one atomic step, are the specification;
	// otherwise the specification is the type's own methods run so
	// (spec auto).
	Spec string
	// Only restricts threads (from 1) to some of the client's methods, as
	// the modeling language's `only T: m, n` (a single-producer or
	// work-stealing structure's owner); nil means every thread calls every
	// method.
	Only map[int][]string
}

// Package is a loaded Go package in SSA form.
type Package struct {
	Fset *token.FileSet // the positions of the loaded files
	Prog *ssa.Program   // the SSA program: the package and its dependencies
	Pkg  *ssa.Package   // the package loaded, in SSA form
	// cwd makes positions relative for messages.
	cwd string
}

// Target is a loaded package with the type to verify and everything its
// client reaches, checked to be inside the subset.
type Target struct {
	*Package
	// Type is the type verified (an instance, for a generic type).
	Type *types.Named
	// Methods are the client's methods, in the order of their
	// declarations (or as Config.Methods names them).
	Methods []*ssa.Function
	// Ctor is the constructor, nil for the zero value.
	Ctor     *ssa.Function
	CtorArgs []*ssa.Const // its arguments, constants; nil without one
	// Funcs are the functions the methods and the constructor reach
	// within the package (themselves included), callees before callers.
	Funcs []*ssa.Function
	// Globals are the package variables they use.
	Globals []*ssa.Global
	// poolNew holds the New function of each pool that has one, a
	// package variable or a field of type sync.Pool (pool.go).
	poolNew map[poolKey]*ssa.Function
	// LocPhis are the φ-nodes that merge addresses of fields, elements or
	// package variables (`p = &(*p).next` in a loop): their values are the
	// modeling language's locs.
	LocPhis map[*ssa.Phi]bool
	// locFields are the fields of pointer type in which the code stores
	// such addresses (`x.last = &x.slot[0]`): locs in the model, as are
	// the values loaded from them (LocVals).
	locFields  map[locField]bool
	LocGlobals map[*ssa.Global]bool // package variables that hold such addresses, likewise
	// LocResults are the results of the package's functions that return
	// such an address, by function, bit i for result i: locs too.
	LocResults map[*ssa.Function]uint64
	// LocVals are the values that are locs in the model: loaded from
	// those fields and package variables, or returned by those calls.
	LocVals map[ssa.Value]bool
	// AddrCasts are the addresses converted through unsafe.Pointer to
	// another pointer type ((*unsafe.Pointer)(unsafe.Pointer(&n.next))),
	// each with the address it converts: the same location.
	AddrCasts map[ssa.Value]ssa.Value
	// AddrResults are the functions with one return statement (inlined;
	// their other paths panic) whose one result is the address of a
	// struct or an array, a field or an element (func (q *Queue) cell(i
	// int) *cell { return &q.buf[i%n] }).
	AddrResults map[*ssa.Function]bool
	// AddrCalls are the calls of them: each call's value is that address,
	// followed statically as the address itself is.
	AddrCalls map[ssa.Value]bool
	// Only is Config.Only.
	Only map[int][]string
	// Spec is the reference type's target (Config.Spec), nil for spec
	// auto.
	Spec *Target
}

// Load loads the package named by pattern in the current directory and
// finds the target cfg describes (LoadPackage, then Target).
func Load(pattern string, cfg Config) (*Target, error) {
	p, err := LoadPackage(pattern, "")
	if err != nil {
		return nil, err
	}
	return p.Target(cfg)
}

// LoadPackage loads the package named by pattern (a directory, `./pkg`,
// or an import path) resolved in the module of dir ("" is the current
// directory), and builds its SSA form. Errors are a syntax.ErrorList, one
// line each, when they have positions.
func LoadPackage(pattern, dir string) (*Package, error) {
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	pc := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir: dir,
		// The package's own code only: its tests may use anything.
		Tests: false,
	}
	pkgs, err := packages.Load(pc, pattern)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", pattern, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("%s: names %d packages; name one package (a directory or an import path)", pattern, len(pkgs))
	}
	p := &Package{cwd: dir}
	var errs syntax.ErrorList
	packages.Visit(pkgs, nil, func(pkg *packages.Package) {
		for _, e := range pkg.Errors {
			errs.Add(p.errPos(e.Pos), e.Msg)
		}
	})
	if len(errs) > 1 {
		// The go command's own summary (no position) repeats the
		// compiler's errors, which go/packages reports with positions.
		errs = slices.DeleteFunc(errs, func(e *syntax.Error) bool { return e.Pos.Line == 0 })
	}
	if len(errs) > 0 {
		errs.RemoveMultiples()
		return nil, errs
	}
	if len(pkgs[0].GoFiles) == 0 {
		return nil, fmt.Errorf("%s: no Go files", pattern)
	}
	// Generic functions are instantiated (monomorphised) so that every
	// function translated has concrete types.
	prog, ssaPkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	p.Fset, p.Prog, p.Pkg = pkgs[0].Fset, prog, ssaPkgs[0]
	p.Pkg.Build()
	return p, nil
}

// Target finds the type cfg names in the package, its client's methods
// and its constructor, and checks what they reach.
func (p *Package) Target(cfg Config) (*Target, error) {
	var err error
	t := &Target{Package: p}
	if err := t.findType(cfg.Type); err != nil {
		return nil, err
	}
	if err := t.findMethods(cfg.Methods); err != nil {
		return nil, err
	}
	if err := t.findCtor(cfg.New); err != nil {
		return nil, err
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	t.Only = cfg.Only
	if cfg.Spec != "" {
		if t.Spec, err = t.specTarget(cfg.Spec); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// specTarget loads the reference type name with the client's methods,
// which must have the same signatures.
func (t *Target) specTarget(name string) (*Target, error) {
	var names []string
	for _, m := range t.Methods {
		names = append(names, MethodName(m))
	}
	s, err := t.Package.Target(Config{Type: name, Methods: names})
	if err != nil {
		return nil, err
	}
	for i, m := range t.Methods {
		a, b := m.Signature, s.Methods[i].Signature
		if !types.Identical(types.NewSignatureType(nil, nil, nil, a.Params(), a.Results(), a.Variadic()),
			types.NewSignatureType(nil, nil, nil, b.Params(), b.Results(), b.Variadic())) {
			return nil, t.errAt(s.Methods[i].Pos(), "--spec %s: method %s has signature %s, but %s's is %s", name, names[i], b, t.typeName(), a)
		}
	}
	return s, nil
}

// errPos converts go/packages' "file:line:col" (or "-") to a position.
func (t *Package) errPos(pos string) syntax.Position {
	parts := strings.Split(pos, ":")
	if len(parts) < 3 {
		return syntax.Position{File: pos}
	}
	var line, col int
	fmt.Sscan(parts[len(parts)-2], &line)
	fmt.Sscan(parts[len(parts)-1], &col)
	return syntax.Position{File: t.rel(strings.Join(parts[:len(parts)-2], ":")), Line: line, Col: col}
}

// Position returns pos as a position for messages, its file relative to
// the directory the package was loaded from when it lies below it.
func (t *Package) Position(pos token.Pos) syntax.Position {
	p := t.Fset.Position(pos)
	return syntax.Position{File: t.rel(p.Filename), Line: p.Line, Col: p.Column}
}

func (t *Package) rel(file string) string {
	if r, err := filepath.Rel(t.cwd, file); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return file
}

// errAt returns a one-line error at pos.
func (t *Package) errAt(pos token.Pos, format string, args ...any) error {
	var l syntax.ErrorList
	l.Add(t.Position(pos), fmt.Sprintf(format, args...))
	return l
}

// sortByPos orders functions by their position (synthetic ones last, by
// name), so that every run translates them in the same order.
func sortByPos(fns []*ssa.Function) {
	sort.SliceStable(fns, func(i, j int) bool {
		a, b := fns[i].Pos(), fns[j].Pos()
		if a != b {
			return a != token.NoPos && (b == token.NoPos || a < b)
		}
		return fns[i].String() < fns[j].String()
	})
}
