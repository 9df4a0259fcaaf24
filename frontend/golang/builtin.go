package golang

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Intrinsic names a function or method of the standard library that the
// front end implements itself rather than translating: sync/atomic, the
// locks of sync, runtime.Gosched.
type Intrinsic struct {
	// Pkg is the package path (sync/atomic, sync, runtime).
	Pkg string
	// Recv is the receiver's type name for a method (Int64, Pointer,
	// Mutex), "" for a function.
	Recv string
	// Name is the function's or method's name (LoadInt32, CompareAndSwap).
	Name string
}

// String is the intrinsic's name as Go writes it: sync/atomic.AddInt64,
// (*sync.Mutex).Lock.
func (i Intrinsic) String() string {
	if i.Recv != "" {
		return "(*" + i.Pkg + "." + i.Recv + ")." + i.Name
	}
	return i.Pkg + "." + i.Name
}

// intrinsics are the functions and methods the front end implements.
var intrinsics = func() map[Intrinsic]bool {
	m := map[Intrinsic]bool{{Pkg: "runtime", Name: "Gosched"}: true}
	ops := []string{"Load", "Store", "Add", "Swap", "CompareAndSwap", "And", "Or"}
	for _, typ := range []string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr"} {
		for _, op := range ops {
			m[Intrinsic{Pkg: "sync/atomic", Name: op + typ}] = true
			m[Intrinsic{Pkg: "sync/atomic", Recv: typ, Name: op}] = true
		}
	}
	for _, op := range ops[:5] {
		if op != "Add" {
			m[Intrinsic{Pkg: "sync/atomic", Name: op + "Pointer"}] = true
			for _, typ := range []string{"Bool", "Pointer", "Value"} {
				m[Intrinsic{Pkg: "sync/atomic", Recv: typ, Name: op}] = true
			}
		}
	}
	for _, op := range []string{"Lock", "Unlock", "TryLock"} {
		m[Intrinsic{Pkg: "sync", Recv: "Mutex", Name: op}] = true
		m[Intrinsic{Pkg: "sync", Recv: "RWMutex", Name: op}] = true
	}
	for _, op := range []string{"RLock", "RUnlock", "TryRLock"} {
		m[Intrinsic{Pkg: "sync", Recv: "RWMutex", Name: op}] = true
	}
	m[Intrinsic{Pkg: "sync", Recv: "Pool", Name: "Get"}] = true
	m[Intrinsic{Pkg: "sync", Recv: "Pool", Name: "Put"}] = true
	return m
}()

// intrinsicOf returns the standard-library function or method fn stands
// for (an instance of a generic method is named by its origin), and
// whether the front end implements it.
func intrinsicOf(fn *ssa.Function) (Intrinsic, bool) {
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return Intrinsic{}, false
	}
	obj = obj.Origin()
	in := Intrinsic{Pkg: obj.Pkg().Path(), Name: obj.Name()}
	if recv := obj.Type().(*types.Signature).Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			in.Recv = n.Obj().Name()
		}
	}
	return in, intrinsics[in]
}

// builtinType reports whether a named type of the standard library is one
// the front end implements as a value of its own (an atomic, a lock), and
// the construct's name if it is one it refuses.
func builtinType(n *types.Named) (ok bool, refused string) {
	obj := n.Obj()
	if obj.Pkg() == nil {
		return false, ""
	}
	switch obj.Pkg().Path() {
	case "sync/atomic":
		switch obj.Name() {
		case "Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Bool", "Pointer", "Value":
			return true, ""
		}
		return false, "sync/atomic." + obj.Name()
	case "sync":
		switch obj.Name() {
		case "Mutex", "RWMutex", "Pool":
			return true, ""
		}
		return false, "sync." + obj.Name()
	}
	return false, ""
}
