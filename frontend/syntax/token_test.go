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
