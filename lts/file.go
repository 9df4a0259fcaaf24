package lts

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ReadFile reads an LTS from path, choosing the format by extension:
// .aut (Aldebaran) or .dot (GraphViz).
func ReadFile(path string, opts ReadOptions) (*LTS, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".aut":
		return ReadAutFile(path, opts)
	case ".dot", ".gv":
		return ReadDotFile(path, opts)
	}
	return nil, fmt.Errorf("%s: unknown LTS format: expected a .aut or .dot file", path)
}

// WriteFile writes l to path, choosing the format by extension (.aut or .dot).
func WriteFile(path string, l *LTS) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".aut":
		return WriteAutFile(path, l)
	case ".dot", ".gv":
		return WriteDotFile(path, l)
	}
	return fmt.Errorf("%s: unknown LTS format: expected a .aut or .dot file name", path)
}
