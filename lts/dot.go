package lts

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/graph/formats/dot"
	"gonum.org/v1/gonum/graph/formats/dot/ast"

	"github.com/linbis/linbis/internal/files"
)

// dotStart is the invisible node whose edge marks the initial state.
const dotStart = "__start"

// WriteDot writes l in GraphViz format: τ edges dashed, the initial state
// drawn bold with an arrow from an invisible point.
//
// It streams its output instead of going through gonum's
// graph/encoding/dot, whose Marshal builds the whole text in memory from a
// graph with one node and edge object per state and transition — gigabytes
// for the LTSs linbis handles. Reading uses gonum's DOT parser (ReadDot).
func WriteDot(w io.Writer, l *LTS) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "digraph lts {\n  node [shape=circle];\n  %s [shape=point];\n", dotStart)
	for s := int32(0); s < l.NumStates; s++ {
		if s == l.Initial {
			fmt.Fprintf(bw, "  %d [style=bold];\n", s)
		} else {
			fmt.Fprintf(bw, "  %d;\n", s)
		}
	}
	fmt.Fprintf(bw, "  %s -> %d;\n", dotStart, l.Initial)
	for t := range l.Src {
		style := ""
		if l.Label[t] == Tau {
			style = ", style=dashed"
		}
		fmt.Fprintf(bw, "  %d -> %d [label=%s%s];\n", l.Src[t], l.Dst[t], strconv.Quote(l.Labels[l.Label[t]]), style)
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}

// WriteDotFile writes l to path in GraphViz format.
func WriteDotFile(path string, l *LTS) error {
	return files.Create(path, func(w io.Writer) error { return WriteDot(w, l) })
}

// ReadDotFile reads a GraphViz file written by WriteDot or a tool that
// follows the same conventions (see ReadDot).
func ReadDotFile(path string, opts ReadOptions) (*LTS, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadDot(f, path, opts)
}

// dotSyntaxError is err, an error of gonum's DOT parser, as a ParseError
// at its position: the parser writes "LINE:COL: error: MSG; got: TOKEN"
// and exports no type to read the position from.
func dotSyntaxError(name string, err error) error {
	line, rest, ok := strings.Cut(err.Error(), ":")
	col, msg, ok2 := strings.Cut(rest, ": error: ")
	l, errL := strconv.Atoi(line)
	c, errC := strconv.Atoi(col)
	if !ok || !ok2 || errL != nil || errC != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return &ParseError{File: name, Line: l, Col: c, Msg: strings.Replace(msg, "; got: ", ", found ", 1)}
}

// ReadDot reads an LTS from a directed GraphViz graph, parsed with gonum's
// DOT parser: nodes become states in order of first appearance, an edge's
// label attribute is its action ("tau" or "i", or an unlabelled edge, is τ;
// "i" is visible with opts.VisibleI), and the initial state is the target
// of the edge from "__start", or the first node when there is none. A
// graph of more than opts.MaxStates nodes is refused.
func ReadDot(r io.Reader, name string, opts ReadOptions) (*LTS, error) {
	if opts.MaxStates <= 0 {
		opts.MaxStates = DefaultMaxStates
	}
	file, err := dot.Parse(r)
	if err != nil {
		return nil, dotSyntaxError(name, err)
	}
	if len(file.Graphs) != 1 || !file.Graphs[0].Directed {
		return nil, fmt.Errorf("%s: expected exactly one directed graph (digraph)", name)
	}
	b := NewBuilder()
	ids := map[string]int32{}
	state := func(v ast.Vertex) (int32, error) {
		node, ok := v.(*ast.Node)
		if !ok {
			return 0, fmt.Errorf("%s: subgraphs as edge ends are not supported (at %s)", name, v)
		}
		if id, ok := ids[node.ID]; ok {
			return id, nil
		}
		if int64(b.NumStates()) >= opts.MaxStates {
			return 0, fmt.Errorf("%s: more than %d states", name, opts.MaxStates)
		}
		id := b.AddState()
		ids[node.ID] = id
		return id, nil
	}
	initial := int32(-1)
	for _, stmt := range file.Graphs[0].Stmts {
		switch stmt := stmt.(type) {
		case *ast.NodeStmt:
			if stmt.Node.ID != dotStart {
				if _, err := state(stmt.Node); err != nil {
					return nil, err
				}
			}
		case *ast.EdgeStmt:
			if stmt.To.To != nil {
				return nil, fmt.Errorf("%s: edge chains (a -> b -> c) are not supported: %s", name, stmt)
			}
			if from, ok := stmt.From.(*ast.Node); ok && from.ID == dotStart {
				d, err := state(stmt.To.Vertex)
				if err != nil {
					return nil, err
				}
				initial = d
				continue
			}
			s, err := state(stmt.From)
			if err != nil {
				return nil, err
			}
			d, err := state(stmt.To.Vertex)
			if err != nil {
				return nil, err
			}
			label := Tau
			for _, a := range stmt.Attrs {
				if a.Key == "label" {
					text := unquoteDot(a.Val)
					if !opts.isTau([]byte(text)) {
						label = b.Label(text)
					}
				}
			}
			b.AddTransition(s, label, d)
		}
	}
	if b.NumStates() == 0 {
		return nil, fmt.Errorf("%s: the graph has no states", name)
	}
	if initial < 0 {
		initial = 0
	}
	b.SetInitial(initial)
	return b.Build(), nil
}

// unquoteDot strips the quotes of a DOT string literal and its escapes.
func unquoteDot(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `\"`, `"`)
	}
	return s
}
