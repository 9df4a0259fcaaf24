package syntax

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Pos is a byte offset into a file plus one; NoPos (0) is no position.
// A Pos is turned into a line and column only when printed (File.Position).
type Pos int32

// NoPos is the zero Pos: no position known.
const NoPos Pos = 0

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p != NoPos }

// File holds a source file's name and line table.
type File struct {
	Name  string  // the name given to the parser: a path, or a bundled model's file name
	Src   []byte  // the source text
	lines []int32 // offsets of line starts
	ends  map[Pos]Pos
	// origins: by line (from 1), where a line of generated source came
	// from (see OriginDirective).
	origins map[int]origin
	// results: by line, the result formats of the method declared there
	// (see ResultsDirective).
	results map[int][]string
}

// OriginDirective, at the start of a line of a model, says where the next
// line came from: `//linbis:origin FILE:LINE:COL TEXT`. A front end that
// generates a model from another language (the Go front end) writes one
// before each statement, so that positions (Position) and step texts
// (Text, LineText) name the original source, in errors, traces and
// listings alike.
const OriginDirective = "//linbis:origin "

// PlainDirective is an origin directive that also says the statement's
// access to shared memory is plain (not atomic) in the original source, so
// that it is checked for data races: `//linbis:plain FILE:LINE:COL TEXT`.
const PlainDirective = "//linbis:plain "

// ResultsDirective, on a line of its own, says how the results of the
// method declared on the next line that is not a directive are printed in
// labels, a format per result separated by commas: `//linbis:results
// u64,bool`. The formats are a front end's (ir.Method.FormatResult):
// a Go integer kind's name ("u64", "i32", … as package intop spells
// them) prints the integer of that kind the value holds (-1 of a u64 as
// 18446744073709551615, -2^30 as a number, not EMPTY), "any" prints EMPTY
// as nil, "anytag" too and a value tag·2^25 + v as v (an any holding
// integers of several types); anything else, as the modeling language
// prints it.
const ResultsDirective = "//linbis:results "

// origin is the original position and text of a generated line, and
// whether its access is plain.
type origin struct {
	pos   Position
	text  string
	plain bool
}

// SetEnd records where the statement starting at start ends (the parser
// calls it), for Text.
func (f *File) SetEnd(start, end Pos) {
	if f.ends == nil {
		f.ends = map[Pos]Pos{}
	}
	f.ends[start] = end
}

// Text returns the source from start to end (exclusive; NoPos: the end
// recorded by SetEnd, else the end of the line), cut at the end of the
// first line and trimmed, for showing a step in a trace.
func (f *File) Text(start, end Pos) string {
	if !start.IsValid() {
		return ""
	}
	if o, ok := f.originOf(start); ok {
		return o.text
	}
	if !end.IsValid() {
		end = f.ends[start]
	}
	s := int(start - 1)
	e := len(f.Src)
	if end.IsValid() && int(end-1) < e {
		e = int(end - 1)
	}
	for i := s; i < e; i++ {
		if f.Src[i] == '\n' {
			e = i
			break
		}
	}
	b := f.Src[s:e]
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == ';') {
		b = b[:len(b)-1]
	}
	return string(b)
}

// NewFile makes a File for src and computes its line table.
func NewFile(name string, src []byte) *File {
	f := &File{Name: name, Src: src, lines: []int32{0}}
	for i, c := range src {
		if c == '\n' {
			f.lines = append(f.lines, int32(i+1))
		}
	}
	var results []string // a results directive waiting for its line
	for l, start := range f.lines {
		line := src[start:]
		if o, ok := parseOrigin(line); ok {
			if f.origins == nil {
				f.origins = map[int]origin{}
			}
			f.origins[l+2] = o // the line after the directive, from 1
			continue
		}
		if rest, ok := bytes.CutPrefix(line, []byte(ResultsDirective)); ok {
			if i := bytes.IndexByte(rest, '\n'); i >= 0 {
				rest = rest[:i]
			}
			results = strings.Split(strings.TrimSpace(string(rest)), ",")
			continue
		}
		if results != nil {
			if f.results == nil {
				f.results = map[int][]string{}
			}
			f.results[l+1] = results
			results = nil
		}
	}
	return f
}

// ResultFormats returns the formats a results directive gives the results
// of the method declared on the line of p, nil if none.
func (f *File) ResultFormats(p Pos) []string {
	if f.results == nil || !p.IsValid() {
		return nil
	}
	return f.results[f.line(p)]
}

// parseOrigin reads an origin or plain directive at the start of line.
func parseOrigin(line []byte) (origin, bool) {
	var o origin
	var text string
	switch {
	case bytes.HasPrefix(line, []byte(OriginDirective)):
		text = string(line[len(OriginDirective):])
	case bytes.HasPrefix(line, []byte(PlainDirective)):
		text, o.plain = string(line[len(PlainDirective):]), true
	default:
		return origin{}, false
	}
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	loc, text, _ := strings.Cut(text, " ")
	parts := strings.Split(loc, ":")
	if len(parts) < 3 {
		return origin{}, false
	}
	line1, err1 := strconv.Atoi(parts[len(parts)-2])
	col, err2 := strconv.Atoi(parts[len(parts)-1])
	if err1 != nil || err2 != nil {
		return origin{}, false
	}
	o.pos, o.text = Position{File: strings.Join(parts[:len(parts)-2], ":"), Line: line1, Col: col}, strings.TrimSpace(text)
	return o, true
}

// Plain reports whether the statement at p came from a plain (non-atomic)
// access of the original source (PlainDirective).
func (f *File) Plain(p Pos) bool {
	o, ok := f.originOf(p)
	return ok && o.plain
}

// originOf returns the origin of the line holding p, if it has one.
func (f *File) originOf(p Pos) (origin, bool) {
	if f.origins == nil || !p.IsValid() {
		return origin{}, false
	}
	o, ok := f.origins[f.line(p)]
	return o, ok
}

// Pos returns the Pos of byte offset off.
func (f *File) Pos(off int) Pos { return Pos(off + 1) }

// Position is a printable source position.
type Position struct {
	File string // the file's name; "" when not known
	Line int    // 1-based line; 0 for no position (NoPos)
	Col  int    // 1-based column, in bytes; 0 for no position
}

// String is file:line:col, or line:col without a file.
func (p Position) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Position converts p to file, line and column (both from 1).
func (f *File) Position(p Pos) Position {
	if !p.IsValid() {
		return Position{File: f.Name}
	}
	if o, ok := f.originOf(p); ok {
		return o.pos
	}
	l := f.line(p)
	return Position{File: f.Name, Line: l, Col: int(int32(p-1)-f.lines[l-1]) + 1}
}

// line returns the line (from 1) holding the valid position p.
func (f *File) line(p Pos) int {
	off := int32(p - 1)
	lo, hi := 0, len(f.lines)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if f.lines[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return lo + 1
}

// LineText returns the text of the line holding p, without its newline and
// with surrounding blanks trimmed.
func (f *File) LineText(p Pos) string {
	if !p.IsValid() {
		return ""
	}
	if o, ok := f.originOf(p); ok {
		return o.text
	}
	off := int(p - 1)
	start := off
	for start > 0 && f.Src[start-1] != '\n' {
		start--
	}
	end := off
	for end < len(f.Src) && f.Src[end] != '\n' {
		end++
	}
	b := f.Src[off:end]
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return string(b)
}

// Token is a lexical token kind.
type Token int8

// The tokens.
const (
	ILLEGAL Token = iota
	EOF
	IDENT
	INT

	LBRACE // {
	RBRACE // }
	LPAREN // (
	RPAREN // )
	LBRACK // [
	RBRACK // ]
	COMMA  // ,
	SEMI   // ; or newline
	COLON  // :
	DOT    // .
	DOTDOT // ..
	DEFINE // :=
	ASSIGN // =
	EQL    // ==
	NEQ    // !=
	LSS    // <
	LEQ    // <=
	GTR    // >
	GEQ    // >=
	ADD    // +
	SUB    // -
	MUL    // *
	QUO    // /
	REM    // %
	NOT    // !
	LAND   // &&
	LOR    // ||
	PIPE   // | (in a union type: ref A | B)
	AMP    // & (the address of a location: &p.next)
	keywordsStart
	OBJECT
	SPEC
	AUTO
	CLIENT
	HEAP
	SHARED
	METHOD
	IF
	ELSE
	WHILE
	RETURN
	ATOMIC
	ASSERT
	FREE
	RETIRE
	NEW
	SKIP
	TRUE
	FALSE
	NULL
	INTTYPE
	BOOLTYPE
	REF
	THREADS
	OPS
	VALUES
	FOREVER
	LIN
	INIT
	AWAIT
	ONLY
	BREAK
	CONTINUE
	VAR
	CHOOSE
	OR
	ANY
	PROC
	FOR
	keywordsEnd
)

var tokenNames = [...]string{
	ILLEGAL: "illegal token", EOF: "end of file", IDENT: "identifier", INT: "integer",
	LBRACE: "'{'", RBRACE: "'}'", LPAREN: "'('", RPAREN: "')'", LBRACK: "'['", RBRACK: "']'",
	COMMA: "','", SEMI: "';' or newline", COLON: "':'", DOT: "'.'", DOTDOT: "'..'", DEFINE: "':='",
	ASSIGN: "'='", EQL: "'=='", NEQ: "'!='", LSS: "'<'", LEQ: "'<='", GTR: "'>'", GEQ: "'>='",
	ADD: "'+'", SUB: "'-'", MUL: "'*'", QUO: "'/'", REM: "'%'", NOT: "'!'", LAND: "'&&'", LOR: "'||'", PIPE: "'|'", AMP: "'&'",
	OBJECT: "object", SPEC: "spec", AUTO: "auto", CLIENT: "client", HEAP: "heap", SHARED: "shared",
	METHOD: "method", IF: "if", ELSE: "else", WHILE: "while", RETURN: "return", ATOMIC: "atomic",
	ASSERT: "assert", FREE: "free", RETIRE: "retire", NEW: "new", SKIP: "skip", TRUE: "true",
	FALSE: "false", NULL: "null", INTTYPE: "int", BOOLTYPE: "bool", REF: "ref", THREADS: "threads",
	OPS: "ops", VALUES: "values", FOREVER: "forever", LIN: "lin", INIT: "init", AWAIT: "await", ONLY: "only",
	BREAK: "break", CONTINUE: "continue", VAR: "var", CHOOSE: "choose", OR: "or", ANY: "any", PROC: "proc",
	FOR: "for",
}

// String names the token as error messages do: a keyword as written, an
// operator quoted ('{'), a class of tokens in words (identifier, end of
// file); token(N) for a token without a name.
func (t Token) String() string {
	if int(t) < len(tokenNames) && tokenNames[t] != "" {
		return tokenNames[t]
	}
	return fmt.Sprintf("token(%d)", int(t))
}

// IsKeyword reports whether t is a reserved word.
func (t Token) IsKeyword() bool { return t > keywordsStart && t < keywordsEnd }

var keywords = func() map[string]Token {
	m := map[string]Token{}
	for t := keywordsStart + 1; t < keywordsEnd; t++ {
		m[tokenNames[t]] = t
	}
	return m
}()
