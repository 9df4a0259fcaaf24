package golang

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"github.com/linbis/linbis/frontend/intop"
)

// Go's integers at their widths: arithmetic, the bitwise operators,
// shifts, unsigned division and order, and conversions are written as the
// modeling language's integer operations of Go's types (package intop:
// `add_u64(x, y)`), so that they wrap as Go's do; a value of 32 bits is
// held as its bits, one of 64 as its signed view, or as a code when that
// does not fit in 32 bits (package intop).

// intKind returns the kind of an integer type: a basic one (int, uint
// and uintptr are 64 bits) or an atomic integer of sync/atomic.
func intKind(t types.Type) (intop.Kind, bool) {
	if n, ok := types.Unalias(t).(*types.Named); ok && isBuiltinType(t) {
		switch n.Obj().Name() {
		case "Int32":
			return intop.I32, true
		case "Int64":
			return intop.I64, true
		case "Uint32":
			return intop.U32, true
		case "Uint64", "Uintptr":
			return intop.U64, true
		}
		return 0, false
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return 0, false
	}
	switch b.Kind() {
	case types.Int8:
		return intop.I8, true
	case types.Int16:
		return intop.I16, true
	case types.Int32:
		return intop.I32, true
	case types.Uint8:
		return intop.U8, true
	case types.Uint16:
		return intop.U16, true
	case types.Uint32:
		return intop.U32, true
	case types.Uint, types.Uint64, types.Uintptr:
		return intop.U64, true
	}
	return intop.I64, true
}

// intOps maps Go's operators to the integer operations.
var intOps = map[token.Token]intop.Op{
	token.ADD: intop.Add, token.SUB: intop.Sub, token.MUL: intop.Mul, token.QUO: intop.Quo, token.REM: intop.Rem,
	token.AND: intop.And, token.OR: intop.Or, token.XOR: intop.Xor, token.AND_NOT: intop.AndNot,
	token.SHL: intop.Shl, token.SHR: intop.Shr,
	token.LSS: intop.Lss, token.LEQ: intop.Leq, token.GTR: intop.Gtr, token.GEQ: intop.Geq,
}

// intCall returns the model text of the operation op of kind k (from: a
// conversion's source kind or a shift count's kind) on args.
func intCall(op intop.Op, k, from intop.Kind, args ...string) string {
	return intop.Make(op, k, from).Name() + "(" + strings.Join(args, ", ") + ")"
}

// intBinary returns the model text of the Go operation x op y on
// integers of type typ (the count's type ytyp for a shift), and false if
// the modeling language's own operator says it: equality, and the order
// of the types whose values are held as they are (the signed ones, and
// the unsigned ones of 8 and 16 bits).
func intBinary(op token.Token, typ, ytyp types.Type, x, y string) (string, bool) {
	k, ok := intKind(typ)
	o, isOp := intOps[op]
	if !ok || !isOp {
		return "", false
	}
	var from intop.Kind
	switch o {
	case intop.Lss, intop.Leq, intop.Gtr, intop.Geq:
		if !k.Unsigned() && k.Bits() < 64 || k.Bits() < 32 {
			return "", false
		}
	case intop.Shl, intop.Shr:
		from, _ = intKind(ytyp)
	}
	return intCall(o, k, from, x, y), true
}

// less returns the model text of x < y for integers of type typ.
func less(typ types.Type, x, y string) string {
	if s, ok := intBinary(token.LSS, typ, nil, x, y); ok {
		return s
	}
	return x + " < " + y
}

// bigConstant returns the model text of a 32-bit value below -2^24, which
// the modeling language's arithmetic does not reach: made by an integer
// operation.
func bigConstant(v int32) string {
	if v == -1<<31 {
		return intCall(intop.Sub, intop.I32, 0, "(-1)", "2147483647")
	}
	return intCall(intop.Sub, intop.I32, 0, "0", fmt.Sprint(-int64(v)))
}
