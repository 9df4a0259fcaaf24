package format

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"

	"github.com/linbis/linbis/history/record"
	"github.com/linbis/linbis/internal/limits"
)

// Formats lists the names accepted by Read.
var Formats = []string{"auto", "jsonl", "edn", "jepsen-log"}

// ReadOptions tune Read; the zero value guesses the format and follows
// each format's own conventions.
type ReadOptions struct {
	// Format is one of Formats; "auto" or "" guesses from the file
	// extension and then from the first non-blank character.
	Format string
	// CASFail gives the meaning of a :fail cas in Jepsen formats.
	CASFail record.CASFail
	// NilRead gives the meaning of a read that returned nil.
	NilRead record.NilRead
	// Context, if set, stops reading with an error wrapping ErrDeadline
	// (and the context's cause) once it ends, so that the run's time
	// limit, the context's deadline, covers reading too.
	Context context.Context
	// MaxMemory, if positive, stops reading with ErrMemory when the live
	// heap passes readingShare of it, so that a memory limit covers
	// reading too (Options.MaxMemory then leaves the search what reading
	// left).
	MaxMemory int64
	// lines, if positive, is the number of lines of the input (ReadFile
	// counts them): JSON Lines have at most that many operations.
	Lines int
}

// ErrDeadline is the error of a reader stopped by ReadOptions.Context.
var ErrDeadline = errors.New("time limit reached while reading")

// ErrMemory is the error of a reader stopped by ReadOptions.MaxMemory.
var ErrMemory = errors.New("memory limit reached while reading")

// readingShare is the share of ReadOptions.MaxMemory that reading may
// hold: what is left is for the search and the collector's margin.
const readingShare = 0.8

// readingClock checks a reader's deadline and memory every so many lines
// or forms.
type readingClock struct {
	ctx       context.Context
	maxMemory int64
	ticks     int
}

// newReadingClock watches the limits of opts.
func newReadingClock(opts ReadOptions) readingClock {
	c := readingClock{ctx: opts.Context}
	if opts.MaxMemory > 0 {
		c.maxMemory = limits.RuntimeShare(opts.MaxMemory)
	}
	return c
}

// tick reports, every 1024 calls, that the limits are due to be checked.
func (c *readingClock) tick() bool {
	c.ticks++
	return c.ticks&1023 == 0
}

// check returns ErrDeadline at line of name when the context has ended,
// and ErrMemory when the live heap is over readingShare of the memory
// limit.
func (c *readingClock) check(name string, line int) error {
	if cause := limits.Err(c.ctx); cause != nil {
		return fmt.Errorf("%s:%d: %w (%w)", name, line, ErrDeadline, cause)
	}
	if c.maxMemory > 0 {
		over := int64(float64(c.maxMemory) * readingShare)
		m := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(m)
		if int64(m[0].Value.Uint64()) > over {
			// Garbage counts too: only a collection says what is live.
			runtime.GC()
			m[0].Name = "/gc/heap/live:bytes"
			metrics.Read(m)
			if int64(m[0].Value.Uint64()) > over {
				return fmt.Errorf("%s:%d: %w", name, line, ErrMemory)
			}
		}
	}
	return nil
}

// Read reads a history in the format opts names.
func Read(r io.Reader, name string, opts ReadOptions) (*record.History, error) {
	format := opts.Format
	if format == "" || format == "auto" {
		// The guess looks at the start of the file only, so that the file
		// is read once, as a stream, never held whole in memory.
		br := bufio.NewReaderSize(r, sniffSize)
		data, err := br.Peek(sniffSize)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		format = sniff(name, data)
		r = br
	}
	switch format {
	case "jsonl":
		return ReadJSONL(r, name, opts)
	case "edn":
		return ReadEDN(r, name, opts)
	case "jepsen-log":
		return ReadJepsenLog(r, name, opts)
	}
	return nil, fmt.Errorf("unknown history format %q: expected one of %s", format, strings.Join(Formats, ", "))
}

// ReadFile reads the history in path (see Read). A regular file is read
// twice, the first time only to count its lines, so that the operations of
// JSON Lines are stored in one array of the right size instead of one grown
// by copying (at 10^6 operations, 120 MB copied, and both copies live at
// the last growth).
func ReadFile(path string, opts ReadOptions) (*record.History, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		n, err := countLines(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		opts.Lines = n
	}
	return Read(f, path, opts)
}

// countLines counts the lines of r, a last one without a newline too.
func countLines(r io.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n, last := 0, byte('\n')
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if last != '\n' {
		n++
	}
	return n, nil
}

// sniffSize is how much of a file sniff sees.
const sniffSize = 64 << 10

// sniff guesses a format: by extension, then by the start of the content.
func sniff(name string, data []byte) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson", ".json":
		return "jsonl"
	case ".edn":
		return "edn"
	case ".log":
		return "jepsen-log"
	}
	if bytes.Contains(data, []byte("jepsen.util - ")) {
		return "jepsen-log"
	}
	for line := range bytes.Lines(data) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == ';' || line[0] == '#' {
			continue
		}
		if line[0] == '{' && bytes.Contains(line, []byte(`"method"`)) {
			return "jsonl"
		}
		break
	}
	return "edn"
}

// ParseValue reads a value given on the command line in the data model of
// format (JSON for "jsonl", EDN otherwise; see value.go): nil and null are
// the absent value, a string is written in quotes ('"abc"').
func ParseValue(s, format string) (string, error) {
	if s == "nil" || s == "null" {
		return record.Nil, nil
	}
	if format == "jsonl" {
		var lr lineReader
		v, err := lr.p.Parse(s)
		if err != nil {
			return "", fmt.Errorf("value %q: expected a JSON value (a string in quotes)", s)
		}
		return lr.value(v)
	}
	r := &ednReader{src: s, name: "value"}
	v, err := r.read(0)
	if err != nil || !r.atEnd() {
		return "", fmt.Errorf("value %q: expected one EDN value (a string in quotes)", s)
	}
	return v.canon(), nil
}
