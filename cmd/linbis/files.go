package main

import (
	"io"
	"os"
)

// createFile creates path, lets write fill it and closes it, returning the
// first error.
func createFile(path string, write func(io.Writer) error) error {
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
