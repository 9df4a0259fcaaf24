package intop

import (
	"math/rand/v2"
	"testing"
)

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// slot is the slot value of a Go value of 64 bits or less: narrow values
// as they are, 32-bit ones as their bits, 64-bit ones as their signed
// view or their code (encode, big.go).
func slot[T integer](v T) int32 {
	var zero T
	switch any(zero).(type) {
	case int64, uint64:
		s, f := encodeWide(int64(v))
		if f != OK {
			panic(f)
		}
		return s
	}
	return int32(v)
}

// values returns Go values of T to try: the edges of its range and
// random ones (of 64 bits: beyond 32 bits too, held as codes).
func values[T integer](r *rand.Rand) []T {
	var max T = ^T(0)
	if max < 0 { // signed
		max = T(uint64(1)<<(8*sizeof[T]()-1) - 1)
	}
	min := ^max
	out := []T{0, 1, 2, 3, ^T(0), max, min, max - 1, min + 1, 7, 100}
	for range 40 {
		out = append(out, T(r.Int32()), T(r.IntN(300))-100, T(int32(r.Uint32())>>r.IntN(32)), T(r.Uint64()>>r.IntN(64)))
	}
	return out
}

func sizeof[T integer]() int {
	var v T = 1
	n := 0
	for v != 0 {
		v <<= 1
		n++
	}
	return n / 8
}

// want compares Eval's result with Go's value v (f not OK: Go panics
// with the fault f): the slot value itself, since each value has one,
// and the value it stands for.
func want[T integer](t *testing.T, c Code, x, y int32, v T, f Fault) {
	t.Helper()
	got, gf := Eval(c, x, y)
	w := slot(v)
	if gf != f || f == OK && (got != w || Value(c.Kind(), got) != uint64(v) && !c.Compare()) {
		t.Errorf("%s(%d, %d) = %d (%v), want %d (%v)", c.Name(), x, y, got, gf, w, f)
	}
}

func b2[T integer](c bool) T {
	if c {
		return 1
	}
	return 0
}

// checkKind holds every operation of kind k to Go's arithmetic on T.
func checkKind[T integer](t *testing.T, k Kind, r *rand.Rand) {
	vs := values[T](r)
	for _, a := range vs {
		for _, b := range vs {
			x, y := slot(a), slot(b)
			want(t, Make(Add, k, 0), x, y, a+b, OK)
			want(t, Make(Sub, k, 0), x, y, a-b, OK)
			want(t, Make(Mul, k, 0), x, y, a*b, OK)
			want(t, Make(And, k, 0), x, y, a&b, OK)
			want(t, Make(Or, k, 0), x, y, a|b, OK)
			want(t, Make(Xor, k, 0), x, y, a^b, OK)
			want(t, Make(AndNot, k, 0), x, y, a&^b, OK)
			want(t, Make(Lss, k, 0), x, y, b2[T](a < b), OK)
			want(t, Make(Leq, k, 0), x, y, b2[T](a <= b), OK)
			want(t, Make(Gtr, k, 0), x, y, b2[T](a > b), OK)
			want(t, Make(Geq, k, 0), x, y, b2[T](a >= b), OK)
			if b == 0 {
				want(t, Make(Quo, k, 0), x, y, T(0), DivideByZero)
				want(t, Make(Rem, k, 0), x, y, T(0), DivideByZero)
			} else {
				want(t, Make(Quo, k, 0), x, y, a/b, OK)
				want(t, Make(Rem, k, 0), x, y, a%b, OK)
			}
		}
		shifts[T, int64](t, k, I64, a)
		shifts[T, uint8](t, k, U8, a)
		shifts[T, uint32](t, k, U32, a)
		shifts[T, int8](t, k, I8, a)
		convs[T](t, k, a)
	}
}

// shifts holds the shifts of a by counts of type C to Go's.
func shifts[T, C integer](t *testing.T, k, ck Kind, a T) {
	x := slot(a)
	for _, n := range []C{0, 1, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 100, ^C(0), ^C(0) >> 1} {
		y := slot(n)
		if n < 0 {
			want(t, Make(Shl, k, ck), x, y, T(0), NegativeShift)
			want(t, Make(Shr, k, ck), x, y, T(0), NegativeShift)
			continue
		}
		want(t, Make(Shl, k, ck), x, y, a<<n, OK)
		want(t, Make(Shr, k, ck), x, y, a>>n, OK)
	}
}

// convs holds the conversions of a to every kind to Go's.
func convs[F integer](t *testing.T, from Kind, a F) {
	x := slot(a)
	want(t, Make(Conv, I8, from), x, 0, int8(a), OK)
	want(t, Make(Conv, I16, from), x, 0, int16(a), OK)
	want(t, Make(Conv, I32, from), x, 0, int32(a), OK)
	want(t, Make(Conv, I64, from), x, 0, int64(a), OK)
	want(t, Make(Conv, U8, from), x, 0, uint8(a), OK)
	want(t, Make(Conv, U16, from), x, 0, uint16(a), OK)
	want(t, Make(Conv, U32, from), x, 0, uint32(a), OK)
	want(t, Make(Conv, U64, from), x, 0, uint64(a), OK)
}

// TestEvalIsGo holds every operation of every kind to Go's own
// arithmetic on the type, on the edges of each range and random values:
// wrap-around, division and remainder (unsigned and signed, by zero a
// fault), the bitwise operators, shifts by counts of several types
// (negative a fault, huge ones zero or the sign), the order and every
// conversion; 64-bit values beyond 32 bits are exact (held as codes).
func TestEvalIsGo(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 1))
	checkKind[int8](t, I8, r)
	checkKind[int16](t, I16, r)
	checkKind[int32](t, I32, r)
	checkKind[int64](t, I64, r)
	checkKind[uint8](t, U8, r)
	checkKind[uint16](t, U16, r)
	checkKind[uint32](t, U32, r)
	checkKind[uint64](t, U64, r)
}

// TestNames: every code's name parses back to it; other names do not.
func TestNames(t *testing.T) {
	n := 0
	for op := Add; op <= Join; op++ {
		for k := I8; k <= U64; k++ {
			froms := []Kind{0}
			if op == Conv || op == Shl || op == Shr {
				froms = []Kind{I8, I16, I32, I64, U8, U16, U32, U64}
			}
			for _, from := range froms {
				c := Make(op, k, from)
				if got, ok := Parse(c.Name()); !ok || got != c {
					t.Errorf("Parse(%q) = %v, %v; want %v", c.Name(), got, ok, c)
				}
				if c == 0 || c.Op() != op || c.Kind() != k || c.From() != from {
					t.Errorf("%s: the code's fields are not what it was made of", c.Name())
				}
				n++
			}
		}
	}
	for _, s := range []string{"add", "add_", "add_u65", "conv_u8", "shl_u8", "x_u8", "add_u8_u8", "conv_u8_u8_u8", "add_int"} {
		if _, ok := Parse(s); ok {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
	if n != 14*8+3*64 {
		t.Errorf("%d codes", n)
	}
}

// TestJoin: join_k(hi, lo) is the value whose high and low 32 bits are
// hi and lo, truncated to k's width.
func TestJoin(t *testing.T) {
	for _, v := range []uint64{0, 1, 1 << 40, ^uint64(0), ^uint64(0) >> 1, 1 << 63, 0xDEADBEEF_CAFEF00D} {
		hi, lo := int32(uint32(v>>32)), int32(uint32(v))
		want(t, Make(Join, U64, 0), hi, lo, v, OK)
		want(t, Make(Join, I64, 0), hi, lo, int64(v), OK)
		want(t, Make(Join, U32, 0), hi, lo, uint32(v), OK)
		want(t, Make(Join, I8, 0), hi, lo, int8(v), OK)
	}
}

// TestCodes: a 64-bit value beyond what a slot holds as itself has one
// code, below every value held so, and the same code whenever it is
// made; the values a slot holds as themselves keep their slot.
func TestCodes(t *testing.T) {
	for _, v := range []int64{1 << 31, -1<<31 - 1, 1 << 62, -1 << 31, DirectMin - 1} {
		c1, _ := encodeWide(v)
		c2, _ := encodeWide(v)
		if c1 != c2 || c1 >= DirectMin || int64(decodeWide(c1)) != v {
			t.Errorf("%d: codes %d, %d, decoded %d", v, c1, c2, int64(decodeWide(c1)))
		}
	}
	for _, v := range []int64{DirectMin, -1, 0, 1 << 30, -1 << 30, 1<<31 - 1} {
		if c, _ := encodeWide(v); int64(c) != v {
			t.Errorf("%d held as %d", v, c)
		}
	}
}
