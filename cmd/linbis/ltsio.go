package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/internal/files"
	"github.com/linbis/linbis/lts"
)

// Reading and writing LTSs for the verbs: "-" is standard input or
// output. An input's format is the one its extension names, else the one
// its first bytes show (an .aut file starts with its "des" header, a .dot
// file with "digraph"); an output's is the one its extension names, else
// the one --format names, else, on standard output, aut.

// formatFlag names the format of an output LTS whose name does not.
var formatFlag = &cli.StringFlag{Name: "format", Usage: "`FORMAT` of an output LTS written to standard output (-) or to a name without extension: aut or dot (inputs are recognised by their content)"}

// extFormat returns "aut" or "dot" by path's extension, or "".
func extFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".aut":
		return "aut"
	case ".dot", ".gv":
		return "dot"
	}
	return ""
}

// outputFormat returns the format of the output LTS path.
// The extension decides where there is one (--format is for standard
// output and names without one: compile's -o - and --spec-out spec.aut may
// differ), but a --format given is checked whatever the path: an unknown
// one is an error, not ignored.
func outputFormat(c *cli.Context, path string) (string, error) {
	format := ""
	if findFlag(c.Command.Flags, "format") != nil && c.IsSet("format") {
		format = c.String("format")
		if format != "aut" && format != "dot" {
			return "", fmt.Errorf("--format %q: expected aut or dot", format)
		}
	}
	if ext := extFormat(path); ext != "" {
		return ext, nil
	}
	if format != "" {
		return format, nil
	}
	if path == "-" {
		return "aut", nil
	}
	return "", fmt.Errorf("%s: unknown LTS format: expected a .aut or .dot file name, or --format aut|dot", path)
}

// readLTS reads the LTS at path, or on standard input for "-".
func readLTS(path string, opts lts.ReadOptions) (*lts.LTS, error) {
	format := extFormat(path)
	name, r := path, stdin
	if path == "-" {
		name = "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return nil, fmt.Errorf("%s: is a directory, expected an LTS file (.aut or .dot)", path)
		}
		r = f
	}
	in := bufio.NewReader(r)
	head, _ := in.Peek(64)
	head = bytes.TrimSpace(head)
	content := ""
	switch {
	case bytes.HasPrefix(head, []byte("des")):
		content = "aut"
	case bytes.HasPrefix(head, []byte("digraph")), bytes.HasPrefix(head, []byte("strict")):
		content = "dot"
	}
	if format != "" && content != "" && content != format {
		// Said plainly, rather than the other format's parser's first
		// complaint ("expected one of strict, graphx or digraph").
		return nil, fmt.Errorf("%s:1:1: expected %s as the name .%s says, found %s: rename the file to .%s",
			name, formatText[format], format, formatText[content], content)
	}
	switch format {
	case "aut":
		return lts.ReadAutFile(path, opts) // by name: it sizes its tables by the file's size
	case "dot":
		return lts.ReadDotFile(path, opts)
	}
	switch content {
	case "aut":
		return lts.ReadAut(in, name, opts)
	case "dot":
		return lts.ReadDot(in, name, opts)
	}
	return nil, fmt.Errorf("%s: unknown LTS format: expected an .aut file (starting with des) or a .dot file (starting with digraph)", name)
}

// formatText says what the text of an LTS format starts with.
var formatText = map[string]string{"aut": "an .aut header (des …)", "dot": "a DOT graph (digraph …)"}

// writeLTS writes l whole to path, or to standard output for "-".
func writeLTS(c *cli.Context, path string, l *lts.LTS) error {
	format, err := outputFormat(c, path)
	if err != nil {
		return err
	}
	write := lts.WriteAut
	if format == "dot" {
		write = lts.WriteDot
	}
	if path == "-" {
		return write(c.App.Writer, l)
	}
	return files.Create(path, func(w io.Writer) error { return write(w, l) })
}

// stdin is the standard input; tests replace it.
var stdin io.Reader = os.Stdin

// stdinHasData reports whether standard input is a pipe or a file (so a
// verb with an optional input should read it) rather than a terminal or
// /dev/null.
func stdinHasData() bool {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin != nil
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeNamedPipe != 0 || (fi.Mode().IsRegular() && fi.Size() > 0)
}
