package format

import (
	"errors"
	"io"
	"strings"
)

// ednStream reads an EDN text form by form from a reader, holding a window
// of the input instead of all of it: the window starts at the form being
// read and grows only while a form does not fit. A form is parsed by
// ednReader as if the window were the whole text; when the parse runs into
// the window's end (an error, or a token that may continue) and more input
// follows, the window is extended and the form parsed again, so a form is
// read exactly as the whole text would read it, with the same errors at
// the same positions. Reading a whole Jepsen history and all of its parsed
// maps before converting any of them held the file and every map at once.
type ednStream struct {
	r      io.Reader
	er     ednReader // over the window, positions counted in the file
	eof    bool      // the window reaches the end of the input
	window int       // the least input read at a time
}

// ednWindow is the least input an ednStream reads at a time.
const ednWindow = 64 << 10

func newEDNStream(r io.Reader, name string, window int) *ednStream {
	return &ednStream{r: r, er: ednReader{name: name}, window: window}
}

// fill drops the window's text before the read position and reads at
// least as much input as is left in it (s.window at least).
func (s *ednStream) fill() error {
	er := &s.er
	done, rest := er.src[:er.pos], er.src[er.pos:]
	if nl := strings.LastIndexByte(done, '\n'); nl >= 0 {
		er.lineBase += strings.Count(done, "\n")
		er.colBase = len(done) - nl - 1
	} else {
		er.colBase += len(done)
	}
	buf := make([]byte, len(rest)+max(s.window, len(rest)))
	copy(buf, rest)
	n, err := io.ReadFull(s.r, buf[len(rest):])
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		s.eof = true
	case err != nil:
		return err
	}
	er.src, er.pos, er.lines = string(buf[:len(rest)+n]), 0, nil
	return nil
}

// atEnd skips whitespace and comments and reports whether the input ends
// there.
func (s *ednStream) atEnd() (bool, error) {
	for {
		from := s.er.pos
		s.er.skip()
		if s.er.pos < len(s.er.src) || s.eof {
			return s.er.pos >= len(s.er.src), nil
		}
		s.er.pos = from // a comment may go on past the window
		if err := s.fill(); err != nil {
			return false, err
		}
	}
}

// read parses the next form, at nesting depth.
func (s *ednStream) read(depth int) (ednValue, error) {
	for {
		from := s.er.pos
		v, err := s.er.read(depth)
		// A form that ends before the window does is complete: a token
		// ending at the window's end may go on in the input.
		if s.eof || err == nil && s.er.pos < len(s.er.src) {
			return v, err
		}
		s.er.pos = from
		if err := s.fill(); err != nil {
			return ednValue{}, err
		}
	}
}
