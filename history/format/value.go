package format

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/linbis/linbis/history/record"
)

// This file gives the values of a history their canonical text: one
// string per value, equal exactly when the values are equal as Jepsen
// (Clojure's =) compares them, so that the models compare values as
// strings and intern states by their text.
//
// The forms, which are also how the evidence shows values:
//
//	nil              Nil at the top of a value, nil inside a collection
//	true, false      booleans
//	"a\n"            strings, quoted (quoteString): a string is never equal
//	                 to a number, keyword, symbol or collection of the same text
//	:a, :ns/a        keywords
//	foo              symbols
//	\a, \newline     characters (not equal to one-character strings)
//	12, -3           integers, without sign or leading zeros (EDN 12N = 12)
//	1.5, 1.0, 1e+21  EDN floats (Clojure doubles): the shortest text that reads
//	                 back as the same double, always with a '.' or an 'e', so
//	                 that the float 1.0 differs from the integer 1 as in
//	                 Clojure ((= 1 1.0) is false) and 1.0 = 1.00; -0.0 = 0.0;
//	                 ##Inf, ##-Inf, ##NaN
//	1.5M             EDN decimals (BigDecimal): the exact value, so 1.0M = 1M
//	[a b]            vectors and lists (equal in Clojure: [1 2] = (1 2))
//	{k v, k v}       maps, entries in the order of their keys' text
//	#{a b}           sets, elements in the order of their text, once each
//	#tag v           tagged literals keep their tag (#uuid "…" is no string)
//
// JSON numbers are one type (RFC 8259 has no integers apart from other
// numbers; encoding/json and JavaScript read them alike): they compare
// by their exact decimal value, so 100 = 1e2 = 100.0 and 0.1 = 0.10, and
// their text is that of exactDecimal (integers as integers). Clojure's
// JSON readers would call 100 and 1e2 different (a long and a double);
// we follow JSON's model, not a reader's. JSON strings, booleans, null,
// arrays (as vectors) and objects (as maps) take the forms above.
//
// One exception to Clojure's =: ##NaN equals itself here (a NaN read is
// a read of the same text).

// QuoteString quotes s as a canonical string value: backslash escapes for
// '"', '\\' and \n \t \r \b \f, \uXXXX (UTF-16 units) for other characters
// that are not printable, every other character as it is. Each character
// is quoted on its own, so the quoting of a concatenation is the
// concatenation of the quotings less the quotes between them (kv's append
// relies on it), and ednReader reads the text back. s must be UTF-8.
func QuoteString(s string) string {
	b := make([]byte, 0, len(s)+2)
	return string(appendQuoted(b, s))
}

// appendQuoted appends quoteString(s) to b.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b = append(b, '\\', byte(r))
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			if unicode.IsPrint(r) {
				b = utf8.AppendRune(b, r)
				continue
			}
			if r >= 0x10000 {
				r1, r2 := utf16Pair(r)
				b = appendU(appendU(b, r1), r2)
				continue
			}
			b = appendU(b, r)
		}
	}
	return append(b, '"')
}

// utf16Pair splits a rune above the BMP into its UTF-16 surrogates.
func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// appendU appends \uXXXX.
func appendU(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
}

// IsString reports whether the canonical value v is a string.
func IsString(v string) bool { return len(v) >= 2 && v[0] == '"' }

// Text returns the text of a string value, and any other value's
// canonical text as it is: for a specification whose values are not
// typed as EDN's and JSON's are (a linbis model's integers and EMPTY,
// which JSON can only write as strings).
func Text(v string) string {
	if s, ok := Unquote(v); ok {
		return s
	}
	return v
}

// Unquote returns the text of the canonical string value v.
func Unquote(v string) (string, bool) {
	if !IsString(v) {
		return "", false
	}
	r := ednReader{src: v, name: "value"}
	s, err := r.readString()
	if err != nil || r.pos != len(v) {
		return "", false
	}
	return s.text, true
}

// exactDecimal returns the canonical text of the decimal number t
// ([+-]digits[.digits][(e|E)[+-]digits]) by its exact value: integers
// with no sign, point or leading zeros (-0 is 0), other numbers with the
// least digits after the point; and beyond 64 zeros before or after the
// digits, the digits and a power of ten (1e70, 15e-80). ok is false when
// t is not such a number.
func exactDecimal(t string) (string, bool) {
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	i := digitsAt(t, 0)
	if i == 0 {
		return "", false
	}
	intPart, frac, exp := t[:i], "", 0
	t = t[i:]
	if t != "" && t[0] == '.' {
		j := digitsAt(t, 1)
		frac, t = t[1:j], t[j:]
	}
	if t != "" && (t[0] == 'e' || t[0] == 'E') {
		e := t[1:]
		if e != "" && (e[0] == '+' || e[0] == '-') {
			e = e[1:]
		}
		if e == "" || digitsAt(e, 0) != len(e) {
			return "", false
		}
		n, err := strconv.Atoi(t[1:])
		if err != nil || n > 1<<40 || n < -1<<40 {
			return "", false
		}
		exp, t = n, ""
	}
	if t != "" {
		return "", false
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return "0", true
	}
	e := exp - len(frac)
	k := len(digits)
	for digits[k-1] == '0' {
		k--
		e++
	}
	digits = digits[:k]
	sign := ""
	if neg {
		sign = "-"
	}
	switch {
	case e >= 0 && e <= 64:
		return sign + digits + strings.Repeat("0", e), true
	case e < 0 && -e < len(digits):
		p := len(digits) + e
		return sign + digits[:p] + "." + digits[p:], true
	case e < 0 && -e-len(digits) <= 64:
		return sign + "0." + strings.Repeat("0", -e-len(digits)) + digits, true
	}
	return sign + digits + "e" + strconv.Itoa(e), true
}

// digitsAt returns the end of the run of decimal digits of t from i.
func digitsAt(t string, i int) int {
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i
}

// canonFloat is the canonical text of an EDN float (a Clojure double).
func canonFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "##NaN"
	case math.IsInf(f, 1):
		return "##Inf"
	case math.IsInf(f, -1):
		return "##-Inf"
	case f == 0:
		return "0.0" // -0.0 = 0.0, as Clojure's = says
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// ednNumber reads an EDN number token: an integer ([+-]digits, N for a
// big integer), a float (with a point or an exponent) or a decimal (M);
// it returns the kind and the canonical text, ok false when tok is no
// number.
func ednNumber(tok string) (ednKind, string, bool) {
	if body, ok := strings.CutSuffix(tok, "N"); ok || isInteger(tok) {
		if !isInteger(body) {
			return 0, "", false
		}
		s, _ := exactDecimal(body)
		return ednInt, s, true
	}
	if body, ok := strings.CutSuffix(tok, "M"); ok {
		s, ok := exactDecimal(body)
		return ednFloat, s + "M", ok
	}
	if _, ok := exactDecimal(tok); !ok {
		return 0, "", false
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil && !math.IsInf(f, 0) { // out of range reads as ±Infinity, as in Clojure
		return 0, "", false
	}
	return ednFloat, canonFloat(f), true
}

// isInteger reports whether t is [+-]digits.
func isInteger(t string) bool {
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	return t != "" && digitsAt(t, 0) == len(t)
}

// charNames are the named EDN characters.
var charNames = map[string]rune{"newline": '\n', "space": ' ', "tab": '\t', "return": '\r', "backspace": '\b', "formfeed": '\f'}

// charText reads the token after a '\': one character, a name, \uXXXX or
// \oNNN; it returns the character's canonical text.
func charText(tok string) (string, bool) {
	r, ok := rune(-1), false
	if n, size := utf8.DecodeRuneInString(tok); size == len(tok) && n != utf8.RuneError {
		r, ok = n, true
	} else if n, named := charNames[tok]; named {
		r, ok = n, true
	} else if len(tok) == 5 && tok[0] == 'u' {
		n, err := strconv.ParseUint(tok[1:], 16, 32)
		r, ok = rune(n), err == nil
	} else if len(tok) >= 2 && len(tok) <= 4 && tok[0] == 'o' {
		n, err := strconv.ParseUint(tok[1:], 8, 32)
		r, ok = rune(n), err == nil && n <= 0377
	}
	if !ok {
		return "", false
	}
	for name, c := range charNames {
		if c == r {
			return `\` + name, true
		}
	}
	if unicode.IsPrint(r) {
		return `\` + string(r), true
	}
	return string(appendU([]byte{'\\'}, r)), true
}

// Elements splits the canonical text of a collection into its items'
// canonical texts (a map's keys and values alternating; nil as Nil), and
// says which it is by its opening '[', '{' or '#'. The items are cut out
// of the text, not read again: their text is canonical already, in the
// data model they were read in (a JSON number keeps its JSON meaning).
func Elements(v string) (open byte, items []string, ok bool) {
	r := &ednReader{src: v, name: "value"}
	var closer byte
	switch {
	case strings.HasPrefix(v, "["):
		open, closer, r.pos = '[', ']', 1
	case strings.HasPrefix(v, "{"):
		open, closer, r.pos = '{', '}', 1
	case strings.HasPrefix(v, "#{"):
		open, closer, r.pos = '#', '}', 2
	default:
		return 0, nil, false
	}
	for {
		r.skip()
		if r.pos >= len(v) {
			return 0, nil, false
		}
		if v[r.pos] == closer {
			return open, items, r.pos == len(v)-1
		}
		from := r.pos
		if _, err := r.read(1); err != nil {
			return 0, nil, false
		}
		item := v[from:r.pos]
		if item == "nil" {
			item = record.Nil
		}
		items = append(items, item)
	}
}
