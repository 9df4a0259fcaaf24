package syntax

import (
	"fmt"
	"sort"
	"strings"
)

// Error is a positioned error in a model.
type Error struct {
	Pos Position // where the error is
	Msg string   // what was expected or is wrong, without the position
}

// Error is the error one line, file:line:col: msg.
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is a list of errors, printed one per line in position order.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Position, msg string) { *l = append(*l, &Error{Pos: pos, Msg: msg}) }

// Sort orders the list by file, line and column.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// RemoveMultiples sorts the list and keeps only the first error per line,
// which is the useful one after a syntax error.
func (l *ErrorList) RemoveMultiples() {
	l.Sort()
	out := (*l)[:0]
	var last Position
	for i, e := range *l {
		if i == 0 || e.Pos.File != last.File || e.Pos.Line != last.Line {
			out = append(out, e)
		}
		last = e.Pos
	}
	*l = out
}

// Error is the errors one a line, in the list's order.
func (l ErrorList) Error() string {
	var sb strings.Builder
	for i, e := range l {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(e.Error())
	}
	return sb.String()
}

// Err returns nil for an empty list and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Errorf is a helper for callers that build messages.
func Errorf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
