// Package files writes output files: create, fill, close, with the first
// error reported (a failed Close is a failed write: buffered data may be
// lost there).
package files

import (
	"io"
	"os"
)

// Create creates path, lets write fill it and closes it, returning the
// first error.
func Create(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
