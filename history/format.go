package history

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Formats lists the names accepted by Read.
var Formats = []string{"auto", "jsonl", "edn", "jepsen-log"}

// Read reads a history in the named format; "auto" (or "") guesses from the
// file extension and then from the first non-blank character.
func Read(r io.Reader, name, format string) (*History, error) {
	if format == "" || format == "auto" {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		format = sniff(name, data)
		r = bytes.NewReader(data)
	}
	switch format {
	case "jsonl":
		return ReadJSONL(r, name)
	case "edn":
		return ReadEDN(r, name)
	case "jepsen-log":
		return ReadJepsenLog(r, name)
	}
	return nil, fmt.Errorf("unknown history format %q: expected one of %s", format, strings.Join(Formats, ", "))
}

// ReadFile reads the history in path (see Read).
func ReadFile(path, format string) (*History, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, format)
}

// sniff guesses a format: by extension, then by content.
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
	for _, line := range bytes.Split(data, []byte("\n")) {
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
