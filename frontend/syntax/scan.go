package syntax

import (
	"fmt"
	"strconv"
)

// scanner turns source bytes into tokens. Like Go's, it inserts a SEMI
// token at a newline that follows a token that can end a statement, so
// that statements may be separated by newlines or semicolons.
type scanner struct {
	file    *File
	src     []byte
	off     int
	semiOK  bool // whether a newline here becomes a SEMI
	errs    *ErrorList
	tok     Token
	pos     Pos
	lit     string
	intVal  int64
	lastEnd int // end offset of the previous token, for statement text
}

func (s *scanner) error(off int, msg string) {
	s.errs.Add(s.file.Position(s.file.Pos(off)), msg)
	if len(*s.errs) >= maxErrors {
		panic(bailout{}) // recovered by Parse, as the parser's own errors
	}
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// next scans the next token into s.tok, s.pos, s.lit.
func (s *scanner) next() {
	s.lastEnd = s.off
redo:
	for s.off < len(s.src) {
		c := s.src[s.off]
		if c == '\n' && s.semiOK {
			break
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			s.off++
			continue
		}
		if c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '/' {
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
			continue
		}
		if c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*' {
			start := s.off
			s.off += 2
			nl := false
			for s.off+1 < len(s.src) && !(s.src[s.off] == '*' && s.src[s.off+1] == '/') {
				nl = nl || s.src[s.off] == '\n'
				s.off++
			}
			if s.off+1 >= len(s.src) {
				s.off = len(s.src)
				s.error(start, "comment not terminated")
				break
			}
			s.off += 2
			if nl && s.semiOK {
				s.tok, s.pos, s.lit, s.semiOK = SEMI, s.file.Pos(start), "newline", false
				return
			}
			continue
		}
		break
	}
	s.pos = s.file.Pos(s.off)
	if s.off >= len(s.src) {
		if s.semiOK {
			s.tok, s.lit, s.semiOK = SEMI, "EOF", false
			return
		}
		s.tok, s.lit = EOF, ""
		return
	}
	start := s.off
	c := s.src[s.off]
	if c == '\n' {
		s.off++
		s.tok, s.lit, s.semiOK = SEMI, "newline", false
		return
	}
	switch {
	case isLetter(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.off++
		}
		s.lit = string(s.src[start:s.off])
		s.tok = IDENT
		if kw, ok := keywords[s.lit]; ok {
			s.tok = kw
		}
		switch s.tok {
		// ref ends a line as a word's field name: p.next.ref
		case IDENT, TRUE, FALSE, NULL, SKIP, RETURN, FOREVER, AUTO, INTTYPE, BOOLTYPE, LIN, BREAK, CONTINUE, REF:
			s.semiOK = true
		default:
			s.semiOK = false
		}
		return
	case isDigit(c):
		for s.off < len(s.src) && (isDigit(s.src[s.off]) || isLetter(s.src[s.off])) {
			s.off++
		}
		s.lit = string(s.src[start:s.off])
		s.tok, s.semiOK = INT, true
		v, err := strconv.ParseInt(s.lit, 10, 32)
		if err != nil {
			s.error(start, fmt.Sprintf("bad integer literal %s (decimal, at most %d)", s.lit, int32(1<<31-1)))
		}
		s.intVal = v
		return
	}
	s.off++
	two := func(second byte, t2, t1 Token) Token {
		if s.off < len(s.src) && s.src[s.off] == second {
			s.off++
			return t2
		}
		return t1
	}
	s.semiOK = false
	switch c {
	case '{':
		s.tok = LBRACE
	case '}':
		s.tok, s.semiOK = RBRACE, true
	case '(':
		s.tok = LPAREN
	case ')':
		s.tok, s.semiOK = RPAREN, true
	case '[':
		s.tok = LBRACK
	case ']':
		s.tok, s.semiOK = RBRACK, true
	case ',':
		s.tok = COMMA
	case ';':
		s.tok = SEMI
	case ':':
		s.tok = two('=', DEFINE, COLON)
	case '.':
		s.tok = two('.', DOTDOT, DOT)
	case '=':
		s.tok = two('=', EQL, ASSIGN)
	case '!':
		s.tok = two('=', NEQ, NOT)
	case '<':
		s.tok = two('=', LEQ, LSS)
	case '>':
		s.tok = two('=', GEQ, GTR)
	case '+':
		s.tok = ADD
	case '-':
		s.tok = SUB
	case '*':
		s.tok = MUL
	case '/':
		s.tok = QUO
	case '%':
		s.tok = REM
	case '&':
		s.tok = two('&', LAND, AMP)
	case '|':
		s.tok = two('|', LOR, PIPE)
	default:
		s.tok = ILLEGAL
	}
	s.lit = string(s.src[start:s.off])
	if s.tok == ILLEGAL {
		s.error(start, fmt.Sprintf("unexpected character %q", s.lit))
		goto redo
	}
}
