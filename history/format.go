package history

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
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
	CASFail CASFail
	// NilRead gives the meaning of a read that returned nil.
	NilRead NilRead
	// Deadline, if not zero, stops reading with ErrDeadline once passed,
	// so that a time limit covers reading too.
	Deadline time.Time
	// lines, if positive, is the number of lines of the input (ReadFile
	// counts them): JSON Lines have at most that many operations.
	lines int
}

// ErrDeadline is the error of a reader stopped by ReadOptions.Deadline.
var ErrDeadline = errors.New("time limit reached while reading")

// readingClock checks a reader's deadline every so many lines or forms.
type readingClock struct {
	deadline time.Time
	ticks    int
}

// expired reports, every 1024 calls, whether the deadline has passed.
func (c *readingClock) expired() bool {
	c.ticks++
	return c.ticks&1023 == 0 && !c.deadline.IsZero() && time.Now().After(c.deadline)
}

// deadlineError is ErrDeadline at a line of name.
func deadlineError(name string, line int) error {
	return fmt.Errorf("%s:%d: %w", name, line, ErrDeadline)
}

// Read reads a history in the format opts names.
func Read(r io.Reader, name string, opts ReadOptions) (*History, error) {
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
func ReadFile(path string, opts ReadOptions) (*History, error) {
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
		opts.lines = n
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
