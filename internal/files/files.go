// Package files writes output files whole or not at all: each is written
// to a temporary file in the same folder and renamed over its name only
// once complete, so that a run stopped half-way (a limit, Ctrl-C) never
// leaves a truncated file that a later run would misread. A failed Close
// is a failed write: buffered data may be lost there.
//
// The temporaries of the writes under way are known to the package;
// Abandon removes them and refuses any later rename, for a process about to
// exit on a signal or a limit.
package files

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

var (
	mu        sync.Mutex
	pending   = map[string]bool{} // temporaries being written
	abandoned bool                // set by Abandon: no rename from now on
)

// ErrAbandoned is returned by a write that finished after Abandon.
var ErrAbandoned = errors.New("output abandoned: the process is stopping")

// Create writes path whole: write fills a temporary file in path's folder,
// which is renamed to path when write and Close succeed, and removed
// otherwise. The file gets mode 0644.
func Create(path string, write func(io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := createTracked(dir, "."+base+".*.tmp")
	if err != nil {
		if errors.Is(err, ErrAbandoned) {
			return err
		}
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	tmp := f.Name()
	err = f.Chmod(0o644)
	if err == nil {
		err = write(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	mu.Lock()
	defer mu.Unlock()
	delete(pending, tmp)
	if abandoned {
		err = ErrAbandoned
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// unwrapPath drops the temporary's name from an error about it: the user
// named the final file.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// createTracked creates a temporary file in dir, named by pattern as
// os.CreateTemp does, and records it as pending in the same critical
// section: were it recorded after its creation, a signal arriving in
// between would have Abandon miss it and the process exit with the file
// left behind. Once Abandon has run it creates nothing.
func createTracked(dir, pattern string) (*os.File, error) {
	mu.Lock()
	defer mu.Unlock()
	if abandoned {
		return nil, ErrAbandoned
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	pending[f.Name()] = true
	createdHook(f.Name())
	return f, nil
}

// untrack removes a temporary and forgets it.
func untrack(tmp string) {
	mu.Lock()
	defer mu.Unlock()
	delete(pending, tmp)
	os.Remove(tmp)
}

// createdHook is called with each temporary as soon as it exists; tests
// set it to hold the moment a signal would be most harmful.
var createdHook = func(string) {}

// Abandon removes the temporaries of the writes under way and makes every
// later Create fail without touching its target. It is for a process about
// to exit: files already complete stay, no incomplete one appears.
func Abandon() {
	mu.Lock()
	defer mu.Unlock()
	abandoned = true
	for tmp := range pending {
		os.Remove(tmp)
		delete(pending, tmp)
	}
}

// CheckWritable reports, before any work, why path could not be written
// as an output file: its folder is missing, is not a folder or refuses a
// new file, or path is a folder. "-" (standard output) is always fine.
func CheckWritable(path string) error {
	if path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s: is a directory, expected a file name", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s: folder %s: %w", path, dir, unwrapPath(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %s is not a folder", path, dir)
	}
	return probe(dir, path)
}

// CheckDir reports, before any work, why dir could not hold output files:
// it is not a folder, or it is missing and cannot be made in its nearest
// existing ancestor, or it refuses a new file.
func CheckDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("%s: not a directory", dir)
	case err == nil:
		return probe(dir, dir)
	case !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s: %w", dir, unwrapPath(err))
	}
	// Missing: the nearest existing ancestor must be a folder we may write.
	parent := filepath.Dir(dir)
	for parent != dir {
		fi, err := os.Stat(parent)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s: %s is not a directory", dir, parent)
			}
			return probe(parent, dir)
		}
		dir, parent = parent, filepath.Dir(parent)
	}
	return nil
}

// probe creates and removes a file in dir: the one sure test that outputs
// can be written there (permissions, read-only mounts, ACLs).
func probe(dir, what string) error {
	f, err := createTracked(dir, ".linbis-probe-*")
	if errors.Is(err, ErrAbandoned) {
		return err
	}
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s: %w", what, dir, unwrapPath(err))
	}
	f.Close()
	untrack(f.Name())
	return nil
}
