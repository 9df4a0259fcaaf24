package lts

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"

	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/internal/parallel"
)

// ParseError is a malformed-input error with its position (1-based line and
// byte column) and what was expected there.
type ParseError struct {
	File string // the input's name; "" prints as <input>
	Line int    // 1-based line
	Col  int    // 1-based column, in bytes
	Msg  string // what is wrong, without the position
}

// Error is the error one line, file:line:col: msg (<input> without a file).
func (e *ParseError) Error() string {
	file := e.File
	if file == "" {
		file = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d: %s", file, e.Line, e.Col, e.Msg)
}

// ReadOptions bound what a reader accepts, so that a hostile header cannot
// make it allocate without limit, and say how labels are read; the .aut
// and the .dot readers take the same.
type ReadOptions struct {
	// MaxStates is the largest state count accepted (0: DefaultMaxStates).
	MaxStates int64
	// SizeHint is the size of the input in bytes when known (ReadAutFile
	// sets it from the file). The header's transition count is trusted for
	// preallocation only as far as that size can hold transitions, so an
	// honest header gets slices of exactly the right size and a hostile one
	// cannot reserve gigabytes; without a hint the reservation stops at
	// 2^24 transitions and the slices grow as the lines come.
	SizeHint int64
	// VisibleI reads a label "i" as a visible action, as mCRL2 does (it
	// hides "i" only when told, --tau=i), instead of as CADP's τ.
	VisibleI bool
}

// minTransitionBytes is the length of the shortest transition line, "(0,a,1)\n".
const minTransitionBytes = 8

// DefaultMaxStates is the default limit on the states of an input LTS.
const DefaultMaxStates = 1 << 28

// IsTauName reports whether a label read from a file denotes τ: both
// mCRL2's "tau" and CADP's "i" do.
func IsTauName(name []byte) bool {
	return string(name) == TauName || string(name) == "i"
}

// isTau reports whether a label read from a file denotes τ under o: "tau",
// and "i" unless o.VisibleI.
func (o ReadOptions) isTau(name []byte) bool {
	return IsTauName(name) && !(o.VisibleI && string(name) == "i")
}

// ReadAutFile reads an .aut file.
func ReadAutFile(path string, opts ReadOptions) (*LTS, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && opts.SizeHint <= 0 {
		opts.SizeHint = info.Size()
	}
	return ReadAut(f, path, opts)
}

// ReadAut reads an LTS in Aldebaran format from r; name is used in error
// messages. Labels may be quoted ("call(1,push,2)") or unquoted, in which
// case the label runs to the last comma before the closing parenthesis.
func ReadAut(r io.Reader, name string, opts ReadOptions) (*LTS, error) {
	if opts.MaxStates <= 0 {
		opts.MaxStates = DefaultMaxStates
	}
	p := autParser{r: bufio.NewReaderSize(r, 1<<16), name: name, opts: opts}
	return p.parse(opts)
}

type autParser struct {
	opts ReadOptions
	r    *bufio.Reader
	name string
	line int
	buf  []byte // the current line, without its line ending
	pos  int    // offset in buf
	long []byte // storage for lines longer than the reader's buffer
	// labels caches the ids of short labels for the bulk path (quickLines).
	labels labelCache
}

func (p *autParser) errorf(col int, format string, args ...any) error {
	return &ParseError{File: p.name, Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// next reads the next line into p.buf; it returns io.EOF at the end.
func (p *autParser) next() error {
	line, err := p.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		p.long = append(p.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = p.r.ReadSlice('\n')
			p.long = append(p.long, line...)
		}
		line = p.long
	}
	if err != nil && err != io.EOF {
		return err
	}
	if len(line) == 0 && err == io.EOF {
		return io.EOF
	}
	p.line++
	// Not bytes.TrimSuffix: a call per line costs more than the line's
	// parse when there are millions of them.
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	p.buf, p.pos = line, 0
	return nil
}

func (p *autParser) skipSpace() {
	for p.pos < len(p.buf) && (p.buf[p.pos] == ' ' || p.buf[p.pos] == '\t') {
		p.pos++
	}
}

func (p *autParser) atEnd() bool { return p.pos >= len(p.buf) }

// describe names what stands at the cursor, for error messages.
func (p *autParser) describe() string {
	if p.atEnd() {
		return "end of line"
	}
	return strconv.QuoteRune(rune(p.buf[p.pos]))
}

func (p *autParser) expect(c byte, what string) error {
	p.skipSpace()
	if p.atEnd() || p.buf[p.pos] != c {
		return p.errorf(p.pos+1, "expected %s, found %s", what, p.describe())
	}
	p.pos++
	return nil
}

// number parses a non-negative decimal not above max.
func (p *autParser) number(what string, max int64) (int64, error) {
	p.skipSpace()
	start := p.pos
	var v int64
	for p.pos < len(p.buf) && p.buf[p.pos] >= '0' && p.buf[p.pos] <= '9' {
		if v <= max {
			v = v*10 + int64(p.buf[p.pos]-'0')
		}
		p.pos++
	}
	if p.pos == start {
		return 0, p.errorf(start+1, "expected %s (a non-negative integer), found %s", what, p.describe())
	}
	if v > max {
		return 0, p.errorf(start+1, "%s %s is out of range (at most %d)", what, p.buf[start:p.pos], max)
	}
	return v, nil
}

func (p *autParser) parse(opts ReadOptions) (*LTS, error) {
	if err := p.next(); err != nil {
		if err == io.EOF {
			p.line = 1
			return nil, p.errorf(1, "expected header \"des (INITIAL, TRANSITIONS, STATES)\", found empty input")
		}
		return nil, err
	}
	p.skipSpace()
	if !bytes.HasPrefix(p.buf[p.pos:], []byte("des")) {
		return nil, p.errorf(p.pos+1, "expected header \"des (INITIAL, TRANSITIONS, STATES)\"")
	}
	p.pos += 3
	if err := p.expect('(', "'(' after \"des\""); err != nil {
		return nil, err
	}
	initCol := 0
	p.skipSpace()
	initCol = p.pos + 1
	initial, err := p.number("initial state", 1<<31-1)
	if err != nil {
		return nil, err
	}
	if err := p.expect(',', "',' after the initial state"); err != nil {
		return nil, err
	}
	ntrans, err := p.number("transition count", 1<<31-1)
	if err != nil {
		return nil, err
	}
	if err := p.expect(',', "',' after the transition count"); err != nil {
		return nil, err
	}
	nstates, err := p.number("state count", opts.MaxStates)
	if err != nil {
		return nil, err
	}
	if err := p.expect(')', "')' closing the header"); err != nil {
		return nil, err
	}
	p.skipSpace()
	if !p.atEnd() {
		return nil, p.errorf(p.pos+1, "unexpected %s after the header", p.describe())
	}
	if nstates == 0 {
		return nil, p.errorf(initCol, "an LTS needs at least one state, the header declares 0")
	}
	if initial >= nstates {
		return nil, p.errorf(initCol, "initial state %d out of range: the header declares %d states", initial, nstates)
	}
	headerLine := p.line

	b := NewBuilder()
	b.SetNumStates(int32(nstates))
	b.SetInitial(int32(initial))
	// Trust the header for preallocation only as far as the input can hold
	// (see ReadOptions.SizeHint), so that a hostile header cannot reserve
	// gigabytes.
	b.Grow(int(min(ntrans, max(1<<24, opts.SizeHint/minTransitionBytes), 64*opts.MaxStates)))
	var count int64
	lastLine := p.line
	for {
		// The whole lines in the reader's buffer that have the canonical
		// shape are read in place (quickLines); the first other one, and
		// the line that runs past the buffer's end, go through next.
		if count < ntrans {
			data, _ := p.r.Peek(p.r.Buffered())
			if used, lines := p.quickLines(b, data, nstates, ntrans-count); used > 0 {
				p.r.Discard(used)
				p.line += int(lines)
				count += lines
				lastLine = p.line
			}
		}
		err := p.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if count < ntrans {
			if src, label, dst, ok := p.quickTransition(b, nstates); ok {
				b.AddTransition(src, label, dst)
				lastLine = p.line
				count++
				continue
			}
		}
		p.skipSpace()
		if p.atEnd() {
			continue // blank line
		}
		lastLine = p.line
		if count == ntrans {
			return nil, p.errorf(p.pos+1, "more transitions than the %d declared in the header (line %d)", ntrans, headerLine)
		}
		src, label, dst, err := p.transition(b, nstates)
		if err != nil {
			return nil, err
		}
		b.AddTransition(src, label, dst)
		count++
	}
	if count != ntrans {
		p.line = lastLine + 1
		return nil, p.errorf(1, "the header (line %d) declares %d transitions, but the file has %d", headerLine, ntrans, count)
	}
	return b.Build(), nil
}

// transition parses "(SRC, LABEL, DST)" at the cursor.
func (p *autParser) transition(b *Builder, nstates int64) (src, label, dst int32, err error) {
	if err = p.expect('(', "'(' opening a transition"); err != nil {
		return
	}
	s, err := p.stateID("source state", nstates)
	if err != nil {
		return
	}
	if err = p.expect(',', "',' after the source state"); err != nil {
		return
	}
	p.skipSpace()
	var name []byte
	if !p.atEnd() && p.buf[p.pos] == '"' {
		open := p.pos
		end := bytes.IndexByte(p.buf[open+1:], '"')
		if end < 0 {
			err = p.errorf(open+1, "unterminated quote: the label has no closing '\"'")
			return
		}
		name = p.buf[open+1 : open+1+end]
		p.pos = open + 2 + end
	} else {
		// Unquoted: the label runs to the last comma before the last ')'.
		start := p.pos
		closing := bytes.LastIndexByte(p.buf, ')')
		if closing < start {
			closing = len(p.buf)
		}
		comma := bytes.LastIndexByte(p.buf[start:closing], ',')
		if comma < 0 {
			err = p.errorf(start+1, "expected a label followed by ',' and the target state")
			return
		}
		name = bytes.TrimRight(p.buf[start:start+comma], " \t")
		p.pos = start + comma
	}
	if len(name) == 0 {
		err = p.errorf(p.pos, "expected a label, found an empty one")
		return
	}
	if err = p.expect(',', "',' after the label"); err != nil {
		return
	}
	d, err := p.stateID("target state", nstates)
	if err != nil {
		return
	}
	if err = p.expect(')', "')' closing the transition"); err != nil {
		return
	}
	p.skipSpace()
	if !p.atEnd() {
		err = p.errorf(p.pos+1, "trailing garbage after the transition: %s", p.describe())
		return
	}
	if p.opts.isTau(name) {
		label = Tau
	} else {
		label = b.labelBytes(name)
	}
	return s, label, d, nil
}

// quickTransition reads the line at the cursor if it has the exact shape
// that linbis, mCRL2 and CADP write, "(SRC,"LABEL",DST)" without spaces,
// with both states in range, and reports whether it did. Any other line,
// well-formed or not, is left to transition, which reads every variant and
// says what is wrong: this path (and quickLine, which reads such lines in
// the reader's buffer) only skips the checks and the cursor bookkeeping
// that a 2 M-state file would pay 7.6 M times (benchmarks/RESULTS.md).
func (p *autParser) quickTransition(b *Builder, nstates int64) (src, label, dst int32, ok bool) {
	s, d, name, end := quickPrefix(p.buf, nstates)
	if end != len(p.buf) {
		return
	}
	return int32(s), p.quickLabel(b, name), int32(d), true
}

// quickLine reads a canonical transition line at the start of data, with
// its line ending ("\n" or "\r\n"), as quickTransition reads one without,
// and returns the label's name too and the number of bytes it took.
func (p *autParser) quickLine(b *Builder, data []byte, nstates int64) (src, label, dst int32, name []byte, n int, ok bool) {
	s, d, name, end := quickPrefix(data, nstates)
	if n = lineEnd(data, end); n < 0 {
		return
	}
	return int32(s), p.quickLabel(b, name), int32(d), name, n, true
}

// lineEnd returns the length of the line in data whose transition ends
// before index k (quickPrefix's end: -1 for none), with its line ending,
// "\n" or "\r\n", or -1 if the line does not end there.
func lineEnd(data []byte, k int) int {
	switch {
	case k < 0 || k >= len(data):
		return -1
	case data[k] == '\n':
		return k + 1
	case data[k] == '\r' && k+1 < len(data) && data[k+1] == '\n':
		return k + 2
	}
	return -1
}

// quickLabel returns the id of a label read by the quick path.
func (p *autParser) quickLabel(b *Builder, name []byte) int32 {
	if p.opts.isTau(name) {
		return Tau
	}
	return b.labelBytes(name)
}

// quickPrefix reads "(SRC,"LABEL",DST)" at the start of data, both states
// below nstates and the label not empty and within the line, and returns
// them and the index after the ')', or end -1 if data does not start so.
func quickPrefix(data []byte, nstates int64) (s, d int64, name []byte, end int) {
	if len(data) == 0 || data[0] != '(' {
		return 0, 0, nil, -1
	}
	s, i := quickNumber(data, 1, nstates)
	if i < 0 || i+1 >= len(data) || data[i] != ',' || data[i+1] != '"' {
		return 0, 0, nil, -1
	}
	open := i + 2
	q := open
	for q < len(data) && data[q] != '"' {
		if data[q] == '\n' {
			return 0, 0, nil, -1
		}
		q++
	}
	if q == open || q+1 >= len(data) || data[q+1] != ',' {
		return 0, 0, nil, -1
	}
	d, i = quickNumber(data, q+2, nstates)
	if i < 0 || i >= len(data) || data[i] != ')' {
		return 0, 0, nil, -1
	}
	return s, d, data[open:q], i + 1
}

// quickNumber reads the decimal at line[i:] for quickTransition: at least
// one and at most ten digits, below limit. It returns the value and the
// index after it, or -1 if there is no such number there.
func quickNumber(line []byte, i int, limit int64) (v int64, next int) {
	start := i
	for i < len(line) && line[i]-'0' <= 9 {
		if i-start == 10 {
			return 0, -1
		}
		v = v*10 + int64(line[i]-'0')
		i++
	}
	if i == start || v >= limit {
		return 0, -1
	}
	return v, i
}

func (p *autParser) stateID(what string, nstates int64) (int32, error) {
	p.skipSpace()
	col := p.pos + 1
	v, err := p.number(what, 1<<31-1)
	if err != nil {
		return 0, err
	}
	if v >= nstates {
		return 0, p.errorf(col, "%s %d out of range: the header declares %d states", what, v, nstates)
	}
	return int32(v), nil
}

// ErrUnwritableLabel is returned when a label cannot be written to .aut.
var ErrUnwritableLabel = errors.New("label cannot be written in .aut: it contains a double quote or a line break")

// WriteAut writes l in Aldebaran format; every label is quoted and τ is
// written "tau".
//
// Formatting the lines is most of the cost, and on a large LTS it is
// shared: the transitions are written in batches, each cut into chunks
// that workers (one per core) format at once, and the chunks are written
// in order, so the bytes are the same for any number of workers.
func WriteAut(w io.Writer, l *LTS) error {
	return writeAut(w, l, writeWorkers(len(l.Src)))
}

// writeWorkers returns how many goroutines WriteAut formats m
// transitions on: one below 256 k (starting more costs more than it
// saves), else one per core.
func writeWorkers(m int) int {
	if m < 1<<18 {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// writeChunk is the number of transitions a worker of WriteAut formats at
// a time: about 600 KB of text.
const writeChunk = 1 << 15

// writeAut is WriteAut on workers goroutines.
func writeAut(w io.Writer, l *LTS, workers int) error {
	for _, name := range l.Labels {
		if bytes.ContainsAny([]byte(name), "\"\n\r") {
			return fmt.Errorf("%w: %q", ErrUnwritableLabel, name)
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "des (%d, %d, %d)\n", l.Initial, len(l.Src), l.NumStates)
	quoted := make([][]byte, len(l.Labels))
	for i, name := range l.Labels {
		quoted[i] = []byte(",\"" + name + "\",")
	}
	m := len(l.Src)
	chunks := make([][]byte, workers)
	for batch := 0; batch < m; batch += workers * writeChunk {
		parallel.ForEach(workers, workers, func(p int) {
			buf := chunks[p][:0]
			for t := min(m, batch+p*writeChunk); t < min(m, batch+(p+1)*writeChunk); t++ {
				buf = append(buf, '(')
				buf = strconv.AppendInt(buf, int64(l.Src[t]), 10)
				buf = append(buf, quoted[l.Label[t]]...)
				buf = strconv.AppendInt(buf, int64(l.Dst[t]), 10)
				buf = append(buf, ')', '\n')
			}
			chunks[p] = buf
		})
		for _, buf := range chunks {
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// WriteAutFile writes l to path in Aldebaran format.
func WriteAutFile(path string, l *LTS) error {
	return files.Create(path, func(w io.Writer) error { return WriteAut(w, l) })
}
