package format

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/linbis/linbis/history/record"
	"github.com/linbis/linbis/lts"
)

// This file is a reader for the subset of EDN (extensible data notation)
// that Jepsen histories use: nil, booleans, integers, floats, strings,
// characters, keywords, symbols, vectors, lists, maps, sets, tagged
// literals (the tag is dropped), #_ discards, ';' comments and commas as
// whitespace.

type ednKind uint8

const (
	ednNil ednKind = iota
	ednBool
	ednInt
	ednFloat
	ednString
	ednChar
	ednKeyword
	ednSymbol
	ednVector
	ednList
	ednMap
	ednSet
)

// ednValue is one parsed EDN value; text holds scalars (keywords without
// the colon, numbers and characters in their canonical text, see
// value.go), items the elements of collections (a map's keys and values
// alternate), tag the tag of a tagged literal (without '#'), off the byte
// offset where it starts.
type ednValue struct {
	kind  ednKind
	text  string
	tag   string
	items []ednValue
	off   int
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 512

type ednReader struct {
	src   string
	name  string
	pos   int
	lines []int      // byte offsets of line starts, built on first use
	stack []ednValue // the items of the collections being read (readSeq)
	// lineBase and colBase place src in its file when src is a window of
	// it (ednStream): src starts lineBase lines and, on its first line,
	// colBase bytes after the file's start.
	lineBase, colBase int
}

// errAt builds a positioned error at byte offset off.
func (r *ednReader) errAt(off int, format string, args ...any) error {
	line, col := r.lineCol(off)
	return &lts.ParseError{File: r.name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// lineCol converts a byte offset into a 1-based line and byte column,
// by binary search in a table of line starts (every event of a history
// asks, so counting newlines each time would be quadratic).
func (r *ednReader) lineCol(off int) (int, int) {
	if r.lines == nil {
		r.lines = append(r.lines, 0)
		for i := 0; i < len(r.src); i++ {
			if r.src[i] == '\n' {
				r.lines = append(r.lines, i+1)
			}
		}
	}
	off = min(off, len(r.src))
	line := sort.SearchInts(r.lines, off+1) // lines[line-1] <= off < lines[line]
	col := off - r.lines[line-1] + 1
	if line == 1 {
		col += r.colBase
	}
	return line + r.lineBase, col
}

// skip moves past whitespace, commas and comments.
func (r *ednReader) skip() {
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '\f':
			r.pos++
		case c == ';':
			for r.pos < len(r.src) && r.src[r.pos] != '\n' {
				r.pos++
			}
		default:
			return
		}
	}
}

// atEnd reports whether only whitespace and comments remain.
func (r *ednReader) atEnd() bool {
	r.skip()
	return r.pos >= len(r.src)
}

func isDelim(c byte) bool {
	return strings.IndexByte(" \t\n\r\f,;()[]{}\"", c) >= 0
}

// read parses one value.
func (r *ednReader) read(depth int) (ednValue, error) {
	r.skip()
	start := r.pos
	if r.pos >= len(r.src) {
		return ednValue{}, r.errAt(start, "unexpected end of input: expected a value")
	}
	if depth > maxDepth {
		return ednValue{}, r.errAt(start, "nesting deeper than %d", maxDepth)
	}
	c := r.src[r.pos]
	switch c {
	case '[', '(', '{':
		r.pos++
		kind, closer := map[byte]ednKind{'[': ednVector, '(': ednList, '{': ednMap}[c], map[byte]byte{'[': ']', '(': ')', '{': '}'}[c]
		return r.readSeq(kind, closer, start, depth)
	case ']', ')', '}':
		return ednValue{}, r.errAt(start, "unexpected %q: expected a value", c)
	case '"':
		return r.readString()
	case '\\':
		r.pos++
		tok := r.token()
		if tok == "" {
			if r.pos >= len(r.src) {
				return ednValue{}, r.errAt(start, "unexpected end of input: expected a character after '\\'")
			}
			_, size := utf8.DecodeRuneInString(r.src[r.pos:])
			tok = r.src[r.pos : r.pos+size]
			r.pos += size
		}
		text, ok := charText(tok)
		if !ok {
			return ednValue{}, r.errAt(start, "malformed character literal \\%s", tok)
		}
		return ednValue{kind: ednChar, text: text, off: start}, nil
	case '#':
		r.pos++
		if r.pos < len(r.src) {
			switch r.src[r.pos] {
			case '{':
				r.pos++
				return r.readSeq(ednSet, '}', start, depth)
			case '_':
				r.pos++
				if _, err := r.read(depth + 1); err != nil {
					return ednValue{}, err
				}
				return r.read(depth + 1)
			}
		}
		tag := r.token()
		switch tag {
		case "":
			return ednValue{}, r.errAt(start, "expected a tag, '{' or '_' after '#'")
		case "#Inf", "#-Inf", "#NaN":
			return ednValue{kind: ednFloat, text: "#" + tag, off: start}, nil
		}
		// A tagged literal: the value, marked with its tag (a #uuid
		// "…" is not the string).
		v, err := r.read(depth + 1)
		if err == nil {
			v.tag, v.off = tag, start
		}
		return v, err
	}
	tok := r.token()
	if tok == "" {
		_, size := utf8.DecodeRuneInString(r.src[r.pos:])
		return ednValue{}, r.errAt(start, "unexpected %q: expected a value", r.src[r.pos:r.pos+size])
	}
	if !utf8.ValidString(tok) {
		at := start
		for at < r.pos && utf8.FullRuneInString(r.src[at:r.pos]) {
			c, size := utf8.DecodeRuneInString(r.src[at:r.pos])
			if c == utf8.RuneError && size == 1 {
				break
			}
			at += size
		}
		return ednValue{}, r.errAt(at, "byte 0x%02x is not UTF-8: expected text in UTF-8", r.src[at])
	}
	switch {
	case tok == "nil":
		return ednValue{kind: ednNil, off: start}, nil
	case tok == "true" || tok == "false":
		return ednValue{kind: ednBool, text: tok, off: start}, nil
	case tok[0] == ':':
		if len(tok) == 1 {
			return ednValue{}, r.errAt(start, "expected a keyword name after ':'")
		}
		return ednValue{kind: ednKeyword, text: tok[1:], off: start}, nil
	case c >= '0' && c <= '9' || (c == '-' || c == '+') && len(tok) > 1 && tok[1] >= '0' && tok[1] <= '9':
		kind, text, ok := ednNumber(tok)
		if !ok {
			return ednValue{}, r.errAt(start, "malformed number %q", tok)
		}
		return ednValue{kind: kind, text: text, off: start}, nil
	}
	return ednValue{kind: ednSymbol, text: tok, off: start}, nil
}

// token reads up to the next delimiter.
func (r *ednReader) token() string {
	start := r.pos
	for r.pos < len(r.src) && !isDelim(r.src[r.pos]) {
		r.pos++
	}
	return r.src[start:r.pos]
}

func (r *ednReader) readSeq(kind ednKind, closer byte, start, depth int) (ednValue, error) {
	v := ednValue{kind: kind, off: start}
	// The items gather on a stack shared by all collections (nested ones
	// above this one's) and are copied out at the closer, in one slice of
	// their number: growing each collection's slice by appending made most
	// of the reading's allocation.
	mark := len(r.stack)
	defer func() { r.stack = r.stack[:mark] }()
	for {
		r.skip()
		if r.pos >= len(r.src) {
			return ednValue{}, r.errAt(start, "unclosed collection: expected %q before the end of input", closer)
		}
		if r.src[r.pos] == closer {
			r.pos++
			break
		}
		item, err := r.read(depth + 1)
		if err != nil {
			return ednValue{}, err
		}
		r.stack = append(r.stack, item)
	}
	if len(r.stack) > mark {
		v.items = slices.Clone(r.stack[mark:])
	}
	if kind == ednMap && len(v.items)%2 != 0 {
		return ednValue{}, r.errAt(start, "map with an odd number of forms: expected key-value pairs")
	}
	return v, nil
}

func (r *ednReader) readString() (ednValue, error) {
	start := r.pos
	r.pos++
	var b strings.Builder
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch {
		case c == '"':
			r.pos++
			return ednValue{kind: ednString, text: b.String(), off: start}, nil
		case c == '\\':
			if r.pos+1 >= len(r.src) {
				return ednValue{}, r.errAt(start, "unterminated string: expected '\"'")
			}
			esc := r.src[r.pos+1]
			switch esc {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case '"', '\\':
				b.WriteByte(esc)
			case 'u':
				c, err := r.hex4(r.pos)
				if err != nil {
					return ednValue{}, err
				}
				r.pos += 4
				if utf16.IsSurrogate(c) {
					// A character above the BMP is written as its two
					// UTF-16 halves; a half alone is no character.
					var lo rune = -1
					if r.pos+3 < len(r.src) && r.src[r.pos+2] == '\\' && r.src[r.pos+3] == 'u' {
						lo, _ = r.hex4(r.pos + 2)
					}
					if c >= 0xdc00 || lo < 0xdc00 || lo > 0xdfff {
						return ednValue{}, r.errAt(r.pos-4, `lone UTF-16 surrogate \u%04x: expected a pair \ud800-\udbff \udc00-\udfff`, c)
					}
					c = utf16.DecodeRune(c, lo)
					r.pos += 6
				}
				b.WriteRune(c)
			default:
				return ednValue{}, r.errAt(r.pos, "unknown escape \\%c in string", esc)
			}
			r.pos += 2
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			r.pos++
		default:
			c, size := utf8.DecodeRuneInString(r.src[r.pos:])
			if c == utf8.RuneError && size == 1 {
				return ednValue{}, r.errAt(r.pos, "byte 0x%02x is not UTF-8: expected text in UTF-8", r.src[r.pos])
			}
			b.WriteString(r.src[r.pos : r.pos+size])
			r.pos += size
		}
	}
	return ednValue{}, r.errAt(start, "unterminated string: expected '\"'")
}

// hex4 reads the four hex digits of a \u escape at off.
func (r *ednReader) hex4(off int) (rune, error) {
	if off+6 <= len(r.src) {
		if n, err := strconv.ParseUint(r.src[off+2:off+6], 16, 32); err == nil {
			return rune(n), nil
		}
	}
	return 0, r.errAt(off, `malformed \u escape: expected 4 hex digits`)
}

// canon renders v in its canonical text (value.go): Nil for nil.
func (v *ednValue) canon() string {
	if v.kind == ednNil && v.tag == "" {
		return record.Nil
	}
	return string(v.appendCanon(nil))
}

// appendCanon appends v's canonical text, nil as nil, to b.
func (v *ednValue) appendCanon(b []byte) []byte {
	if v.tag != "" {
		b = append(append(append(b, '#'), v.tag...), ' ')
	}
	switch v.kind {
	case ednNil:
		return append(b, "nil"...)
	case ednString:
		return appendQuoted(b, v.text)
	case ednInt, ednFloat, ednBool, ednSymbol, ednChar:
		return append(b, v.text...)
	case ednKeyword:
		return append(append(b, ':'), v.text...)
	case ednVector, ednList:
		b = append(b, '[')
		for i := range v.items {
			if i > 0 {
				b = append(b, ' ')
			}
			b = v.items[i].appendCanon(b)
		}
		return append(b, ']')
	}
	// Maps and sets: their entries in the order of their text, once each.
	step := 1
	if v.kind == ednMap {
		step = 2
	}
	entries := make([]string, 0, len(v.items)/step)
	for i := 0; i < len(v.items); i += step {
		e := v.items[i].appendCanon(nil)
		if step == 2 {
			e = v.items[i+1].appendCanon(append(e, ' '))
		}
		entries = append(entries, string(e))
	}
	slices.Sort(entries)
	entries = slices.Compact(entries)
	if v.kind == ednSet {
		return append(append(append(b, "#{"...), strings.Join(entries, " ")...), '}')
	}
	return append(append(append(b, '{'), strings.Join(entries, ", ")...), '}')
}
