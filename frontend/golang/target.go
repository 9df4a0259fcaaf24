package golang

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// findType resolves cfg.Type in the package scope: a type name, with type
// arguments for a generic type (`Stack[int]`, `Map[uint8, bool]`), int
// for each type parameter when none are given.
func (t *Target) findType(spec string) error {
	if spec == "" {
		return fmt.Errorf("name the type to verify (--type Queue)")
	}
	e, err := parser.ParseExpr(spec)
	if err != nil {
		return fmt.Errorf("--type %q: expected a type name, optionally with type arguments (Stack[int])", spec)
	}
	var args []ast.Expr
	switch x := e.(type) {
	case *ast.IndexExpr:
		e, args = x.X, []ast.Expr{x.Index}
	case *ast.IndexListExpr:
		e, args = x.X, x.Indices
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return fmt.Errorf("--type %q: expected a type name of package %s, optionally with type arguments (Stack[int])", spec, t.Pkg.Pkg.Name())
	}
	tn, ok := t.Pkg.Pkg.Scope().Lookup(id.Name).(*types.TypeName)
	if !ok {
		return fmt.Errorf("--type %s: package %s has no type %s", spec, t.Pkg.Pkg.Path(), id.Name)
	}
	named, ok := types.Unalias(tn.Type()).(*types.Named)
	if !ok {
		return fmt.Errorf("--type %s: %s is not a defined type", spec, id.Name)
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return t.errAt(tn.Pos(), "type %s is not a struct: linbis verifies a struct type whose pointer has the methods", id.Name)
	}
	tparams := named.TypeParams()
	if tparams.Len() == 0 {
		if len(args) > 0 {
			return fmt.Errorf("--type %s: %s is not generic", spec, id.Name)
		}
		t.Type = named
		return nil
	}
	targs := make([]types.Type, tparams.Len())
	switch {
	case len(args) == 0:
		for i := range targs {
			targs[i] = types.Typ[types.Int]
		}
	case len(args) != len(targs):
		return fmt.Errorf("--type %s: %s has %d type parameters, got %d type arguments", spec, id.Name, len(targs), len(args))
	default:
		for i, a := range args {
			tv, err := types.Eval(t.Fset, t.Pkg.Pkg, token.NoPos, types.ExprString(a))
			if err != nil || !tv.IsType() {
				return fmt.Errorf("--type %s: %s is not a type of package %s", spec, types.ExprString(a), t.Pkg.Pkg.Name())
			}
			targs[i] = tv.Type
		}
	}
	inst, err := types.Instantiate(nil, named, targs, true)
	if err != nil {
		return fmt.Errorf("--type %s: %v", spec, err)
	}
	t.Type = inst.(*types.Named)
	return nil
}

// typeName is the type's name for messages, with its type arguments.
func (t *Target) typeName() string {
	return types.TypeString(t.Type, types.RelativeTo(t.Pkg.Pkg))
}

// findMethods selects the client's methods: those named (in the order
// named), or every exported method of *T the client can call (integer,
// bool and any parameters), in the order of their declarations, but
// those promoted from an embedded field of another package's type (Lock
// and Unlock of an embedded sync.Mutex), which --methods may name. Their
// results must be integers, bool or any: they are printed in ret labels.
func (t *Target) findMethods(names []string) error {
	mset := t.Prog.MethodSets.MethodSet(types.NewPointer(t.Type))
	byName := map[string]*types.Selection{}
	var all []*types.Selection
	for sel := range mset.Methods() {
		byName[sel.Obj().Name()] = sel
		all = append(all, sel)
	}
	slices.SortStableFunc(all, func(a, b *types.Selection) int { return int(a.Obj().Pos() - b.Obj().Pos()) })
	var chosen []*types.Selection
	if names == nil {
		for _, sel := range all {
			if sel.Obj().Exported() && sel.Obj().Pkg() == t.Pkg.Pkg && clientParams(sel.Obj().Type().(*types.Signature)) == nil {
				chosen = append(chosen, sel)
			}
		}
		if len(chosen) == 0 {
			return fmt.Errorf("*%s has no exported method whose parameters are integers, bool or any: name the client's methods with --methods", t.typeName())
		}
	} else {
		for _, name := range names {
			sel, ok := byName[name]
			if !ok {
				return fmt.Errorf("--methods: *%s has no method %s", t.typeName(), name)
			}
			if p := clientParams(sel.Obj().Type().(*types.Signature)); p != nil {
				return t.errAt(p.Pos(), "parameter %s of %s has type %s: the client passes only integers, bool and any", p.Name(), name, p.Type())
			}
			chosen = append(chosen, sel)
		}
	}
	for _, sel := range chosen {
		sig := sel.Obj().Type().(*types.Signature)
		for r := range sig.Results().Variables() {
			if !clientValue(r.Type()) {
				return t.errAt(sel.Obj().Pos(), "a result of %s has type %s: the client's methods return only integers, bool and any (they are printed in ret labels)", sel.Obj().Name(), r.Type())
			}
		}
		fn := t.Prog.MethodValue(sel)
		if fn == nil {
			return t.errAt(sel.Obj().Pos(), "method %s could not be built", sel.Obj().Name())
		}
		t.Methods = append(t.Methods, fn)
	}
	return nil
}

// clientParams returns the first parameter the client cannot pass, nil
// if there is none.
func clientParams(sig *types.Signature) *types.Var {
	for p := range sig.Params().Variables() {
		if !clientValue(p.Type()) {
			return p
		}
	}
	return nil
}

// clientValue reports whether values of type typ can be passed by the
// client and printed in labels: integers, bool, any.
func clientValue(typ types.Type) bool {
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsInteger|types.IsBoolean) != 0
	case *types.Interface:
		return u.Empty()
	}
	return false
}

// findCtor finds the constructor: the call spec (`NewRing(2)`) if given,
// else NewT() or New() when it returns *T; none means the zero value.
func (t *Target) findCtor(spec string) error {
	ptr := types.NewPointer(t.Type)
	if spec == "" {
		base := t.Type.Origin().Obj().Name()
		for _, name := range []string{"New" + base, "New"} {
			fn, ok := t.Pkg.Pkg.Scope().Lookup(name).(*types.Func)
			if !ok {
				continue
			}
			sig := t.instanceSig(fn)
			if sig == nil || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), ptr) {
				continue
			}
			if sig.Params().Len() > 0 {
				return t.errAt(fn.Pos(), "constructor %s has parameters: give its arguments with --new '%s(…)'", name, name)
			}
			return t.setCtor(fn)
		}
		return nil
	}
	e, err := parser.ParseExpr(spec)
	call, ok := e.(*ast.CallExpr)
	if err != nil || !ok {
		return fmt.Errorf("--new %q: expected a call of a function of package %s with constant arguments (NewRing(2))", spec, t.Pkg.Pkg.Name())
	}
	id, ok := call.Fun.(*ast.Ident)
	if !ok {
		return fmt.Errorf("--new %q: expected a call of a function of package %s by its name", spec, t.Pkg.Pkg.Name())
	}
	fn, ok := t.Pkg.Pkg.Scope().Lookup(id.Name).(*types.Func)
	if !ok {
		return fmt.Errorf("--new %s: package %s has no function %s", spec, t.Pkg.Pkg.Path(), id.Name)
	}
	sig := t.instanceSig(fn)
	if sig == nil || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), ptr) {
		return t.errAt(fn.Pos(), "%s does not return *%s", id.Name, t.typeName())
	}
	// The whole call is type-checked (argument count and types, constant
	// conversions), then each argument evaluated to its constant.
	whole := spec
	if targs := t.Type.TypeArgs(); fn.Type().(*types.Signature).TypeParams().Len() > 0 && targs != nil {
		// A generic constructor takes the verified type's type arguments.
		var as []string
		for a := range targs.Types() {
			as = append(as, types.TypeString(a, types.RelativeTo(t.Pkg.Pkg)))
		}
		whole = id.Name + "[" + strings.Join(as, ", ") + "]" + strings.TrimPrefix(types.ExprString(call), id.Name)
	}
	if _, err := types.Eval(t.Fset, t.Pkg.Pkg, token.NoPos, whole); err != nil {
		return fmt.Errorf("--new %s: %v", spec, err)
	}
	for i, a := range call.Args {
		tv, err := types.Eval(t.Fset, t.Pkg.Pkg, token.NoPos, types.ExprString(a))
		if err != nil || tv.Value == nil {
			return fmt.Errorf("--new %s: argument %s is not a constant", spec, types.ExprString(a))
		}
		pt := sig.Params().At(min(i, sig.Params().Len()-1)).Type()
		if !clientValue(pt) || tv.Value.Kind() != constant.Int && tv.Value.Kind() != constant.Bool {
			return fmt.Errorf("--new %s: argument %s: only integer and bool arguments are supported", spec, types.ExprString(a))
		}
		t.CtorArgs = append(t.CtorArgs, ssa.NewConst(tv.Value, pt))
	}
	return t.setCtor(fn)
}

// instanceSig returns fn's signature, instantiated with the verified
// type's type arguments if fn is generic (a generic constructor takes
// the type's), nil if they do not fit.
func (t *Target) instanceSig(fn *types.Func) *types.Signature {
	sig := fn.Type().(*types.Signature)
	if sig.TypeParams().Len() == 0 {
		return sig
	}
	targs := t.Type.TypeArgs()
	if targs == nil || targs.Len() != sig.TypeParams().Len() {
		return nil
	}
	inst, err := types.Instantiate(nil, sig, slices.Collect(targs.Types()), true)
	if err != nil {
		return nil
	}
	return inst.(*types.Signature)
}

// setCtor makes fn the constructor: for a generic one, its instance for
// the verified type's type arguments.
func (t *Target) setCtor(fn *types.Func) error {
	if fn.Type().(*types.Signature).TypeParams().Len() == 0 {
		t.Ctor = t.Prog.FuncValue(fn)
		return nil
	}
	inst, err := t.instance(fn)
	if err != nil {
		return t.errAt(fn.Pos(), "generic constructor %s: %v", fn.Name(), err)
	}
	t.Ctor = inst
	return nil
}

// MethodName is the name of a client's method as labels print it.
func MethodName(fn *ssa.Function) string {
	name := fn.Name()
	if i := strings.LastIndexByte(name, '$'); i >= 0 { // wrappers: M$bound, M$thunk
		name = name[:i]
	}
	return name
}
