package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// instance returns the instance of the generic function fn of the package
// for the verified type's type arguments (a generic constructor,
// `NewStack[T]()` for `Stack[int]`). go/ssa builds only the instances
// the program uses, and has no call to make one: a small package is made
// that names this one, type-checked against the package already loaded,
// and built into the same program, which builds the instance.
func (t *Target) instance(fn *types.Func) (*ssa.Function, error) {
	targs := t.Type.TypeArgs()
	var args []string
	qual := func(p *types.Package) string {
		if p == t.Pkg.Pkg {
			return "p"
		}
		return p.Name() // refused below: not imported
	}
	for a := range targs.Types() {
		args = append(args, types.TypeString(a, qual))
	}
	src := fmt.Sprintf("package linbisinstance\n\nimport p %q\n\nvar F = p.%s[%s]\n", t.Pkg.Pkg.Path(), fn.Name(), strings.Join(args, ", "))
	f, err := parser.ParseFile(t.Fset, "linbis-instance.go", src, 0)
	if err != nil {
		return nil, err
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Instances: map[*ast.Ident]types.Instance{},
		Scopes: map[ast.Node]*types.Scope{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if path == t.Pkg.Pkg.Path() {
			return t.Pkg.Pkg, nil
		}
		return nil, fmt.Errorf("%s is not the package verified", path)
	})}
	pkg, err := conf.Check("linbisinstance", t.Fset, []*ast.File{f}, info)
	if err != nil {
		return nil, fmt.Errorf("the type arguments %s of %s: %v", strings.Join(args, ", "), fn.Name(), err)
	}
	sp := t.Prog.CreatePackage(pkg, []*ast.File{f}, info, false)
	sp.Build()
	for _, b := range sp.Func("init").Blocks {
		for _, in := range b.Instrs {
			if st, ok := in.(*ssa.Store); ok {
				if inst, ok := st.Val.(*ssa.Function); ok && inst.Object() == fn {
					return inst, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("no instance of %s built", fn.Name())
}

// importerFunc is a types.Importer made of a function.
type importerFunc func(path string) (*types.Package, error)

// Import imports the package of path.
func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
