package syntax

import (
	"strings"
	"testing"
)

// TestOriginDirective: a line after an origin directive reports the
// original position and text; other lines their own.
func TestOriginDirective(t *testing.T) {
	src := "a := 1\n//linbis:origin dir/queue.go:42:5 if cas(&q.head, first, next) {\nb := 2\nc := 3\n"
	f := NewFile("gen.lin", []byte(src))
	b := f.Pos(strings.Index(src, "b :="))
	if got := f.Position(b); got != (Position{File: "dir/queue.go", Line: 42, Col: 5}) {
		t.Errorf("Position = %v, want dir/queue.go:42:5", got)
	}
	if got := f.Text(b, NoPos); got != "if cas(&q.head, first, next) {" {
		t.Errorf("Text = %q", got)
	}
	if got := f.LineText(b + 1); got != "if cas(&q.head, first, next) {" {
		t.Errorf("LineText = %q", got)
	}
	c := f.Pos(strings.Index(src, "c :="))
	if got := f.Position(c); got != (Position{File: "gen.lin", Line: 4, Col: 1}) {
		t.Errorf("Position of the next line = %v, want gen.lin:4:1", got)
	}
	if got := f.Text(c, NoPos); got != "c := 3" {
		t.Errorf("Text of the next line = %q", got)
	}
}

// TestPlainDirective: a plain directive is an origin that also marks the
// statement's access as plain.
func TestPlainDirective(t *testing.T) {
	src := "//linbis:plain c.go:12:2 c.n++\nx = 1\n//linbis:origin c.go:13:2 return\ny = 2\nz = 3\n"
	f := NewFile("gen.lin", []byte(src))
	x, y, z := f.Pos(strings.Index(src, "x =")), f.Pos(strings.Index(src, "y =")), f.Pos(strings.Index(src, "z ="))
	if !f.Plain(x) || f.Plain(y) || f.Plain(z) {
		t.Errorf("Plain = %v, %v, %v; want true, false, false", f.Plain(x), f.Plain(y), f.Plain(z))
	}
	if got := f.Position(x); got != (Position{File: "c.go", Line: 12, Col: 2}) {
		t.Errorf("Position = %v, want c.go:12:2", got)
	}
	if got := f.Text(x, NoPos); got != "c.n++" {
		t.Errorf("Text = %q", got)
	}
}

// TestResultsDirective: a results directive gives its formats to the next
// line that is not a directive, and to no other.
func TestResultsDirective(t *testing.T) {
	src := "//linbis:results u64,bool\n//linbis:origin s.go:3:1 func (s *S) Pop() (uint64, bool) {\nmethod Pop() (int, bool) {\nx := 1\n"
	f := NewFile("gen.lin", []byte(src))
	m, x := f.Pos(strings.Index(src, "method")), f.Pos(strings.Index(src, "x :="))
	if got := f.ResultFormats(m); len(got) != 2 || got[0] != "u64" || got[1] != "bool" {
		t.Errorf("ResultFormats of the method = %q, want [u64 bool]", got)
	}
	if got := f.ResultFormats(x); got != nil {
		t.Errorf("ResultFormats of the next line = %q, want none", got)
	}
	if got := f.Position(m); got.File != "s.go" {
		t.Errorf("the origin is lost: %v", got)
	}
}
