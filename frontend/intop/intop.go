// Package intop is Go's integer arithmetic at its types' widths, on the
// machine's 32-bit values: the operations the Go front end writes into a
// model (`add_u64(x, y)`, `shl_u8(x, 3)`, `conv_u32_i64(x)`, …), which
// the modeling language accepts as builtin functions, so that wrap-around,
// the bitwise operators, unsigned division and unsigned order mean what
// they mean in Go.
//
// A value of a Go integer type is held in one int32 slot:
//   - 8 and 16 bits: its value (0..255 for a uint8);
//   - 32 bits: its bits (a uint32 of 2^32-1 is held as -1), every value exact;
//   - 64 bits: its signed view (^uint64(0) is -1, so `Add(^uint64(0))`
//     decrements) while that lies in [DirectMin, 2^31), DirectMin being
//     -2^31+2^28; any other value (2^40, math.MaxInt64, a version packed
//     above a 32-bit index) is held as a code below DirectMin, one per
//     value, from a table of the values the runs have made (big.go).
//     Every 64-bit value is exact; only more than 2^28 distinct values
//     beyond the range is a fault (Overflow), a model error, never a
//     wrong value.
//
// An operation decodes its operands to 64 bits as its kind says, computes
// as Go does on that type (wrapping at the width, truncating division,
// shifts by any count), and encodes the result. Comparisons give 0 or 1.
// Since each 64-bit value has one slot value, equality is the slots'
// equality; the order of 64-bit values is not the slots' order (a code
// is below every value held as itself), so the front end compares them
// with the operations here.
package intop

import (
	"strings"
)

// Kind is a Go integer type: its width and signedness.
type Kind uint8

// The kinds; int, uint and uintptr are 64 bits.
const (
	I8 Kind = iota + 1
	I16
	I32
	I64
	U8
	U16
	U32
	U64
)

var kindNames = [...]string{I8: "i8", I16: "i16", I32: "i32", I64: "i64", U8: "u8", U16: "u16", U32: "u32", U64: "u64"}

// String is the kind's short name (u64), as the builtins' names spell it.
func (k Kind) String() string { return kindNames[k] }

// KindNamed returns the kind whose short name is s (u64).
func KindNamed(s string) (Kind, bool) {
	for k, n := range kindNames {
		if n == s && s != "" {
			return Kind(k), true
		}
	}
	return 0, false
}

// Bits is the kind's width.
func (k Kind) Bits() uint {
	return [...]uint{I8: 8, I16: 16, I32: 32, I64: 64, U8: 8, U16: 16, U32: 32, U64: 64}[k]
}

// Unsigned reports whether the kind is unsigned.
func (k Kind) Unsigned() bool { return k >= U8 }

// Op is an operation.
type Op uint8

// The operations: the arithmetic, bitwise and shift operators, the order
// comparisons, the conversion from another kind, and Join, which makes
// the value whose high and low 32 bits are its two operands (a 64-bit
// constant the model's literals do not reach, join_u64(hi, lo)).
const (
	Add Op = iota + 1
	Sub
	Mul
	Quo
	Rem
	And
	Or
	Xor
	AndNot
	Shl
	Shr
	Lss
	Leq
	Gtr
	Geq
	Conv
	Join
)

var opNames = [...]string{Add: "add", Sub: "sub", Mul: "mul", Quo: "quo", Rem: "rem", And: "and", Or: "or",
	Xor: "xor", AndNot: "andnot", Shl: "shl", Shr: "shr", Lss: "lt", Leq: "le", Gtr: "gt", Geq: "ge", Conv: "conv", Join: "join"}

// Code is an operation on a kind: op | kind<<5 | from<<9, where from is
// a conversion's source kind or a shift's count's kind. It is never 0.
type Code int32

// Make returns the code of op on kind k; from is a conversion's source
// kind or a shift's count's kind (0 for the other operations).
func Make(op Op, k, from Kind) Code { return Code(op) | Code(k)<<5 | Code(from)<<9 }

// Op is the code's operation.
func (c Code) Op() Op { return Op(c & 31) }

// Kind is the kind the operation works in (a conversion's target).
func (c Code) Kind() Kind { return Kind(c >> 5 & 15) }

// From is a conversion's source kind, or a shift's count's kind.
func (c Code) From() Kind { return Kind(c >> 9 & 15) }

// Args is the number of operands: 1 for a conversion, else 2.
func (c Code) Args() int {
	if c.Op() == Conv {
		return 1
	}
	return 2
}

// Compare reports whether the operation is a comparison (its value a bool).
func (c Code) Compare() bool { return c.Op() >= Lss && c.Op() <= Geq }

// Name is the builtin function's name: op_kind (add_u64), conv_from_kind
// (conv_u32_i64), or a shift's shl_kind_count (shl_u8_i64).
func (c Code) Name() string {
	switch c.Op() {
	case Conv:
		return "conv_" + c.From().String() + "_" + c.Kind().String()
	case Shl, Shr:
		return opNames[c.Op()] + "_" + c.Kind().String() + "_" + c.From().String()
	}
	return opNames[c.Op()] + "_" + c.Kind().String()
}

// Parse returns the code a builtin function's name stands for.
func Parse(name string) (Code, bool) {
	parts := strings.Split(name, "_")
	kind := func(s string) Kind {
		k, _ := KindNamed(s)
		return k
	}
	if len(parts) == 3 {
		a, b := kind(parts[1]), kind(parts[2])
		switch {
		case a == 0 || b == 0:
		case parts[0] == "conv":
			return Make(Conv, b, a), true
		case parts[0] == "shl":
			return Make(Shl, a, b), true
		case parts[0] == "shr":
			return Make(Shr, a, b), true
		}
		return 0, false
	}
	if len(parts) != 2 {
		return 0, false
	}
	k := kind(parts[1])
	for op, n := range opNames {
		if n == parts[0] && n != "conv" && n != "shl" && n != "shr" && k != 0 {
			return Make(Op(op), k, 0), true
		}
	}
	return 0, false
}

// Fault is why an operation failed: Go panics (division by zero, a
// negative shift count) or the table of 64-bit values beyond 32 bits is
// full.
type Fault uint8

// The faults.
const (
	OK Fault = iota
	DivideByZero
	NegativeShift
	Overflow
)

// String is the fault's message, "" for OK.
func (f Fault) String() string {
	return [...]string{OK: "", DivideByZero: "integer divide by zero",
		NegativeShift: "negative shift amount",
		Overflow:      "more distinct 64-bit integers beyond 32 bits than the model holds (2^28)"}[f]
}

// decode returns the 64 bits of the value x of kind k.
func decode(k Kind, x int32) uint64 {
	switch k {
	case I8:
		return uint64(int64(int8(x)))
	case I16:
		return uint64(int64(int16(x)))
	case U8:
		return uint64(uint8(x))
	case U16:
		return uint64(uint16(x))
	case U32:
		return uint64(uint32(x))
	case I32:
		return uint64(int64(x))
	}
	return decodeWide(x) // I64, U64
}

// Value returns the 64 bits of the slot value x of kind k (a label's
// value: a uint64 result prints as uint64(Value(U64, x))).
func Value(k Kind, x int32) uint64 { return decode(k, x) }

// encode returns the slot value of the 64 bits v of kind k, truncated to
// its width, or Overflow.
func encode(k Kind, v uint64) (int32, Fault) {
	switch k {
	case I8:
		return int32(int8(v)), OK
	case I16:
		return int32(int16(v)), OK
	case U8:
		return int32(uint8(v)), OK
	case U16:
		return int32(uint16(v)), OK
	case I32, U32:
		return int32(uint32(v)), OK
	}
	return encodeWide(int64(v))
}

// Eval computes the operation c on x and y (y unused by a conversion).
func Eval(c Code, x, y int32) (int32, Fault) {
	k := c.Kind()
	switch c.Op() {
	case Conv:
		return encode(k, decode(c.From(), x))
	case Join:
		return encode(k, uint64(uint32(x))<<32|uint64(uint32(y)))
	}
	// a and b are sign-extended for the signed kinds, zero-extended for
	// the unsigned ones.
	a, b := decode(k, x), decode(k, y)
	var r uint64
	switch c.Op() {
	case Add:
		r = a + b
	case Sub:
		r = a - b
	case Mul:
		r = a * b
	case Quo, Rem:
		switch {
		case b == 0:
			return 0, DivideByZero
		case k.Unsigned() && c.Op() == Quo:
			r = a / b
		case k.Unsigned():
			r = a % b
		case c.Op() == Quo: // the most negative value / -1 wraps to itself, as in Go
			r = uint64(int64(a) / int64(b))
		default:
			r = uint64(int64(a) % int64(b))
		}
	case And:
		r = a & b
	case Or:
		r = a | b
	case Xor:
		r = a ^ b
	case AndNot:
		r = a &^ b
	case Shl, Shr:
		// The count y is of its own kind: a signed count must not be
		// negative (Go panics), an unsigned one may be huge.
		n := decode(c.From(), y)
		if !c.From().Unsigned() && int64(n) < 0 {
			return 0, NegativeShift
		}
		switch {
		case c.Op() == Shl && n >= 64:
			r = 0
		case c.Op() == Shl:
			r = a << n
		case k.Unsigned() && n >= 64:
			r = 0
		case k.Unsigned():
			r = a >> n
		default:
			r = uint64(int64(a) >> min(n, 63))
		}
	case Lss, Leq, Gtr, Geq:
		var less, eq bool
		if k.Unsigned() {
			less, eq = a < b, a == b
		} else {
			less, eq = int64(a) < int64(b), a == b
		}
		var t bool
		switch c.Op() {
		case Lss:
			t = less
		case Leq:
			t = less || eq
		case Gtr:
			t = !less && !eq
		default:
			t = !less
		}
		if t {
			return 1, OK
		}
		return 0, OK
	}
	return encode(k, r)
}
